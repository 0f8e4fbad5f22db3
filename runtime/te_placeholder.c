/* te_placeholder.c - keeps the runtime library non-empty until kernels land. */
typedef int te_placeholder_unused;
