/* target.h - the processors code can be generated for.  The target picks
 * kernel variants (and so scratch sizes and the plan): Cortex-M4/M7 get the
 * DSP SIMD kernels, x86-64-v3 the AVX2 ones, everything else portable C99. */
#ifndef TE_TARGET_H
#define TE_TARGET_H

typedef enum {
    TE_TARGET_GENERIC = 0,
    TE_TARGET_CORTEX_M0PLUS,
    TE_TARGET_CORTEX_M4,
    TE_TARGET_CORTEX_M7,
    TE_TARGET_X86_64_V3 /* x86-64 with AVX2 (Haswell, Zen and later) */
} te_target;

/* "generic", "cortex-m4", ... */
const char *te_target_name(int target);
/* The target named s, or -1. */
int te_target_parse(const char *s);
/* 1 when the target has the Armv7E-M DSP extension (SMLAD, SXTB16, ...). */
int te_target_has_dsp(int target);
/* 1 when the target has AVX2 (x86-64-v3): the AVX2 kernels and layouts. */
int te_target_has_avx2(int target);

#endif
