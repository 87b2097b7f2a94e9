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
// x when v is max(x, 0), written as the select `x > 0 ? x : 0` (a loop's length), else 0.
Val index_clamped(Node *const *def, Val v);

// ---- affine.c: index expressions as polynomials, and the dependence test ----

// A polynomial with integer coefficients over leaf values: an integer expression taken
// apart through +, -, *, unary -, integer casts and << by a constant; any other value (a
// parameter, a loop index, a read, a quotient, a float) is a leaf.  Terms are kept one per
// monomial; ok is false when the expression was too long, or a coefficient overflowed, or a
// monomial would have more than POLY_DEG leaves or the polynomial more than POLY_TERMS terms.
#define POLY_DEG 3
#define POLY_TERMS 16
typedef struct {
  long long c;
  Val v[POLY_DEG]; // the leaves, largest first, 0-padded (all 0: the constant term)
} Mono;
typedef struct {
  bool ok;
  int n;
  Mono t[POLY_TERMS];
} Poly;

Poly poly_of(const Fn *fn, Node *const *def, Val v);

// A parallel loop, for the dependence test: its index i over [lo, hi) (lo = hi = 0: a range
// not known), what its body defines (inside[v]: values that may differ between iterations;
// i and the indices of nested loops included) and the loops nested in the body (their
// indices range over their own [lo, hi)).
typedef struct {
  const Fn *fn;
  Node *const *def;
  const unsigned char *inside;
  Val i, lo, hi;
  const Node **loops;
  int nloops;
  Arena *a;
  struct Lin **lin; // each index taken apart once (index_overlap), for values < nlin
  int nlin;
} IndexLoop;

void index_loop(IndexLoop *lp, Arena *a, const Fn *fn, Node *const *def,
                const unsigned char *inside, const Block *body, Val i, Val lo, Val hi);

// How two accesses were shown never to touch the same element (a later --remarks prints it).
typedef enum {
  PROOF_NONE,     // not shown (meet says whether they were shown to meet)
  PROOF_GCD,      // the gcd of the integer coefficients does not divide the constant difference
  PROOF_BOUNDS,   // the difference keeps one sign over the loops' ranges (Banerjee's bounds)
  PROOF_ROW_MAJOR, // i*M + j with j over [0, M) (index_row_major)
  PROOF_ASSERTED, // injective(y) on the pragma: the user's promise
} IndexProof;

typedef struct {
  IndexProof proof;
  bool meet;      // (PROOF_NONE) shown to touch the same element, for dist > 0 iterations
  long long dist; // apart (when the loop runs that many), or in the same iteration (0)
} Overlap;

// Can the accesses at index expressions a and b (in the body of lp's loop, each in any
// iteration of the loops nested in the body that enclose it) touch the same element in two
// different iterations of the loop (same_iteration false), or in one (true)?  The indices
// are affine in i and the nested indices, with coefficients and the rest polynomials over
// values from outside the loop; anything else is not shown (PROOF_NONE).
Overlap index_overlap(const IndexLoop *lp, Val a, Val b, bool same_iteration);

// a and b at one point of an iteration of the loop over [lo, hi) with index i (every value
// the same in both: the front end, before the loop's body is complete): the same element
// (the same expression, or equal as polynomials), shown to differ, or maybe the same.
typedef enum { HERE_SAME, HERE_DIFFER, HERE_MAYBE } IndexHere;
IndexHere index_here(const Fn *fn, Node *const *def, Val a, Val b, Val i, Val lo, Val hi);

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
  bool initial; // a read of the element as the iteration found it: no write of the iteration
                // on its path may have reached the element (parser/lower_access.c); the other
                // reads (after a write the front end could not forward) are checked below
} Access;

typedef enum {
  DEP_NONE,          // each iteration touches its own elements
  DEP_NOT_INJECTIVE, // acc[w] writes at an index not shown to differ between iterations
  DEP_ACROSS,        // acc[other], at another index expression, may touch an element that
                     // acc[w] writes in another iteration
  DEP_READ_BACK,     // acc[other] reads back (from memory) an element acc[w] may have written
                     // earlier in the same iteration
} DepKind;

typedef struct {
  DepKind kind;
  int w, other; // indices into the accesses
  Overlap ov;   // what the dependence test found about the pair (shown to meet, how far)
} Dep;

// The map promise (language.md §3), in the form this version can prove: for every array the
// loop writes, no access of it in one iteration touches an element that another iteration
// writes (index_overlap on every pair of a write and an access, itself included: the GCD and
// bounds tests; or i*M + j, index_row_major), or the array is asserted injective(...) by the
// user; and no read goes to memory for an element the iteration may have written before it
// (the front end forwards the written value where the index expression is the same).
// acc: the loop's accesses in program order. Returns the first dependence found, or DEP_NONE.
// idx is i*M + j (j + M*i, ...) with j the index of a loop nested in body over [0, M), M the
// same in every iteration of i: distinct (i, j) give distinct elements (rows of a matrix).
bool index_row_major(Node *const *def, const unsigned char *inside, const Block *body, Val idx,
                     Val i);

// How write w was shown to give each iteration its own elements (for --remarks).
IndexProof write_proof(const IndexLoop *lp, const Block *body, const Access *w,
                       const Val *injective, int ninjective);

Dep map_dependence(const IndexLoop *lp, const Block *body, const Access *acc, int nacc,
                   const Val *injective, int ninjective);

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
