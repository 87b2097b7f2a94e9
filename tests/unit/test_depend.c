// tests/unit/test_depend.c: the map dependence check (analysis/depend.c) and the dependence
// test under it (analysis/affine.c) on IR built by hand: which access patterns a map may
// have, which access shows the dependence otherwise, and which pairs of index expressions the
// GCD and bounds tests show disjoint.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"

typedef struct {
  Arena *a;
  Fn *f;
  Builder b;
  Val i, k, n, h; // loop index; invariant params
  Val lo, hi;      // the loop's range (0: not known)
  Val x, y, perm;
  Access acc[16];
  int nacc;
  Val inj[4];
  int ninj;
} T;

static T setup(void) {
  T t = {arena_new(0)};
  t.f = fn_new(t.a, "f", (Loc){0});
  t.k = fn_val(t.f, &ty_int, "k");
  t.n = fn_val(t.f, &ty_int, "n");
  t.h = fn_val(t.f, &ty_int, "h");
  t.x = fn_val(t.f, ty_ptr(t.a, &ty_double, true), "x");
  t.y = fn_val(t.f, ty_ptr(t.a, &ty_double, false), "y");
  t.perm = fn_val(t.f, ty_ptr(t.a, &ty_int, true), "perm");
  t.i = fn_val(t.f, &ty_int, "i");
  t.b = (Builder){t.f, t.f->body, (Loc){0}};
  return t;
}

static Val c(T *t, long long v) {
  return b_const_i(&t->b, &ty_int, v);
}

static void access(T *t, Val arr, Val idx, bool write) {
  t->acc[t->nacc] = (Access){arr, idx, write, (Loc){.line = (unsigned)t->nacc + 1}};
  t->nacc++;
}

// Everything built so far is inside the loop, except the parameters.
static IndexLoop loop(T *t) {
  Node **def = ARENA_ARRAY(t->a, Node *, t->f->nvals);
  ir_defs(t->f->body, def);
  unsigned char *inside = ARENA_ARRAY(t->a, unsigned char, t->f->nvals);
  ir_inside(t->f->body, inside);
  inside[t->i] = 1;
  IndexLoop lp;
  index_loop(&lp, t->a, t->f, def, inside, t->f->body, t->i, t->lo, t->hi);
  return lp;
}

// The check of the accesses noted so far.
static Dep check(T *t) {
  IndexLoop lp = loop(t);
  return map_dependence(&lp, t->f->body, t->acc, t->nacc, t->inj, t->ninj);
}

#define assert_dep(d, k, wi, oi)                                                                   \
  do {                                                                                             \
    Dep d_ = (d);                                                                                  \
    assert_int_equal(d_.kind, (k));                                                                \
    assert_int_equal(d_.w, (wi));                                                                  \
    assert_int_equal(d_.other, (oi));                                                              \
  } while (0)

// The index forms of test_independent, built afresh on each call.
static Val form_index(T *t, int form) {
  Builder *b = &t->b;
  switch (form) {
  case 0: return t->i;
  case 1: return b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, c(t, 2), t->i), c(t, 1));
  case 2: return b_binop(b, BIN_SUB, b_binop(b, BIN_SUB, t->n, c(t, 1)), t->i);
  default: return b_binop(b, BIN_ADD, t->i, t->k);
  }
}

// y[i], y[2*i + 1], y[n - 1 - i], y[i + k] read and then written, each access through its own
// copy of the expression, and reads of another array at any index: independent.
static void test_independent(void **state) {
  (void)state;
  const char *names[] = {"i", "2*i + 1", "n - 1 - i", "i + k"};
  for (int form = 0; form < 4; form++) {
    T t = setup();
    access(&t, t.x, b_binop(&t.b, BIN_ADD, t.i, c(&t, 7)), false); // another array
    access(&t, t.y, form_index(&t, form), false); // read before the write, same element
    access(&t, t.y, form_index(&t, form), true);
    if (check(&t).kind != DEP_NONE) fail_msg("y[%s] should be independent", names[form]);
    arena_free(t.a);
  }
}

// y[0] = ... (every iteration the same element), y[i*k], y[perm[i]]: not shown injective.
static void test_not_injective(void **state) {
  (void)state;
  for (int form = 0; form < 3; form++) {
    T t = setup();
    Builder *b = &t.b;
    Val idx = form == 0   ? c(&t, 0)
              : form == 1 ? b_binop(b, BIN_MUL, t.i, t.k)
                          : b_read(b, t.perm, t.i);
    access(&t, t.x, t.i, false);
    access(&t, t.y, idx, true);
    assert_dep(check(&t), DEP_NOT_INJECTIVE, 1, 1);
    arena_free(t.a);
  }
}

// injective(y) admits y[perm[i]], and the other accesses of y: the user promises that no
// element one iteration touches is written by another.
static void test_asserted(void **state) {
  (void)state;
  T t = setup();
  access(&t, t.y, t.i, false); // y[i] read (before the write) besides y[perm[i]] written
  Val p = b_read(&t.b, t.perm, t.i);
  access(&t, t.y, p, true);
  t.inj[t.ninj++] = t.y;
  assert_dep(check(&t), DEP_NONE, -1, -1);
  t.inj[0] = t.x; // an assertion about another array does not help y
  assert_dep(check(&t), DEP_NOT_INJECTIVE, 1, 1);
  arena_free(t.a);
}

// y[i] written and y[i + 1] read (a neighbour: shown to meet, one iteration apart), written at
// 2*i and 2*i + 1 (disjoint: GCD), or y[i] written and y[perm[i]] read (not shown either way).
static void test_across(void **state) {
  (void)state;
  T t = setup();
  Val next = b_binop(&t.b, BIN_ADD, t.i, c(&t, 1));
  access(&t, t.y, next, false);
  access(&t, t.y, t.i, true);
  Dep d = check(&t);
  assert_dep(d, DEP_ACROSS, 1, 0);
  assert_true(d.ov.meet);
  assert_int_equal(d.ov.dist, 1);
  T u = setup();
  Builder *b = &u.b;
  Val two_i = b_binop(b, BIN_MUL, c(&u, 2), u.i);
  access(&u, u.y, two_i, true);
  access(&u, u.y, b_binop(b, BIN_ADD, two_i, c(&u, 1)), true);
  assert_dep(check(&u), DEP_NONE, -1, -1);
  T v = setup();
  access(&v, v.y, v.i, true);
  access(&v, v.y, b_read(&v.b, v.perm, v.i), false);
  d = check(&v);
  assert_dep(d, DEP_ACROSS, 0, 1);
  assert_false(d.ov.meet);
  arena_free(t.a);
  arena_free(u.a);
  arena_free(v.a);
}

// A read of the element after it was written in the same iteration (not forwarded); a read
// before the write is fine, and so is one after it at an element shown to differ in the same
// iteration (y[2*i + 1] after y[2*i]); one that may be the same (y[perm[i]]) is not.
static void test_read_back(void **state) {
  (void)state;
  T t = setup();
  access(&t, t.y, t.i, true);
  access(&t, t.x, t.i, false);
  access(&t, t.y, t.i, false);
  assert_dep(check(&t), DEP_READ_BACK, 0, 2);
  t.acc[0].write = false;
  t.acc[2].write = true;
  assert_dep(check(&t), DEP_NONE, -1, -1);
  T u = setup();
  Builder *b = &u.b;
  Val two_i = b_binop(b, BIN_MUL, c(&u, 2), u.i);
  access(&u, u.y, two_i, true);
  access(&u, u.y, b_binop(b, BIN_ADD, two_i, c(&u, 1)), false);
  assert_dep(check(&u), DEP_NONE, -1, -1);
  u.inj[u.ninj++] = u.y; // (the pair across iterations asserted; within one, still checked)
  access(&u, u.y, b_read(b, u.perm, u.i), false);
  assert_dep(check(&u), DEP_READ_BACK, 0, 2);
  arena_free(t.a);
  arena_free(u.a);
}

// No accesses, only reads, the first of several problems.
static void test_edges(void **state) {
  (void)state;
  T t = setup();
  assert_dep(check(&t), DEP_NONE, -1, -1);
  access(&t, t.x, c(&t, 0), false);
  access(&t, t.x, t.i, false);
  assert_dep(check(&t), DEP_NONE, -1, -1); // reads alone never conflict
  access(&t, t.y, c(&t, 3), true);
  access(&t, t.x, t.i, true); // x read at 0 and written at i: reported after y's problem
  assert_dep(check(&t), DEP_NOT_INJECTIVE, 2, 2);
  t.nacc = 2;
  access(&t, t.x, t.i, true);
  assert_dep(check(&t), DEP_ACROSS, 2, 0);
  arena_free(t.a);
}

// A parallel loop over [lo, hi) in the body; returns its index.
static Val nested(T *t, Val lo, Val hi) {
  Node *p = node_new(t->a, IR_PAR, (Loc){0});
  p->u.par.lo = lo;
  p->u.par.hi = hi;
  p->u.par.idx = fn_val(t->f, &ty_int, "j");
  p->u.par.body = block_new(t->a);
  b_push(&t->b, p);
  return p->u.par.idx;
}

// A[i*k + j] and A[j + k*i] with j over [0, k) in a nested loop: rows of a matrix, proved
// independent (index_row_major), and so is A[i*k + j] with j over [1, k) (the bounds test:
// k >= 2 where j runs); with j over [0, n), A[i + j] or A[i*n + j]: not.
static void test_row_major(void **state) {
  (void)state;
  for (int form = 0; form < 6; form++) {
    T t = setup();
    Builder *b = &t.b;
    Val zero = c(&t, 0);
    Val j = nested(&t, form == 3 ? c(&t, 1) : zero, form == 2 ? t.n : t.k);
    Val idx = form == 1   ? b_binop(b, BIN_ADD, j, b_binop(b, BIN_MUL, t.k, t.i))
              : form == 4 ? b_binop(b, BIN_ADD, t.i, j)
              : form == 5 ? b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, t.i, t.n), j)
                          : b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, t.i, t.k), j);
    access(&t, t.y, idx, true);
    DepKind want = form <= 1 || form == 3 ? DEP_NONE : DEP_NOT_INJECTIVE;
    if (check(&t).kind != want) fail_msg("row-major form %d: wrong verdict", form);
    arena_free(t.a);
  }
}

// a*i + b for constants a, b (0: the term left out).
static Val affine(T *t, long long a, long long b) {
  Builder *bd = &t->b;
  Val v = a == 1 ? t->i : b_binop(bd, BIN_MUL, c(t, a), t->i);
  return b ? b_binop(bd, BIN_ADD, v, c(t, b)) : v;
}

static Overlap across(T *t, Val a, Val b) {
  IndexLoop lp = loop(t);
  return index_overlap(&lp, a, b, false);
}

// The GCD test: y[2*i] and y[2*i + 1], y[4*i] and y[4*i + 2], y[3*i + 1] and y[3*i + 2],
// y[2*i] and y[4*i + 1] (different coefficients), y[2*i + 2*k] and y[2*i + 2*k + 1] (a
// symbolic part that the gcd divides); y[2*i] and y[2*i + 2] meet one iteration apart, and
// y[2*i] and y[3*i + 1] are not shown disjoint.
static void test_gcd(void **state) {
  (void)state;
  T t = setup();
  assert_int_equal(across(&t, affine(&t, 2, 0), affine(&t, 2, 1)).proof, PROOF_GCD);
  assert_int_equal(across(&t, affine(&t, 4, 0), affine(&t, 4, 2)).proof, PROOF_GCD);
  assert_int_equal(across(&t, affine(&t, 3, 1), affine(&t, 3, 2)).proof, PROOF_GCD);
  assert_int_equal(across(&t, affine(&t, 2, 0), affine(&t, 4, 1)).proof, PROOF_GCD);
  Builder *b = &t.b;
  Val two_k = b_binop(b, BIN_MUL, c(&t, 2), t.k);
  Val e = b_binop(b, BIN_ADD, affine(&t, 2, 0), two_k);
  assert_int_equal(across(&t, e, b_binop(b, BIN_ADD, e, c(&t, 1))).proof, PROOF_GCD);
  Overlap o = across(&t, affine(&t, 2, 0), affine(&t, 2, 2));
  assert_int_equal(o.proof, PROOF_NONE);
  assert_true(o.meet);
  assert_int_equal(o.dist, 1);
  o = across(&t, affine(&t, 2, 0), affine(&t, 3, 1));
  assert_int_equal(o.proof, PROOF_NONE);
  assert_false(o.meet);
  arena_free(t.a);
}

// The bounds test with nested indices: y[3*i + j] with j over [0, 3) gives each iteration its
// own row (and so with y[3*i + 2]); y[2*i + j] does not; y[4*i + j] and y[4*i + 2 + j] with
// j over [0, 2) are disjoint; y[i*k + j] and y[i*k + k - 1] with j over [0, k) too.
static void test_bounds(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  Val j = nested(&t, c(&t, 0), c(&t, 3));
  Val row = b_binop(b, BIN_ADD, affine(&t, 3, 0), j);
  assert_int_equal(across(&t, row, row).proof, PROOF_BOUNDS);
  assert_int_equal(across(&t, row, affine(&t, 3, 2)).proof, PROOF_BOUNDS);
  Val wide = b_binop(b, BIN_ADD, affine(&t, 2, 0), j);
  assert_int_equal(across(&t, wide, wide).proof, PROOF_NONE);
  arena_free(t.a);
  T u = setup();
  b = &u.b;
  j = nested(&u, c(&u, 0), c(&u, 2));
  Val a0 = b_binop(b, BIN_ADD, affine(&u, 4, 0), j), a2 = b_binop(b, BIN_ADD, affine(&u, 4, 2), j);
  assert_int_equal(across(&u, a0, a2).proof, PROOF_BOUNDS);
  arena_free(u.a);
  T v = setup();
  b = &v.b;
  j = nested(&v, c(&v, 0), v.k);
  Val ik = b_binop(b, BIN_MUL, v.i, v.k);
  Val last = b_binop(b, BIN_SUB, b_binop(b, BIN_ADD, ik, v.k), c(&v, 1));
  assert_int_equal(across(&v, b_binop(b, BIN_ADD, ik, j), last).proof, PROOF_BOUNDS);
  arena_free(v.a);
}

// Symbolic offsets: over [0, h), g[i], g[h + i], g[2*h + i], g[3*h + i] (LSTM gates) are
// pairwise disjoint, and so are y[2*i] and y[2*h + 2*i]; y[2*i] and y[h + 2*i] meet for some h;
// over [0, n), g[i] and g[h + i] are not shown disjoint (h unrelated to the trip count).
static void test_symbolic(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  t.lo = c(&t, 0);
  t.hi = t.h;
  Val gate[4];
  for (int g = 0; g < 4; g++)
    gate[g] = g ? b_binop(b, BIN_ADD, g == 1 ? t.h : b_binop(b, BIN_MUL, c(&t, g), t.h), t.i) : t.i;
  for (int g = 0; g < 4; g++)
    for (int q = 0; q < 4; q++)
      if (across(&t, gate[g], gate[q]).proof != PROOF_BOUNDS) fail_msg("gates %d, %d", g, q);
  Val two_h = b_binop(b, BIN_MUL, c(&t, 2), t.h);
  Val y0 = affine(&t, 2, 0);
  assert_int_equal(across(&t, y0, b_binop(b, BIN_ADD, two_h, y0)).proof, PROOF_BOUNDS);
  assert_int_equal(across(&t, y0, b_binop(b, BIN_ADD, t.h, y0)).proof, PROOF_NONE);
  t.hi = t.n;
  assert_int_equal(across(&t, gate[0], gate[1]).proof, PROOF_NONE);
  arena_free(t.a);
}

// In one iteration, nested indices free: y[2*i + j] (j over [0, 2)) and y[2*i + 2] never meet,
// y[3*i + j] (j over [0, 3)) and y[3*i + 1] do.
static void test_same_iteration(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  Val j2 = nested(&t, c(&t, 0), c(&t, 2)), j3 = nested(&t, c(&t, 0), c(&t, 3));
  Val w2 = b_binop(b, BIN_ADD, affine(&t, 2, 0), j2);
  Val w3 = b_binop(b, BIN_ADD, affine(&t, 3, 0), j3);
  Val r2 = affine(&t, 2, 2), r3 = affine(&t, 3, 1);
  IndexLoop lp = loop(&t);
  assert_int_not_equal(index_overlap(&lp, w2, r2, true).proof, PROOF_NONE);
  assert_int_equal(index_overlap(&lp, w3, r3, true).proof, PROOF_NONE);
  arena_free(t.a);
}

// At one point of an iteration: the same expression (or equal polynomials), a constant or a
// gcd apart, h apart over [0, h), or not known (a read, a product with an unknown).
static void test_here(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  Val zero = c(&t, 0);
  Node **def = ARENA_ARRAY(t.a, Node *, 1024);
#define HERE(x, y, lo, hi)                                                                         \
  (ir_defs(t.f->body, def), index_here(t.f, def, (x), (y), t.i, (lo), (hi)))
  Val a = affine(&t, 2, 1), a2 = b_binop(b, BIN_ADD, c(&t, 1), b_binop(b, BIN_MUL, t.i, c(&t, 2)));
  Val e = affine(&t, 2, 0), hk = b_binop(b, BIN_MUL, c(&t, 2), t.k);
  Val hk1 = b_binop(b, BIN_ADD, hk, c(&t, 1)), gh = b_binop(b, BIN_ADD, t.h, t.i);
  Val p = b_read(b, t.perm, t.i), ik = b_binop(b, BIN_MUL, t.i, t.k);
  assert_int_equal(HERE(a, a2, 0, 0), HERE_SAME);
  assert_int_equal(HERE(a, e, 0, 0), HERE_DIFFER);
  assert_int_equal(HERE(hk1, hk, 0, 0), HERE_DIFFER);
  assert_int_equal(HERE(t.i, gh, zero, t.h), HERE_DIFFER);
  assert_int_equal(HERE(t.i, gh, zero, t.n), HERE_MAYBE);
  assert_int_equal(HERE(t.i, p, zero, t.n), HERE_MAYBE);
  assert_int_equal(HERE(t.i, ik, 0, 0), HERE_MAYBE);
#undef HERE
  arena_free(t.a);
}

// ---- soundness against enumeration ----

// A random index: ci*i + cj*j + ch*h + c0 (j a nested loop's index over [0, J), J a constant or
// the parameter k; ci sometimes the parameter k), its parts kept to evaluate it.
typedef struct {
  long long ci, cj, ch, c0;
  bool ik;  // the coefficient of i is k (times ci)
  int J;    // the nested loop's length (0: k)
  Val v, j; // the expression; the nested index (0: none)
} Rand;

static unsigned rnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

static Rand rand_index(T *t, unsigned *seed) {
  Builder *b = &t->b;
  Rand r = {(long long)(rnd(seed) % 7) - 3, (long long)(rnd(seed) % 5) - 2,
            (long long)(rnd(seed) % 5) - 2, (long long)(rnd(seed) % 7) - 3,
            rnd(seed) % 6 == 0, (int)(rnd(seed) % 4), 0, 0};
  if (rnd(seed) % 3 == 0) r.cj = 0;
  if (rnd(seed) % 3 == 0) r.ch = 0;
  Val e = b_binop(b, BIN_MUL, c(t, r.ci), r.ik ? b_binop(b, BIN_MUL, t->i, t->k) : t->i);
  if (r.cj) {
    r.j = nested(t, c(t, 0), r.J ? c(t, r.J) : t->k);
    e = b_binop(b, BIN_ADD, e, b_binop(b, BIN_MUL, c(t, r.cj), r.j));
  }
  if (r.ch) e = b_binop(b, BIN_ADD, e, b_binop(b, BIN_MUL, t->h, c(t, r.ch)));
  r.v = b_binop(b, BIN_SUB, e, c(t, -r.c0));
  return r;
}

static long long rand_at(const Rand *r, long long i, long long j, long long k, long long h) {
  return r->ci * i * (r->ik ? k : 1) + r->cj * j + r->ch * h + r->c0;
}

// Do a (iteration i1) and b (i2) meet for some symbol values and nested indices in range, with
// i1 != i2 (or i1 == i2), the loop over [0, hi) with hi the parameter n or h?
static bool rand_meet(const Rand *a, const Rand *b, bool hi_is_h, bool same) {
  for (long long k = -2; k <= 5; k++)
    for (long long h = -2; h <= 6; h++)
      for (long long n = -1; n <= 6; n++) {
        long long hi = hi_is_h ? h : n;
        long long ja = a->cj ? (a->J ? a->J : k) : 1, jb = b->cj ? (b->J ? b->J : k) : 1;
        for (long long i1 = 0; i1 < hi; i1++)
          for (long long i2 = 0; i2 < hi; i2++) {
            if ((i1 == i2) != same) continue;
            for (long long j1 = 0; j1 < ja; j1++)
              for (long long j2 = 0; j2 < jb; j2++)
                if (rand_at(a, i1, j1, k, h) == rand_at(b, i2, j2, k, h)) return true;
          }
      }
  return false;
}

// Every pair the test shows disjoint is disjoint, for every value of the symbols (a
// deterministic random sample of indices with constant and symbolic coefficients, nested
// indices, symbolic offsets and trip counts); every pair shown to meet does meet (in a loop
// long enough).
static void test_sound(void **state) {
  (void)state;
  unsigned seed = 12345;
  int proved = 0, met = 0;
  for (int round = 0; round < 2000; round++) {
    T t = setup();
    Rand a = rand_index(&t, &seed), b = rnd(&seed) % 4 ? rand_index(&t, &seed) : a;
    bool hi_is_h = rnd(&seed) % 2;
    t.lo = c(&t, 0);
    t.hi = hi_is_h ? t.h : t.n;
    IndexLoop lp = loop(&t);
    for (int same = 0; same < 2; same++) {
      Overlap o = index_overlap(&lp, a.v, b.v, same);
      bool meet = rand_meet(&a, &b, hi_is_h, same);
      if (o.proof && meet)
        fail_msg("round %d: (%lld*i%s + %lld*j[%d] + %lld*h + %lld) and (%lld*i%s + %lld*j[%d] + "
                 "%lld*h + %lld) over [0, %s) shown disjoint (%s), but they meet", round, a.ci,
                 a.ik ? "*k" : "", a.cj, a.J, a.ch, a.c0, b.ci, b.ik ? "*k" : "", b.cj, b.J,
                 b.ch, b.c0, hi_is_h ? "h" : "n", same ? "same iteration" : "across");
      if (o.meet && !meet && o.dist < 6) // (dist apart: where the loop runs that many, n <= 6)
        fail_msg("round %d: (%lld*i%s + %lld*j[%d] + %lld*h + %lld) and (%lld*i%s + %lld*j[%d] + "
                 "%lld*h + %lld) over [0, %s) shown to meet (%s), but they never do", round,
                 a.ci, a.ik ? "*k" : "", a.cj, a.J, a.ch, a.c0, b.ci, b.ik ? "*k" : "", b.cj,
                 b.J, b.ch, b.c0, hi_is_h ? "h" : "n", same ? "same iteration" : "across");
      proved += o.proof != PROOF_NONE;
      met += meet;
    }
    arena_free(t.a);
  }
  print_message("%d proofs, %d meet\n", proved, met);
  assert_true(proved > 300); // (the sample exercises the proofs, not only "maybe")
}

// r without its nested index: ci*i (or ci*i*k) + ch*h + c0.
static Val rand_here(T *t, const Rand *r) {
  Builder *b = &t->b;
  Val i = r->ik ? b_binop(b, BIN_MUL, t->i, t->k) : t->i;
  Val rest = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, t->h, c(t, r->ch)), c(t, r->c0));
  return b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, c(t, r->ci), i), rest);
}

// At one point of an iteration: a pair shown to differ differs, and one shown the same is the
// same, for every value of i in [0, hi) and of the symbols.
static void test_here_sound(void **state) {
  (void)state;
  unsigned seed = 4321;
  int differ = 0;
  for (int round = 0; round < 2000; round++) {
    T t = setup();
    Rand a = rand_index(&t, &seed), b = rand_index(&t, &seed);
    a.cj = b.cj = 0; // (every value the same in both: no nested index of its own)
    Val av = rand_here(&t, &a), bv = rand_here(&t, &b);
    bool hi_is_h = rnd(&seed) % 2;
    Val zero = c(&t, 0);
    Node **def = ARENA_ARRAY(t.a, Node *, t.f->nvals);
    ir_defs(t.f->body, def);
    IndexHere h = index_here(t.f, def, av, bv, t.i, zero, hi_is_h ? t.h : t.n);
    for (long long k = -2; k <= 5; k++)
      for (long long hh = -2; hh <= 6; hh++)
        for (long long n = -1; n <= 6; n++)
          for (long long i = 0; i < (hi_is_h ? hh : n); i++) {
            long long x = rand_at(&a, i, 0, k, hh), y = rand_at(&b, i, 0, k, hh);
            if ((h == HERE_DIFFER && x == y) || (h == HERE_SAME && x != y))
              fail_msg("round %d: index_here %d, wrong at i = %lld", round, h, i);
          }
    differ += h == HERE_DIFFER;
    arena_free(t.a);
  }
  assert_true(differ > 200);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_independent), cmocka_unit_test(test_not_injective),
      cmocka_unit_test(test_asserted),    cmocka_unit_test(test_across),
      cmocka_unit_test(test_read_back),   cmocka_unit_test(test_edges),
      cmocka_unit_test(test_row_major),   cmocka_unit_test(test_gcd),
      cmocka_unit_test(test_bounds),      cmocka_unit_test(test_symbolic),
      cmocka_unit_test(test_same_iteration), cmocka_unit_test(test_here),
      cmocka_unit_test(test_sound),      cmocka_unit_test(test_here_sound),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
