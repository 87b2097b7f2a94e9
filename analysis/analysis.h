// analysis/analysis.h: facts about the IR that the front end's checks, the transforms and the
// emitter use; they read the IR and change nothing.
#pragma once
#include "../ir/ir.h"

// ---- index.c ----
// The defining statement of every value of a block (recursively), in def[v].
void ir_defs(const Block *b, Node **def);
// inside[v] = 1 for every value a block defines (recursively): statement results, and the
// indices, carried values and clause results of the loops in it, which have no def.
void ir_inside(const Block *b, unsigned char *inside);

// An index expression as a function of one loop index i: idx = coef * i + rest, where rest
// does not vary in the loop (affine), or something else (a read, another loop's index, a
// product of i with a variable).  inside[v]: v is defined in the loop's body.
typedef struct {
  bool affine;
  long long coef;
} IndexForm;

IndexForm index_form(Node *const *def, const unsigned char *inside, Val v, Val i);
bool index_invariant(Node *const *def, const unsigned char *inside, Val v, Val i);
// a and b are the same expression (structurally), so they denote the same element.
bool index_same(Node *const *def, Val a, Val b);
// Do the loops [lo_a, hi_a) and [lo_b, hi_b) run the same iterations?  (Equal bounds, or
// from 0 to x and to max(x, 0), the length of a scan's temporaries.)
bool range_same(Node *const *def, Val lo_a, Val hi_a, Val lo_b, Val hi_b);

// ---- depend.c ----
// Does b (recursively) write arr?
bool ir_writes(const Block *b, Val arr);
// Does b read an array it also writes (an in-place update)? A second pass over a loop body
// that does would read the new elements, not the ones the first pass used.
bool ir_updates_in_place(const Block *b);

// Data and control dependence: on entry t[v] marks some values (e.g. a scan's running value);
// on exit also every value b computes from them, or under a condition computed from them.
void ir_taint(const Block *b, unsigned char *t);

// An array access inside a parallel loop, for the map legality check.
typedef struct {
  Val arr, idx;
  bool write;
  Loc loc;
  bool initial; // a read of the element as the iteration found it (before its writes): the
                // value before an if that wrote it in one branch (parser/lower.c merge_elements)
} Access;

typedef enum {
  DEP_NONE,          // each iteration touches its own elements
  DEP_NOT_INJECTIVE, // acc[w] writes at an index not shown to differ between iterations
  DEP_OTHER_INDEX,   // acc[other] reaches acc[w]'s array through another index expression
  DEP_READ_BACK,     // acc[other] reads back the element acc[w] wrote in the same iteration
} DepKind;

typedef struct {
  DepKind kind;
  int w, other; // indices into the accesses
} Dep;

// The map promise (language.md §3), in the form this version can prove: every access of an
// array the loop writes uses one index expression a*i + b (a != 0, b the same in every
// iteration) or i*M + j (j the index of a parallel loop in the body over [0, M)), or the
// array is asserted injective(...) by the user; and an element written in an iteration is
// not read back from memory later in it (the front end forwards the value).
// body: the loop's body; acc: its accesses in program order; i: the loop index; inside as
// for index_form. Returns the first dependence found, or DEP_NONE.
// idx is i*M + j (j + M*i, ...) with j the index of a loop nested in body over [0, M), M the
// same in every iteration of i: distinct (i, j) give distinct elements (rows of a matrix).
bool index_row_major(Node *const *def, const unsigned char *inside, const Block *body, Val idx,
                     Val i);

Dep map_dependence(Node *const *def, const unsigned char *inside, const Block *body, Val i,
                   const Access *acc, int nacc, const Val *injective, int ninjective);

// ---- activity.c ----
// varied[v]: v is a floating-point value that depends on an active parameter.
unsigned char *activity_varied(Arena *scratch, const Fn *f);
// Warns where a derivative is taken through a non-differentiable construct (language.md §7).
void activity_warnings(const Fn *f);

// ---- uses.c ----
// uses[v] += the number of uses of v (nvals entries), in f, in b, or in n (times d: -1 takes a
// removed statement's uses away).
void count_uses(const Fn *f, int *uses);
void count_block(const Block *b, int *uses);
void count_node(const Node *n, int *uses, int d);

// ---- scan_form.c ----
// Is p a canonical scan (k in [0, n): reads src[k], writes the exclusive prefix to dst[k])?
// src and dst (nf entries each, or NULL) receive its arrays; dst[f] is 0 for a field whose
// prefixes are not kept (the scan still computes them; when none is kept, only the total).
bool scan_canonical(const Node *p, Val *src, Val *dst);

// ---- rules.c: which derivative rule each combinator gets (one classifier per combinator) ----
typedef enum {
  RULE_ADD,        // +: the adjoint (tangent) passes through unchanged
  RULE_MUL,        // *: the product of the other factors, from a zero count and a product
  RULE_MINMAX,     // min, max: the winner's index
  RULE_INVERTIBLE, // a declared commutative operator with inverse(fn)
  RULE_GENERAL,    // the general rule (reduce: a scan; scan: the linear recurrence; hist:
                   // sort and segmented scans; forward mode: dual numbers)
} Rule;
Rule reduce_rule(const Red *red, bool general);
Rule scan_rule(const Scan *s, bool general);
Rule hist_rule(const Hist *h, bool general);
