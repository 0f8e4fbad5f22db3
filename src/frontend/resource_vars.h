/* resource_vars.h - resource variables and CALL_ONCE lowered onto the
 * state region at load time (resource_vars.c). */
#ifndef TE_RESOURCE_VARS_H
#define TE_RESOURCE_VARS_H

#include "../ir/diag.h"
#include "../ir/ir.h"

/* names[r]: the shared_name of resource r (VAR_HANDLE's opt.resource), n
 * of them.  Rewrites g (see resource_vars.c); 0, or -1 with d set. */
int te_lower_resource_vars(te_graph *g, char **names, int n, te_diag *d);

#endif
