/* measure.h - exact instruction counts under QEMU: te_measure_call(fn) calls
 * fn() between the code labels te_measure_begin and te_measure_end, which
 * the te_icount plugin (qemu/te_icount.c) takes as start= and stop=
 * addresses. The plugin's interval is then 1 (the call instruction) plus every
 * instruction fn executed, its return included. */
#ifndef TE_MEASURE_H
#define TE_MEASURE_H

int te_measure_call(int (*fn)(void));

#endif
