/* measure.c - te_measure_call (see measure.h), in assembly so that nothing
 * but the call itself lies between the two labels. */
#include "measure.h"

__asm__(".text\n"
        ".syntax unified\n"
        ".thumb\n"
        ".balign 4\n"
        ".global te_measure_call\n"
        ".type te_measure_call, %function\n"
        ".thumb_func\n"
        "te_measure_call:\n"
        "    push {r4, lr}\n"
        ".global te_measure_begin\n"
        "te_measure_begin:\n"
        "    blx r0\n"
        ".global te_measure_end\n"
        "te_measure_end:\n"
        "    pop {r4, pc}\n"
        ".size te_measure_call, . - te_measure_call\n");
