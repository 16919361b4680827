/* The parser of TVM's Relay text format, for dataflow modules.
 *
 * It reads what TVM prints for a module with one function, @main: the
 * version header, typed parameters, `%N = expr;` statements and a final
 * expression.  Actions build the graph directly (relay_read.c); the first
 * error stops the parse, since a reader returns one error. */

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
#include <string.h>

#define YYSTYPE RELAY_YYSTYPE
#define YYLTYPE RELAY_YYLTYPE
#include "relay_lexer.h"

static void relay_yyerror(RELAY_YYLTYPE *l, yyscan_t scanner, relay_reader *r, const char *msg)
{
    relay_error_at(r, l->first_line, l->first_column, "%s", msg);
}

#define CHECK(x) do { if ((x) < 0 || r->failed) YYABORT; } while (0)

static relay_item *item(relay_reader *r, int node, int line, int col)
{
    relay_item *it = BX_NEW(&r->arena, relay_item);
    it->node = node;
    it->line = line;
    it->col = col;
    return it;
}
static relay_item *append(relay_item *list, relay_item *it)
{
    if (!list)
        return it;
    relay_item *p = list;
    while (p->next)
        p = p->next;
    p->next = it;
    return list;
}
}

%token DEF "def" TENSOR "Tensor" NONE "None" TRUE_ "True" FALSE_ "False"
%token FN "fn" LET "let" IF "if" FREE_VAR "free_var" ARROW "->"
%token TY_OPEN "/* ty=" TY_CLOSE "*/"
%token <char *> VERSION_HEADER "version header" LOCAL "local name" GLOBAL "global name"
%token <char *> IDENT "identifier" STRING "string"
%token <long> META "meta constant"
%token <relay_number_t> NUMBER "number"

%type <int> expr primary call
%type <relay_item *> call_args items item tuple_items
%type <byoc_value> attr_value
%type <relay_list> value_list
%type <char *> qname
%type <relay_type> type tensor_type types
%type <relay_list> dims dim_list
%type <relay_type *> ret_opt

%%

module:
    version_opt DEF GLOBAL '(' params_opt ')' ret_opt '{' stmts expr '}'
        {
            if (strcmp($3, "@main") != 0) {
                relay_error_at(r, @3.first_line, @3.first_column,
                               "expected the function @main, not %s", $3);
                YYABORT;
            }
            CHECK(relay_result(r, $10, $7, @10.first_line, @10.first_column));
        }
  ;
version_opt:
    %empty
  | VERSION_HEADER
        {
            if (strncmp($1, "0.0.", 4) != 0) {
                relay_error_at(r, @1.first_line, @1.first_column,
                               "unsupported Relay text version \"%s\"", $1);
                YYABORT;
            }
        }
  ;
params_opt:
    %empty
  | params
  ;
params:
    param
  | params ',' param
  ;
param:
    LOCAL ':' type         { CHECK(relay_param(r, $1, &$3, @1.first_line, @1.first_column)); }
  ;
ret_opt:
    %empty                 { $$ = NULL; }
  | ARROW type             { $$ = BX_NEW(&r->arena, relay_type); *$$ = $2; }
  ;
stmts:
    %empty
  | stmts LOCAL '=' expr ';'
        { CHECK(relay_bind(r, $2, $4, @2.first_line, @2.first_column)); }
  ;

/* ---- expressions ---------------------------------------------------------- */

expr:
    primary
  | primary TY_OPEN type TY_CLOSE
        { CHECK($$ = relay_annotate(r, $1, &$3, @3.first_line, @3.first_column)); }
  ;
primary:
    LOCAL                  { CHECK($$ = relay_local(r, $1, @1.first_line, @1.first_column)); }
  | META                   { CHECK($$ = relay_meta(r, $1, @1.first_line, @1.first_column)); }
  | NUMBER                 { CHECK($$ = relay_scalar(r, &$1, false, @1.first_line, @1.first_column)); }
  | '-' NUMBER             { CHECK($$ = relay_scalar(r, &$2, true, @1.first_line, @1.first_column)); }
  | TRUE_                  { CHECK($$ = relay_bool(r, true, @1.first_line, @1.first_column)); }
  | FALSE_                 { CHECK($$ = relay_bool(r, false, @1.first_line, @1.first_column)); }
  | call
  | '(' expr ')'           { $$ = $2; }
  | '(' ')'                { CHECK($$ = relay_tuple(r, NULL, @1.first_line, @1.first_column)); }
  | '(' expr ',' ')'
        { CHECK($$ = relay_tuple(r, item(r, $2, @2.first_line, @2.first_column),
                                 @1.first_line, @1.first_column)); }
  | '(' expr ',' tuple_items ')'
        {
            relay_item *first = item(r, $2, @2.first_line, @2.first_column);
            first->next = $4;
            CHECK($$ = relay_tuple(r, first, @1.first_line, @1.first_column));
        }
  | primary '.' NUMBER     { CHECK($$ = relay_proj(r, $1, &$3, @2.first_line, @2.first_column)); }
  | FN                     { relay_error_at(r, @1.first_line, @1.first_column, "functions (fn) are not supported: give byoc a module whose @main is a dataflow graph"); YYABORT; }
  | LET                    { relay_error_at(r, @1.first_line, @1.first_column, "let expressions are not supported: give byoc a module in dataflow form"); YYABORT; }
  | IF                     { relay_error_at(r, @1.first_line, @1.first_column, "control flow (if) is not supported"); YYABORT; }
  | GLOBAL                 { relay_error_at(r, @1.first_line, @1.first_column, "calls of global functions (%s) are not supported", $1); YYABORT; }
  ;
tuple_items:
    expr                   { $$ = item(r, $1, @1.first_line, @1.first_column); }
  | tuple_items ',' expr   { $$ = append($1, item(r, $3, @3.first_line, @3.first_column)); }
  ;
call:
    qname '(' call_args ')'
        { CHECK($$ = relay_call(r, $1, $3, @1.first_line, @1.first_column)); }
  ;
qname:
    IDENT
  | qname '.' IDENT        { $$ = bx_arena_printf(&r->arena, "%s.%s", $1, $3); }
  ;
call_args:
    %empty                 { $$ = NULL; }
  | items
  ;
items:
    item
  | items ',' item         { $$ = append($1, $3); }
  ;
item:
    expr                   { $$ = item(r, $1, @1.first_line, @1.first_column); }
  | IDENT '=' attr_value
        {
            $$ = item(r, -1, @1.first_line, @1.first_column);
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
  | '(' ')'                { $$.nfields = 0; $$.fields = NULL; }
  | '(' types ')'          { $$ = $2; }
  | '(' types ',' ')'      { $$ = $2; }
  ;
types:
    type
        {
            if ($1.nfields >= 0) {
                relay_error_at(r, @1.first_line, @1.first_column,
                               "nested tuple types are not supported");
                YYABORT;
            }
            $$.nfields = 1;
            $$.fields = BX_NEWN(&r->arena, byoc_tensor_type, 1);
            $$.fields[0] = $1.t;
        }
  | types ',' type
        {
            if ($3.nfields >= 0) {
                relay_error_at(r, @3.first_line, @3.first_column,
                               "nested tuple types are not supported");
                YYABORT;
            }
            $$ = $1;
            byoc_tensor_type *f = BX_NEWN(&r->arena, byoc_tensor_type, $1.nfields + 1);
            memcpy(f, $1.fields, sizeof(*f) * (size_t)$1.nfields);
            f[$1.nfields] = $3.t;
            $$.fields = f;
            $$.nfields++;
        }
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
    if (relay_yylex_init_extra(r, &sc) != 0)
        return -1;
    YY_BUFFER_STATE b = relay_yy_scan_bytes(text, (int)len, sc);
    int rc = relay_yyparse(sc, r);
    relay_yy_delete_buffer(b, sc);
    relay_yylex_destroy(sc);
    return rc == 0 && !r->failed ? 0 : -1;
}
