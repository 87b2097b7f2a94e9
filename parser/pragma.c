// parser/pragma.c: the `#pragma adsoac ...` mini-language (language.md §2-§5).
//
//   pragma    = "adsoac" ( "grad" [ "wrt" "(" ident { "," ident } ")" ]
//                        | "map"
//                        | clause { clause }
//                        | "operator" ...
//                        | "stripmine" "(" int ")"
//                        | "derivative" "(" ident ")" { ( "vjp" | "jvp" ) "(" ident ")" } )
//   clause    = ( "reduce" | "scan" ) "(" op ":" ident { "," ident } ")"
//             | "hist" "(" op ":" ident "[" expr ":" expr "]" ")"
//   op        = "+" | "*" | "min" | "max" | ident
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

typedef struct {
  Arena *a;
  const char *s; // argument text
  size_t pos, len;
  Loc base; // location of s[0]
  const char *tok;
  size_t tok_len;
  Loc tok_loc;
} Lex;

static Loc at(Lex *lx, size_t pos) {
  Loc l = lx->base;
  l.col += (uint32_t)pos;
  return l;
}

// Advances to the next token: an identifier, a number, or one other character.
static void next(Lex *lx) {
  while (lx->pos < lx->len && isspace((unsigned char)lx->s[lx->pos])) lx->pos++;
  size_t p = lx->pos;
  lx->tok_loc = at(lx, p);
  if (p >= lx->len) {
    lx->tok = "";
    lx->tok_len = 0;
    return;
  }
  if (isalnum((unsigned char)lx->s[p]) || lx->s[p] == '_' || lx->s[p] == '.') {
    while (p < lx->len && (isalnum((unsigned char)lx->s[p]) || lx->s[p] == '_' || lx->s[p] == '.'))
      p++;
  } else { // one character: the whole of a UTF-8 one, never half of it in a message
    p++;
    while (p < lx->len && ((unsigned char)lx->s[p] & 0xC0) == 0x80) p++;
  }
  lx->tok = lx->s + lx->pos;
  lx->tok_len = p - lx->pos;
  lx->pos = p;
}

static bool is(Lex *lx, const char *t) {
  return lx->tok_len == strlen(t) && !memcmp(lx->tok, t, lx->tok_len);
}

static bool is_ident(Lex *lx) {
  return lx->tok_len && (isalpha((unsigned char)lx->tok[0]) || lx->tok[0] == '_');
}

static char *tok_str(Lex *lx) {
  return arena_strndup(lx->a, lx->tok, lx->tok_len);
}

static const char *tok_desc(Lex *lx) {
  return lx->tok_len ? arena_printf(lx->a, "'%.*s'", (int)lx->tok_len, lx->tok) : "end of line";
}

static void expect(Lex *lx, const char *t, const char *hint) {
  if (!is(lx, t)) diag_error(lx->tok_loc, hint, "expected '%s' in pragma, found %s", t, tok_desc(lx));
  next(lx);
}

static char *expect_ident(Lex *lx, const char *what, const char *hint) {
  if (!is_ident(lx)) diag_error(lx->tok_loc, hint, "expected %s, found %s", what, tok_desc(lx));
  char *s = tok_str(lx);
  next(lx);
  return s;
}

static void parse_wrt(Lex *lx, Pragma *p) {
  const char *hint = "write wrt(p, q, ...) with parameter names";
  expect(lx, "(", hint);
  const char *names[256];
  Loc locs[256];
  int n = 0;
  do {
    if (n) next(lx);
    locs[n] = lx->tok_loc;
    names[n] = expect_ident(lx, "a parameter name", hint);
    if (++n == 256) diag_error(locs[n - 1], NULL, "too many names in wrt(...)");
  } while (is(lx, ","));
  expect(lx, ")", hint);
  p->has_wrt = true;
  p->nwrt = n;
  p->wrt = ARENA_ARRAY(lx->a, const char *, n);
  p->wrt_locs = ARENA_ARRAY(lx->a, Loc, n);
  memcpy(p->wrt, names, sizeof(char *) * (size_t)n);
  memcpy(p->wrt_locs, locs, sizeof(Loc) * (size_t)n);
}

static const char *parse_op(Lex *lx, Clause *c) {
  c->op_loc = lx->tok_loc;
  const char *hint = "operators are +, *, min, max, or a function declared with "
                     "#pragma adsoac operator";
  if (is(lx, "+") || is(lx, "*")) {
    const char *op = tok_str(lx);
    next(lx);
    return op;
  }
  if (is(lx, "-") || is(lx, "/"))
    diag_error(lx->tok_loc, "subtraction and division are not associative; accumulate with + "
               "(of the negated value) or * (of the reciprocal)",
               "operator '%.*s' is not associative", (int)lx->tok_len, lx->tok);
  if (!is_ident(lx)) diag_error(lx->tok_loc, hint, "expected an operator, found %s", tok_desc(lx));
  const char *op = tok_str(lx);
  next(lx);
  return op;
}

// The section of a hist clause: "[" lo ":" len "]", both C expressions (kept as text).
static void parse_section(Lex *lx, Clause *c, int k, const char *hint) {
  if (!is(lx, "["))
    diag_error(lx->tok_loc, hint, "expected '[' after the histogram's name, found %s", tok_desc(lx));
  size_t start = lx->pos, colon = 0;
  Loc lo_loc = at(lx, start);
  int depth = 1;
  while (depth > 0) {
    next(lx);
    if (!lx->tok_len) diag_error(lx->tok_loc, hint, "unbalanced '[' in hist clause");
    if (is(lx, "[") || is(lx, "(")) depth++;
    if (is(lx, "]") || is(lx, ")")) depth--;
    if (is(lx, ":") && depth == 1 && !colon) colon = lx->pos - 1;
  }
  size_t end = lx->pos - 1;
  if (!colon)
    diag_error(lo_loc, hint, "the section of a hist clause is [lo:len]");
  c->lo_text[k] = arena_strndup(lx->a, lx->s + start, colon - start);
  c->len_text[k] = arena_strndup(lx->a, lx->s + colon + 1, end - colon - 1);
  c->lo_loc[k] = lo_loc;
  c->len_loc[k] = at(lx, colon + 1);
  next(lx);
}

// clause = kind "(" op ":" vars ")"
static void parse_clause(Lex *lx, Clause *c) {
  *c = (Clause){.loc = lx->tok_loc};
  c->lo_text = ARENA_ARRAY(lx->a, const char *, 64);
  c->len_text = ARENA_ARRAY(lx->a, const char *, 64);
  c->lo_loc = ARENA_ARRAY(lx->a, Loc, 64);
  c->len_loc = ARENA_ARRAY(lx->a, Loc, 64);
  c->kind = is(lx, "reduce") ? CL_REDUCE : is(lx, "scan") ? CL_SCAN : CL_HIST;
  const char *kw = c->kind == CL_REDUCE ? "reduce" : c->kind == CL_SCAN ? "scan" : "hist";
  const char *hint = c->kind == CL_HIST ? "write hist(OP: h[lo:len])" :
                     arena_printf(lx->a, "write %s(OP: v1, v2, ...)", kw);
  next(lx);
  expect(lx, "(", hint);
  c->op = parse_op(lx, c);
  expect(lx, ":", hint);
  const char *names[64];
  Loc locs[64];
  int n = 0;
  do {
    if (n) next(lx);
    locs[n] = lx->tok_loc;
    names[n] = expect_ident(lx, "a variable name", hint);
    if (c->kind == CL_HIST) parse_section(lx, c, n, hint);
    if (++n == 64) diag_error(locs[n - 1], NULL, "too many variables in one clause");
  } while (is(lx, ","));
  if (!is(lx, ")")) diag_error(lx->tok_loc, hint, "expected ',' or ')' in %s clause, found %s", kw,
                               tok_desc(lx));
  next(lx);
  c->nvars = n;
  c->vars = ARENA_ARRAY(lx->a, const char *, n);
  c->var_locs = ARENA_ARRAY(lx->a, Loc, n);
  memcpy(c->vars, names, sizeof(char *) * (size_t)n);
  memcpy(c->var_locs, locs, sizeof(Loc) * (size_t)n);
}

// operator = "operator" { "neutral" "(" text ")" | "commutative" | "inverse" "(" ident ")" }
static void parse_operator(Lex *lx, Pragma *p) {
  const char *hint = "write #pragma adsoac operator neutral(E) [commutative] [inverse(fn)]";
  while (lx->tok_len) {
    if (is(lx, "neutral") && !p->neutral) {
      next(lx);
      if (!is(lx, "(")) diag_error(lx->tok_loc, hint, "expected '(' after 'neutral'");
      size_t start = lx->pos;
      p->neutral_loc = at(lx, start);
      int depth = 1;
      while (depth > 0) {
        next(lx);
        if (!lx->tok_len) diag_error(lx->tok_loc, hint, "unbalanced '(' in neutral(...)");
        if (is(lx, "(")) depth++;
        if (is(lx, ")")) depth--;
      }
      p->neutral = arena_strndup(lx->a, lx->s + start, lx->pos - 1 - start);
      next(lx);
    } else if (is(lx, "commutative") && !p->commutative) {
      p->commutative = true;
      next(lx);
    } else if (is(lx, "inverse") && !p->inverse) {
      next(lx);
      expect(lx, "(", hint);
      p->inverse_loc = lx->tok_loc;
      p->inverse = expect_ident(lx, "a function name", hint);
      expect(lx, ")", hint);
    } else {
      diag_error(lx->tok_loc, hint, "unexpected %s in operator pragma", tok_desc(lx));
    }
  }
  if (!p->neutral)
    diag_error(p->loc, "every declared operator needs its neutral element, e.g. neutral(0.0) or "
               "neutral((Lin){1.0, 0.0})", "operator pragma without neutral(...)");
}

// derivative(f) vjp(g) jvp(h): f's body is not in the file; g and h are its derivatives
// (language.md §6), one of them at least.
static void parse_derivative(Lex *lx, Pragma *p) {
  const char *hint = "write #pragma adsoac derivative(f) vjp(f_vjp) jvp(f_jvp), with one of "
                     "vjp(...) and jvp(...) at least";
  expect(lx, "(", hint);
  p->deriv_loc = lx->tok_loc;
  p->deriv = expect_ident(lx, "a function name", hint);
  expect(lx, ")", hint);
  while (lx->tok_len) {
    bool vjp = is(lx, "vjp");
    if ((!vjp && !is(lx, "jvp")) || (vjp ? p->vjp : p->jvp) != NULL)
      diag_error(lx->tok_loc, hint, "unexpected %s in derivative pragma", tok_desc(lx));
    next(lx);
    expect(lx, "(", hint);
    Loc at = lx->tok_loc;
    const char *name = expect_ident(lx, "a function name", hint);
    expect(lx, ")", hint);
    if (vjp)
      p->vjp = name, p->vjp_loc = at;
    else
      p->jvp = name, p->jvp_loc = at;
  }
  if (!p->vjp && !p->jvp)
    diag_error(p->loc, hint, "derivative pragma without vjp(...) or jvp(...)");
}

// injective(y, ...): the user asserts the map promise for each listed array: no element that
// one iteration reads or writes is written by another (y[perm[i]] with perm a permutation).
static void parse_injective(Lex *lx, Pragma *p) {
  const char *hint = "write injective(y, ...) with the arrays the loop writes";
  p->inj_loc = lx->tok_loc;
  next(lx);
  expect(lx, "(", hint);
  const char *names[64];
  int n = 0;
  do {
    if (n) next(lx);
    if (n == 64) diag_error(lx->tok_loc, NULL, "too many names in injective(...)");
    names[n++] = expect_ident(lx, "an array name", hint);
  } while (is(lx, ","));
  expect(lx, ")", hint);
  p->injective = ARENA_ARRAY(lx->a, const char *, n);
  memcpy(p->injective, names, sizeof(char *) * (size_t)n);
  p->ninjective = n;
}

static void parse_clauses(Lex *lx, Pragma *p) {
  Clause cs[32];
  int n = 0;
  while (is(lx, "reduce") || is(lx, "scan") || is(lx, "hist") || is(lx, "injective")) {
    if (is(lx, "injective")) {
      parse_injective(lx, p);
      continue;
    }
    if (n == 32) diag_error(lx->tok_loc, NULL, "too many clauses on one pragma");
    parse_clause(lx, &cs[n++]);
  }
  if (lx->tok_len)
    diag_error(lx->tok_loc, "clauses are reduce(...), scan(...), hist(...) and injective(...)",
               "unknown clause %s", tok_desc(lx));
  p->kind = PR_CLAUSES;
  p->nclauses = n;
  p->clauses = ARENA_ARRAY(lx->a, Clause, n);
  memcpy(p->clauses, cs, sizeof(Clause) * (size_t)n);
}

bool pragma_parse(Arena *a, const Src *src, TSNode node, Pragma *out) {
  TSNode dir = ts_field(node, "directive"), arg = ts_field(node, "argument");
  if (ts_node_is_null(dir) || ts_node_is_null(arg)) return false;
  if (strcmp(ts_text(a, src, dir), "#pragma")) return false;
  return pragma_parse_text(a, src, ts_node_start_byte(arg), ts_node_end_byte(arg),
                           ts_loc(src, arg), out);
}

bool pragma_parse_text(Arena *a, const Src *src, uint32_t start, uint32_t end, Loc loc,
                       Pragma *out) {
  Lex lx = {a, src->text + start, 0, end - start, loc};
  next(&lx);
  if (!is(&lx, "adsoac")) return false;
  next(&lx);
  *out = (Pragma){0};
  out->loc = lx.tok_loc;
  size_t tstart = lx.pos - lx.tok_len, tend = lx.len;
  while (tend > tstart && isspace((unsigned char)lx.s[tend - 1])) tend--;
  out->text = arena_strndup(a, lx.s + tstart, tend - tstart);
  const char *known = "known pragmas: grad [wrt(...)], map, reduce(...), scan(...), hist(...), "
                      "operator, stripmine(L), derivative(f) vjp(...) jvp(...)";
  if (is(&lx, "grad")) {
    out->kind = PR_GRAD;
    next(&lx);
    if (is(&lx, "wrt")) {
      next(&lx);
      parse_wrt(&lx, out);
    }
    if (lx.tok_len) diag_error(lx.tok_loc, "write #pragma adsoac grad [wrt(p, ...)]",
                               "unexpected %s after 'grad'", tok_desc(&lx));
  } else if (is(&lx, "map")) {
    out->kind = PR_MAP;
    next(&lx);
    if (is(&lx, "injective")) parse_injective(&lx, out);
    if (lx.tok_len) diag_error(lx.tok_loc, "a map takes only injective(...); use reduce(...) etc. "
                               "for the other clauses", "unexpected %s after 'map'", tok_desc(&lx));
  } else if (is(&lx, "reduce") || is(&lx, "scan") || is(&lx, "hist")) {
    parse_clauses(&lx, out);
  } else if (is(&lx, "operator")) {
    out->kind = PR_OPERATOR;
    next(&lx);
    parse_operator(&lx, out);
  } else if (is(&lx, "derivative")) {
    out->kind = PR_DERIVATIVE;
    next(&lx);
    parse_derivative(&lx, out);
  } else if (is(&lx, "stripmine")) {
    out->kind = PR_STRIPMINE;
    next(&lx);
    expect(&lx, "(", "write stripmine(L) with L a positive integer");
    char *end;
    long v = lx.tok_len ? strtol(tok_str(&lx), &end, 10) : 0;
    if (!lx.tok_len || *end || v < 1 || v > 16)
      diag_error(lx.tok_loc, "L is the number of levels, an integer from 1 to 16",
                 "bad stripmine argument %s", tok_desc(&lx));
    out->stripmine = (int)v;
    next(&lx);
    expect(&lx, ")", "write stripmine(L) with L a positive integer");
  } else {
    diag_error(lx.tok_loc, known, "unknown adsoac pragma %s", tok_desc(&lx));
  }
  return true;
}
