/* The registry: the modules byocc-generated code hands over, indexed by
 * name, plus the one thing about them that changes at run time - the
 * current values of target options.
 *
 * The idea to hold on to: the registry owns no declaration.  It keeps
 * pointers into the modules' static tables and resolves names between them
 * only when asked (a target's parent, its device, its inherited rules), so
 * modules can arrive in any order that respects their imports, and a
 * broken reference is found by byoc_registry_check instead of crashing a
 * lookup.  Walks up a refinement chain are bounded by the number of
 * targets, so even a parent cycle that check has not yet reported ends. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/lower.h>
#include <byoc/registry.h>
#include <byoc/version.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "hash.h"
#include "number.h"
#include "values.h"

/* A registered op or device, with the module that brought it, for errors
 * that name both modules of a clash. */
typedef struct bx_entry {
    const void *decl;
    const byoc_module_decl *mod;
} bx_entry;

typedef struct bx_target {
    const byoc_target_decl *decl;
    const byoc_module_decl *mod;
    /* Current option values, indexed as decl->options.  A value points at
     * static data (its default) or into owned[i], a block malloc'd for a
     * deep copy of what was set. */
    byoc_value *values;
    void **owned;
    /* Passes byoc_target_add_pass added after the generated ones, each
     * malloc'd on its own (with its name) so that the pointers
     * byoc_target_pass_at returns stay valid as more are added. */
    byoc_pass_decl **added;
    int nadded, capadded;
    /* Fusion settings given at run time (byoc_target_set_option_text with
     * fusion, max_depth, max_nodes or max_exits), each -1 while unset:
     * they take the place of the declaration's, and refinements that do
     * not set their own inherit them. */
    int fusion, limits[3];
} bx_target;

struct byoc_registry {
    const byoc_module_decl **mods;
    int nmods, capmods;
    bx_hash mod_names;              /* name -> index + 1 */
    bx_entry *ops;
    int nops, capops;
    bx_hash op_names;
    bx_entry *devices;
    int ndevices, capdevices;
    bx_hash device_names;
    /* Per device, once byoc_registry_set_device_spec changed it: the
     * registry's own copy (its peaks follow it in the same block), which
     * devices[i].decl then points to. */
    byoc_device_decl **own_devices;
    const byoc_link_decl **links;
    int nlinks, caplinks;
    bx_target *targets;
    int ntargets, captargets;
    bx_hash target_names;
    /* The device whose targets are searched when none are named, as its
     * index + 1; 0: the first device with a native target. */
    int default_device;
};

/* ---- small helpers ----------------------------------------------------- */

static void *grow_array(void *p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return p;
    int cap2 = *cap ? *cap : 8;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(p, (size_t)cap2 * elem);
    if (!q)
        bx_oom();
    *cap = cap2;
    return q;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        bx_oom();
    return p;
}

/* Hash tables map names to index + 1, so that NULL means absent. */
static int index_of(const bx_hash *h, const char *name)
{
    if (!name)
        return -1;
    void *v = bx_hash_get(h, name);
    return v ? (int)((uintptr_t)v - 1) : -1;
}

static void put_index(bx_hash *h, const char *name, int i)
{
    bx_hash_put(h, name, (void *)(uintptr_t)(i + 1));
}

static const char *module_name(const byoc_module_decl *m)
{
    return m && m->name ? m->name : "?";
}

/* ---- names ------------------------------------------------------------- */

const char *byoc_op_kind_name(byoc_op_kind k)
{
    switch (k) {
    case BYOC_OPK_ELEMWISE: return "elemwise";
    case BYOC_OPK_BROADCAST: return "broadcast";
    case BYOC_OPK_INJECTIVE: return "injective";
    case BYOC_OPK_REDUCE: return "reduce";
    case BYOC_OPK_OUT_ELEMWISE_FUSABLE: return "out_elemwise_fusable";
    case BYOC_OPK_OPAQUE: return "opaque";
    }
    return "?";
}

const char *byoc_pass_point_name(byoc_pass_point p)
{
    switch (p) {
    case BYOC_PASS_BEFORE: return "before";
    case BYOC_PASS_PARTITION: return "partition";
    case BYOC_PASS_AFTER: return "after";
    }
    return "?";
}

const char *byoc_fusion_name(byoc_fusion f)
{
    switch (f) {
    case BYOC_FUSION_NONE: return "none";
    case BYOC_FUSION_TVM: return "tvm";
    case BYOC_FUSION_ANY: return "any";
    }
    return "?";
}

int byoc_op_attr_index(const byoc_op_decl *op, const char *name)
{
    if (!op || !name)
        return -1;
    for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- create, destroy --------------------------------------------------- */

byoc_registry *byoc_registry_create(void)
{
    byoc_registry *reg = xcalloc(1, sizeof(*reg));
    bx_hash_init(&reg->mod_names);
    bx_hash_init(&reg->op_names);
    bx_hash_init(&reg->device_names);
    bx_hash_init(&reg->target_names);
    return reg;
}

static void free_option(bx_target *t, int i)
{
    free(t->owned[i]);
    t->owned[i] = NULL;
    t->values[i] = t->decl->options[i].def;
}

void byoc_registry_destroy(byoc_registry *reg)
{
    if (!reg)
        return;
    for (int i = 0; i < reg->ntargets; i++) {
        bx_target *t = &reg->targets[i];
        for (int k = 0; k < t->decl->noptions; k++)
            free(t->owned[k]);
        free(t->owned);
        free(t->values);
        for (int k = 0; k < t->nadded; k++)
            free(t->added[k]);
        free(t->added);
    }
    free(reg->targets);
    free(reg->links);
    for (int i = 0; reg->own_devices && i < reg->ndevices; i++)
        free(reg->own_devices[i]);
    free(reg->own_devices);
    free(reg->devices);
    free(reg->ops);
    free(reg->mods);
    bx_hash_free(&reg->mod_names);
    bx_hash_free(&reg->op_names);
    bx_hash_free(&reg->device_names);
    bx_hash_free(&reg->target_names);
    free(reg);
}

/* ---- adding a module --------------------------------------------------- */

/* Is name, a `what` ("operator", ...) of mod, free?  owner: the module
 * that already registered the name, or NULL; seen: the names of this kind
 * mod has declared so far.  Fills err naming both modules when not. */
static bool name_is_free(const byoc_module_decl *mod, const char *what, const char *name,
                         const byoc_module_decl *owner, bx_hash *seen, const char *file,
                         int line, int col, byoc_error *err)
{
    if (!name) {
        bx_error_set(err, file, line, col, "module '%s' has a%s %s without a name",
                     module_name(mod), what[0] == 'o' ? "n" : "", what);
        return false;
    }
    if (owner) {
        bx_error_set(err, file, line, col,
                     "%s '%s' of module '%s' is already registered by module '%s'", what,
                     name, module_name(mod), module_name(owner));
        return false;
    }
    if (bx_hash_get(seen, name)) {
        bx_error_set(err, file, line, col, "%s '%s' is declared twice in module '%s'", what,
                     name, module_name(mod));
        return false;
    }
    bx_hash_put(seen, name, (void *)mod);
    return true;
}

/* Everything add refuses, checked before anything is added, so that a
 * refused module leaves the registry as it was. */
static bool module_acceptable(const byoc_registry *reg, const byoc_module_decl *mod,
                              byoc_error *err)
{
    if (mod->abi != BYOC_ABI_VERSION) {
        bx_error_set(err, mod->source, 0, 0,
                     "module '%s' was generated for ABI %d, but this libbyoc has ABI %d",
                     module_name(mod), mod->abi, BYOC_ABI_VERSION);
        return false;
    }
    for (int i = 0; i < mod->nimports; i++)
        if (index_of(&reg->mod_names, mod->imports[i]) < 0) {
            bx_error_set(err, mod->source, 0, 0,
                         "module '%s' imports module '%s', which is not registered",
                         module_name(mod), mod->imports[i] ? mod->imports[i] : "?");
            return false;
        }
    bool ok = true;
    bx_hash seen;
    bx_hash_init(&seen);
    for (int i = 0; ok && i < mod->nops; i++) {
        int k = index_of(&reg->op_names, mod->ops[i].name);
        ok = name_is_free(mod, "operator", mod->ops[i].name, k >= 0 ? reg->ops[k].mod : NULL,
                          &seen, mod->source, 0, 0, err);
    }
    bx_hash_free(&seen);
    bx_hash_init(&seen);
    for (int i = 0; ok && i < mod->ndevices; i++) {
        int k = index_of(&reg->device_names, mod->devices[i].name);
        ok = name_is_free(mod, "device", mod->devices[i].name,
                          k >= 0 ? reg->devices[k].mod : NULL, &seen, mod->source, 0, 0, err);
    }
    bx_hash_free(&seen);
    bx_hash_init(&seen);
    for (int i = 0; ok && i < mod->ntargets; i++) {
        const byoc_target_decl *t = &mod->targets[i];
        int k = index_of(&reg->target_names, t->name);
        ok = name_is_free(mod, "target", t->name, k >= 0 ? reg->targets[k].mod : NULL, &seen,
                          t->file, t->line, t->col, err);
    }
    bx_hash_free(&seen);
    return ok;
}

static void add_target(byoc_registry *reg, const byoc_module_decl *mod,
                       const byoc_target_decl *decl)
{
    reg->targets = grow_array(reg->targets, &reg->captargets, reg->ntargets + 1,
                              sizeof(*reg->targets));
    bx_target *t = &reg->targets[reg->ntargets];
    memset(t, 0, sizeof *t);
    t->decl = decl;
    t->mod = mod;
    t->fusion = t->limits[0] = t->limits[1] = t->limits[2] = -1;
    int n = decl->noptions > 0 ? decl->noptions : 0;
    t->values = xcalloc((size_t)n, sizeof(*t->values));
    t->owned = xcalloc((size_t)n, sizeof(*t->owned));
    for (int k = 0; k < n; k++)
        t->values[k] = decl->options[k].def;
    put_index(&reg->target_names, decl->name, reg->ntargets);
    reg->ntargets++;
}

int byoc_registry_add(byoc_registry *reg, const byoc_module_decl *mod, byoc_error *err)
{
    if (!reg || !mod || !mod->name) {
        bx_error_set(err, NULL, 0, 0, "no module to register");
        return -1;
    }
    /* Register functions add their imports first, so a module shared by
     * two backends arrives twice; the second time changes nothing. */
    if (index_of(&reg->mod_names, mod->name) >= 0)
        return 0;
    if (!module_acceptable(reg, mod, err))
        return -1;

    reg->mods = grow_array(reg->mods, &reg->capmods, reg->nmods + 1, sizeof(*reg->mods));
    reg->mods[reg->nmods] = mod;
    put_index(&reg->mod_names, mod->name, reg->nmods);
    reg->nmods++;

    reg->ops = grow_array(reg->ops, &reg->capops, reg->nops + mod->nops, sizeof(*reg->ops));
    for (int i = 0; i < mod->nops; i++) {
        reg->ops[reg->nops] = (bx_entry){&mod->ops[i], mod};
        put_index(&reg->op_names, mod->ops[i].name, reg->nops);
        reg->nops++;
    }
    int oldcap = reg->capdevices;
    reg->devices = grow_array(reg->devices, &reg->capdevices, reg->ndevices + mod->ndevices,
                              sizeof(*reg->devices));
    if (reg->own_devices && reg->capdevices > oldcap) {
        byoc_device_decl **own = realloc(reg->own_devices,
                                         sizeof *own * ((size_t)reg->capdevices + 1));
        if (!own)
            bx_oom();
        memset(own + oldcap + 1, 0, sizeof *own * (size_t)(reg->capdevices - oldcap));
        reg->own_devices = own;
    }
    for (int i = 0; i < mod->ndevices; i++) {
        reg->devices[reg->ndevices] = (bx_entry){&mod->devices[i], mod};
        put_index(&reg->device_names, mod->devices[i].name, reg->ndevices);
        reg->ndevices++;
    }
    reg->links = grow_array(reg->links, &reg->caplinks, reg->nlinks + mod->nlinks,
                            sizeof(*reg->links));
    for (int i = 0; i < mod->nlinks; i++)
        reg->links[reg->nlinks++] = &mod->links[i];
    for (int i = 0; i < mod->ntargets; i++)
        add_target(reg, mod, &mod->targets[i]);
    return 0;
}

/* ---- lookups ----------------------------------------------------------- */

int byoc_registry_op_count(const byoc_registry *reg) { return reg ? reg->nops : 0; }

const byoc_op_decl *byoc_registry_op_at(const byoc_registry *reg, int i)
{
    return reg && i >= 0 && i < reg->nops ? reg->ops[i].decl : NULL;
}

int byoc_registry_op_id(const byoc_registry *reg, const char *name)
{
    return reg ? index_of(&reg->op_names, name) : -1;
}

const byoc_op_decl *byoc_registry_op(const byoc_registry *reg, const char *name)
{
    return byoc_registry_op_at(reg, byoc_registry_op_id(reg, name));
}

int byoc_registry_device_count(const byoc_registry *reg) { return reg ? reg->ndevices : 0; }

const byoc_device_decl *byoc_registry_device_at(const byoc_registry *reg, int i)
{
    return reg && i >= 0 && i < reg->ndevices ? reg->devices[i].decl : NULL;
}

const byoc_device_decl *byoc_registry_device(const byoc_registry *reg, const char *name)
{
    return reg ? byoc_registry_device_at(reg, index_of(&reg->device_names, name)) : NULL;
}

int byoc_registry_link_count(const byoc_registry *reg) { return reg ? reg->nlinks : 0; }

const byoc_link_decl *byoc_registry_link_at(const byoc_registry *reg, int i)
{
    return reg && i >= 0 && i < reg->nlinks ? reg->links[i] : NULL;
}

const byoc_link_decl *byoc_registry_link(const byoc_registry *reg, const char *a,
                                         const char *b)
{
    if (!reg || !a || !b)
        return NULL;
    for (int i = 0; i < reg->nlinks; i++) {
        const byoc_link_decl *l = reg->links[i];
        if (strcmp(l->from, a) == 0 && strcmp(l->to, b) == 0)
            return l;
        if (l->both_ways && strcmp(l->from, b) == 0 && strcmp(l->to, a) == 0)
            return l;
    }
    return NULL;
}

int byoc_registry_target_count(const byoc_registry *reg) { return reg ? reg->ntargets : 0; }

const byoc_target_decl *byoc_registry_target_at(const byoc_registry *reg, int i)
{
    return reg && i >= 0 && i < reg->ntargets ? reg->targets[i].decl : NULL;
}

int byoc_registry_target_index(const byoc_registry *reg, const char *name)
{
    return reg ? index_of(&reg->target_names, name) : -1;
}

const byoc_target_decl *byoc_registry_target(const byoc_registry *reg, const char *name)
{
    return byoc_registry_target_at(reg, byoc_registry_target_index(reg, name));
}

/* The record of t, or NULL when t is not one of the registered tables. */
static bx_target *record_of(const byoc_registry *reg, const byoc_target_decl *t)
{
    if (!reg || !t)
        return NULL;
    int i = index_of(&reg->target_names, t->name);
    return i >= 0 && reg->targets[i].decl == t ? &reg->targets[i] : NULL;
}

/* ---- refinement chains ------------------------------------------------- */

const byoc_target_decl *byoc_target_parent(const byoc_registry *reg,
                                           const byoc_target_decl *t)
{
    if (!reg || !t || t->parent_is_device || !t->parent)
        return NULL;
    return byoc_registry_target(reg, t->parent);
}

/* The next target up a chain, or NULL at its end.  *budget counts the
 * steps left; it starts at the number of targets, which only a cycle can
 * exhaust. */
static const byoc_target_decl *up(const byoc_registry *reg, const byoc_target_decl *t,
                                  int *budget)
{
    return (*budget)-- > 0 ? byoc_target_parent(reg, t) : NULL;
}

#define FOR_CHAIN(reg, t, p, budget) \
    for (const byoc_target_decl *p = (t); p != NULL; p = up((reg), p, &(budget)))

const byoc_device_decl *byoc_target_device(const byoc_registry *reg,
                                           const byoc_target_decl *t)
{
    if (!reg)
        return NULL;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        if (p->parent_is_device)
            return byoc_registry_device(reg, p->parent);
    }
    return NULL;
}

bool byoc_target_refines(const byoc_registry *reg, const byoc_target_decl *t,
                         const char *ancestor)
{
    if (!reg || !ancestor)
        return false;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        if (strcmp(p->name, ancestor) == 0)
            return true;
        if (p->parent_is_device)
            return p->parent && strcmp(p->parent, ancestor) == 0;
    }
    return false;
}

byoc_fusion byoc_target_fusion(const byoc_registry *reg, const byoc_target_decl *t)
{
    if (!reg)
        return BYOC_FUSION_NONE;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        const bx_target *rec = record_of(reg, p);
        if (rec && rec->fusion >= 0)
            return (byoc_fusion)rec->fusion;
        if (p->fusion_set)
            return p->fusion;
    }
    return BYOC_FUSION_NONE;
}

enum limit { MAX_DEPTH, MAX_NODES, MAX_EXITS };

static int limit_of(const byoc_registry *reg, const byoc_target_decl *t, enum limit which)
{
    if (!reg)
        return 0;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        /* A run-time 0 means unbounded, and so ends the walk. */
        const bx_target *rec = record_of(reg, p);
        if (rec && rec->limits[which] >= 0)
            return rec->limits[which];
        int v = which == MAX_DEPTH ? p->max_depth : which == MAX_NODES ? p->max_nodes
                                                                       : p->max_exits;
        if (v != 0)
            return v;
    }
    return 0;
}

int byoc_target_max_depth(const byoc_registry *reg, const byoc_target_decl *t)
{
    return limit_of(reg, t, MAX_DEPTH);
}

int byoc_target_max_nodes(const byoc_registry *reg, const byoc_target_decl *t)
{
    return limit_of(reg, t, MAX_NODES);
}

int byoc_target_max_exits(const byoc_registry *reg, const byoc_target_decl *t)
{
    return limit_of(reg, t, MAX_EXITS);
}

double byoc_target_efficiency(const byoc_registry *reg, const byoc_target_decl *t)
{
    if (!reg)
        return 1.0;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        if (p->efficiency != 0)
            return p->efficiency;
    }
    return 1.0;
}

bool byoc_target_supports_all(const byoc_registry *reg, const byoc_target_decl *t)
{
    if (!reg)
        return false;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        if (p->supports_all)
            return true;
    }
    return false;
}

/* ---- inherited lists --------------------------------------------------- */

/* The three lists a target inherits, ancestors' entries first: index i of
 * t's list is in its parent's list when i is below the parent's count. */
enum list_kind { RULES, PATTERNS, PARTITION_RULES };

static int own_count(const byoc_target_decl *t, enum list_kind k)
{
    int n = k == RULES ? t->nrules : k == PATTERNS ? t->npatterns : t->npartition_rules;
    return n > 0 ? n : 0;
}

static int list_count(const byoc_registry *reg, const byoc_target_decl *t, enum list_kind k,
                      int budget)
{
    int n = 0;
    for (; t && budget >= 0; t = byoc_target_parent(reg, t), budget--)
        n += own_count(t, k);
    return n;
}

static const void *list_at(const byoc_registry *reg, const byoc_target_decl *t,
                           enum list_kind k, int i)
{
    if (!reg || !t || i < 0)
        return NULL;
    for (int budget = reg->ntargets; t && budget >= 0; budget--) {
        const byoc_target_decl *parent = byoc_target_parent(reg, t);
        int inherited = list_count(reg, parent, k, budget - 1);
        if (i < inherited) {
            t = parent;
            continue;
        }
        i -= inherited;
        if (i >= own_count(t, k))
            return NULL;
        return k == RULES ? (const void *)&t->rules[i]
               : k == PATTERNS ? (const void *)&t->patterns[i]
                               : (const void *)&t->partition_rules[i];
    }
    return NULL;
}

int byoc_target_rule_count(const byoc_registry *reg, const byoc_target_decl *t)
{
    return reg ? list_count(reg, t, RULES, reg->ntargets) : 0;
}

const byoc_pattern_decl *byoc_target_rule_at(const byoc_registry *reg,
                                             const byoc_target_decl *t, int i)
{
    return list_at(reg, t, RULES, i);
}

int byoc_target_pattern_count(const byoc_registry *reg, const byoc_target_decl *t)
{
    return reg ? list_count(reg, t, PATTERNS, reg->ntargets) : 0;
}

const byoc_pattern_decl *byoc_target_pattern_at(const byoc_registry *reg,
                                                const byoc_target_decl *t, int i)
{
    return list_at(reg, t, PATTERNS, i);
}

int byoc_target_partition_rule_count(const byoc_registry *reg, const byoc_target_decl *t)
{
    return reg ? list_count(reg, t, PARTITION_RULES, reg->ntargets) : 0;
}

const byoc_predicate_decl *byoc_target_partition_rule_at(const byoc_registry *reg,
                                                         const byoc_target_decl *t, int i)
{
    return list_at(reg, t, PARTITION_RULES, i);
}

/* ---- check ------------------------------------------------------------- */

static const char *hint_target(const byoc_registry *reg, const char *name, char *buf,
                               size_t size)
{
    bx_suggest s;
    bx_suggest_init(&s, name);
    for (int i = 0; i < reg->ntargets; i++)
        bx_suggest_offer(&s, reg->targets[i].decl->name);
    return bx_suggest_hint(&s, buf, size);
}

static const char *hint_device(const byoc_registry *reg, const char *name, char *buf,
                               size_t size)
{
    bx_suggest s;
    bx_suggest_init(&s, name);
    for (int i = 0; i < reg->ndevices; i++)
        bx_suggest_offer(&s, ((const byoc_device_decl *)reg->devices[i].decl)->name);
    return bx_suggest_hint(&s, buf, size);
}

int byoc_registry_check(const byoc_registry *reg, byoc_error *err)
{
    if (!reg) {
        bx_error_set(err, NULL, 0, 0, "no registry");
        return -1;
    }
    char hint[160];
    for (int i = 0; i < reg->ntargets; i++) {
        const byoc_target_decl *t = reg->targets[i].decl;
        const char *parent = t->parent ? t->parent : "";
        if (t->parent_is_device && !byoc_registry_device(reg, parent)) {
            bx_error_set(err, t->file, t->line, t->col,
                         "target '%s' refines unknown device '%s'%s", t->name, parent,
                         hint_device(reg, parent, hint, sizeof hint));
            return -1;
        }
        if (!t->parent_is_device && !byoc_registry_target(reg, parent)) {
            bx_error_set(err, t->file, t->line, t->col,
                         "target '%s' refines unknown target '%s'%s", t->name, parent,
                         hint_target(reg, parent, hint, sizeof hint));
            return -1;
        }
    }
    /* Every parent exists, so a chain either reaches a device or loops;
     * one that has not reached a device after ntargets steps loops. */
    for (int i = 0; i < reg->ntargets; i++) {
        const byoc_target_decl *t = reg->targets[i].decl, *p = t;
        for (int steps = 0; p && steps < reg->ntargets; steps++)
            p = byoc_target_parent(reg, p);
        if (!p)
            continue;
        /* Report the cycle at t only when t is on it, naming its parent. */
        const byoc_target_decl *q = byoc_target_parent(reg, t);
        for (int steps = 0; q && q != t && steps < reg->ntargets; steps++)
            q = byoc_target_parent(reg, q);
        if (q != t)
            continue;
        if (byoc_target_parent(reg, t) == t)
            bx_error_set(err, t->file, t->line, t->col, "target '%s' refines itself",
                         t->name);
        else
            bx_error_set(err, t->file, t->line, t->col,
                         "parent cycle: target '%s' refines itself through '%s'", t->name,
                         t->parent);
        return -1;
    }
    return 0;
}

/* ---- options ----------------------------------------------------------- */

const byoc_value *byoc_target_options(const byoc_registry *reg, const byoc_target_decl *t)
{
    bx_target *rec = record_of(reg, t);
    return rec ? rec->values : NULL;
}

static int option_index(const byoc_target_decl *t, const char *name)
{
    for (int i = 0; i < t->noptions; i++)
        if (strcmp(t->options[i].name, name) == 0)
            return i;
    return -1;
}

const byoc_value *byoc_target_option(const byoc_registry *reg, const byoc_target_decl *t,
                                     const char *name)
{
    bx_target *rec = record_of(reg, t);
    if (!rec || !name)
        return NULL;
    int i = option_index(t, name);
    return i >= 0 ? &rec->values[i] : NULL;
}

/* Find target `target` and its option `name`, or fill err. */
static bx_target *find_option(const byoc_registry *reg, const char *target, const char *name,
                              int *index, byoc_error *err)
{
    char hint[160];
    int ti = byoc_registry_target_index(reg, target);
    if (ti < 0) {
        bx_error_set(err, NULL, 0, 0, "unknown target '%s'%s", target ? target : "",
                     hint_target(reg, target ? target : "", hint, sizeof hint));
        return NULL;
    }
    bx_target *rec = &reg->targets[ti];
    int i = name ? option_index(rec->decl, name) : -1;
    if (i < 0) {
        bx_suggest s;
        bx_suggest_init(&s, name);
        for (int k = 0; k < rec->decl->noptions; k++)
            bx_suggest_offer(&s, rec->decl->options[k].name);
        bx_suggest_offer(&s, "fusion");
        bx_suggest_offer(&s, "max_depth");
        bx_suggest_offer(&s, "max_nodes");
        bx_suggest_offer(&s, "max_exits");
        bx_error_set(err, NULL, 0, 0, "target '%s' has no option '%s'%s", target,
                     name ? name : "", bx_suggest_hint(&s, hint, sizeof hint));
        return NULL;
    }
    *index = i;
    return rec;
}

/* The fusion settings every target has besides its declared options:
 * `fusion`, then the limits in enum limit's order. */
static const char *const fusion_settings[] = {"fusion", "max_depth", "max_nodes", "max_exits"};
#define MAX_LIMIT 1000000

/* Set one of fusion_settings on rec from text; -1 with err set. */
static int set_fusion_setting(bx_target *rec, int which, const char *text, byoc_error *err)
{
    const char *target = rec->decl->name;
    if (which == 0) {
        static const char *const styles[] = {"none", "tvm", "any"};
        static const byoc_fusion style_of[] = {BYOC_FUSION_NONE, BYOC_FUSION_TVM,
                                               BYOC_FUSION_ANY};
        for (int k = 0; k < 3; k++)
            if (strcmp(text, styles[k]) == 0) {
                rec->fusion = (int)style_of[k];
                return 0;
            }
        bx_error_set(err, NULL, 0, 0,
                     "invalid value '%s' for fusion of target '%s' (none, tvm or any)", text,
                     target);
        return -1;
    }
    long v = 0;
    const char *p = text;
    bool ok = *p != 0;
    for (; *p && ok; p++) {
        ok = *p >= '0' && *p <= '9';
        if (ok)
            v = v * 10 + (*p - '0');
        ok = ok && v <= MAX_LIMIT;
    }
    if (!ok) {
        bx_error_set(err, NULL, 0, 0,
                     "invalid value '%s' for %s of target '%s' (a whole number from 1 to %d, "
                     "or 0 for unbounded)",
                     text, fusion_settings[which], target, MAX_LIMIT);
        return -1;
    }
    rec->limits[which - 1] = (int)v;
    return 0;
}

/* Which of fusion_settings `name` is when target has no declared option
 * of that name, else -1. */
static int fusion_setting_of(const byoc_registry *reg, const char *target, const char *name,
                             bx_target **rec)
{
    int ti = target && name ? byoc_registry_target_index(reg, target) : -1;
    if (ti < 0 || option_index(reg->targets[ti].decl, name) >= 0)
        return -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(name, fusion_settings[k]) == 0) {
            *rec = &reg->targets[ti];
            return k;
        }
    return -1;
}

int byoc_target_set_option(byoc_registry *reg, const char *target, const char *name,
                           const byoc_value *v, byoc_error *err)
{
    if (!reg) {
        bx_error_set(err, NULL, 0, 0, "no registry");
        return -1;
    }
    bx_target *frec;
    int which = fusion_setting_of(reg, target, name, &frec);
    if (which >= 0) {
        char text[32];
        if (which == 0 && v && v->kind == BYOC_V_STRING && v->u.s)
            return set_fusion_setting(frec, which, v->u.s, err);
        if (which > 0 && v && v->kind == BYOC_V_INT) {
            snprintf(text, sizeof text, "%" PRId64, v->u.i);
            return set_fusion_setting(frec, which, text, err);
        }
        bx_error_set(err, NULL, 0, 0, "%s of target '%s' takes %s", name, target,
                     which == 0 ? "a string (none, tvm or any)" : "an int");
        return -1;
    }
    int i;
    bx_target *rec = find_option(reg, target, name, &i, err);
    if (!rec)
        return -1;
    const byoc_option_decl *o = &rec->decl->options[i];
    if (!v || !bx_value_accepts(v, &o->type)) {
        char want[64], got[64];
        byoc_type_format(&o->type, want, sizeof want);
        bx_error_set(err, NULL, 0, 0, "option '%s' of target '%s' has type %s, not %s", name,
                     target, want, bx_value_type_name(v, got, sizeof got));
        return -1;
    }
    size_t size = bx_value_copy_size(v);
    void *mem = size ? malloc(size) : NULL;
    if (size && !mem)
        bx_oom();
    byoc_value copy;
    bx_value_copy_into(&copy, v, mem);
    bx_value_coerce(&copy, &o->type);
    free_option(rec, i);
    rec->values[i] = copy;
    rec->owned[i] = mem;
    return 0;
}

void byoc_registry_reset_options(byoc_registry *reg)
{
    if (!reg)
        return;
    for (int i = 0; i < reg->ntargets; i++) {
        bx_target *t = &reg->targets[i];
        for (int k = 0; k < t->decl->noptions; k++)
            free_option(t, k);
        t->fusion = t->limits[0] = t->limits[1] = t->limits[2] = -1;
    }
}

/* ---- runtime and lowering passes --------------------------------------- */

/* A target's passes are one list, inherited whole: its own (the generated
 * table's, then those added at run time), or, when it has none, its
 * parent's, up the chain (include/byoc/lower.h). */

const char *byoc_target_runtime(const byoc_registry *reg, const byoc_target_decl *t)
{
    if (!reg)
        return NULL;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        if (p->runtime)
            return p->runtime;
    }
    return NULL;
}

static int own_pass_count(const byoc_registry *reg, const byoc_target_decl *t)
{
    const bx_target *rec = record_of(reg, t);
    return (t->npasses > 0 ? t->npasses : 0) + (rec ? rec->nadded : 0);
}

static const byoc_pass_decl *own_pass_at(const byoc_registry *reg, const byoc_target_decl *t,
                                         int i)
{
    int gen = t->npasses > 0 ? t->npasses : 0;
    if (i < gen)
        return &t->passes[i];
    const bx_target *rec = record_of(reg, t);
    return rec && i - gen < rec->nadded ? rec->added[i - gen] : NULL;
}

/* The target on t's chain whose passes t runs, or NULL when none has any. */
static const byoc_target_decl *pass_owner(const byoc_registry *reg, const byoc_target_decl *t)
{
    if (!reg)
        return NULL;
    int budget = reg->ntargets;
    FOR_CHAIN(reg, t, p, budget) {
        if (own_pass_count(reg, p) > 0)
            return p;
    }
    return NULL;
}

int byoc_target_pass_count(const byoc_registry *reg, const byoc_target_decl *t,
                           const byoc_target_decl **owner)
{
    const byoc_target_decl *o = pass_owner(reg, t);
    if (owner)
        *owner = o;
    return o ? own_pass_count(reg, o) : 0;
}

const byoc_pass_decl *byoc_target_pass_at(const byoc_registry *reg, const byoc_target_decl *t,
                                          int i)
{
    const byoc_target_decl *o = pass_owner(reg, t);
    return o && i >= 0 ? own_pass_at(reg, o, i) : NULL;
}

int byoc_target_add_pass(byoc_registry *reg, const char *target, const char *name,
                         byoc_pass_point point, byoc_pass_fn *fn, void *user,
                         byoc_error *err)
{
    if (!reg) {
        bx_error_set(err, NULL, 0, 0, "no registry");
        return -1;
    }
    char hint[160];
    int ti = byoc_registry_target_index(reg, target);
    if (ti < 0) {
        bx_error_set(err, NULL, 0, 0, "unknown target '%s'%s", target ? target : "",
                     hint_target(reg, target ? target : "", hint, sizeof hint));
        return -1;
    }
    if (!name || !*name) {
        bx_error_set(err, NULL, 0, 0, "a pass of target '%s' needs a name", target);
        return -1;
    }
    if (point != BYOC_PASS_BEFORE && point != BYOC_PASS_PARTITION && point != BYOC_PASS_AFTER) {
        bx_error_set(err, NULL, 0, 0, "pass '%s' of target '%s' has no point %d", name, target,
                     (int)point);
        return -1;
    }
    if (!fn) {
        bx_error_set(err, NULL, 0, 0, "pass '%s' of target '%s' has no function", name, target);
        return -1;
    }
    bx_target *rec = &reg->targets[ti];
    for (int i = 0; i < own_pass_count(reg, rec->decl); i++) {
        const byoc_pass_decl *p = own_pass_at(reg, rec->decl, i);
        if (p->point == point && p->name && strcmp(p->name, name) == 0) {
            bx_error_set(err, NULL, 0, 0, "target '%s' already has pass '%s' at point '%s'",
                         target, name, byoc_pass_point_name(point));
            return -1;
        }
    }
    if (rec->nadded == rec->capadded) {
        int cap = rec->capadded ? rec->capadded * 2 : 4;
        byoc_pass_decl **v = realloc(rec->added, (size_t)cap * sizeof *v);
        if (!v) {
            bx_error_set(err, NULL, 0, 0, "out of memory");
            return -1;
        }
        rec->added = v;
        rec->capadded = cap;
    }
    size_t len = strlen(name) + 1;
    byoc_pass_decl *p = malloc(sizeof *p + len);
    if (!p) {
        bx_error_set(err, NULL, 0, 0, "out of memory");
        return -1;
    }
    char *copy = (char *)(p + 1);
    memcpy(copy, name, len);
    *p = (byoc_pass_decl){.name = copy, .point = point, .fn = fn, .user = user};
    rec->added[rec->nadded++] = p;
    return 0;
}

/* ---- options from text ------------------------------------------------- */

/* Text as a user writes it on a command line, read per the option's
 * declared type: the type decides, so "8" is an int for an int option and
 * the version 8.0.0 for a version option, and a string is taken verbatim.
 * Values are built in a scratch arena; set_option then copies them. */
typedef struct text_reader {
    const char *p;
    bx_arena *arena;
} text_reader;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void skip_space(text_reader *r)
{
    while (is_space(*r->p))
        r->p++;
}

static bool read_version(const char *s, uint64_t *out)
{
    uint64_t part[3] = {0, 0, 0};
    int n = 0;
    for (;;) {
        if (*s < '0' || *s > '9' || n == 3)
            return false;
        uint64_t v = 0;
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (uint64_t)(*s++ - '0');
            if (v > 0xffff)
                return false;
        }
        part[n++] = v;
        if (*s == 0)
            break;
        if (*s++ != '.')
            return false;
    }
    *out = BYOC_VERSION(part[0], part[1], part[2]);
    return true;
}

/* A scalar of kind `base` from the whole of s (already trimmed). */
static bool read_scalar(const char *s, int base, byoc_value *out, bx_arena *a)
{
    char *end;
    memset(out, 0, sizeof(*out));
    out->kind = (byoc_vkind)base;
    switch (base) {
    case BYOC_V_BOOL:
        if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
            out->u.b = true;
        else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
            out->u.b = false;
        else
            return false;
        return true;
    case BYOC_V_INT: {
        if (!*s || is_space(*s))
            return false;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (errno || *end)
            return false;
        out->u.i = v;
        return true;
    }
    case BYOC_V_FLOAT: {
        if (!*s || is_space(*s))
            return false;
        errno = 0;
        double f = strtod(s, &end);
        if (errno || *end || f != f || f - f != 0)   /* not NaN, not infinite */
            return false;
        out->u.f = f;
        return true;
    }
    case BYOC_V_STRING:
        out->u.s = bx_arena_strdup(a, s);
        return true;
    case BYOC_V_DTYPE: {
        int dt = byoc_dtype_lookup(s);
        if (dt < 0)
            return false;
        out->u.dt = (byoc_dtype)dt;
        return true;
    }
    case BYOC_V_VERSION:
        return read_version(s, &out->u.ver);
    }
    return false;
}

/* A quoted string inside a list, with the escapes the language knows. */
static bool read_quoted(text_reader *r, byoc_value *out)
{
    const char *p = r->p + 1;
    char *buf = bx_arena_alloc(r->arena, strlen(p) + 1), *o = buf;
    for (; *p && *p != '"'; p++) {
        if (*p != '\\') {
            *o++ = *p;
            continue;
        }
        switch (*++p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case '\\': *o++ = '\\'; break;
        case '"': *o++ = '"'; break;
        default: return false;
        }
    }
    if (*p != '"')
        return false;
    r->p = p + 1;
    out->kind = BYOC_V_STRING;
    out->u.s = buf;
    return true;
}

static bool read_item(text_reader *r, int base, int depth, byoc_value *out);

static bool read_list(text_reader *r, int base, int depth, byoc_value *out)
{
    skip_space(r);
    if (*r->p != '[')
        return false;
    r->p++;
    byoc_value *items = NULL;
    size_t n = 0, cap = 0;
    skip_space(r);
    if (*r->p == ']') {
        r->p++;
    } else {
        for (;;) {
            if (n == cap) {
                cap = cap ? cap * 2 : 4;
                byoc_value *bigger = BX_NEWN(r->arena, byoc_value, cap);
                if (n)
                    memcpy(bigger, items, n * sizeof(*items));
                items = bigger;
            }
            if (!read_item(r, base, depth - 1, &items[n++]))
                return false;
            skip_space(r);
            if (*r->p == ',') {
                r->p++;
                continue;
            }
            if (*r->p != ']')
                return false;
            r->p++;
            break;
        }
    }
    memset(out, 0, sizeof(*out));
    out->kind = BYOC_V_LIST;
    out->u.list.items = items;
    out->u.list.n = n;
    return true;
}

static bool read_item(text_reader *r, int base, int depth, byoc_value *out)
{
    skip_space(r);
    if (depth > 0)
        return read_list(r, base, depth, out);
    if (base == BYOC_V_STRING && *r->p == '"')
        return read_quoted(r, out);
    const char *start = r->p;
    while (*r->p && *r->p != ',' && *r->p != ']' && *r->p != '[')
        r->p++;
    const char *end = r->p;
    while (end > start && is_space(end[-1]))
        end--;
    return read_scalar(bx_arena_strndup(r->arena, start, (size_t)(end - start)), base, out,
                       r->arena);
}

/* text as a value of (base, depth); the whole text must be used. */
static bool read_as(const char *text, int base, int depth, byoc_value *out, bx_arena *a)
{
    if (depth == 0 && base == BYOC_V_STRING)
        return read_scalar(text, base, out, a);
    text_reader r = {text, a};
    if (depth == 0) {
        while (is_space(*r.p))
            r.p++;
        const char *end = r.p + strlen(r.p);
        while (end > r.p && is_space(end[-1]))
            end--;
        return read_scalar(bx_arena_strndup(a, r.p, (size_t)(end - r.p)), base, out, a);
    }
    if (!read_list(&r, base, depth, out))
        return false;
    skip_space(&r);
    return *r.p == 0;
}

static bool is_none(const char *text)
{
    while (is_space(*text))
        text++;
    if (strncmp(text, "None", 4) != 0)
        return false;
    for (text += 4; is_space(*text); text++)
        ;
    return *text == 0;
}

int byoc_target_set_option_text(byoc_registry *reg, const char *target, const char *name,
                                 const char *text, byoc_error *err)
{
    if (!reg) {
        bx_error_set(err, NULL, 0, 0, "no registry");
        return -1;
    }
    /* A declared option of that name comes first; else the fusion
     * settings, which every target has. */
    bx_target *frec;
    int which = fusion_setting_of(reg, target, name, &frec);
    if (which >= 0)
        return set_fusion_setting(frec, which, text ? text : "", err);
    int i;
    bx_target *rec = find_option(reg, target, name, &i, err);
    if (!rec)
        return -1;
    const byoc_type_desc *t = &rec->decl->options[i].type;
    if (!text)
        text = "";
    bx_arena scratch;
    bx_arena_init(&scratch);
    byoc_value v;
    memset(&v, 0, sizeof v);
    /* An optional option is unset with None, even a string one: whoever
     * wants the string "None" there cannot have it, which is the lesser
     * surprise. */
    bool ok = (t->optional && is_none(text))
              || read_as(text, t->base, t->depth, &v, &scratch)
              || (t->has_alt && read_as(text, t->alt_base, t->alt_depth, &v, &scratch));
    int rc;
    if (ok) {
        rc = byoc_target_set_option(reg, target, name, &v, err);
    } else {
        char want[64];
        byoc_type_format(t, want, sizeof want);
        bx_error_set(err, NULL, 0, 0, "invalid value '%s' for option '%s' of target '%s' (type %s)",
                     text, name, target, want);
        rc = -1;
    }
    bx_arena_free(&scratch);
    return rc;
}

int byoc_registry_set_option_spec(byoc_registry *reg, const char *spec, byoc_error *err)
{
    const char *colon = spec ? strchr(spec, ':') : NULL;
    const char *eq = colon ? strchr(colon, '=') : NULL;
    if (!spec || !colon || !eq || colon == spec || eq == colon + 1) {
        bx_error_set(err, NULL, 0, 0, "invalid option setting '%s' (expected target:name=value)",
                     spec ? spec : "");
        return -1;
    }
    bx_arena scratch;
    bx_arena_init(&scratch);
    const char *target = bx_arena_strndup(&scratch, spec, (size_t)(colon - spec));
    const char *name = bx_arena_strndup(&scratch, colon + 1, (size_t)(eq - colon - 1));
    int rc = byoc_target_set_option_text(reg, target, name, eq + 1, err);
    bx_arena_free(&scratch);
    return rc;
}

/* ---- the default device ------------------------------------------------ */

/* Does device d have a native target (one that supports every op)? */
static bool has_native(const byoc_registry *reg, const byoc_device_decl *d)
{
    for (int i = 0; i < reg->ntargets; i++)
        if (byoc_target_supports_all(reg, reg->targets[i].decl)
            && byoc_target_device(reg, reg->targets[i].decl) == d)
            return true;
    return false;
}

int byoc_registry_set_default_device(byoc_registry *reg, const char *device, byoc_error *err)
{
    if (!reg) {
        bx_error_set(err, NULL, 0, 0, "no registry");
        return -1;
    }
    if (!device) {
        reg->default_device = 0;
        return 0;
    }
    int i = index_of(&reg->device_names, device);
    if (i < 0) {
        char hint[160];
        bx_suggest s;
        bx_suggest_init(&s, device);
        for (int k = 0; k < reg->ndevices; k++)
            bx_suggest_offer(&s, ((const byoc_device_decl *)reg->devices[k].decl)->name);
        bx_error_set(err, NULL, 0, 0, "unknown device '%s'%s", device,
                     bx_suggest_hint(&s, hint, sizeof hint));
        return -1;
    }
    if (!has_native(reg, byoc_registry_device_at(reg, i))) {
        bx_error_set(err, NULL, 0, 0,
                     "device '%s' has no native target (one with 'supports *'), so it cannot "
                     "be the default device",
                     device);
        return -1;
    }
    reg->default_device = i + 1;
    return 0;
}

const byoc_device_decl *byoc_registry_default_device(const byoc_registry *reg)
{
    if (!reg)
        return NULL;
    if (reg->default_device > 0)
        return byoc_registry_device_at(reg, reg->default_device - 1);
    for (int i = 0; i < reg->ntargets; i++)
        if (byoc_target_supports_all(reg, reg->targets[i].decl))
            return byoc_target_device(reg, reg->targets[i].decl);
    return NULL;
}

/* ---- device parameters ------------------------------------------------- */

/* A copy of d with room for a peak of every dtype, in one block: later
 * changes never move it, so pointers to it stay valid. */
static byoc_device_decl *copy_device(const byoc_device_decl *d)
{
    size_t n = (size_t)d->npeaks;
    byoc_device_decl *c = malloc(sizeof *c + sizeof(byoc_peak) * (n + BYOC_DT_COUNT_));
    if (!c)
        bx_oom();
    *c = *d;
    byoc_peak *peaks = (byoc_peak *)(c + 1);
    if (n)
        memcpy(peaks, d->peaks, sizeof *peaks * n);
    c->peaks = peaks;
    return c;
}

static int set_device_spec(byoc_registry *reg, const char *spec, byoc_error *err)
{
    static const char *const keys[] = {"flops", "bandwidth", "launch", "inner_launch", "units",
                                       "grain"};
    const char *colon = spec ? strchr(spec, ':') : NULL;
    const char *eq = colon ? strchr(colon, '=') : NULL;
    if (!reg || !spec || !colon || !eq || colon == spec || eq == colon + 1) {
        bx_error_set(err, NULL, 0, 0,
                     "invalid device setting '%s' (expected device:key=value, key one of flops.DTYPE, "
                     "bandwidth, launch, inner_launch, units, grain)",
                     spec ? spec : "");
        return -1;
    }
    int k = -1;
    {
        char name[256];
        size_t len = (size_t)(colon - spec);
        if (len < sizeof name) {
            memcpy(name, spec, len);
            name[len] = 0;
            k = index_of(&reg->device_names, name);
        }
    }
    if (k < 0) {
        bx_error_set(err, NULL, 0, 0, "unknown device '%.*s' in '%s'", (int)(colon - spec), spec,
                     spec);
        return -1;
    }
    size_t klen = (size_t)(eq - colon - 1);
    const char *key = colon + 1, *dot = memchr(key, '.', klen);
    int which = -1;
    for (int i = 0; i < 6; i++)
        if (strlen(keys[i]) == (dot ? (size_t)(dot - key) : klen) &&
            !strncmp(key, keys[i], strlen(keys[i])))
            which = i;
    byoc_dtype dt = BYOC_DT_VOID;
    if (which == 0) {
        char dname[64];
        size_t dl = dot ? klen - (size_t)(dot - key) - 1 : 0;
        int found = -1;
        if (dot && dl < sizeof dname) {
            memcpy(dname, dot + 1, dl);
            dname[dl] = 0;
            found = byoc_dtype_lookup(dname);
        }
        if (!dot) {
            bx_error_set(err, NULL, 0, 0, "'%s': a peak is set as flops.DTYPE (flops.float16=1e15)",
                         spec);
            return -1;
        }
        if (found <= 0) {
            bx_error_set(err, NULL, 0, 0, "'%s': unknown dtype '%.*s'", spec, (int)dl, dot + 1);
            return -1;
        }
        dt = (byoc_dtype)found;
    } else if (which < 0 || dot) {
        bx_error_set(err, NULL, 0, 0,
                     "'%s': unknown device key '%.*s' (flops.DTYPE, bandwidth, launch, "
                     "inner_launch, units, grain)",
                     spec, (int)klen, key);
        return -1;
    }
    double v;
    const char *why = NULL;
    if (bx_parse_nonneg(eq + 1, &v, &why) != 0 || isinf(v)) {
        bx_error_set(err, NULL, 0, 0, "'%s': bad value '%s': %s", spec, eq + 1,
                     why ? why : "not finite");
        return -1;
    }
    if (which == 4 && !(v == floor(v) && v <= 1e6)) {
        bx_error_set(err, NULL, 0, 0, "'%s': units must be a whole number of at most 1000000",
                     spec);
        return -1;
    }
    if (!reg->own_devices) {
        reg->own_devices = calloc((size_t)reg->capdevices + 1, sizeof *reg->own_devices);
        if (!reg->own_devices)
            bx_oom();
    }
    byoc_device_decl *d = reg->own_devices[k];
    if (!d) {
        d = reg->own_devices[k] = copy_device(reg->devices[k].decl);
        reg->devices[k].decl = d;
    }
    switch (which) {
    case 0: {
        byoc_peak *peaks = (byoc_peak *)d->peaks;
        int i = 0;
        while (i < d->npeaks && peaks[i].dtype != dt)
            i++;
        if (i == d->npeaks) {
            peaks[d->npeaks++] = (byoc_peak){dt, v};   /* copy_device left room */
        } else {
            peaks[i].flops = v;
        }
        break;
    }
    case 1: d->bandwidth = v; break;
    case 2: d->launch = v; break;
    case 3: d->inner_launch = v; break;
    case 4: d->units = (int)v; break;
    case 5: d->grain = v; break;
    }
    return 0;
}

int byoc_registry_set_device_spec(byoc_registry *reg, const char *spec, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int rc = set_device_spec(reg, spec, err);
    bx_oom_close(&guard);
    return rc;
}

/* ---- dump -------------------------------------------------------------- */

/* One line per fact, two spaces of indent per level, values as the .byoc
 * language writes them: stable enough to diff in tests. */

static void dump_value(FILE *f, const byoc_value *v)
{
    char small[256];
    size_t n = byoc_value_format(v, small, sizeof small);
    if (n < sizeof small) {
        fputs(small, f);
        return;
    }
    char *big = malloc(n + 1);
    if (!big)
        bx_oom();
    byoc_value_format(v, big, n + 1);
    fputs(big, f);
    free(big);
}

static void dump_number(FILE *f, double x)
{
    byoc_value v = {.kind = BYOC_V_FLOAT, .u.f = x};
    dump_value(f, &v);
}

static void dump_type(FILE *f, const byoc_type_desc *t)
{
    char buf[64];
    byoc_type_format(t, buf, sizeof buf);
    fputs(buf, f);
}

static void dump_op(FILE *f, const byoc_op_decl *op)
{
    fprintf(f, "op %s: %s\n", op->name, byoc_op_kind_name(op->kind));
    for (int i = 0; i < op->ninputs; i++)
        fprintf(f, "  input %s%s\n", op->inputs[i].name, op->inputs[i].tuple ? ": tuple" : "");
    for (int i = 0; i < op->nattrs; i++) {
        const byoc_attr_decl *a = &op->attrs[i];
        fprintf(f, "  attr %s: ", a->name);
        dump_type(f, &a->type);
        if (a->has_default) {
            fputs(" = ", f);
            dump_value(f, &a->def);
        }
        fputc('\n', f);
    }
    if (op->shape_rule)
        fprintf(f, "  shape %s\n", op->shape_rule);
    if (op->flops_rule)
        fprintf(f, "  flops %s\n", op->flops_rule);
}

static void dump_device(FILE *f, const byoc_device_decl *d)
{
    fprintf(f, "device %s\n", d->name);
    for (int i = 0; i < d->npeaks; i++) {
        fprintf(f, "  flops %s ", byoc_dtype_name(d->peaks[i].dtype));
        dump_number(f, d->peaks[i].flops);
        fputc('\n', f);
    }
    fputs("  bandwidth ", f);
    dump_number(f, d->bandwidth);
    fputs("\n  launch ", f);
    dump_number(f, d->launch);
    if (d->units > 0 || d->grain > 0 || d->inner_launch > 0) {
        fprintf(f, "\n  units %d\n  grain ", d->units);
        dump_number(f, d->grain);
        fputs("\n  inner_launch ", f);
        dump_number(f, d->inner_launch);
    }
    fputc('\n', f);
}

/* Is q one of the targets from t up to p on t's chain? */
static bool on_chain(const byoc_registry *reg, const byoc_target_decl *t,
                     const byoc_target_decl *p, const byoc_target_decl *q)
{
    for (int steps = 0; t && steps <= reg->ntargets; t = byoc_target_parent(reg, t), steps++) {
        if (t == q)
            return true;
        if (t == p)
            break;
    }
    return false;
}

/* "target t : parent : ... : device", stopping at the first repeat. */
static void dump_chain(FILE *f, const byoc_registry *reg, const byoc_target_decl *t)
{
    fprintf(f, "target %s", t->name);
    for (const byoc_target_decl *p = t; p;) {
        fprintf(f, " : %s", p->parent ? p->parent : "");
        if (p->parent_is_device) {
            if (!byoc_registry_device(reg, p->parent))
                fputs(" (unknown device)", f);
            break;
        }
        const byoc_target_decl *q = byoc_target_parent(reg, p);
        if (!q) {
            fputs(" (unknown target)", f);
            break;
        }
        if (on_chain(reg, t, p, q)) {
            fputs(" (cycle)", f);
            break;
        }
        p = q;
    }
    fputc('\n', f);
}

static void dump_target(FILE *f, const byoc_registry *reg, const bx_target *rec)
{
    const byoc_target_decl *t = rec->decl;
    dump_chain(f, reg, t);
    fprintf(f, "  module %s\n", module_name(rec->mod));
    fprintf(f, "  fusion %s\n", byoc_fusion_name(byoc_target_fusion(reg, t)));
    fprintf(f, "  max_depth %d\n", byoc_target_max_depth(reg, t));
    fprintf(f, "  max_nodes %d\n", byoc_target_max_nodes(reg, t));
    fprintf(f, "  max_exits %d\n", byoc_target_max_exits(reg, t));
    fputs("  efficiency ", f);
    dump_number(f, byoc_target_efficiency(reg, t));
    fputc('\n', f);
    if (byoc_target_supports_all(reg, t))
        fputs("  supports *\n", f);
    for (int i = 0; i < t->noptions; i++) {
        const byoc_option_decl *o = &t->options[i];
        fprintf(f, "  option %s: ", o->name);
        dump_type(f, &o->type);
        fputs(" = ", f);
        dump_value(f, &o->def);
        fputs(", now ", f);
        dump_value(f, &rec->values[i]);
        fputc('\n', f);
    }
    fprintf(f, "  rules %d\n", byoc_target_rule_count(reg, t));
    int np = byoc_target_pattern_count(reg, t);
    fprintf(f, "  patterns %d\n", np);
    for (int i = 0; i < np; i++) {
        const byoc_pattern_decl *p = byoc_target_pattern_at(reg, t, i);
        fprintf(f, "    pattern %s: %d nodes\n", p->name ? p->name : "?", p->nnodes);
    }
    fprintf(f, "  partition rules %d\n", byoc_target_partition_rule_count(reg, t));
    const char *runtime = byoc_target_runtime(reg, t);
    if (runtime) {
        byoc_value v = {.kind = BYOC_V_STRING, .u.s = runtime};
        fputs("  runtime ", f);
        dump_value(f, &v);
        fputc('\n', f);
    }
    const byoc_target_decl *owner;
    int npasses = byoc_target_pass_count(reg, t, &owner);
    fprintf(f, "  passes %d", npasses);
    if (owner && owner != t)
        fprintf(f, ", inherited from %s", owner->name);
    fputc('\n', f);
    for (int i = 0; i < npasses; i++) {
        const byoc_pass_decl *p = byoc_target_pass_at(reg, t, i);
        fprintf(f, "    pass %s %s\n", byoc_pass_point_name(p->point), p->name ? p->name : "?");
    }
}

int byoc_registry_dump(const byoc_registry *reg, FILE *f)
{
    if (!reg || !f)
        return -1;
    for (int i = 0; i < reg->nmods; i++) {
        const byoc_module_decl *m = reg->mods[i];
        fprintf(f, "module %s (%s)", m->name, m->source ? m->source : "");
        for (int k = 0; k < m->nimports; k++)
            fprintf(f, "%s%s", k ? ", " : ", imports ", m->imports[k]);
        fputc('\n', f);
    }
    for (int i = 0; i < reg->nops; i++)
        dump_op(f, reg->ops[i].decl);
    for (int i = 0; i < reg->ndevices; i++)
        dump_device(f, reg->devices[i].decl);
    for (int i = 0; i < reg->nlinks; i++) {
        const byoc_link_decl *l = reg->links[i];
        fprintf(f, "link %s %s %s: bandwidth ", l->from, l->both_ways ? "<->" : "->", l->to);
        dump_number(f, l->bandwidth);
        fputs(", latency ", f);
        dump_number(f, l->latency);
        fputc('\n', f);
    }
    for (int i = 0; i < reg->ntargets; i++)
        dump_target(f, reg, &reg->targets[i]);
    return ferror(f) ? -1 : 0;
}
