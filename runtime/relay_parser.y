/* The parser of TVM's Relay text format, for dataflow modules and the
 * partitioned modules that BYOC and Collage produce.
 *
 * It reads the version header and any number of `def @name(params, ATTRS)
 * -> type { %N = expr; ... expr }` functions, whose expressions may be
 * `fn (params, ATTRS) -> type { ... }` literals and calls of locals and
 * globals.  Actions build a syntax tree (relay_read.h) that relay_read.c
 * turns into a flat graph; the first error stops the parse, since a reader
 * returns one error. */

%define api.pure full
%define api.prefix {relay_yy}
%define api.value.type union
%define parse.error custom
%locations
%expect 0
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {relay_reader *r}

%code requires {
#include "relay_read.h"
typedef void *yyscan_t;
}

%code {
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

/* Bison's default, named here for the message that reports it. */
#define YYMAXDEPTH 10000
/* Running out of memory is bx_oom's, not "memory exhausted", which is
 * left to mean a full stack. */
#define YYMALLOC relay_parser_malloc
#define YYFREE free
static void *relay_parser_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        bx_oom();
    return p;
}

#define YYSTYPE RELAY_YYSTYPE
#define YYLTYPE RELAY_YYLTYPE
#include "relay_lexer.h"

/* Syntax errors go through yyreport_syntax_error; what comes here is the
 * parser's stack running out (YYMAXDEPTH entries), on input nested that
 * deep. */
static void relay_yyerror(RELAY_YYLTYPE *l, yyscan_t scanner, relay_reader *r, const char *msg)
{
    if (strcmp(msg, "memory exhausted") == 0)
        relay_error_at(r, l->first_line, l->first_column,
                       "nesting too deep for the parser (its stack holds %d entries)",
                       (int)YYMAXDEPTH);
    else
        relay_error_at(r, l->first_line, l->first_column, "%s", msg);
}

#define CHECK(x) do { if ((x) < 0 || r->failed) YYABORT; } while (0)
#define AT(l) (l).first_line, (l).first_column

static relay_item *item(relay_reader *r, relay_expr *e, int line, int col)
{
    relay_item *it = BX_NEW(&r->arena, relay_item);
    it->expr = e;
    it->line = line;
    it->col = col;
    return it;
}
static relay_item *append(relay_item *list, relay_item *it)
{
    if (!list)
        return it;
    if (!list->last)
        list->last = list;
    list->last->next = it;
    list->last = it;
    return list;
}
static relay_fn *fn_new(relay_reader *r, relay_item *header, relay_type *ret)
{
    relay_fn *f = BX_NEW(&r->arena, relay_fn);
    f->header = header;
    for (relay_item *it = header; it; it = it->next)
        f->nparams += it->param != NULL;
    f->ret = ret;
    return f;
}
static relay_type *type_copy(relay_reader *r, const relay_type *t)
{
    relay_type *c = BX_NEW(&r->arena, relay_type);
    *c = *t;
    return c;
}
}

%token DEF "def" TENSOR "Tensor" NONE "None" TRUE_ "True" FALSE_ "False"
%token FN "fn" LET "let" IF "if" FREE_VAR "free_var" ARROW "->"
%token TY_OPEN "/* ty=" TY_CLOSE "*/"
%token <char *> VERSION_HEADER "version header" LOCAL "local name" GLOBAL "global name"
%token <char *> IDENT "identifier" STRING "string"
%token <long> META "meta constant"
%token <relay_number_t> NUMBER "number"

%type <relay_expr *> expr primary call
%type <relay_item *> call_args items item tuple_items header_opt header header_item
%type <relay_fn *> fn_header
%type <relay_stmts> stmts
%type <byoc_value> attr_value
%type <relay_list> value_list
%type <char *> qname
%type <relay_type> type tensor_type
%type <relay_tlist> types
%type <relay_list> dims dim_list
%type <relay_type *> ret_opt param_type_opt

%%

/* A module is any number of global functions, in any order; @main is
 * the graph (relay_read.c checks there is one). */
module:
    version_opt defs
  ;
version_opt:
    %empty
  | VERSION_HEADER
        {
            if (strncmp($1, "0.0.", 4) != 0) {
                relay_error_at(r, AT(@1), "unsupported Relay text version \"%s\"", $1);
                YYABORT;
            }
        }
  ;
defs:
    def
  | defs def
  ;
def:
    DEF GLOBAL fn_header '{' stmts expr '}'
        {
            relay_fn *f = $3;
            f->name = $2;
            f->line = @2.first_line;
            f->col = @2.first_column;
            f->stmts = $5.head;
            f->result = $6;
            CHECK(relay_def(r, f));
        }
  ;
/* Parameters and attributes (Primitive=1, Compiler="trt") in one list,
 * as TVM prints them: parameters first. */
fn_header:
    '(' header_opt ')' ret_opt   { $$ = fn_new(r, $2, $4); }
  ;
header_opt:
    %empty                 { $$ = NULL; }
  | header
  | header ','
  ;
header:
    header_item
  | header ',' header_item { $$ = append($1, $3); }
  ;
header_item:
    LOCAL param_type_opt
        {
            $$ = item(r, NULL, AT(@1));
            $$->param = $1;
            $$->type = $2;
        }
  | IDENT '=' attr_value
        {
            $$ = item(r, NULL, AT(@1));
            $$->attr = $1;
            $$->value = $3;
        }
  ;
param_type_opt:
    %empty                 { $$ = NULL; }
  | ':' type               { $$ = type_copy(r, &$2); }
  | ':' type TY_OPEN type TY_CLOSE { $$ = type_copy(r, &$2); }
  ;
ret_opt:
    %empty                 { $$ = NULL; }
  | ARROW type             { $$ = type_copy(r, &$2); }
  ;
stmts:
    %empty                 { $$.head = $$.tail = NULL; }
  | stmts LOCAL '=' expr ';'
        {
            relay_stmt *s = BX_NEW(&r->arena, relay_stmt);
            s->name = $2;
            s->value = $4;
            s->line = @2.first_line;
            s->col = @2.first_column;
            $$ = $1;
            if ($$.tail)
                $$.tail->next = s;
            else
                $$.head = s;
            $$.tail = s;
        }
  ;

/* ---- expressions ---------------------------------------------------------- */

expr:
    primary
  | primary TY_OPEN type TY_CLOSE
        {
            $$ = relay_expr_new(r, RX_ANNOT, AT(@3));
            $$->callee = $1;
            $$->type = $3;
        }
  ;
primary:
    LOCAL                  { $$ = relay_expr_new(r, RX_LOCAL, AT(@1)); $$->name = $1; }
  | GLOBAL                 { $$ = relay_expr_new(r, RX_GLOBAL, AT(@1)); $$->name = $1; }
  | META                   { $$ = relay_expr_new(r, RX_META, AT(@1)); $$->meta = $1; }
  | NUMBER                 { $$ = relay_expr_new(r, RX_NUMBER, AT(@1)); $$->num = $1; }
  | '-' NUMBER
        {
            $$ = relay_expr_new(r, RX_NUMBER, AT(@1));
            $$->num = $2;
            $$->negate = true;
        }
  | TRUE_                  { $$ = relay_expr_new(r, RX_BOOL, AT(@1)); $$->b = true; }
  | FALSE_                 { $$ = relay_expr_new(r, RX_BOOL, AT(@1)); $$->b = false; }
  | call
  | primary '(' call_args ')'
        {
            $$ = relay_expr_new(r, RX_CALL, AT(@1));
            $$->callee = $1;
            $$->items = $3;
        }
  | '(' expr ')'           { $$ = $2; }
  | '(' ')'                { $$ = relay_expr_new(r, RX_TUPLE, AT(@1)); }
  | '(' expr ',' ')'
        {
            $$ = relay_expr_new(r, RX_TUPLE, AT(@1));
            $$->items = item(r, $2, AT(@2));
        }
  | '(' expr ',' tuple_items ')'
        {
            $$ = relay_expr_new(r, RX_TUPLE, AT(@1));
            $$->items = item(r, $2, AT(@2));
            $$->items->next = $4;
        }
  | primary '.' NUMBER
        {
            $$ = relay_expr_new(r, RX_PROJ, AT(@2));
            $$->callee = $1;
            $$->num = $3;
        }
  | FN fn_header '{' stmts expr '}'
        {
            $$ = relay_expr_new(r, RX_FN, AT(@1));
            $$->fn = $2;
            $$->fn->line = @1.first_line;
            $$->fn->col = @1.first_column;
            $$->fn->stmts = $4.head;
            $$->fn->result = $5;
        }
  | LET                    { relay_error_at(r, AT(@1), "let expressions are not supported: give byoc a module in dataflow form"); YYABORT; }
  | IF                     { relay_error_at(r, AT(@1), "control flow (if) is not supported"); YYABORT; }
  ;
tuple_items:
    expr                   { $$ = item(r, $1, AT(@1)); }
  | tuple_items ',' expr   { $$ = append($1, item(r, $3, AT(@3))); }
  ;
call:
    qname '(' call_args ')'
        {
            $$ = relay_expr_new(r, RX_OP, AT(@1));
            $$->name = $1;
            $$->items = $3;
        }
  ;
qname:
    IDENT
  | qname '.' IDENT        { $$ = bx_arena_printf(&r->arena, "%s.%s", $1, $3); }
  ;
/* A trailing comma: TVM leaves one before a comment it prints last. */
call_args:
    %empty                 { $$ = NULL; }
  | items
  | items ','
  ;
items:
    item
  | items ',' item         { $$ = append($1, $3); }
  ;
item:
    expr                   { $$ = item(r, $1, AT(@1)); }
  | IDENT '=' attr_value
        {
            $$ = item(r, NULL, AT(@1));
            $$->attr = $1;
            $$->value = $3;
        }
  ;
attr_value:
    NUMBER                 { $$ = relay_value_number(&$1, false); }
  | '-' NUMBER             { $$ = relay_value_number(&$2, true); }
  | STRING                 { $$ = (byoc_value){.kind = BYOC_V_STRING, .u.s = $1}; }
  | TRUE_                  { $$ = (byoc_value){.kind = BYOC_V_BOOL, .u.b = true}; }
  | FALSE_                 { $$ = (byoc_value){.kind = BYOC_V_BOOL, .u.b = false}; }
  | NONE                   { $$ = (byoc_value){.kind = BYOC_V_NONE}; }
  | '[' ']'                { relay_list l = {0}; $$ = relay_value_list(&l); }
  | '[' value_list ']'     { $$ = relay_value_list(&$2); }
  | '[' value_list ',' ']' { $$ = relay_value_list(&$2); }
  ;
value_list:
    attr_value             { memset(&$$, 0, sizeof $$); relay_list_push(r, &$$, &$1); }
  | value_list ',' attr_value { $$ = $1; relay_list_push(r, &$$, &$3); }
  ;

/* ---- types ------------------------------------------------------------------ */

type:
    tensor_type
  | '(' ')'                { relay_tlist l = {0}; CHECK(relay_tuple_type(r, &l, &$$, AT(@1))); }
  | '(' types ')'          { CHECK(relay_tuple_type(r, &$2, &$$, AT(@1))); }
  | '(' types ',' ')'      { CHECK(relay_tuple_type(r, &$2, &$$, AT(@1))); }
  | FN '(' type_seq_opt ')' ARROW type
        {
            memset(&$$, 0, sizeof $$);
            $$.nfields = -1;
            $$.is_fn = true;
        }
  ;
/* A function type's parameter types: read, not kept. */
type_seq_opt:
    %empty
  | type_seq
  | type_seq ','
  ;
type_seq:
    type                   { (void)$1; }
  | type_seq ',' type      { (void)$3; }
  ;
/* Fields of a tuple type; a field may be a tuple type itself. */
types:
    type                   { memset(&$$, 0, sizeof $$); CHECK(relay_tlist_push(r, &$$, &$1, AT(@1))); }
  | types ',' type         { $$ = $1; CHECK(relay_tlist_push(r, &$$, &$3, AT(@3))); }
  ;
tensor_type:
    TENSOR '[' '(' dims ')' ',' IDENT ']'
        {
            memset(&$$, 0, sizeof $$);
            $$.nfields = -1;
            if ($4.n > BYOC_MAX_RANK) {
                relay_error_at(r, @4.first_line, @4.first_column,
                               "rank %d is more than byoc supports (%d)", $4.n, BYOC_MAX_RANK);
                YYABORT;
            }
            int dt = relay_dtype(r, $7, @7.first_line, @7.first_column);
            CHECK(dt);
            $$.t.dtype = (byoc_dtype)dt;
            $$.t.rank = $4.n;
            for (int i = 0; i < $4.n; i++)
                $$.t.dims[i] = $4.v[i].u.i;
        }
  | IDENT
        {
            /* A rank-0 tensor type prints as its dtype: float32. */
            memset(&$$, 0, sizeof $$);
            $$.nfields = -1;
            int dt = relay_dtype(r, $1, AT(@1));
            CHECK(dt);
            $$.t.dtype = (byoc_dtype)dt;
        }
  ;
dims:
    %empty                 { memset(&$$, 0, sizeof $$); }
  | dim_list
  | dim_list ','
  ;
dim_list:
    NUMBER
        {
            memset(&$$, 0, sizeof $$);
            if ($1.is_float || $1.i < 0) {
                relay_error_at(r, @1.first_line, @1.first_column, "a dimension must be a size");
                YYABORT;
            }
            byoc_value v = {.kind = BYOC_V_INT, .u.i = $1.i};
            relay_list_push(r, &$$, &v);
        }
  | '?'                    { memset(&$$, 0, sizeof $$); byoc_value v = {.kind = BYOC_V_INT, .u.i = BYOC_DIM_UNKNOWN}; relay_list_push(r, &$$, &v); }
  | IDENT                  { memset(&$$, 0, sizeof $$); byoc_value v = {.kind = BYOC_V_INT, .u.i = relay_dim_symbol(r, $1)}; relay_list_push(r, &$$, &v); }
  | dim_list ',' NUMBER
        {
            $$ = $1;
            if ($3.is_float || $3.i < 0) {
                relay_error_at(r, @3.first_line, @3.first_column, "a dimension must be a size");
                YYABORT;
            }
            byoc_value v = {.kind = BYOC_V_INT, .u.i = $3.i};
            relay_list_push(r, &$$, &v);
        }
  | dim_list ',' '?'       { $$ = $1; byoc_value v = {.kind = BYOC_V_INT, .u.i = BYOC_DIM_UNKNOWN}; relay_list_push(r, &$$, &v); }
  | dim_list ',' IDENT     { $$ = $1; byoc_value v = {.kind = BYOC_V_INT, .u.i = relay_dim_symbol(r, $3)}; relay_list_push(r, &$$, &v); }
  ;

%%

static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner, relay_reader *r)
{
    if (r->failed)
        return 0; /* the scanner already said what is wrong */
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
    yysymbol_kind_t got = yypcontext_token(yyctx);
    char buf[400];
    size_t len = (size_t)snprintf(buf, sizeof buf, "unexpected %s", yysymbol_name(got));
    if (n > 0 && n <= 4)
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
                                    i == 0 ? ", expected " : i == n - 1 ? " or " : ", ",
                                    yysymbol_name(expected[i]));
    const RELAY_YYLTYPE *l = yypcontext_location(yyctx);
    relay_error_at(r, l->first_line, l->first_column, "%s", buf);
    return 0;
}

int relay_parse(relay_reader *r, const char *text, size_t len);
int relay_parse(relay_reader *r, const char *text, size_t len)
{
    yyscan_t sc;
    if (len > INT_MAX) {     /* flex takes an int */
        relay_error_at(r, 1, 1, "the text is larger than %d bytes", INT_MAX);
        return -1;
    }
    if (relay_yylex_init_extra(r, &sc) != 0)
        return -1;
    YY_BUFFER_STATE b = relay_yy_scan_bytes(text, (int)len, sc);
    int rc = relay_yyparse(sc, r);
    relay_yy_delete_buffer(b, sc);
    relay_yylex_destroy(sc);
    return rc == 0 && !r->failed ? 0 : -1;
}
