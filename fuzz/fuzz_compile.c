/* fuzz_compile.c - libFuzzer target: the whole compiler in memory.
 *
 * Input byte 0 picks the options (fuzz_options.h: --int8-io, --patch auto,
 * the target), the rest is the model image.  te_model_load (reader,
 * validation, passes, planner, patch search) then te_model_generate (code
 * generation into memory buffers).  Every input must compile or fail with
 * one message; no crash, UB or leak (-fsanitize=fuzzer,address,undefined). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "fuzz_options.h"
#include "report/plan_json.h"
#include "report/plan_svg.h"
#include "report/plan_view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void generate(te_model *m)
{
    te_buf h, c;
    te_diag d;
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    memset(&d, 0, sizeof d);
    if (te_model_generate(m, "fz", "fuzz input", &h, &c, &d) < 0 && d.msg[0] == '\0')
        abort(); /* a failure must say why */
    te_buf_free(&h);
    te_buf_free(&c);
}

static void reports(te_model *m)
{
    te_plan_view v;
    te_plan_svg_opts o;
    te_buf json, svg;
    if (te_plan_view_build(&v, m->g, m->plan) < 0)
        return;
    memset(&json, 0, sizeof json);
    memset(&svg, 0, sizeof svg);
    o.title = "fuzz";
    o.n_stages = 0;
    te_plan_json(&json, &v, "fuzz.tflite");
    te_plan_svg(&svg, &v, &o);
    te_buf_free(&json);
    te_buf_free(&svg);
    te_plan_view_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    te_compile_opts o;
    te_diag d;
    te_model *m;
    if (size < 1)
        return 0;
    te_fuzz_options(data[0], &o);
    memset(&d, 0, sizeof d);
    m = te_model_load(data + 1, size - 1, &o, &d);
    if ((m != NULL) == (d.failed != 0) || (!m && d.msg[0] == '\0'))
        abort();
    if (m) {
        generate(m);
        reports(m);
    }
    te_model_free(m);
    return 0;
}
