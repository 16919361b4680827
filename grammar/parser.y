/* The .byoc parser.
 *
 * A pure LALR(1) grammar with locations that builds the AST of one file.
 * It resolves no names: `nn.relu` in a pattern and `c.groups` in a
 * predicate are both dotted names here, and check.c decides what they mean.
 * Errors recover at declaration and target-item boundaries (`;` and `}`),
 * so one run reports every syntax error it can; parse_source counts errors
 * itself because yyparse returns 0 after a recovery.
 *
 * Every node records its depth, and the first to pass BYOCC_MAX_DEPTH is
 * an error: the phases after this one walk trees recursively, and a left
 * chain `a && b && ...` is as deep as it is long.  Bison's own stack holds
 * what is still open (right nesting: `!!!x`, `((x))`, `f(g(x))`); its
 * limit is ten states per level of BYOCC_MAX_DEPTH, more than any level
 * takes, so running out of it means nesting past the limit too. */

%define api.pure full
%define api.value.type union
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {parse_ctx *ctx}

%code requires {
#include "ast.h"
#include "parse_ctx.h"
typedef void *yyscan_t;
}

%code {
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "die.h"

#define YYMAXDEPTH (10 * BYOCC_MAX_DEPTH)
/* Running out of memory is bx_oom's, not a "memory exhausted" error. */
#define YYMALLOC parser_malloc
#define YYFREE free
static void *parser_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        bx_oom();
    return p;
}

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                       \
    do {                                                                  \
        if (N) {                                                          \
            (Cur).first_line = YYRHSLOC(Rhs, 1).first_line;               \
            (Cur).first_column = YYRHSLOC(Rhs, 1).first_column;           \
            (Cur).last_line = YYRHSLOC(Rhs, N).last_line;                 \
            (Cur).last_column = YYRHSLOC(Rhs, N).last_column;             \
        } else {                                                          \
            (Cur).first_line = (Cur).last_line = YYRHSLOC(Rhs, 0).last_line; \
            (Cur).first_column = (Cur).last_column =                      \
                YYRHSLOC(Rhs, 0).last_column;                             \
        }                                                                 \
    } while (0)

static void yyerror(YYLTYPE *l, yyscan_t scanner, parse_ctx *ctx, const char *msg);

#define L(l) ((loc){ctx->file, (l).first_line, (l).first_column})
#define NEW(T) BX_NEW(ctx->arena, T)
#define PUSH(v, x) vec_push(ctx->arena, &(v), (x))

static expr *mk_expr(parse_ctx *ctx, expr_kind k, YYLTYPE l)
{
    expr *e = NEW(expr);
    e->kind = k;
    e->at = L(l);
    e->op_at = e->at;
    e->depth = 1;
    e->dtype = -1;
    e->slot = -1;
    e->qvar = -1;
    e->opt = -1;
    e->end = (loc){ctx->file, l.last_line, l.last_column};
    return e;
}
/* e, built: its depth from its operands, reported at `at` (its operator or
 * bracket) when it is the first to pass the limit. */
static expr *nested(parse_ctx *ctx, expr *e, YYLTYPE at)
{
    int d = 0;
    expr *kids[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3; i++)
        if (kids[i] && kids[i]->depth > d)
            d = kids[i]->depth;
    for (int i = 0; i < e->items.n; i++)
        if (((expr *)e->items.v[i])->depth > d)
            d = ((expr *)e->items.v[i])->depth;
    e->depth = d + 1;
    if (e->depth == BYOCC_MAX_DEPTH + 1)
        diag_error(ctx->diag, L(at), "expression nested too deeply (more than %d levels)",
                   BYOCC_MAX_DEPTH);
    return e;
}
static expr *mk_bin(parse_ctx *ctx, int op, expr *a, expr *b, YYLTYPE l, YYLTYPE opl)
{
    expr *e = mk_expr(ctx, E_BINARY, l);
    e->op = op;
    e->op_at = L(opl);
    e->a = a;
    e->b = b;
    return nested(ctx, e, opl);
}
static expr *mk_unary(parse_ctx *ctx, int op, expr *a, YYLTYPE l, YYLTYPE opl)
{
    expr *e = mk_expr(ctx, E_UNARY, l);
    e->op = op;
    e->op_at = L(opl);
    e->a = a;
    return nested(ctx, e, opl);
}
static pat *mk_pat(parse_ctx *ctx, pat_kind k, YYLTYPE l)
{
    pat *p = NEW(pat);
    p->kind = k;
    p->at = L(l);
    p->depth = 1;
    return p;
}
/* The same for patterns. */
static pat *pnested(parse_ctx *ctx, pat *p, YYLTYPE at)
{
    int d = 0;
    if (p->a && p->a->depth > d)
        d = p->a->depth;
    if (p->b && p->b->depth > d)
        d = p->b->depth;
    for (int i = 0; i < p->args.n; i++)
        if (((pat *)p->args.v[i])->depth > d)
            d = ((pat *)p->args.v[i])->depth;
    p->depth = d + 1;
    if (p->depth == BYOCC_MAX_DEPTH + 1)
        diag_error(ctx->diag, L(at), "pattern nested too deeply (more than %d levels)",
                   BYOCC_MAX_DEPTH);
    return p;
}
static decl *mk_decl(parse_ctx *ctx, decl_kind k, YYLTYPE l)
{
    decl *d = NEW(decl);
    d->kind = k;
    d->at = L(l);
    d->file = ctx->out;
    return d;
}
static titem *mk_item(parse_ctx *ctx, titem_kind k, YYLTYPE l)
{
    titem *t = NEW(titem);
    t->kind = k;
    t->at = L(l);
    return t;
}
/* The source text between two locations, for clause texts. */
static const char *source_text(parse_ctx *ctx, YYLTYPE l)
{
    if (l.first_line < 1 || l.last_line > ctx->nlines)
        return "";
    size_t a = (size_t)ctx->line_starts[l.first_line - 1] + (size_t)l.first_column - 1;
    size_t b = (size_t)ctx->line_starts[l.last_line - 1] + (size_t)l.last_column;
    if (b > ctx->srclen || a > b)
        return "";
    /* Fold runs of white space so multi-line clauses read as one line. */
    char *s = bx_arena_alloc(ctx->arena, b - a + 1), *o = s;
    bool sp = false;
    for (size_t i = a; i < b; i++) {
        char ch = ctx->src[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            sp = true;
            continue;
        }
        if (sp && o != s)
            *o++ = ' ';
        sp = false;
        *o++ = ch;
    }
    *o = 0;
    return s;
}
/* pattern "arm_compute_lib.conv2d" = ...: a composite name as a backend's
 * code generator expects it (TVM dispatches on dotted names).  Letters,
 * digits, '_', '.' and '-', starting with a letter, and {var} of a for
 * family; it is checked again once a template is expanded. */
static char *quoted_name(parse_ctx *ctx, char *s, YYLTYPE l)
{
    size_t n = strlen(s);
    bool ok = n > 0 && n <= BYOCC_MAX_NAME && (isalpha((unsigned char)s[0]) || s[0] == '{');
    for (size_t i = 0; ok && i < n; i++)
        ok = isalnum((unsigned char)s[i]) || strchr("_.-{}", s[i]) != NULL;
    if (!ok) {
        diag_error(ctx->diag, L(l),
                   n > BYOCC_MAX_NAME ? "a pattern name is longer than %d characters"
                                      : "a quoted pattern name is letters, digits, '_', '.' and "
                                        "'-', starting with a letter (at most %d characters)",
                   BYOCC_MAX_NAME);
        return "invalid";
    }
    return s;
}

static type_ast mk_type(parse_ctx *ctx, const char *name, YYLTYPE l)
{
    type_ast t;
    memset(&t, 0, sizeof t);
    t.at = L(l);
    t.ok = true;
    static const struct { const char *n; byoc_vkind k; } names[] = {
        {"bool", BYOC_V_BOOL}, {"int", BYOC_V_INT}, {"float", BYOC_V_FLOAT},
        {"string", BYOC_V_STRING}, {"dtype", BYOC_V_DTYPE},
        {"version", BYOC_V_VERSION},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].n) == 0) {
            t.d.base = (uint8_t)names[i].k;
            return t;
        }
    const char *all[] = {"bool", "int", "float", "string", "dtype", "version"};
    diag_error(ctx->diag, L(l), "unknown type '%s'", name);
    const char *s = diag_suggest(name, all, 6);
    if (s)
        diag_note(ctx->diag, L(l), "did you mean '%s'?", s);
    t.ok = false;
    t.d.base = BYOC_V_INT;
    return t;
}
/* a.b, unless that is longer than a name may be: each join copies the
 * name, so without the limit a long chain would cost its length squared. */
static char *join_name(parse_ctx *ctx, char *a, const char *b, YYLTYPE l)
{
    if (strlen(a) + strlen(b) + 1 > BYOCC_MAX_NAME) {
        if (strlen(a) <= BYOCC_MAX_NAME)
            diag_error(ctx->diag, L(l), "name too long (more than %d characters)",
                       BYOCC_MAX_NAME);
        /* Longer than any name, so reported once. */
        return strlen(a) > BYOCC_MAX_NAME ? a : bx_arena_printf(ctx->arena, "%s.%s", a, b);
    }
    return bx_arena_printf(ctx->arena, "%s.%s", a, b);
}
}

%token IMPORT "import" OP "op" ATTR "attr" SHAPE "shape" FLOPS "flops"
%token DEVICE "device" LINK "link" TARGET "target" OPTION "option"
%token SUPPORTS "supports" PATTERN "pattern" LET "let" FOR "for" IN "in"
%token WHERE "where" PARTITION "partition" EXTERN "extern"
%token PREDICATE "predicate" LOWER "lower" CONST "const" TUPLE "tuple" COMMUTE "commute"
%token TRUE_ "true" FALSE_ "false" NONE "None" ALL "all" ANY "any" SUM "sum"
%token BOTHWAYS "<->" ARROW "->" ELLIPSIS "..." DOTDOT ".."
%token EQ "==" NE "!=" LE "<=" GE ">=" ANDAND "&&" OROR "||"
%token <char *> IDENT "identifier" NAMETPL "name template" STRING "string"
%token <int64_t> INT "integer"
%token <double> FLOAT "number"
%token <uint64_t> VERSION "version"
%token <struct tlit> TLIT "typed constant"

%type <char *> qname pat_name op_word name_word
%type <decl *> decl op_decl device_decl link_decl target_decl let_decl
%type <vec> inputs input_list op_items params param_list
%type <vec> titems gens gen_vars expr_list expr_list_opt pat_args pat_list
%type <vec> attr_eqs settings_opt name_list opt_params
%type <input_ast *> input
%type <attr_ast *> attr_decl
%type <param_ast *> param
%type <titem *> titem pattern_item
%type <type_ast> type type_base type_alt
%type <expr *> expr value_opt where_opt literal_expr
%type <pat *> pat pat_un pat_post pat_prim
%type <forgen_ast *> gen
%type <attr_eq_ast *> attr_eq
%type <let_ast *> let_body
%type <pred_ast *> pred_body
%type <vec> pred_params pred_param_list
%type <pred_param *> pred_param
%type <int> dims
%type <param_ast *> setting
%type <bool> link_dir

%precedence CONSTP
%precedence '('
%left OROR
%left ANDAND
%precedence '!'
%nonassoc EQ NE '<' '>' LE GE IN
%precedence DOTDOT
%left '|'
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS
%precedence '.' '['

%%

file:
    %empty
  | file decl              { if ($2) PUSH(ctx->out->decls, $2); }
  ;

decl:
    IMPORT STRING ';'      { $$ = mk_decl(ctx, D_IMPORT, @1); $$->name = $2; $$->name_at = L(@2); }
  | op_decl
  | device_decl
  | link_decl
  | target_decl
  | let_decl
  | pred_body              { $$ = mk_decl(ctx, D_PRED, @1); $$->name = $1->name; $$->name_at = $1->at; $$->pred = $1; }
  | EXTERN PREDICATE IDENT ';'
                           { $$ = mk_decl(ctx, D_EXTERN, @1); $$->name = $3; $$->name_at = L(@3); }
  | EXTERN LOWER IDENT ';'
        {
            $$ = mk_decl(ctx, D_EXTERN, @1); $$->name = $3; $$->name_at = L(@3);
            $$->lower = true;
        }
  | error ';'              { $$ = NULL; yyerrok; }
  | error '}'              { $$ = NULL; yyerrok; }
  ;

/* Relay has ops named like keywords (where, all, any): they may be
   declared and used as names, and any keyword may follow a '.'. */
qname:
    op_word
  | qname '.' name_word    { $$ = join_name(ctx, $1, $3, @3); }
  ;
op_word:
    IDENT
  | WHERE                  { $$ = "where"; }
  | ALL                    { $$ = "all"; }
  | ANY                    { $$ = "any"; }
  | SUM                    { $$ = "sum"; }
  ;
name_word:
    op_word
  | IMPORT { $$ = "import"; } | OP { $$ = "op"; } | ATTR { $$ = "attr"; }
  | SHAPE { $$ = "shape"; } | FLOPS { $$ = "flops"; } | DEVICE { $$ = "device"; }
  | LINK { $$ = "link"; } | TARGET { $$ = "target"; } | OPTION { $$ = "option"; }
  | SUPPORTS { $$ = "supports"; } | PATTERN { $$ = "pattern"; } | LET { $$ = "let"; }
  | FOR { $$ = "for"; } | IN { $$ = "in"; } | PARTITION { $$ = "partition"; }
  | EXTERN { $$ = "extern"; } | PREDICATE { $$ = "predicate"; } | LOWER { $$ = "lower"; }
  | CONST { $$ = "const"; }
  | TUPLE { $$ = "tuple"; } | COMMUTE { $$ = "commute"; } | TRUE_ { $$ = "true"; }
  | FALSE_ { $$ = "false"; } | NONE { $$ = "None"; }
  ;

/* ---- op declarations ----------------------------------------------------- */

op_decl:
    OP qname '(' inputs ')' ':' IDENT '{' op_items '}'
        {
            $$ = mk_decl(ctx, D_OP, @1);
            $$->name = $2; $$->name_at = L(@2);
            $$->inputs = $4;
            $$->kind_name = $7; $$->kind_at = L(@7);
            for (int i = 0; i < $9.n; i++) {
                attr_ast *a = $9.v[i];
                if (a->name == NULL) {       /* shape/flops rule */
                    if (a->def->i == 0) {
                        if ($$->shape_rule)
                            diag_error(ctx->diag, a->at, "op '%s' has more than one shape rule", $2);
                        $$->shape_rule = a->def->s; $$->shape_at = a->at;
                    } else {
                        if ($$->flops_rule)
                            diag_error(ctx->diag, a->at, "op '%s' has more than one flops rule", $2);
                        $$->flops_rule = a->def->s; $$->flops_at = a->at;
                    }
                } else {
                    PUSH($$->attrs, a);
                }
            }
        }
  ;

inputs:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | input_list
  ;
input_list:
    input                  { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | input_list ',' input   { $$ = $1; PUSH($$, $3); }
  ;
input:
    IDENT                  { $$ = NEW(input_ast); $$->at = L(@1); $$->name = $1; }
  | IDENT ':' TUPLE        { $$ = NEW(input_ast); $$->at = L(@1); $$->name = $1; $$->tuple = true; }
  ;

op_items:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | op_items attr_decl     { $$ = $1; if ($2) PUSH($$, $2); }
  ;

attr_decl:
    ATTR name_word ':' type value_opt ';'
        { $$ = NEW(attr_ast); $$->at = L(@2); $$->name = $2; $$->type = $4; $$->def = $5; }
  | SHAPE IDENT ';'
        { $$ = NEW(attr_ast); $$->at = L(@2); $$->def = mk_expr(ctx, E_NAME, @2); $$->def->s = $2; $$->def->i = 0; }
  | FLOPS IDENT ';'
        { $$ = NEW(attr_ast); $$->at = L(@2); $$->def = mk_expr(ctx, E_NAME, @2); $$->def->s = $2; $$->def->i = 1; }
  | error ';'              { $$ = NULL; yyerrok; }
  ;

value_opt:
    %empty                 { $$ = NULL; }
  | '=' expr               { $$ = $2; }
  ;

type:
    type_alt
  | type_alt '|' type_alt
        {
            $$ = $1;
            $$.d.has_alt = 1;
            $$.d.alt_base = $3.d.base;
            $$.d.alt_depth = $3.d.depth;
            $$.ok = $1.ok && $3.ok;
        }
  | type_alt '?'           { $$ = $1; $$.d.optional = 1; }
  | type_alt '|' type_alt '?'
        {
            $$ = $1;
            $$.d.has_alt = 1;
            $$.d.alt_base = $3.d.base;
            $$.d.alt_depth = $3.d.depth;
            $$.d.optional = 1;
            $$.ok = $1.ok && $3.ok;
        }
  ;
type_alt:
    type_base
  | type_alt '[' ']'
        {
            $$ = $1;
            if ($$.d.depth < BYOCC_MAX_TYPE_DEPTH) {
                $$.d.depth++;
            } else if ($$.ok) {
                diag_error(ctx->diag, L(@2), "type nested too deeply (more than %d levels)",
                           BYOCC_MAX_TYPE_DEPTH);
                $$.ok = false;
            }
        }
  ;
type_base:
    IDENT                  { $$ = mk_type(ctx, $1, @1); }
  ;

/* ---- devices and links ---------------------------------------------------- */

device_decl:
    DEVICE IDENT '{' params '}'
        { $$ = mk_decl(ctx, D_DEVICE, @1); $$->name = $2; $$->name_at = L(@2); $$->params = $4; }
  ;
link_decl:
    LINK IDENT link_dir IDENT '{' params '}'
        {
            $$ = mk_decl(ctx, D_LINK, @1);
            $$->name = $2; $$->name_at = L(@2);
            $$->to = $4; $$->to_at = L(@4);
            $$->both_ways = $3;
            $$->params = $6;
        }
  ;
link_dir:
    BOTHWAYS               { $$ = true; }
  | ARROW                  { $$ = false; }
  ;
params:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | params param_list ';'  { $$ = $1; for (int i = 0; i < $2.n; i++) PUSH($$, $2.v[i]); }
  | params error ';'       { $$ = $1; yyerrok; }
  ;
param_list:
    param                  { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | FLOPS IDENT '=' expr
        {
            memset(&$$, 0, sizeof $$);
            param_ast *p = NEW(param_ast);
            p->at = L(@1); p->key = "flops"; p->sub = $2; p->sub_at = L(@2); p->value = $4;
            PUSH($$, p);
        }
  | param_list ',' IDENT '=' expr
        {
            /* flops float32 = a, float16 = b */
            $$ = $1;
            param_ast *prev = $1.v[$1.n - 1];
            param_ast *p = NEW(param_ast);
            p->at = L(@3); p->key = prev->key; p->sub = $3; p->sub_at = L(@3); p->value = $5;
            if (!prev->sub)
                diag_error(ctx->diag, L(@2), "only 'flops' takes a list of per-dtype values");
            PUSH($$, p);
        }
  ;
param:
    IDENT '=' expr         { $$ = NEW(param_ast); $$->at = L(@1); $$->key = $1; $$->value = $3; }
  ;

/* ---- lets ------------------------------------------------------------------ */

let_decl:
    let_body               { $$ = mk_decl(ctx, D_LET, @1); $$->name = $1->name; $$->name_at = $1->at; $$->let = $1; }
  ;
let_body:
    LET IDENT opt_params '=' pat ';'
        {
            $$ = NEW(let_ast);
            $$->at = L(@2);
            $$->name = $2;
            for (int i = 0; i < $3.n; i++) {
                param_ast *p = $3.v[i];
                PUSH($$->params, (void *)p->key);
                loc *l = NEW(loc); *l = p->at;
                PUSH($$->param_locs, l);
            }
            $$->body = $5;
        }
  ;
opt_params:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | '(' ')'                { memset(&$$, 0, sizeof $$); }
  | '(' name_list ')'      { $$ = $2; }
  ;
name_list:
    IDENT                  { memset(&$$, 0, sizeof $$); param_ast *p = NEW(param_ast); p->at = L(@1); p->key = $1; PUSH($$, p); }
  | name_list ',' IDENT    { $$ = $1; param_ast *p = NEW(param_ast); p->at = L(@3); p->key = $3; PUSH($$, p); }
  ;

/* ---- predicate macros ---------------------------------------------------- */

pred_body:
    PREDICATE IDENT '(' pred_params ')' '=' expr ';'
        {
            $$ = NEW(pred_ast);
            $$->at = L(@2);
            $$->name = $2;
            $$->params = $4;
            $$->body = $7;
            $$->file = ctx->out;
        }
  ;
pred_params:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | pred_param_list
  ;
pred_param_list:
    pred_param             { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | pred_param_list ',' pred_param
                           { $$ = $1; PUSH($$, $3); }
  ;
pred_param:
    IDENT ':' IDENT dims
        {
            $$ = NEW(pred_param); $$->at = L(@1); $$->name = $1;
            $$->type = $3; $$->type_at = L(@3); $$->depth = $4;
        }
  | IDENT ':' OP dims
        {
            $$ = NEW(pred_param); $$->at = L(@1); $$->name = $1;
            $$->type = "op"; $$->type_at = L(@3); $$->depth = $4;
        }
  ;
dims:
    %empty                 { $$ = 0; }
  | dims '[' ']'           { $$ = $1 < 3 ? $1 + 1 : 3; }
  ;

/* ---- targets --------------------------------------------------------------- */

target_decl:
    TARGET IDENT ':' IDENT '{' titems '}'
        {
            $$ = mk_decl(ctx, D_TARGET, @1);
            $$->name = $2; $$->name_at = L(@2);
            $$->parent = $4; $$->parent_at = L(@4);
            $$->items = $6;
        }
  ;
titems:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | titems titem           { $$ = $1; if ($2) PUSH($$, $2); }
  ;
titem:
    OPTION IDENT ':' type '=' expr ';'
        { $$ = mk_item(ctx, TI_OPTION, @1); $$->name = $2; $$->name_at = L(@2); $$->type = $4; $$->value = $6; }
  | OPTION IDENT ':' type ';'
        {
            $$ = mk_item(ctx, TI_OPTION, @1); $$->name = $2; $$->name_at = L(@2); $$->type = $4;
            diag_error(ctx->diag, L(@3), "option '%s' needs a default value", $2);
        }
  | OPTION IDENT '=' expr ';'
        { $$ = mk_item(ctx, TI_OPTION_SET, @1); $$->name = $2; $$->name_at = L(@2); $$->value = $4; }
  | IDENT expr ';'
        { $$ = mk_item(ctx, TI_SETTING, @1); $$->name = $1; $$->name_at = L(@1); $$->value = $2; }
  | IDENT ANY ';'
        {
            $$ = mk_item(ctx, TI_SETTING, @1); $$->name = $1; $$->name_at = L(@1);
            $$->value = mk_expr(ctx, E_NAME, @2); $$->value->s = "any";
        }
  | SUPPORTS '*' ';'       { $$ = mk_item(ctx, TI_SUPPORTS_ALL, @1); }
  | SUPPORTS pat_list where_opt ';'
        { $$ = mk_item(ctx, TI_SUPPORTS, @1); $$->pats = $2; $$->where = $3; }
  | let_body               { $$ = mk_item(ctx, TI_LET, @1); $$->let = $1; $$->name = $1->name; $$->name_at = $1->at; }
  | pred_body              { $$ = mk_item(ctx, TI_PRED, @1); $$->pred = $1; $$->name = $1->name; $$->name_at = $1->at; }
  | pattern_item
  | FOR gens pattern_item  { $$ = $3; $$->gens = $2; $$->at = L(@1); }
  | PARTITION WHERE expr ';'
        { $$ = mk_item(ctx, TI_PARTITION, @1); $$->where = $3; $$->where->text = source_text(ctx, @3); }
  | LOWER IDENT ';'
        {
            $$ = mk_item(ctx, TI_LOWER, @1); $$->name = $2; $$->name_at = L(@2);
            $$->point = BYOC_PASS_PARTITION;
        }
  | LOWER IDENT IDENT ';'
        {
            /* before and after are words only here, not keywords: a
               pattern may still bind a name 'before'. */
            $$ = mk_item(ctx, TI_LOWER, @1); $$->name = $3; $$->name_at = L(@3);
            if (strcmp($2, "before") == 0) {
                $$->point = BYOC_PASS_BEFORE;
            } else if (strcmp($2, "after") == 0) {
                $$->point = BYOC_PASS_AFTER;
            } else {
                diag_error(ctx->diag, L(@2), "unknown pass point '%s' (expected 'before' or 'after')",
                           $2);
                $$->point = BYOC_PASS_PARTITION;
            }
        }
  | error ';'              { $$ = NULL; yyerrok; }
  ;
pattern_item:
    PATTERN pat_name '=' pat where_opt settings_opt ';'
        {
            $$ = mk_item(ctx, TI_PATTERN, @1);
            $$->name = $2; $$->name_at = L(@2);
            PUSH($$->pats, $4);
            $$->where = $5;
            $$->settings = $6;
        }
  ;
pat_name:
    IDENT
  | NAMETPL
  | SUM                    { $$ = "sum"; }
  | STRING                 { $$ = quoted_name(ctx, $1, @1); }
  ;
where_opt:
    %empty                 { $$ = NULL; }
  | WHERE expr             { $$ = $2; $$->text = source_text(ctx, @2); }
  ;
settings_opt:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | settings_opt setting   { $$ = $1; PUSH($$, $2); }
  ;
setting:
    IDENT expr             { $$ = NEW(param_ast); $$->at = L(@1); $$->key = $1; $$->value = $2; }
  ;
gens:
    gen                    { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | gens ',' gen           { $$ = $1; PUSH($$, $3); }
  ;
gen:
    gen_vars IN '{' expr_list '}'
        { $$ = NEW(forgen_ast); $$->at = L(@1); $$->vars = $1; $$->values = $4; }
  ;
gen_vars:
    IDENT                  { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | '(' name_list ')'
        {
            memset(&$$, 0, sizeof $$);
            for (int i = 0; i < $2.n; i++) PUSH($$, (void *)((param_ast *)$2.v[i])->key);
        }
  ;

/* ---- patterns -------------------------------------------------------------- */

pat_list:
    pat                    { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | pat_list ',' pat       { $$ = $1; PUSH($$, $3); }
  ;
pat:
    pat_un
  | pat '|' pat_un
        { $$ = mk_pat(ctx, P_ALT, @$); $$->a = $1; $$->b = $3; pnested(ctx, $$, @2); }
  ;
pat_un:
    pat_post
  | IDENT ':' pat_un
        { $$ = mk_pat(ctx, P_BIND, @$); $$->name = $1; $$->a = $3; pnested(ctx, $$, @1); }
  | COMMUTE pat_un         { $$ = mk_pat(ctx, P_COMMUTE, @$); $$->a = $2; pnested(ctx, $$, @1); }
  ;
pat_post:
    pat_prim
  | pat_post '(' pat_args ')'
        { $$ = mk_pat(ctx, P_APPLY, @$); $$->a = $1; $$->args = $3; pnested(ctx, $$, @2); }
  | pat_post '{' attr_eqs '}' '(' pat_args ')'
        {
            $$ = mk_pat(ctx, P_APPLY, @$); $$->a = $1; $$->attrs = $3; $$->args = $6;
            pnested(ctx, $$, @5);
        }
  | pat_post '?'           { $$ = mk_pat(ctx, P_OPTIONAL, @$); $$->a = $1; pnested(ctx, $$, @2); }
  | pat_post '.' INT
        {
            $$ = mk_pat(ctx, P_PROJ, @$); $$->a = $1;
            if ($3 > INT_MAX) {
                diag_error(ctx->diag, L(@3), "field index %" PRId64 " out of range", $3);
                $$->index = 0;
            } else {
                $$->index = (int)$3;
            }
            pnested(ctx, $$, @2);
        }
  | pat_post '.' '*'
        { $$ = mk_pat(ctx, P_PROJ, @$); $$->a = $1; $$->index = -1; pnested(ctx, $$, @2); }
  | pat_post '.' name_word
        {
            /* nn.conv2d: a dotted name */
            $$ = $1;
            if ($1->kind == P_NAME)
                $1->name = join_name(ctx, (char *)$1->name, $3, @3);
            else
                diag_error(ctx->diag, L(@3), "expected a field index after '.', not '%s'", $3);
        }
  ;
pat_prim:
    '_'                    { $$ = mk_pat(ctx, P_WILD, @1); }
  | op_word                { $$ = mk_pat(ctx, P_NAME, @1); $$->name = $1; }
  | CONST %prec CONSTP     { $$ = mk_pat(ctx, P_CONST, @1); }
  | CONST '(' expr ')'     { $$ = mk_pat(ctx, P_CONST, @1); $$->value = $3; }
  | literal_expr           { $$ = mk_pat(ctx, P_LIT, @1); $$->value = $1; }
  | '-' INT                { $$ = mk_pat(ctx, P_LIT, @$); $$->value = mk_expr(ctx, E_INT, @$); $$->value->i = -$2; }
  | '-' FLOAT              { $$ = mk_pat(ctx, P_LIT, @$); $$->value = mk_expr(ctx, E_FLOAT, @$); $$->value->f = -$2; }
  | '(' pat ')'            { $$ = $2; }
  | '(' pat ',' ')'
        { $$ = mk_pat(ctx, P_TUPLE, @$); PUSH($$->args, $2); pnested(ctx, $$, @1); }
  | '(' pat ',' pat_list ')'
        {
            $$ = mk_pat(ctx, P_TUPLE, @$);
            PUSH($$->args, $2);
            for (int i = 0; i < $4.n; i++) PUSH($$->args, $4.v[i]);
            pnested(ctx, $$, @1);
        }
  | TUPLE '(' ELLIPSIS ')' { $$ = mk_pat(ctx, P_TUPLE_ANY, @$); }
  | TUPLE '(' pat_args ')' { $$ = mk_pat(ctx, P_TUPLE, @$); $$->args = $3; pnested(ctx, $$, @2); }
  ;
pat_args:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | pat_list
  ;
attr_eqs:
    attr_eq                { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | attr_eqs ',' attr_eq   { $$ = $1; PUSH($$, $3); }
  ;
attr_eq:
    name_word '=' expr     { $$ = NEW(attr_eq_ast); $$->at = L(@1); $$->name = $1; $$->value = $3; }
  ;

/* ---- expressions ------------------------------------------------------------ */

literal_expr:
    INT                    { $$ = mk_expr(ctx, E_INT, @1); $$->i = $1; }
  | FLOAT                  { $$ = mk_expr(ctx, E_FLOAT, @1); $$->f = $1; }
  | TLIT
        {
            $$ = mk_expr(ctx, $1.is_float ? E_FLOAT : E_INT, @1);
            $$->dtype = $1.dtype; $$->i = $1.i; $$->f = $1.f;
        }
  | STRING                 { $$ = mk_expr(ctx, E_STR, @1); $$->s = $1; }
  | TRUE_                  { $$ = mk_expr(ctx, E_BOOL, @1); $$->i = 1; }
  | FALSE_                 { $$ = mk_expr(ctx, E_BOOL, @1); $$->i = 0; }
  | VERSION                { $$ = mk_expr(ctx, E_VERSION, @1); $$->ver = $1; }
  | NONE                   { $$ = mk_expr(ctx, E_NONE, @1); }
  ;

expr:
    literal_expr
  | IDENT                  { $$ = mk_expr(ctx, E_NAME, @1); $$->s = $1; }
  | TARGET                 { $$ = mk_expr(ctx, E_NAME, @1); $$->s = "target"; }
  | expr '.' name_word
        { $$ = mk_expr(ctx, E_MEMBER, @$); $$->a = $1; $$->s = $3; nested(ctx, $$, @2); }
  | expr '[' expr ']'
        { $$ = mk_expr(ctx, E_INDEX, @$); $$->a = $1; $$->b = $3; nested(ctx, $$, @2); }
  | IDENT '(' expr_list_opt ')'
        { $$ = mk_expr(ctx, E_CALL, @$); $$->s = $1; $$->items = $3; nested(ctx, $$, @2); }
  | SHAPE '(' expr_list_opt ')'
        { $$ = mk_expr(ctx, E_CALL, @$); $$->s = "shape"; $$->items = $3; nested(ctx, $$, @2); }
  | OP '(' expr_list_opt ')'
        { $$ = mk_expr(ctx, E_CALL, @$); $$->s = "op"; $$->items = $3; nested(ctx, $$, @2); }
  | ALL '(' IDENT IN expr ':' expr ')'
        {
            $$ = mk_expr(ctx, E_QUANT, @$); $$->i = 1; $$->s = $3; $$->a = $5; $$->b = $7;
            nested(ctx, $$, @1);
        }
  | ANY '(' IDENT IN expr ':' expr ')'
        {
            $$ = mk_expr(ctx, E_QUANT, @$); $$->i = 0; $$->s = $3; $$->a = $5; $$->b = $7;
            nested(ctx, $$, @1);
        }
  | SUM '(' IDENT IN expr ':' expr ')'
        {
            $$ = mk_expr(ctx, E_QUANT, @$); $$->i = 2; $$->s = $3; $$->a = $5; $$->b = $7;
            nested(ctx, $$, @1);
        }
  | SUM                    { $$ = mk_expr(ctx, E_NAME, @1); $$->s = "sum"; }
  | '(' expr ')'           { $$ = $2; }
  | '(' expr ',' expr_list ')'
        {
            $$ = mk_expr(ctx, E_TUPLE, @$);
            PUSH($$->items, $2);
            for (int i = 0; i < $4.n; i++) PUSH($$->items, $4.v[i]);
            nested(ctx, $$, @1);
        }
  | '[' expr_list_opt ']'
        { $$ = mk_expr(ctx, E_LIST, @$); $$->items = $2; nested(ctx, $$, @1); }
  | '!' expr               { $$ = mk_unary(ctx, '!', $2, @$, @1); }
  | '-' expr %prec UMINUS  { $$ = mk_unary(ctx, '-', $2, @$, @1); }
  | expr OROR expr         { $$ = mk_bin(ctx, OP_OR, $1, $3, @$, @2); }
  | expr ANDAND expr       { $$ = mk_bin(ctx, OP_AND, $1, $3, @$, @2); }
  | expr EQ expr           { $$ = mk_bin(ctx, OP_EQ, $1, $3, @$, @2); }
  | expr NE expr           { $$ = mk_bin(ctx, OP_NE, $1, $3, @$, @2); }
  | expr '<' expr          { $$ = mk_bin(ctx, '<', $1, $3, @$, @2); }
  | expr '>' expr          { $$ = mk_bin(ctx, '>', $1, $3, @$, @2); }
  | expr LE expr           { $$ = mk_bin(ctx, OP_LE, $1, $3, @$, @2); }
  | expr GE expr           { $$ = mk_bin(ctx, OP_GE, $1, $3, @$, @2); }
  | expr '+' expr          { $$ = mk_bin(ctx, '+', $1, $3, @$, @2); }
  | expr '-' expr          { $$ = mk_bin(ctx, '-', $1, $3, @$, @2); }
  | expr '*' expr          { $$ = mk_bin(ctx, '*', $1, $3, @$, @2); }
  | expr '/' expr          { $$ = mk_bin(ctx, '/', $1, $3, @$, @2); }
  | expr '%' expr          { $$ = mk_bin(ctx, '%', $1, $3, @$, @2); }
  | expr '|' expr
        { $$ = mk_expr(ctx, E_OPALT, @$); $$->a = $1; $$->b = $3; nested(ctx, $$, @2); }
  | expr IN '{' expr_list '}'
        { $$ = mk_expr(ctx, E_IN_SET, @$); $$->a = $1; $$->items = $4; nested(ctx, $$, @2); }
  | expr IN expr DOTDOT expr %prec IN
        {
            $$ = mk_expr(ctx, E_IN_RANGE, @$); $$->a = $1; $$->b = $3; $$->c = $5;
            nested(ctx, $$, @2);
        }
  | expr IN expr %prec IN
        { $$ = mk_expr(ctx, E_IN_LIST, @$); $$->a = $1; $$->b = $3; nested(ctx, $$, @2); }
  ;
expr_list_opt:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | expr_list
  ;
expr_list:
    expr                   { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
  | expr_list ',' expr     { $$ = $1; PUSH($$, $3); }
  ;

%%

static void yyerror(YYLTYPE *l, yyscan_t scanner, parse_ctx *ctx, const char *msg)
{
    (void)scanner;
    /* The only message left to yyerror: the stack is full (YYMAXDEPTH). */
    if (strcmp(msg, "memory exhausted") == 0)
        diag_error(ctx->diag, L(*l),
                   "expression or pattern nested too deeply for the parser (its stack holds "
                   "%d entries)", YYMAXDEPTH);
    else
        diag_error(ctx->diag, L(*l), "%s", msg);
}

/* "expected ';' before 'foo'" reads better than Bison's default wording. */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner,
                                 parse_ctx *ctx)
{
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
    yysymbol_kind_t got = yypcontext_token(yyctx);
    bool semi = false;
    for (int i = 0; i < n; i++)
        semi |= strcmp(yysymbol_name(expected[i]), "';'") == 0;
    char buf[512];
    size_t len = 0;
    if (semi && got != YYSYMBOL_YYEOF) {
        /* Most often a forgotten ';': say so, as C compilers do. */
        snprintf(buf, sizeof buf, "expected ';' before %s", yysymbol_name(got));
    } else {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "syntax error: unexpected %s",
                                yysymbol_name(got));
        if (n > 0 && n <= 4)
            for (int i = 0; i < n; i++)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
                                        i == 0 ? ", expected " : i == n - 1 ? " or " : ", ",
                                        yysymbol_name(expected[i]));
    }
    diag_error(ctx->diag, L(*yypcontext_location(yyctx)), "%s", buf);
    return 0;
}

file_ast *parse_source(compilation *c, const char *display, const char *src, size_t n)
{
    parse_ctx ctx = {0};
    ctx.arena = &c->arena;
    ctx.diag = &c->diag;
    ctx.file = display;
    ctx.line = 1;
    ctx.col = 1;
    ctx.src = src;
    ctx.srclen = n;
    ctx.nlines = 1;
    for (size_t i = 0; i < n; i++)
        if (src[i] == '\n')
            ctx.nlines++;
    ctx.line_starts = BX_NEWN(&c->arena, int, ctx.nlines);
    int k = 1;
    for (size_t i = 0; i < n; i++)
        if (src[i] == '\n')
            ctx.line_starts[k++] = (int)(i + 1);
    file_ast *fa = BX_NEW(&c->arena, file_ast);
    fa->path = display;
    fa->src = src;
    fa->srclen = n;
    fa->line_starts = ctx.line_starts;
    fa->nlines = ctx.nlines;
    ctx.out = fa;

    int before = c->diag.errors;
    yyscan_t sc;
    if (yylex_init_extra(&ctx, &sc) != 0)
        bx_oom();
    /* n is at most BYOCC_MAX_FILE_SIZE: an int, as flex wants. */
    YY_BUFFER_STATE b = yy_scan_bytes(src, (int)n, sc);
    yyparse(sc, &ctx);
    yy_delete_buffer(b, sc);
    yylex_destroy(sc);
    fa->parsed_ok = c->diag.errors == before;
    return fa;
}
