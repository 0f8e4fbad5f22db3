/* te_icount.c - QEMU TCG plugin: exact count of executed guest instructions
 * between two code addresses.
 *
 *   qemu-system-arm ... -plugin te_icount.so,start=0xADDR,stop=0xADDR,out=FILE
 *
 * Every executed instruction adds 1 to a counter (inline op, no helper call).
 * When the instruction at `start` executes, the counter is sampled; when the
 * instruction at `stop` executes, the difference is written to FILE (default
 * stderr) as "interval <n> <instructions>". At exit "total <instructions>".
 * The difference is the number of instructions executed from `start`
 * (inclusive) to `stop` (exclusive). One vCPU (the MPS2 boards have one). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "te_qemu_plugin_api.h"

TE_QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;
TE_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                              int argc, char **argv);

static uint64_t insns;     /* executed instructions so far */
static uint64_t mark;      /* counter value when `start` last executed */
static int armed, intervals;
static uint64_t start_pc = UINT64_MAX, stop_pc = UINT64_MAX;
static FILE *out;

static void on_start(unsigned int vcpu, void *udata)
{
    (void)vcpu, (void)udata;
    mark = insns;
    armed = 1;
}

static void on_stop(unsigned int vcpu, void *udata)
{
    (void)vcpu, (void)udata;
    if (!armed)
        return;
    armed = 0;
    fprintf(out, "interval %d %" PRIu64 "\n", intervals++, insns - mark);
    fflush(out);
}

/* Both marker samples are taken at the same point relative to their own
 * instruction's increment, so the difference is exact either way. */
static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t i, n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc == start_pc)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (pc == stop_pc)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &insns, 1);
    }
}

static void on_exit(qemu_plugin_id_t id, void *udata)
{
    (void)id, (void)udata;
    fprintf(out, "total %" PRIu64 "\n", insns);
    fflush(out);
    if (out != stderr)
        fclose(out);
}

/* Thumb code addresses may carry bit 0 (as in ELF symbol values): drop it. */
static int parse_addr(const char *s, uint64_t *v)
{
    char *end;
    *v = strtoull(s, &end, 0) & ~(uint64_t)1;
    return *s && !*end ? 0 : -1;
}

TE_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                              int argc, char **argv)
{
    int i;
    (void)info;
    out = stderr;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "arg=", 4)) /* old "-plugin f.so,arg=k=v" style */
            a += 4;
        if (!strncmp(a, "start=", 6) && parse_addr(a + 6, &start_pc) == 0)
            continue;
        if (!strncmp(a, "stop=", 5) && parse_addr(a + 5, &stop_pc) == 0)
            continue;
        if (!strncmp(a, "out=", 4) && (out = fopen(a + 4, "w")) != NULL)
            continue;
        fprintf(stderr, "te_icount: bad argument '%s'\n", argv[i]);
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
