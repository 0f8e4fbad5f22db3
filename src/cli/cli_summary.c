/* cli_summary.c - the few lines `compile`, `run` and `plan` print on
 * success: RAM (arena + state + stack), flash split (weights, other
 * constant tables, code: estimates of the cost model, no cross compile),
 * MACs, the slowest layers by estimate and the time taken. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../api/api_internal.h"
#include "../api/cost_model.h"
#include "../ir/target.h"
#include "../ops/flash_budget.h"
#include "cli.h"

#define SLOWEST 3

double cli_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The SLOWEST layers with the most estimated instructions, most first. */
static int slowest(const te_report *r, int *best)
{
    int i, k, n = 0;
    for (i = 0; i < r->n_layers; i++) {
        if (r->layers[i].instructions <= 0)
            continue;
        for (k = n < SLOWEST ? n++ : SLOWEST; k > 0; k--) {
            if (r->layers[best[k - 1]].instructions >= r->layers[i].instructions)
                break;
            if (k < SLOWEST)
                best[k] = best[k - 1];
        }
        if (k < SLOWEST)
            best[k] = i;
    }
    return n;
}

void cli_print_patch_cost(FILE *f, const te_model *m, const char *label)
{
    const te_patch_plan *p = m->g->patch;
    int64_t macs = te_model_macs(m);
    double extra;
    char what[160];
    if (!p)
        return;
    extra = p->patched_instructions - p->stage_instructions;
    te_patch_describe(p, what, sizeof what);
    fprintf(f, "%s%s: +%.1f%% MACs, about %+.1f%% "
               "instructions (%+.0f, %s cost model) vs layer by layer; ~%lld bytes of code",
            label, what,
            100.0 * (double)te_patch_extra_macs(p) / (double)(macs ? macs : 1),
            100.0 * extra / (p->model_instructions > 0 ? p->model_instructions : 1.0), extra,
            te_cost_model_name(m->g->target), (long long)p->code_bytes);
    if (te_flash_patch_allowance(m->g))
        fprintf(f, " (up to %lld bytes over the default flash budget allowed for patches)",
                (long long)te_flash_patch_allowance(m->g));
    if (p->code_bytes > te_patch_flash_left(m->g))
        fprintf(f, ", over the flash budget by %lld",
                (long long)(p->code_bytes - te_patch_flash_left(m->g)));
    fputc('\n', f);
}

void cli_summary(FILE *f, const char *what, const te_model *m, double started)
{
    te_config cfg = {0};
    te_report *r = te_profile_model(m, &cfg);
    te_stack_bound sb = te_model_stack(m);
    int best[SLOWEST], n, i;
    fprintf(f, "%s in %.2f s (target %s)\n", what, cli_now() - started,
            te_target_name(m->g->target));
    fprintf(f, "  RAM:    %zu bytes = arena %zu + state %zu + stack %zu (stack at -O0: %zu)\n",
            m->plan->arena_bytes + m->plan->state_bytes + sb.opt, m->plan->arena_bytes,
            m->plan->state_bytes, sb.opt, sb.o0);
    cli_print_regions(f, m, "  region: ");
    if (!r) {
        fprintf(f, "  MACs:   %lld\n", (long long)te_model_macs(m));
        return;
    }
    fprintf(f, "  flash:  about %zu bytes = weights %zu + tables %zu + code %zu (estimate)\n",
            r->flash_bytes, r->weights_bytes, r->const_bytes - r->weights_bytes, r->code_bytes);
    fprintf(f, "  MACs:   %lld, about %.0f instructions (%s cost model)\n", r->macs,
            r->instructions, r->cost_model);
    cli_print_patch_cost(f, m, "  patch:  ");
    n = slowest(r, best);
    if (n > 0) {
        fprintf(f, "  slowest layers (estimate):");
        for (i = 0; i < n; i++)
            fprintf(f, "%s op %d %s %.0f%%", i ? "," : "", r->layers[best[i]].index,
                    r->layers[best[i]].op,
                    100.0 * r->layers[best[i]].instructions /
                        (r->instructions > 0 ? r->instructions : 1.0));
        fputc('\n', f);
    }
    te_report_free(r);
}
