/* api_internal.h - what the files behind include/tinyengine.h share:
 * te_config -> te_compile_opts, error lines, loading a model. */
#ifndef TE_API_INTERNAL_H
#define TE_API_INTERNAL_H

#include <stddef.h>

#include "../compiler.h"
#include "tinyengine.h"

/* Writes one error line into err (may be NULL); returns NULL for `return`. */
void *te_api_error(char *err, size_t err_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Translates cfg (NULL: defaults); -1 with err set for a bad target or patch. */
int te_api_options(const te_config *cfg, te_compile_opts *o, char *err, size_t err_size);

/* Loads and plans a model image; NULL with err set. */
te_model *te_api_load(const void *model, size_t size, const te_compile_opts *o, char *err,
                      size_t err_size);

/* The report of a model already loaded (its peak_sram_bytes_no_patch is
 * the arena as planned: no second plan without patches); NULL when out of
 * memory. */
te_report *te_profile_model(const te_model *m, const te_config *cfg);

#endif
