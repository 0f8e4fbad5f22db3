/* fuzz_options.h - how fuzz_compile turns input byte 0 into compile
 * options; shared with the regression replay test
 * (tests/unit/test_fuzz_regressions.c) so a saved input replays exactly.
 *   bit 0     --int8-io
 *   bit 1     --patch auto (bit 4 clear) or --patch K:GxG (bit 4 set) with
 *             K = bits 5-6 + 1 operators and G = 2 + bit 7
 *   bits 2-3  target: 0 generic, 1 cortex-m4, 2 cortex-m0plus, 3 cortex-m7;
 *             0 with bit 1 clear and bit 4 set (otherwise unused): x86-64-v3 */
#ifndef TE_FUZZ_OPTIONS_H
#define TE_FUZZ_OPTIONS_H

#include <stdint.h>

#include "compiler.h"
#include "ir/target.h"

static void te_fuzz_options(uint8_t b, te_compile_opts *o)
{
    static const int targets[4] = {TE_TARGET_GENERIC, TE_TARGET_CORTEX_M4,
                                   TE_TARGET_CORTEX_M0PLUS, TE_TARGET_CORTEX_M7};
    te_compile_opts def = TE_COMPILE_OPTS_DEFAULT;
    *o = def;
    o->int8_io = b & 1;
    if ((b & 2) && !(b & 16))
        o->patch.mode = TE_PATCH_AUTO;
    if ((b & 2) && (b & 16)) {
        o->patch.mode = TE_PATCH_EXPLICIT;
        o->patch.n_ops = ((b >> 5) & 3) + 1;
        o->patch.grid_h = o->patch.grid_w = 2 + (b >> 7);
    }
    o->target = targets[(b >> 2) & 3];
    if (!(b & 2) && (b & 16) && !(b & 12))
        o->target = TE_TARGET_X86_64_V3;
}

#endif
