// Timing driver for the legacy_lstm benchmark: examples/legacy/lstm/lstm.c as it is, ADBench's
// LSTM objective in Tapenade's C (run.sh takes the annotated file from there). Links three
// objects:
//   lstm_objective_seq    lstm.c compiled by cc directly (-Dlstm_objective=lstm_objective_seq,
//                         no OpenMP; its helpers made local)
//   lstm_objective, lstm_objective_vjp, lstm_objective_jvp   adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of lstm_objective_seq instead (bench/README.md).
// Usage: legacy_lstm_bench [N [REPS]]. Prints one table row (after a '#' line saying what
// ran); warnings go to stderr.
// Problem size: l = 2 layers of b = 16 units, a sequence of c = N / 10^4 characters (the
// row's n column; 1000 at the default, ADBench's sequences have 1024 and 4096), every input
// in [-1, 1). The loops over the characters and the layers are sequential; the annotated
// loops run over b = 16 units, so OpenMP's fork and join per loop weigh (3 parallel loops
// per layer and 4 more per character). adsoac's vjp saves what each character's step
// overwrites. Every timed call first restores the state (and, for the vjp, the seeds
// state_bar = 0, *loss_bar = 1); the other adjoints accumulate.
#include "harness.h"

void lstm_objective_seq(int l, int c, int b, const double *main_params,
                        const double *extra_params, double *state, const double *sequence,
                        double *loss);
void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    double *state, const double *sequence, double *loss);
void lstm_objective_vjp(int l, int c, int b, const double *main_params,
                        double *main_params_bar, const double *extra_params,
                        double *extra_params_bar, double *state, double *state_bar,
                        const double *sequence, double *sequence_bar, double *loss,
                        double *loss_bar);
void lstm_objective_jvp(int l, int c, int b, const double *main_params,
                        const double *main_params_dot, const double *extra_params,
                        const double *extra_params_dot, double *state, double *state_dot,
                        const double *sequence, const double *sequence_dot, double *loss,
                        double *loss_dot);

enum { LAYERS = 2, UNITS = 16, PER_CHAR = 10000 };

typedef struct {
  int l, c, b;
  double *mp, *ep, *s0, *seq; // main_params, extra_params, initial state, sequence
} Lstm;

static int nmp(const Lstm *m) { return 8 * m->l * m->b; }
static int nep(const Lstm *m) { return 3 * m->b; }
static int nst(const Lstm *m) { return 2 * m->l * m->b; }
static int nsq(const Lstm *m) { return m->c * m->b; }

static void lstm_make(Lstm *m, int l, int c, int b, unsigned seed) {
  m->l = l;
  m->c = c;
  m->b = b;
  m->mp = bench_dalloc(nmp(m));
  m->ep = bench_dalloc(nep(m));
  m->s0 = bench_dalloc(nst(m));
  m->seq = bench_dalloc(nsq(m));
  bench_fill(m->mp, nmp(m), seed, -1.0, 1.0);
  bench_fill(m->ep, nep(m), seed + 1, -1.0, 1.0);
  bench_fill(m->s0, nst(m), seed + 2, -1.0, 1.0);
  bench_fill(m->seq, nsq(m), seed + 3, -1.0, 1.0);
}

static void lstm_free(Lstm *m) { free(m->mp); free(m->ep); free(m->s0); free(m->seq); }

// L = seed * loss + <ss, state_final> from the sequential original
static double L_seq(const Lstm *m, double seed, const double *ss, double *st) {
  double loss;
  bench_dcopy(st, m->s0, nst(m));
  lstm_objective_seq(m->l, m->c, m->b, m->mp, m->ep, st, m->seq, &loss);
  return seed * loss + bench_inner(ss, st, NULL, NULL, nst(m));
}

// Central difference of L_seq in p[j] against f_vjp's g (step 1e-5: smooth, not polynomial;
// L is of order 1, so the rounding stays far below the tolerance).
static void check_fd(Bench *b, const char *label, const char *what, const Lstm *m,
                     double seed, const double *ss, double *st, double *p, const double *g,
                     int len, int nf) {
  const double h = 1e-5;
  int cnt = nf < 0 || nf > len ? len : nf;
  for (int k = 0; k < cnt; k++) {
    int j = nf < 0 ? k : (int)((long)k * (len - 1) / (cnt > 1 ? cnt - 1 : 1));
    double v = p[j];
    p[j] = v + h; double fp = L_seq(m, seed, ss, st);
    p[j] = v - h; double fm = L_seq(m, seed, ss, st);
    p[j] = v;
    char buf[96];
    snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
    bench_check_vjp_fd(b, bench_what(label, buf), g[j], fp, fm, h);
  }
}

// All checks on one input (label NULL: the timed input): the loss and final state of every
// variant against the sequential C; f_vjp with seeds *loss_bar = 1.5 and state_bar = ss in
// [0.5, 1.5) accumulates into main_params_bar, extra_params_bar, sequence_bar (non-zero
// initial values give them plus the gradient from zero), leaves *loss_bar = 0 and the adjoint
// of the initial state in state_bar; the gradient against finite differences at nf entries
// of every input (all if nf < 0); f_jvp's tangents against the adjoint identity.
static void check_all(Bench *b, const char *label, Lstm *m, int nf) {
  const double seed = 1.5; // not 1: a dropped seed must show
  int l = m->l, c = m->c, bb = m->b, nm = nmp(m), ne = nep(m), ns = nst(m), nq = nsq(m);
  double *ss = bench_dalloc(ns), *sts = bench_dalloc(ns), *st = bench_dalloc(ns),
         *sb = bench_dalloc(ns), *sd = bench_dalloc(ns);
  double *m0 = bench_dalloc(nm), *mb = bench_dalloc(nm), *mz = bench_dalloc(nm), *md = bench_dalloc(nm);
  double *e0 = bench_dalloc(ne), *eb = bench_dalloc(ne), *ez = bench_dalloc(ne), *ed = bench_dalloc(ne);
  double *q0 = bench_dalloc(nq), *qb = bench_dalloc(nq), *qz = bench_dalloc(nq), *qd = bench_dalloc(nq);
  bench_fill(ss, ns, 50, 0.5, 1.5);
  double loss_seq, loss, lb;
  bench_dcopy(sts, m->s0, ns);
  lstm_objective_seq(l, c, bb, m->mp, m->ep, sts, m->seq, &loss_seq);
  bench_dcopy(st, m->s0, ns);
  lstm_objective(l, c, bb, m->mp, m->ep, st, m->seq, &loss);
  bench_check_scalar(b, bench_what(label, "primal loss vs sequential C"), loss, loss_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal state vs sequential C"), st, sts, ns, BENCH_RTOL);
  // accumulate: from initial adjoints in [-1, 1), then from zero
  bench_fill(m0, nm, 51, -1.0, 1.0); bench_dcopy(mb, m0, nm);
  bench_fill(e0, ne, 52, -1.0, 1.0); bench_dcopy(eb, e0, ne);
  bench_fill(q0, nq, 53, -1.0, 1.0); bench_dcopy(qb, q0, nq);
  bench_dcopy(st, m->s0, ns);
  bench_dcopy(sb, ss, ns);
  lb = seed;
  lstm_objective_vjp(l, c, bb, m->mp, mb, m->ep, eb, st, sb, m->seq, qb, &loss, &lb);
  bench_check_scalar(b, bench_what(label, "lstm_objective_vjp loss vs sequential C"), loss, loss_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "lstm_objective_vjp state vs sequential C"), st, sts, ns, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "lstm_objective_vjp loss_bar on exit (0)"), lb, 0.0, BENCH_RTOL);
  memset(mz, 0, (size_t)nm * sizeof *mz);
  memset(ez, 0, (size_t)ne * sizeof *ez);
  memset(qz, 0, (size_t)nq * sizeof *qz);
  bench_dcopy(st, m->s0, ns);
  bench_dcopy(sb, ss, ns);
  lb = seed;
  lstm_objective_vjp(l, c, bb, m->mp, mz, m->ep, ez, st, sb, m->seq, qz, &loss, &lb);
  for (int i = 0; i < nm; i++) m0[i] += mz[i];
  for (int i = 0; i < ne; i++) e0[i] += ez[i];
  for (int i = 0; i < nq; i++) q0[i] += qz[i];
  bench_check_array(b, bench_what(label, "lstm_objective_vjp main_params_bar accumulates"), mb, m0, nm, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "lstm_objective_vjp extra_params_bar accumulates"), eb, e0, ne, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "lstm_objective_vjp sequence_bar accumulates"), qb, q0, nq, BENCH_RTOL);
  // the gradient (from zero; sb: the adjoint of the initial state) against finite differences
  check_fd(b, label, "d/dmain_params", m, seed, ss, st, m->mp, mz, nm, nf);
  check_fd(b, label, "d/dextra_params", m, seed, ss, st, m->ep, ez, ne, nf);
  check_fd(b, label, "d/dstate", m, seed, ss, st, m->s0, sb, ns, nf);
  check_fd(b, label, "d/dsequence", m, seed, ss, st, m->seq, qz, nq, nf);
  // f_jvp: seed * loss_dot + <ss, final state_dot> = <gradient, initial tangents>
  bench_fill(md, nm, 54, -1.0, 1.0);
  bench_fill(ed, ne, 55, -1.0, 1.0);
  bench_fill(qd, nq, 56, -1.0, 1.0);
  bench_fill(sd, ns, 57, -1.0, 1.0);
  double want = bench_inner(mz, md, NULL, NULL, nm) + bench_inner(ez, ed, NULL, NULL, ne) +
                bench_inner(qz, qd, NULL, NULL, nq) + bench_inner(sb, sd, NULL, NULL, ns);
  double loss_dot = 0.0;
  bench_dcopy(st, m->s0, ns);
  lstm_objective_jvp(l, c, bb, m->mp, md, m->ep, ed, st, sd, m->seq, qd, &loss, &loss_dot);
  bench_check_scalar(b, bench_what(label, "lstm_objective_jvp loss vs sequential C"), loss, loss_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "lstm_objective_jvp <seeds, final tangents> vs <vjp gradient, initial tangents>"),
                     seed * loss_dot + bench_inner(ss, sd, NULL, NULL, ns), want, BENCH_RTOL);
  free(ss); free(sts); free(st); free(sb); free(sd);
  free(m0); free(mb); free(mz); free(md); free(e0); free(eb); free(ez); free(ed);
  free(q0); free(qb); free(qz); free(qd);
}

static void check_small(Bench *b, int l, int c, int bb, unsigned seed) {
  Lstm m;
  char label[64];
  lstm_make(&m, l, c, bb, seed);
  snprintf(label, sizeof label, "l = %d, c = %d, b = %d", l, c, bb);
  check_all(b, label, &m, -1);
  lstm_free(&m);
}

// the timed calls: the state (and the vjp's seeds) restored first
static Lstm M;
static double *tst, *tsb, *tmb, *teb, *tqb;

static double run_seq(void) {
  double loss;
  bench_dcopy(tst, M.s0, nst(&M));
  lstm_objective_seq(M.l, M.c, M.b, M.mp, M.ep, tst, M.seq, &loss);
  return loss;
}
static double run_primal(void) {
  double loss;
  bench_dcopy(tst, M.s0, nst(&M));
  lstm_objective(M.l, M.c, M.b, M.mp, M.ep, tst, M.seq, &loss);
  return loss;
}
static double run_vjp(void) {
  double loss, lb = 1.0;
  bench_dcopy(tst, M.s0, nst(&M));
  memset(tsb, 0, (size_t)nst(&M) * sizeof *tsb);
  lstm_objective_vjp(M.l, M.c, M.b, M.mp, tmb, M.ep, teb, tst, tsb, M.seq, tqb, &loss, &lb);
  return loss;
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_lstm", argc, argv);
  int c = b.n / PER_CHAR < 2 ? 2 : b.n / PER_CHAR; // characters (c >= 2: one prediction)
  b.n = c;
  lstm_make(&M, LAYERS, c, UNITS, 20);
  printf("# legacy_lstm: l = %d layers, b = %d, c = %d characters (examples/legacy/lstm/lstm.c)\n",
         LAYERS, UNITS, c);
  fflush(stdout);

  // ---- checks (once, before timing) ----
  check_all(&b, NULL, &M, 3);
  check_small(&b, 1, 2, 1, 21);
  check_small(&b, 2, 3, 3, 22);
  check_small(&b, 1, 5, 2, 23);

  // ---- timing ----
  tst = bench_dalloc(nst(&M)); tsb = bench_dalloc(nst(&M));
  tmb = bench_dalloc(nmp(&M)); teb = bench_dalloc(nep(&M)); tqb = bench_dalloc(nsq(&M));
  memset(tmb, 0, (size_t)nmp(&M) * sizeof *tmb);
  memset(teb, 0, (size_t)nep(&M) * sizeof *teb);
  memset(tqb, 0, (size_t)nsq(&M) * sizeof *tqb);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);

  free(tst); free(tsb); free(tmb); free(teb); free(tqb);
  lstm_free(&M);
  return b.warnings ? 3 : 0;
}
