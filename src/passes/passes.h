/* passes.h - graph passes run between the frontend and the planner, in
 * this order: validate, dead-code elimination, aliasing, in-place. */
#ifndef TE_PASSES_H
#define TE_PASSES_H

#include "../ir/diag.h"
#include "../ir/ir.h"

/* Every operator supported and accepted by its check(); graph inputs and
 * outputs are non-constant tensors of a type we can pass through the API. */
int te_pass_validate(te_graph *g, te_diag *d);

/* Marks operators whose outputs nobody reads (and are not graph outputs)
 * dead, repeatedly, so the planner and emitter skip them. */
void te_pass_dce(te_graph *g);

/* Lets RESHAPE/SQUEEZE outputs share their input's storage (zero-copy). */
void te_pass_alias(te_graph *g);

/* Lets an operator write its output over an input that dies there, when
 * its kernel allows it (te_op_def.inplace_input). */
void te_pass_inplace(te_graph *g);

#endif
