// ad/rev.h: the reverse mode's state, shared by its rules (ad/rev*.c only).
#pragma once
#include "ad_internal.h"

typedef struct {
  Val arr, lo, hi; // primal values: the elements [lo, hi) of arr are overwritten
  Val save;        // vjp value of the saved copy
  Val vlo, vn;     // vjp values of lo and of the count
  // An element tape instead of a section: write w of parallel loop par saves, in iteration i,
  // the element it overwrites in save[i - lo], its index in tidx[i - lo] and 1 in tflag[i - lo]
  // (0 where it did not run); vn is the loop's length.  For writes under an if or at indices
  // that have no section (rev_save.c).  A write in parallel loops nested in par (whose bounds
  // do not change with par's iteration) has a place per iteration of the nest: nest[0..nnest)
  // are those loops, outermost first, and nT their trip counts (vjp values); vn the product.
  const Node *w, *par;
  Val tidx, tflag;
  const Node *nest[3];
  Val nT[3];
  int nnest;
  // a loop's moving section (Region.moving): no copy before it; its elements' final values,
  // saved after the loop (save, vn per iteration at the indices itape[0:T)), go back in the
  // epilogue
  bool moving;
  Val itape, T;
  // an if in a parallel loop's body that writes the iteration's arrays: their state before it,
  // copied back (not swapped) before and after its reverse, which runs its branch again
  bool restore;
} Save;

// What the reverse of hist(*/min/max/declared) needs per clause (vjp values): the section
// before and after the loop, and what the passes over its updates found.
typedef struct HistAux {
  const Node *par;   // the primal loop
  Val *h0, *h1;      // per clause (0: hist(+) or not varied)
  Val *win, *nz, *pr;
  Val *D, *DI;       // the general rule: d(final)/d(update), d(final)/d(initial contents)
  struct HistAux *next;
} HistAux;

// A block of elements that a sequential loop's iterations overwrite, and its checkpoints.
typedef struct {
  Val arr;          // primal array
  Val plo, phi;     // primal bounds [plo, phi) (phi 0: the element plo; hist: 0, 0)
  Val vlo, vn;      // vjp values (long): the elements [vlo, vlo + vn)
  Val tape;         // vjp: vn elements per iteration (once: vn elements)
  bool once;        // overwritten before it is read in every iteration: only the state
                    // before the loop is saved (for after the loop's reverse)
  bool guarded;     // written under an if: vn is 0 where the condition is false
  // moving: the section's first element depends on the iteration (y[t], the half of a state
  // vector at an offset that moves with t): computed in each iteration from the primal
  // expression pf, with the index psub (0: none) of a parallel loop in the body taken as
  // psub_at (minus 1 with psub_last), and kept per iteration in itape; vn stays the same
  bool moving;
  Val pf, psub, psub_at;
  bool psub_last;
  bool at_idx;      // moving: the one element at the loop's own index (in a parallel loop's
                    // reverse: no itape, the index says where)
  Val shift;        // vjp: added to the first element (0: none)
  Val itape, post;  // vjp: the first elements per iteration; at the function's level, the
                    // section's elements after the loop (the outputs, put back at the end)
} Region;

#define MAX_REGIONS 64 // array sections one sequential loop may overwrite

// What the forward run of a sequential loop at host level saved, for its reverse.
typedef struct LoopAux {
  const Node *loop;
  Region *reg;
  int nreg;
  Val *stape; // per carried value: its value at the start of each iteration (0: not saved)
  Val lo, T;  // vjp (long): the first index, the number of iterations
  // Store-all (rev_loop.c keeps_all): the forward run was the forward sweep of the body, and
  // the reverse of each iteration reads what that sweep computed from tapes instead of
  // running the iteration again.
  bool all;
  struct Sweep *sw; // the forward sweep, whose reverse half each reverse iteration runs
  Val *pv;          // R->pv after it: the body's values in the forward loop
  Node *fwd;        // the forward loop, and the block it is in
  Block *host;
  Val fs;           // the forward body's iteration number (long, from 0)
  Val *post;        // per region: its elements at the end of each iteration (vn each)
  struct LoopAux *next;
} LoopAux;

#define MAX_REMARKED 64

typedef struct Rev {
  Arena *a;     // = cx->a
  AdCtx *cx;
  const Fn *pf; // primal
  Fn *f;        // vjp
  Builder b;
  Val *pv;   // primal value -> its value in f (forward sweep or re-execution)
  Val *adj;  // primal scalar -> its current adjoint in f (0: zero)
  Val *abar; // primal array -> its adjoint array in f (0: inactive)
  unsigned char *varied;
  Node **def; // primal value -> defining node
  // inside the reverse of a parallel loop
  const Node *par;
  unsigned char *in_par; // primal values defined in par's body
  // iteration arrays of par whose values the sequential loops being reversed no longer use
  // (rev_seq_loop): not written again, their elements stale (left out of in_par meanwhile)
  Val *dead;
  int ndead;
  Val *hoisted;          // primal value -> host copy of a loop-invariant index
  Val *mul_nz, *mul_p;   // reduce(*) result -> its zero count and nonzero product (lift_mul)
  Val *winner;           // reduce(min/max) result -> the index of its winner, -1: the initial value
  struct Shared *shared; // the top-level reverse loop's per-thread adjoints (acc_shared)
  int nshared;
  // the top-level reverse loop's ACC_COLOR updates (acc_color), per adjoint array: the
  // coefficient of the loop index in the first one's index, whether all have it (a bool
  // value), the interval of the rest of their indices
  struct Colored { Val arr, coef, same, lo, hi; } colored[16];
  int ncolored;
  Val wins[16]; // its ACC_WINDOW updates' adjoint arrays (acc_window)
  int nwins;
  Block *top_host;       // the block the top-level reverse loop goes into
  const Node *top_par;   // the primal loop it reverses
  unsigned char *top_in; // values defined in that loop's body
  const Node **loop_of;  // index of a loop nested in it -> that loop
  struct Offsets *offs;  // the reverse loop's stencil-read arrays (see plan_offsets)
  int noffs;
  int depth;             // parallel loops being reversed (> 1: nested)
  int seq_depth;         // sequential loops being reversed inside the parallel one
  bool general;          // --general-rule: scan(+) by the general rule too (a cross-check)
  bool sweep_all;        // the next sweep_begin is a store-all loop's forward run: no skips
  HistAux *haux;         // per top-level statement with such hists: its clauses' aux arrays
  LoopAux *laux;         // per sequential loop run with checkpoints: where they are
  Val region_idx;        // the index of the loop whose regions are being found (0: none)
  const Node *region_loop; // that loop
  Val *arrays;           // the function's arrays: pointer parameters, allocations (user_arrays)
  int narrays;
  // reads_injective's answers, per loop and array
  struct InjMemo *inj_memo;
  int ninj_memo;
  // pending adjoints of loop-invariant elements of the parallel loop being reversed
  struct InvAcc *inv_acc;
  int ninv_acc, cap_inv_acc;
  // the reverse of a block's statements, and the sweep of a loop body (rev.c): a rule
  // recurses through these, so that no rule file calls the dispatcher's file
  void (*block)(struct Rev *R, const Block *b);
  Val (*sweep)(struct Rev *R, const Block *body, bool top);
  struct Sweep *(*sweep_begin)(struct Rev *R, const Block *body); // the forward half of sweep
  void (*sweep_end)(struct Rev *R, const Block *body, struct Sweep *sw); // the reverse half
  unsigned char *priv; // arrays allocated in a parallel loop's body (each iteration's own)
  struct ValTape *vtapes; // the value tapes of the loops the open sweeps ran (rev_map.c)
  // --remarks: the (loop, array, way) triples already told, once each
  struct Remarked { const Node *par; Val arr; const char *how; } remarked[MAX_REMARKED];
  int nremarked;
} Rev;

#define P(v) (R->pv[v])

// ---- rev_skip.c: the maps of a loop body the reverse of an iteration need not run ----
typedef struct {
  bool *skip; // per statement of the body
  // the arrays skipped statements write (primal), the first such statement's index, and
  // around a reverse (stale_begin) their values in f before the aliases (0: none)
  Val *arr, *saved;
  int *from, n;
} Skips;
Skips *rev_skips(Rev *R, const Block *body);
// around the reverse of statement k: the skipped statements' arrays through aliases
void stale_begin(Rev *R, Skips *s, int k);
void stale_end(Rev *R, const Skips *s);

// ---- array accesses inside a parallel loop ----

// The walks of an index expression's definitions below (is_invariant, index_clonable,
// index_interval) visit at most WALK_BUDGET statements: a longer expression (or one whose
// shared parts add up to more, a DAG walked as a tree: exponential) gets the answer that
// costs speed, not correctness: not invariant, not clonable, no interval (an atomic update).
// hoist and index_at follow only what such a walk accepted.
#define WALK_BUDGET 10000

// A read-only array that a parallel loop reads at several index expressions a*i + c_k (one
// a, the c_k differing: a stencil's u[i-1], u[i], u[i+1]).  Its adjoint updates from
// different iterations would collide (atomics); instead the reverse loop adds those of the
// first expression directly and stores the others' per iteration (tmp[k][i - lo], each its
// own element), and one loop per other expression adds them afterwards: no atomics.
#define MAX_OFFSETS 8
typedef struct Offsets {
  Val arr;                // primal array
  int n;
  Val idx[MAX_OFFSETS];   // primal: one index expression per class (index_same)
  Val tmp[MAX_OFFSETS];   // vjp: per-iteration adjoints of class k >= 1
} Offsets;

// Adjoints of an array that every iteration of the top-level loop may update at the same
// elements (a parameter read in nested loops at indices the loop index does not decide:
// GMM's means[k*D + d]).  Instead of atomics on the array, the reverse loop gets a hist(+)
// clause over the elements those indices can reach, an interval computed before the loop
// from the nested loops' bounds: the C target gives each thread its own copy of a small
// one (emit_par.c), CUDA updates it with atomicAdd as before.
typedef struct Shared {
  Val arr;    // primal array
  Val lo, hi; // vjp (long): the least and the greatest index the updates can reach
} Shared;

#define MAX_SHARED 16

// Pending adjoints of loop-invariant elements: reduced by the reverse loop, added after it.
typedef struct InvAcc {
  Val arr, idx; // primal
  Val sum;      // per-iteration adjoint in the reverse body
} InvAcc;

// reads_injective's answer for one array of one loop.
typedef struct InjMemo {
  const Node *par;
  Val arr;
  bool plain;
} InjMemo;
#define MAX_INJ_MEMO 64

#define SCRATCH(T, n) ARENA_ARRAY(R->cx->scratch, T, (n))

// ---- rev_util.c: below every rule ----
void note_def(Rev *R, Node *n, unsigned char *mark); // mark[v] = 1 for the values n defines
void rev_note_defs(Rev *R, const Block *b, unsigned char *mark);
void adj_add(Rev *R, Val v, Val x); // v's adjoint += x
Val zero_of(Rev *R, Type *t);
bool is_invariant(Rev *R, Val v); // the same in every iteration of the loop being reversed
Val hoist(Rev *R, Val v);         // its copy before the reverse loop
void clear_adj(Rev *R, const Block *b);
// A parallel loop over [0, len) whose body the rule fills through R->b; pushed by rev_loop_end.
Node *rev_loop(Rev *R, const Node *n, Val len, Block **outer);
void rev_loop_end(Rev *R, Node *m, Block *outer);
// a read of arr that the reverse sweep makes again (in a loop; in_loop: n is in one)
bool node_rereads(const Node *n, Val arr, bool in_loop);
bool block_rereads(const Block *b, Val arr, bool in_loop);
bool writes_at_index(const Block *b, Val arr, Val idx);
bool block_writes_active(Rev *R, const Block *b);

// ---- rev.c ----

// ---- rev_map.c ----
bool acc_shared(Rev *R, Val arr, Val idx, Val g);
bool acc_color(Rev *R, Val arr, Val idx, Val g);
bool acc_window(Rev *R, Val arr, Val idx, Val g);
bool reads_injective(Rev *R, Val arr); // (of the loop being reversed)
void rev_par(Rev *R, const Node *n);
// (a sweep's forward half: clone c of parallel loop n keeps its costly values for n's reverse)
void tape_values(Rev *R, const Node *n, Node *c, const void *owner);
void free_value_tapes(Rev *R, const void *owner);

// ---- rev_reduce.c ----
void check_reductions(Rev *R, const Node *n);
int single_seed(Rev *R, const Node *n, const Val *host_adj);
void user_adjoint(Rev *R, const Red *red, const Val *host_adj, const Val *xs);
// What the special rules of a loop's reductions found before its reverse loop (per reduction).
typedef struct {
  Val *k, *init_wins; // min/max: the winner's index; whether the initial value won
  bool *mul_passed;   // *: a pass of its own computed the zero count and product
} RedRev;
void red_prepare(Rev *R, const Node *n, const Val *host_adj, RedRev *rr);
void red_range(Rev *R, const Node *n, const Val *host_adj, const RedRev *rr, Node *m);
void red_operands(Rev *R, const Node *n, const Val *host_adj, const RedRev *rr, Val idx);
void red_inits(Rev *R, const Node *n, const Val *host_adj, const RedRev *rr);
void user_partial(Rev *R, const Red *red, const Val *y, const Val *x, const Val *g, Val *dx);

// ---- rev_scan.c ----
void rev_scan(Rev *R, const Node *n, const Val *src, const Val *dst);
void rev_scan_general(Rev *R, const Node *n, const Val *src, const Val *dst);
void scan_jacobian(Rev *R, const Scan *s, const Val *x, const Val *y, Val *ja, Val *jb);

// ---- rev_hist.c ----
const HistAux *hist_aux(Rev *R, const Node *par);
void hist_finish(Rev *R, const Node *n);
void hist_prepare(Rev *R, const Node *n);
int hist_winners_only(Rev *R, const Node *n);
void hist_save(Rev *R, const Node *n, bool after);
void hist_win_record(Rev *R, const Node *n, Node *clone);
void rev_update(Rev *R, const Node *n);

// ---- rev_save.c ----
const Val *user_arrays(Rev *R, int *n);
unsigned char *private_arrays(Rev *R);
bool writes_own_arrays(Rev *R, const Node *n);
bool carries_state(Rev *R, const Node *n);
bool block_carries_state(Rev *R, const Block *b);
void plan_private_saves(Rev *R, const Block *body, int k, Save *out, int *nout);
void emit_save(Rev *R, Save *s);
void tape_saves(Rev *R, Node *clone, const Save *s, int ns); // (into the cloned loop)
void free_save(Rev *R, const Save *s);
void emit_swap(Rev *R, const Save *s, bool epilogue);
void moving_saved(Rev *R, const Node *loop, Save *saves, int n);
void plan_saves(Rev *R, const Block *body, int k, bool top, Save *out, int *nout);

// ---- rev_loop.c ----
void fwd_seq_loop(Rev *R, const Node *n, bool top);
LoopAux *loop_aux_of(Rev *R, const Node *n);
void moving_copies(Rev *R, const Region *g, Val T, bool out);
void loop_regions(Rev *R, const Block *b, const unsigned char *inside, Val *memo, Region *reg, int *nreg, Val cond);
int regions_of(Rev *R, const Node *n, Region *reg);
void rev_seq_loop(Rev *R, const Node *n);
