/* tflm_estimate.h - the estimate of TensorFlow Lite Micro's arena for one
 * model (te_tflm_arena): planned head, estimated persistent tail, and the
 * model features the tail is estimated from. */
#ifndef TE_BENCH_TFLM_ESTIMATE_H
#define TE_BENCH_TFLM_ESTIMATE_H

#include <stddef.h>

#include "ir/ir.h"

typedef struct {
    int tensors;            /* subgraph 0's tensor table */
    int ops;                /* operators */
    int io;                 /* model inputs + outputs */
    long channels;          /* output channels of the operators that keep
                             * per-channel requantization (tflm_tail.c) */
    size_t channel_bytes;   /* their persistent arrays, 16-byte aligned */
    int quant_tensors;      /* tensors with quantization parameters */
    size_t variable_bytes;  /* variable tensors (allocated persistently) */
} tflm_features;

typedef struct {
    int estimated;          /* 0: see reason */
    const char *reason;
    size_t head;            /* greedy-planned buffers (tensors + scratch) */
    size_t tail;            /* persistent section, estimated */
    size_t scratch_bytes;   /* of which kernels' scratch requests (sum) */
    int n_buffers;
    int n_scratch;          /* scratch requests planned */
    tflm_features f;
} tflm_estimate;

/* Fills e for the graph as the reader returns it (before any pass).
 * Returns -1 when out of memory. */
int tflm_estimate_arena(const te_graph *g, tflm_estimate *e);

/* The scratch buffers TFLM's reference kernel for op requests in the arena
 * during that operator (tflm_scratch.c): their sizes into req, their count
 * returned (0 to 4; a request of 0 bytes is not planned). */
int tflm_scratch_requests(const te_graph *g, const te_op *op, size_t req[4]);

/* The persistent tail for the features (tflm_tail.c). */
size_t tflm_tail_estimate(const te_graph *g, const tflm_features *f);
void tflm_features_of(const te_graph *g, tflm_features *f);

#endif
