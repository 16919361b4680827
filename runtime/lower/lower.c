/* The pass runner: byoc_result_lower (include/byoc/lower.h,
 * doc/lowering.md).
 *
 * Three sweeps over a result: the BEFORE passes of each target that has a
 * partition, targets in the order of their first partitions; each
 * partition in execution order with its target's PARTITION passes; the
 * AFTER passes in the BEFORE order.  At each point a target runs its own
 * (or inherited) passes of that point, then the defaults of that point
 * whose names none of its passes has.  Everything a pass is shown is
 * built before the first pass runs (parts.c), so nothing is allocated
 * while user code runs, and no out-of-memory guard is open across it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errfmt.h"
#include "lower/lower_impl.h"

typedef struct runner {
    const byoc_result *r;
    const byoc_registry *reg;
    const byoc_lower_options *o;
    const bx_lower_parts *lp;
} runner;

/* Does t run a pass (at any point) named name? */
static bool has_pass(const byoc_registry *reg, const byoc_target_decl *t, const char *name)
{
    int n = byoc_target_pass_count(reg, t, NULL);
    for (int i = 0; i < n; i++) {
        const byoc_pass_decl *p = byoc_target_pass_at(reg, t, i);
        if (p->name && strcmp(p->name, name) == 0)
            return true;
    }
    return false;
}

/* "pass 'NAME' of target 'OWNER' on partition 3 (target 'T'): message";
 * the target in parentheses only when it is not the owner. */
static void wrap_error(byoc_error *err, const byoc_pass_decl *p, const byoc_target_decl *t,
                       const byoc_target_decl *owner, const byoc_lower_part *part,
                       const byoc_error *perr)
{
    char who[256], where[64], whose[160];
    const char *name = p->name ? p->name : "?";
    if (owner)
        snprintf(who, sizeof who, "pass '%s' of target '%s'", name, owner->name);
    else
        snprintf(who, sizeof who, "default pass '%s'", name);
    if (part)
        snprintf(where, sizeof where, "on partition %d", part->index);
    else
        snprintf(where, sizeof where, "%s the partitions",
                 p->point == BYOC_PASS_BEFORE ? "before" : "after");
    whose[0] = 0;
    if (owner != t)
        snprintf(whose, sizeof whose, " (target '%s')", t->name);
    const char *msg = perr->msg[0] ? perr->msg : "failed";
    bx_error_set(err, perr->file[0] ? perr->file : NULL, perr->line, perr->col, "%s %s%s: %s",
                 who, where, whose, msg);
}

static int run_pass(const runner *ru, const byoc_target_decl *t, const byoc_target_decl *owner,
                    const byoc_pass_decl *p, const byoc_lower_part *part, byoc_error *err)
{
    byoc_error perr;
    byoc_error_clear(&perr);
    if (!p->fn) {
        snprintf(perr.msg, sizeof perr.msg, "no function to run");
        wrap_error(err, p, t, owner, part, &perr);
        return -1;
    }
    byoc_lower_ctx cx = {
        .result = ru->r,
        .graph = ru->r->graph,
        .registry = ru->reg,
        .target = t,
        .owner = owner,
        .options = byoc_target_options(ru->reg, t),
        .pass = p->name,
        .point = p->point,
        .part = part,
        .nparts = ru->lp->nparts,
        .parts = ru->lp->parts,
        .dir = ru->o ? ru->o->dir : NULL,
        .run = ru->o ? ru->o->run : NULL,
    };
    if (p->fn(&cx, p->user, &perr) == 0)
        return 0;
    wrap_error(err, p, t, owner, part, &perr);
    return -1;
}

/* t's passes at point, then the defaults it does not replace. */
static int run_point(const runner *ru, const byoc_target_decl *t, byoc_pass_point point,
                     const byoc_lower_part *part, byoc_error *err)
{
    const byoc_target_decl *owner;
    int n = byoc_target_pass_count(ru->reg, t, &owner);
    for (int i = 0; i < n; i++) {
        const byoc_pass_decl *p = byoc_target_pass_at(ru->reg, t, i);
        if (p->point == point && run_pass(ru, t, owner, p, part, err) != 0)
            return -1;
    }
    int nd = ru->o ? ru->o->ndefaults : 0;
    for (int i = 0; i < nd; i++) {
        const byoc_pass_decl *d = &ru->o->defaults[i];
        if (d->point != point || has_pass(ru->reg, t, d->name))
            continue;
        if (run_pass(ru, t, NULL, d, part, err) != 0)
            return -1;
    }
    return 0;
}

static bool defaults_sound(const byoc_lower_options *o, byoc_error *err)
{
    if (!o || o->ndefaults <= 0)
        return true;
    if (!o->defaults) {
        bx_error_set(err, NULL, 0, 0, "%d default passes, but none given", o->ndefaults);
        return false;
    }
    for (int i = 0; i < o->ndefaults; i++) {
        const byoc_pass_decl *d = &o->defaults[i];
        if (!d->name || !*d->name) {
            bx_error_set(err, NULL, 0, 0, "default pass %d has no name", i);
            return false;
        }
        if (!d->fn) {
            bx_error_set(err, NULL, 0, 0, "default pass '%s' has no function", d->name);
            return false;
        }
        if (d->point != BYOC_PASS_BEFORE && d->point != BYOC_PASS_PARTITION
            && d->point != BYOC_PASS_AFTER) {
            bx_error_set(err, NULL, 0, 0, "default pass '%s' has no point %d", d->name,
                         (int)d->point);
            return false;
        }
    }
    return true;
}

static int sweep(const runner *ru, byoc_error *err)
{
    const byoc_result *r = ru->r;
    const bx_lower_parts *lp = ru->lp;
    /* The targets with a partition, in the order of their first ones. */
    const byoc_target_decl **targets = malloc(((size_t)lp->nparts + 1) * sizeof *targets);
    if (!targets) {
        bx_error_set(err, NULL, 0, 0, "out of memory");
        return -1;
    }
    int nt = 0;
    for (int p = 0; p < lp->nparts; p++) {
        const byoc_target_decl *t = r->partitions[p].target;
        int k = 0;
        while (k < nt && targets[k] != t)
            k++;
        if (k == nt)
            targets[nt++] = t;
    }
    int rc = 0;
    for (int k = 0; rc == 0 && k < nt; k++)
        rc = run_point(ru, targets[k], BYOC_PASS_BEFORE, NULL, err);
    for (int p = 0; rc == 0 && p < lp->nparts; p++)
        rc = run_point(ru, lp->parts[p].partition->target, BYOC_PASS_PARTITION, &lp->parts[p],
                       err);
    for (int k = 0; rc == 0 && k < nt; k++)
        rc = run_point(ru, targets[k], BYOC_PASS_AFTER, NULL, err);
    free(targets);
    return rc;
}

int byoc_result_lower(const byoc_result *r, const byoc_lower_options *o, byoc_error *err)
{
    if (!defaults_sound(o, err))
        return -1;
    bx_lower_parts *own;
    const bx_lower_parts *lp = bx_result_lower_parts(r, &own, err);
    if (!lp)
        return -1;
    runner ru = {.r = r, .reg = byoc_graph_registry(r->graph), .o = o, .lp = lp};
    int rc = sweep(&ru, err);
    bx_lower_parts_destroy(own);
    return rc;
}
