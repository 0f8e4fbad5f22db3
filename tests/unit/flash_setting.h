/* flash_setting.h - loads a test model under one of three flash settings,
 * for the tests that check which kernel (and so which in-place path) a
 * convolution gets: FLASH_DEFAULT (no limit), FLASH_TIGHT (the model
 * without trades plus 1 KiB: no room for int16 weights, the int8-weight
 * kernel on the generic target), FLASH_ROOMY (1 MiB: the GEMM kernel
 * everywhere, its calls inlined).  Header only. */
#ifndef TE_TEST_FLASH_SETTING_H
#define TE_TEST_FLASH_SETTING_H

#include "compiler.h"
#include "ops/lowering.h"

enum { FLASH_DEFAULT, FLASH_TIGHT, FLASH_ROOMY };

/* te_model_load of data with co's (and cfg's) flash limit set for `flash`;
 * NULL with d set on failure. */
static te_model *load_with_flash(const uint8_t *data, size_t size, int flash,
                                 te_compile_opts *co, te_config *cfg, te_diag *d)
{
    te_model *m;
    if (flash == FLASH_ROOMY)
        co->flash_limit = cfg->flash_limit = (size_t)1 << 20;
    m = te_model_load(data, size, co, d);
    if (m && flash == FLASH_TIGHT) {
        co->flash_limit = cfg->flash_limit = (size_t)te_flash_base_estimate(m->g) + 1024;
        te_model_free(m);
        m = te_model_load(data, size, co, d);
    }
    return m;
}

#endif
