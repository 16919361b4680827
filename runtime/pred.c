/* What compiled predicates call: reads of the graph, the bound slots and
 * the target's options, on behalf of byocc-generated code.
 *
 * The one rule: nothing here fails loudly.  Whatever is absent or unknown
 * - an unbound slot, an unknown dim, an optional attribute left None, an
 * index out of range, a division by zero - sets ev->undef and returns a
 * neutral value (0, 0.0, "", VOID, NULL, an empty sequence), and the
 * generated code treats a clause that read such a value as false.
 *
 * Partition-level sequences (a candidate's input and output tensors) are
 * not stored anywhere: byoc_seq is a small value with no room for them, so
 * each access recomputes them from the graph by scanning it.  That is
 * linear in the graph per access, which is fine for predicates that look
 * at a few of them. */
#include <stdlib.h>
#include <string.h>

#include <byoc/pred.h>

#include "die.h"
#include "graph_impl.h"

static const byoc_tref no_tensor = {-1, -1};

static bool undef_bool(byoc_eval *ev) { ev->undef = 1; return false; }
static int64_t undef_int(byoc_eval *ev) { ev->undef = 1; return 0; }
static double undef_float(byoc_eval *ev) { ev->undef = 1; return 0.0; }

bool byoc_ev_fail(byoc_eval *ev, int clause)
{
    ev->failed_clause = clause;
    return false;
}

/* ---- tensors ----------------------------------------------------------- */

byoc_tref byoc_ev_slot(byoc_eval *ev, int slot)
{
    if (!ev->slots || slot < 0 || slot >= ev->nslots || ev->slots[slot] < 0) {
        ev->undef = 1;
        return no_tensor;
    }
    byoc_tref t = {ev->slots[slot], -1};
    return t;
}

static bool node_exists(const byoc_eval *ev, int node)
{
    return node >= 0 && node < byoc_graph_node_count(ev->graph);
}

/* The type of t, or NULL (and undef) when t has none: a bad node, a tuple
 * read as a whole, a field out of range. */
static const byoc_tensor_type *type_of(byoc_eval *ev, byoc_tref t)
{
    const byoc_tensor_type *ty = byoc_node_type(ev->graph, t.node, t.field);
    if (!ty)
        ev->undef = 1;
    return ty;
}

byoc_dtype byoc_ev_dtype(byoc_eval *ev, byoc_tref t)
{
    const byoc_tensor_type *ty = type_of(ev, t);
    if (!ty || ty->dtype == BYOC_DT_VOID) {
        ev->undef = 1;
        return BYOC_DT_VOID;
    }
    return ty->dtype;
}

int64_t byoc_ev_rank(byoc_eval *ev, byoc_tref t)
{
    const byoc_tensor_type *ty = type_of(ev, t);
    if (!ty || ty->rank < 0)
        return undef_int(ev);
    return ty->rank;
}

int64_t byoc_ev_dim(byoc_eval *ev, byoc_tref t, int64_t i)
{
    const byoc_tensor_type *ty = type_of(ev, t);
    if (!ty || ty->rank < 0)
        return undef_int(ev);
    if (i < 0)
        i += ty->rank;
    if (i < 0 || i >= ty->rank || ty->dims[i] < 0)
        return undef_int(ev);
    return ty->dims[i];
}

int64_t byoc_ev_numel(byoc_eval *ev, byoc_tref t)
{
    const byoc_tensor_type *ty = type_of(ev, t);
    if (!ty || ty->rank < 0)
        return undef_int(ev);
    int64_t p = 1;
    for (int i = 0; i < ty->rank; i++) {
        int64_t d = ty->dims[i];
        if (d < 0 || (d > 0 && p > INT64_MAX / d))
            return undef_int(ev);
        p *= d;
    }
    return p;
}

bool byoc_ev_is_const(byoc_eval *ev, byoc_tref t)
{
    return node_exists(ev, t.node) && byoc_node_kind_of(ev->graph, t.node) == BYOC_N_CONST;
}

/* A scalar: a number, or a list holding exactly one (at any depth). */
static bool scalar_of(const byoc_value *v, double *out)
{
    while (v && v->kind == BYOC_V_LIST && v->u.list.n == 1)
        v = &v->u.list.items[0];
    if (!v)
        return false;
    switch (v->kind) {
    case BYOC_V_INT: *out = (double)v->u.i; return true;
    case BYOC_V_FLOAT: *out = v->u.f; return true;
    case BYOC_V_BOOL: *out = v->u.b ? 1.0 : 0.0; return true;
    default: return false;
    }
}

double byoc_ev_value(byoc_eval *ev, byoc_tref t)
{
    double x;
    if (t.field >= 0 || !byoc_ev_is_const(ev, t)
        || !scalar_of(byoc_node_const_value(ev->graph, t.node), &x))
        return undef_float(ev);
    return x;
}

const char *byoc_ev_op(byoc_eval *ev, byoc_tref t)
{
    const byoc_op_decl *op = node_exists(ev, t.node) ? byoc_node_op(ev->graph, t.node) : NULL;
    return op ? op->name : NULL;
}

bool byoc_ev_tref_eq(byoc_tref a, byoc_tref b)
{
    return a.node == b.node && a.field == b.field;
}

/* ---- values ------------------------------------------------------------ */

const byoc_value *byoc_ev_attr(byoc_eval *ev, byoc_tref t, const char *name)
{
    const byoc_value *v = node_exists(ev, t.node) ? byoc_node_attr(ev->graph, t.node, name)
                                                  : NULL;
    if (!v || v->kind == BYOC_V_NONE) {
        ev->undef = 1;
        return NULL;
    }
    return v;
}

const byoc_value *byoc_ev_option(byoc_eval *ev, int index)
{
    if (!ev->options || index < 0 || index >= ev->noptions) {
        ev->undef = 1;
        return NULL;
    }
    return &ev->options[index];
}

bool byoc_ev_bool(byoc_eval *ev, const byoc_value *v)
{
    if (!v || v->kind != BYOC_V_BOOL)
        return undef_bool(ev);
    return v->u.b;
}

int64_t byoc_ev_int(byoc_eval *ev, const byoc_value *v)
{
    if (v && v->kind == BYOC_V_INT)
        return v->u.i;
    /* A float is an int only when it is one exactly. */
    if (v && v->kind == BYOC_V_FLOAT && v->u.f >= -9223372036854775808.0
        && v->u.f < 9223372036854775808.0 && (double)(int64_t)v->u.f == v->u.f)
        return (int64_t)v->u.f;
    return undef_int(ev);
}

double byoc_ev_float(byoc_eval *ev, const byoc_value *v)
{
    if (v && v->kind == BYOC_V_FLOAT)
        return v->u.f;
    if (v && v->kind == BYOC_V_INT)
        return (double)v->u.i;
    return undef_float(ev);
}

const char *byoc_ev_str(byoc_eval *ev, const byoc_value *v)
{
    if (!v || v->kind != BYOC_V_STRING) {
        ev->undef = 1;
        return "";
    }
    return v->u.s ? v->u.s : "";
}

byoc_dtype byoc_ev_dt(byoc_eval *ev, const byoc_value *v)
{
    if (!v || v->kind != BYOC_V_DTYPE) {
        ev->undef = 1;
        return BYOC_DT_VOID;
    }
    return v->u.dt;
}

uint64_t byoc_ev_ver(byoc_eval *ev, const byoc_value *v)
{
    if (!v || v->kind != BYOC_V_VERSION) {
        ev->undef = 1;
        return 0;
    }
    return v->u.ver;
}

/* ---- sequences --------------------------------------------------------- */

static byoc_seq empty_seq(byoc_eval *ev, byoc_seq_kind kind)
{
    byoc_seq s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.t = no_tensor;
    ev->undef = 1;
    return s;
}

byoc_seq byoc_ev_seq_values(byoc_eval *ev, const byoc_value *list)
{
    if (!list || list->kind != BYOC_V_LIST)
        return empty_seq(ev, BYOC_SEQ_VALUES);
    byoc_seq s = {BYOC_SEQ_VALUES, list, no_tensor, (int64_t)list->u.list.n};
    return s;
}

byoc_seq byoc_ev_seq_shape(byoc_eval *ev, byoc_tref t)
{
    const byoc_tensor_type *ty = type_of(ev, t);
    if (!ty || ty->rank < 0)
        return empty_seq(ev, BYOC_SEQ_SHAPE);
    byoc_seq s = {BYOC_SEQ_SHAPE, NULL, t, ty->rank};
    return s;
}

byoc_seq byoc_ev_seq_inputs(byoc_eval *ev, byoc_tref t)
{
    if (!node_exists(ev, t.node))
        return empty_seq(ev, BYOC_SEQ_INPUTS);
    byoc_seq s = {BYOC_SEQ_INPUTS, NULL, t, byoc_node_arg_count(ev->graph, t.node)};
    return s;
}

byoc_seq byoc_ev_seq_outputs(byoc_eval *ev, byoc_tref t)
{
    if (!node_exists(ev, t.node))
        return empty_seq(ev, BYOC_SEQ_OUTPUTS);
    int nf = byoc_node_field_count(ev->graph, t.node);
    byoc_seq s = {BYOC_SEQ_OUTPUTS, NULL, t, nf >= 0 ? nf : 1};
    return s;
}

/* Element `want` of a candidate's input or output tensors (when want >= 0
 * and *out is given), and their number.  Inputs: distinct nodes used by a
 * member but not members, in order of first use; outputs: members used by
 * a non-member or by nothing at all (the graph's results). */
static int64_t part_tensors(byoc_eval *ev, byoc_seq_kind kind, int64_t want, byoc_tref *out)
{
    const int *given = kind == BYOC_SEQ_PINPUTS ? ev->pinputs : ev->poutputs;
    if (given) {
        int64_t count = kind == BYOC_SEQ_PINPUTS ? ev->npinputs : ev->npoutputs;
        if (want >= 0 && want < count && out)
            out->node = given[want], out->field = -1;
        return count;
    }
    int n = byoc_graph_node_count(ev->graph);
    /* One byte per node: bit 1 member, bit 2 already listed, bit 4 used
     * by a non-member, bit 8 used at all. */
    unsigned char *mark = calloc((size_t)n + 1, 1);
    if (!mark)
        bx_oom();
    for (int i = 0; i < ev->npart; i++) {
        if (node_exists(ev, ev->part[i]))
            mark[ev->part[i]] |= 1;
        else
            ev->undef = 1;
    }
    int64_t count = 0;
    if (kind == BYOC_SEQ_PINPUTS) {
        for (int i = 0; i < ev->npart; i++) {
            int node = ev->part[i];
            if (!node_exists(ev, node))
                continue;
            for (int k = 0; k < byoc_node_arg_count(ev->graph, node); k++) {
                int a = byoc_node_arg(ev->graph, node, k);
                if (a < 0 || (mark[a] & 3))
                    continue;
                mark[a] |= 2;
                if (count++ == want && out)
                    out->node = a, out->field = -1;
            }
        }
    } else {
        for (int j = 0; j < n; j++)
            for (int k = 0; k < byoc_node_arg_count(ev->graph, j); k++) {
                int a = byoc_node_arg(ev->graph, j, k);
                if (a >= 0)
                    mark[a] |= (mark[j] & 1) ? 8 : 8 | 4;
            }
        for (int i = 0; i < ev->npart; i++) {
            int node = ev->part[i];
            if (!node_exists(ev, node) || (mark[node] & 2))
                continue;
            mark[node] |= 2;
            if ((mark[node] & 4) || !(mark[node] & 8))
                if (count++ == want && out)
                    out->node = node, out->field = -1;
        }
    }
    free(mark);
    return count;
}

byoc_seq byoc_ev_seq_part(byoc_eval *ev, byoc_seq_kind kind)
{
    if (!ev->part || ev->npart < 0 || !ev->graph)
        return empty_seq(ev, kind);
    byoc_seq s = {kind, NULL, no_tensor, 0};
    switch (kind) {
    case BYOC_SEQ_NODES: s.n = ev->npart; break;
    case BYOC_SEQ_PINPUTS:
    case BYOC_SEQ_POUTPUTS: s.n = part_tensors(ev, kind, -1, NULL); break;
    default: return empty_seq(ev, kind);
    }
    return s;
}

/* Scalar i of a constant's flat data (see byoc_ev_seq_data). */
static const byoc_value *data_at(const byoc_value *v, int64_t i)
{
    return v->kind == BYOC_V_LIST ? &v->u.list.items[i] : v;
}

byoc_seq byoc_ev_seq_data(byoc_eval *ev, byoc_tref t)
{
    /* The flat copy the graph keeps: element i in O(1), the length too. */
    const byoc_value *v = t.field < 0 && byoc_ev_is_const(ev, t)
                              ? bx_node_const_flat(ev->graph, t.node) : NULL;
    if (!v || v->kind == BYOC_V_NONE)
        return empty_seq(ev, BYOC_SEQ_DATA);
    byoc_seq s = {BYOC_SEQ_DATA, v, t, v->kind == BYOC_V_LIST ? (int64_t)v->u.list.n : 1};
    return s;
}

byoc_seq byoc_ev_seq_range(byoc_eval *ev, int64_t n)
{
    (void)ev;
    byoc_seq s = {BYOC_SEQ_RANGE, NULL, no_tensor, n > 0 ? n : 0};
    return s;
}

int64_t byoc_ev_seq_len(byoc_eval *ev, byoc_seq s)
{
    (void)ev;
    return s.n;
}

/* i as an index into s, negative counting from the end; -1 (and undef)
 * when out of range. */
static int64_t seq_index(byoc_eval *ev, byoc_seq s, int64_t i)
{
    if (i < 0)
        i += s.n;
    if (i < 0 || i >= s.n) {
        ev->undef = 1;
        return -1;
    }
    return i;
}

int64_t byoc_ev_seq_int(byoc_eval *ev, byoc_seq s, int64_t i)
{
    i = seq_index(ev, s, i);
    if (i < 0)
        return 0;
    switch (s.kind) {
    case BYOC_SEQ_VALUES: return byoc_ev_int(ev, &s.values->u.list.items[i]);
    case BYOC_SEQ_SHAPE: return byoc_ev_dim(ev, s.t, i);
    case BYOC_SEQ_RANGE: return i;
    case BYOC_SEQ_DATA: return byoc_ev_int(ev, data_at(s.values, i));
    default: return undef_int(ev);
    }
}

const byoc_value *byoc_ev_seq_value(byoc_eval *ev, byoc_seq s, int64_t i)
{
    i = seq_index(ev, s, i);
    if (i < 0)
        return NULL;
    if (s.kind == BYOC_SEQ_DATA)
        return data_at(s.values, i);
    if (s.kind != BYOC_SEQ_VALUES) {
        ev->undef = 1;
        return NULL;
    }
    return &s.values->u.list.items[i];
}

byoc_tref byoc_ev_seq_tensor(byoc_eval *ev, byoc_seq s, int64_t i)
{
    i = seq_index(ev, s, i);
    if (i < 0)
        return no_tensor;
    byoc_tref t = no_tensor;
    switch (s.kind) {
    case BYOC_SEQ_INPUTS:
        t.node = byoc_node_arg(ev->graph, s.t.node, (int)i);
        break;
    case BYOC_SEQ_OUTPUTS:
        t.node = s.t.node;
        t.field = byoc_node_field_count(ev->graph, s.t.node) >= 0 ? (int)i : -1;
        break;
    case BYOC_SEQ_NODES:
        t.node = ev->part[i];
        break;
    case BYOC_SEQ_PINPUTS:
    case BYOC_SEQ_POUTPUTS:
        /* The graph may not have changed since the sequence was made, so
         * element i is still there; a miss means it did. */
        if (part_tensors(ev, s.kind, i, &t) <= i)
            ev->undef = 1;
        break;
    default:
        ev->undef = 1;
        break;
    }
    return t;
}

static bool is_tensor_seq(byoc_seq_kind k)
{
    return k != BYOC_SEQ_VALUES && k != BYOC_SEQ_SHAPE && k != BYOC_SEQ_DATA
           && k != BYOC_SEQ_RANGE;
}

/* Element i of a list of numbers as a double. */
static double seq_float(byoc_eval *ev, byoc_seq s, int64_t i)
{
    switch (s.kind) {
    case BYOC_SEQ_VALUES:
    case BYOC_SEQ_DATA: return byoc_ev_float(ev, byoc_ev_seq_value(ev, s, i));
    default: return (double)byoc_ev_seq_int(ev, s, i);
    }
}

bool byoc_ev_seq_eq(byoc_eval *ev, byoc_seq a, byoc_seq b)
{
    if (a.n != b.n || is_tensor_seq(a.kind) != is_tensor_seq(b.kind))
        return false;
    /* An element that cannot be read makes the comparison false as well as
     * undefined: two unknown dims are not known to be equal. */
    int outer = ev->undef;
    ev->undef = 0;
    bool same = true;
    for (int64_t i = 0; same && !ev->undef && i < a.n; i++) {
        if (is_tensor_seq(a.kind))
            same = byoc_ev_tref_eq(byoc_ev_seq_tensor(ev, a, i), byoc_ev_seq_tensor(ev, b, i));
        else if (a.kind == BYOC_SEQ_VALUES && b.kind == BYOC_SEQ_VALUES)
            same = byoc_value_equal(&a.values->u.list.items[i], &b.values->u.list.items[i]);
        else if (a.kind == BYOC_SEQ_DATA || b.kind == BYOC_SEQ_DATA)
            same = seq_float(ev, a, i) == seq_float(ev, b, i);
        else
            same = byoc_ev_seq_int(ev, a, i) == byoc_ev_seq_int(ev, b, i);
    }
    same = same && !ev->undef;
    ev->undef |= outer;
    return same;
}

/* ---- strings ----------------------------------------------------------- */

const char *byoc_ev_str_at(byoc_eval *ev, const char *s, int64_t i)
{
    /* Every one-character string, so that s[i] needs no memory. */
    static const char chars[256][2] = {
#define C4(b) {(char)(b)}, {(char)((b) + 1)}, {(char)((b) + 2)}, {(char)((b) + 3)}
#define C16(b) C4(b), C4((b) + 4), C4((b) + 8), C4((b) + 12)
#define C64(b) C16(b), C16((b) + 16), C16((b) + 32), C16((b) + 48)
        C64(0), C64(64), C64(128), C64(192)
#undef C64
#undef C16
#undef C4
    };
    int64_t n = (int64_t)strlen(s ? s : "");
    if (i < 0 && i >= -n)
        i += n;
    if (i < 0 || i >= n) {
        ev->undef = 1;
        return "";
    }
    return chars[(unsigned char)s[i]];
}

int64_t byoc_ev_str_len(byoc_eval *ev, const char *s)
{
    (void)ev;
    return (int64_t)strlen(s ? s : "");
}

int64_t byoc_ev_str_find(byoc_eval *ev, const char *s, const char *sub)
{
    (void)ev;
    const char *at = strstr(s ? s : "", sub ? sub : "");
    return at ? (int64_t)(at - (s ? s : "")) : -1;
}

bool byoc_ev_str_starts(byoc_eval *ev, const char *s, const char *prefix)
{
    (void)ev;
    s = s ? s : "";
    prefix = prefix ? prefix : "";
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool byoc_ev_str_ends(byoc_eval *ev, const char *s, const char *suffix)
{
    (void)ev;
    s = s ? s : "";
    suffix = suffix ? suffix : "";
    size_t n = strlen(s), k = strlen(suffix);
    return k <= n && strcmp(s + n - k, suffix) == 0;
}

/* ---- helpers ----------------------------------------------------------- */

bool byoc_ev_str_eq(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

bool byoc_ev_in_int(int64_t v, const int64_t *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == v)
            return true;
    return false;
}

bool byoc_ev_in_float(double v, const double *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == v)
            return true;
    return false;
}

bool byoc_ev_in_str(const char *v, const char *const *set, int n)
{
    for (int i = 0; i < n; i++)
        if (byoc_ev_str_eq(v, set[i]))
            return true;
    return false;
}

bool byoc_ev_in_dt(byoc_dtype v, const byoc_dtype *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == v)
            return true;
    return false;
}

int64_t byoc_ev_count_ops(byoc_eval *ev, const char *const *ops, int n)
{
    if (!ev->part)
        return undef_int(ev);
    int64_t count = 0;
    for (int i = 0; i < ev->npart; i++) {
        byoc_tref t = {ev->part[i], -1};
        const char *op = byoc_ev_op(ev, t);
        if (op && byoc_ev_in_str(op, ops, n))
            count++;
    }
    return count;
}

/* C's truncating division; what C leaves undefined is undefined here. */
int64_t byoc_ev_div(byoc_eval *ev, int64_t a, int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return undef_int(ev);
    return a / b;
}

int64_t byoc_ev_mod(byoc_eval *ev, int64_t a, int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return undef_int(ev);
    return a % b;
}

double byoc_ev_fdiv(byoc_eval *ev, double a, double b)
{
    if (b == 0.0)
        return undef_float(ev);
    return a / b;
}

int64_t byoc_ev_add(byoc_eval *ev, int64_t a, int64_t b)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return undef_int(ev);
    return a + b;
}

int64_t byoc_ev_sub(byoc_eval *ev, int64_t a, int64_t b)
{
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return undef_int(ev);
    return a - b;
}

int64_t byoc_ev_mul(byoc_eval *ev, int64_t a, int64_t b)
{
    /* Divisions that truncate toward zero give the exact bounds. */
    bool over;
    if (a == 0 || b == 0)
        over = false;
    else if (a == -1)
        over = b == INT64_MIN;
    else if (b == -1)
        over = a == INT64_MIN;
    else if ((a > 0) == (b > 0))
        over = a > 0 ? a > INT64_MAX / b : a < INT64_MAX / b;
    else
        over = a > 0 ? b < INT64_MIN / a : a < INT64_MIN / b;
    if (over)
        return undef_int(ev);
    return a * b;
}

int64_t byoc_ev_neg(byoc_eval *ev, int64_t a)
{
    if (a == INT64_MIN)
        return undef_int(ev);
    return -a;
}

int64_t byoc_ev_iabs(byoc_eval *ev, int64_t a)
{
    if (a == INT64_MIN)
        return undef_int(ev);
    return a < 0 ? -a : a;
}

double byoc_ev_fabs(byoc_eval *ev, double a)
{
    (void)ev;
    return a < 0 ? -a : a;
}

/* ---- pairs of a candidate's tensors ----------------------------------- */

/* What a type-only body can see of a tensor: constness and type. */
static bool same_class(const byoc_graph *g, byoc_tref a, byoc_tref b)
{
    if ((byoc_node_kind_of(g, a.node) == BYOC_N_CONST) != (byoc_node_kind_of(g, b.node) == BYOC_N_CONST))
        return false;
    const byoc_tensor_type *x = byoc_node_type(g, a.node, a.field);
    const byoc_tensor_type *y = byoc_node_type(g, b.node, b.field);
    if (!x || !y)
        return !x && !y;
    if (x->dtype != y->dtype || x->rank != y->rank)
        return false;
    for (int i = 0; i < x->rank; i++)
        if (x->dims[i] != y->dims[i])
            return false;
    return true;
}

static uint64_t class_hash(const byoc_graph *g, byoc_tref t)
{
    uint64_t h = byoc_node_kind_of(g, t.node) == BYOC_N_CONST ? 0x9e3779b97f4a7c15ull : 1;
    const byoc_tensor_type *ty = byoc_node_type(g, t.node, t.field);
    if (ty) {
        h = (h ^ (uint64_t)ty->dtype) * 0x100000001b3ull;
        h = (h ^ (uint64_t)(int64_t)ty->rank) * 0x100000001b3ull;
        for (int i = 0; i < ty->rank; i++)
            h = (h ^ (uint64_t)ty->dims[i]) * 0x100000001b3ull;
    }
    return h ^ (h >> 29);
}

/* The nested loops as byocc wrote them before byoc_ev_all_pairs. */
static bool pairs_literal(byoc_eval *ev, byoc_seq s, byoc_pair_fn *body)
{
    int64_t n = byoc_ev_seq_len(ev, s);
    for (int64_t i = 0; i < n; i++) {
        byoc_tref a = byoc_ev_seq_tensor(ev, s, i);
        byoc_seq s2 = byoc_ev_seq_part(ev, s.kind);
        int64_t n2 = byoc_ev_seq_len(ev, s2);
        for (int64_t j = 0; j < n2; j++)
            if (!body(ev, a, byoc_ev_seq_tensor(ev, s2, j)))
                return false;
    }
    return true;
}

/* Outcome of body on one pair: bit 1 false, bit 2 undefined. */
static unsigned char pair_outcome(byoc_eval *ev, byoc_pair_fn *body, byoc_tref a, byoc_tref b)
{
    int outer = ev->undef;
    ev->undef = 0;
    bool v = body(ev, a, b);
    unsigned char o = (unsigned char)((v ? 0 : 1) | (ev->undef ? 2 : 0));
    ev->undef = outer;
    return o;
}

/* The loops visit (i, j) in order and stop at the first false pair; the
 * undefined reads are those of the pairs up to it.  With elements in
 * classes, the outcome of (i, j) depends only on their classes and on
 * whether i == j, so per class pair it is computed once, and per row i
 * the first false j and the first undefined j are minima over classes:
 * O(n + classes^2) calls of nothing heavier than a hash. */
bool byoc_ev_all_pairs(byoc_eval *ev, byoc_seq s, byoc_pair_fn *body)
{
    const int *given = s.kind == BYOC_SEQ_PINPUTS ? ev->pinputs
                       : s.kind == BYOC_SEQ_POUTPUTS ? ev->poutputs
                       : s.kind == BYOC_SEQ_NODES ? ev->part : NULL;
    int64_t n = byoc_ev_seq_len(ev, s);
    /* The elements must be at hand (the loops would then read no
     * undefined value outside body) and valid nodes. */
    bool fast = given && ev->graph && n > 0 && n <= INT32_MAX / 4;
    for (int64_t i = 0; fast && i < n; i++)
        fast = node_exists(ev, given[i]);
    if (!fast)
        return n <= 0 || pairs_literal(ev, s, body);
    const byoc_graph *g = ev->graph;
    size_t cap = 16;
    while (cap < (size_t)n * 2)
        cap *= 2;
    /* Most candidates have a few inputs: no allocation for them (this runs
     * for every candidate of a target with such a rule). */
    enum { SMALL = 32 };
    int slot_s[2 * SMALL], cls_s[SMALL], first_s[SMALL], second_s[SMALL];
    unsigned char out_s[SMALL * SMALL + 1], diag_s[SMALL + 1];
    int64_t ffalse_s[SMALL], fundef_s[SMALL];
    bool small = n <= SMALL;
    int *slot = small ? slot_s : malloc(cap * sizeof *slot);
    int *cls = small ? cls_s : malloc((size_t)n * sizeof *cls);
    int *first = small ? first_s : malloc((size_t)n * sizeof *first);
    int *second = small ? second_s : malloc((size_t)n * sizeof *second);
    if (!slot || !cls || !first || !second)
        bx_oom();
    for (size_t k = 0; k < cap; k++)
        slot[k] = -1;
    int nc = 0;
    for (int64_t i = 0; i < n; i++) {
        byoc_tref t = {given[i], -1};
        size_t k = (size_t)class_hash(g, t) & (cap - 1);
        for (; slot[k] >= 0; k = (k + 1) & (cap - 1)) {
            byoc_tref r = {given[first[slot[k]]], -1};
            if (same_class(g, t, r))
                break;
        }
        if (slot[k] < 0) {
            slot[k] = nc;
            first[nc] = (int)i;
            second[nc] = -1;
            nc++;
        } else if (second[slot[k]] < 0) {
            second[slot[k]] = (int)i;
        }
        cls[i] = slot[k];
    }
    if (!small)
        free(slot);
    /* Too many classes for a table: the loops cost no more. */
    if ((size_t)nc * (size_t)nc > (size_t)n * 16 + 4096) {
        if (!small) {
            free(cls);
            free(first);
            free(second);
        }
        return pairs_literal(ev, s, body);
    }
    /* out[c * nc + d]: a in c, b in d, a != b; diag[c]: a == b. */
    unsigned char *out = small ? out_s : calloc((size_t)nc * (size_t)nc + 1, 1);
    unsigned char *diag = small ? diag_s : calloc((size_t)nc + 1, 1);
    /* per class c of a: the first b in another class whose pair is
     * false, and the first whose pair reads an undefined value */
    int64_t *ffalse = small ? ffalse_s : malloc((size_t)nc * sizeof *ffalse);
    int64_t *fundef = small ? fundef_s : malloc((size_t)nc * sizeof *fundef);
    if (!out || !diag || !ffalse || !fundef)
        bx_oom();
    for (int c = 0; c < nc; c++) {
        byoc_tref a = {given[first[c]], -1};
        diag[c] = pair_outcome(ev, body, a, a);
        ffalse[c] = fundef[c] = n;
        for (int d = 0; d < nc; d++) {
            if (d == c && second[c] < 0)
                continue;
            byoc_tref b = {given[d == c ? second[c] : first[d]], -1};
            unsigned char o = out[(size_t)c * (size_t)nc + (size_t)d] = pair_outcome(ev, body, a, b);
            if (d != c && (o & 1) && first[d] < ffalse[c])
                ffalse[c] = first[d];
            if (d != c && (o & 2) && first[d] < fundef[c])
                fundef[c] = first[d];
        }
    }
    bool all = true, undef = false;
    for (int64_t i = 0; i < n && all; i++) {
        int c = cls[i];
        /* the first other element of i's own class */
        int64_t same = first[c] != i ? first[c] : second[c] >= 0 ? second[c] : n;
        unsigned char so = same < n ? out[(size_t)c * (size_t)nc + (size_t)c] : 0;
        int64_t jf = ffalse[c], ju = fundef[c];
        if ((so & 1) && same < jf)
            jf = same;
        if ((so & 2) && same < ju)
            ju = same;
        if ((diag[c] & 1) && i < jf)
            jf = i;
        if ((diag[c] & 2) && i < ju)
            ju = i;
        /* the row runs to its first false pair, or to its end */
        if (ju < n && ju <= jf)
            undef = true;
        if (jf < n)
            all = false;
    }
    if (undef)
        ev->undef = 1;
    if (!small) {
        free(out);
        free(diag);
        free(ffalse);
        free(fundef);
        free(cls);
        free(first);
        free(second);
    }
    return all;
}
