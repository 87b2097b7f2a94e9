// Timing driver for the legacy_xs benchmark: examples/legacy/xs/xs.c as it is, an XSBench-style
// macroscopic cross-section lookup (run.sh takes the annotated file from there and compiles
// with its directory on the include path, for xs_types.h). Links three objects:
//   xs_lookup_seq     xs.c compiled by cc directly (-Dxs_lookup=xs_lookup_seq, no OpenMP;
//                     its helpers made local)
//   xs_lookup, xs_lookup_vjp, xs_lookup_jvp   adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of xs_lookup_seq instead (bench/README.md).
// Usage: legacy_xs_bench [N [REPS]]. Prints one table row (after a '#' line saying what ran);
// warnings go to stderr.
// Problem size: XSBench's "small" problem with fewer grid points: 68 nuclides of 1000 grid
// points (energies sorted in [0, 1), XSBench has 11303), the unionized grid (68000 energies)
// and its index table (18 MB), 12 materials of XSBench's small counts (34 nuclides in the
// fuel, 4 to 27 elsewhere), nl = N / 1000 lookups (the row's n column; 10^4 at the default)
// at uniform energies in uniform materials. Timed: the unionized grid (XSBench's default);
// the checks run all three grid types (the hash grid: 10000 bins, XSBench's default). The
// seed results_bar = 1 is restored before each vjp call (5 nl doubles: the call leaves 0,
// since results are written before they are read); the other adjoints accumulate.
#include "harness.h"
#include "xs_types.h"

void xs_lookup_seq(int nl, int niso, int ngp, int grid_type, int maxnuc, int hash_bins,
                   const NuclideGridPoint *grids, const double *egrid, const int *index_data,
                   const int *num_nucs, const int *mats, const double *concs,
                   const double *energies, const int *mat_samples, double *results);
void xs_lookup(int nl, int niso, int ngp, int grid_type, int maxnuc, int hash_bins,
               const NuclideGridPoint *grids, const double *egrid, const int *index_data,
               const int *num_nucs, const int *mats, const double *concs,
               const double *energies, const int *mat_samples, double *results);
void xs_lookup_vjp(int nl, int niso, int ngp, int grid_type, int maxnuc, int hash_bins,
                   const NuclideGridPoint *grids, NuclideGridPoint *grids_bar,
                   const double *egrid, double *egrid_bar, const int *index_data,
                   const int *num_nucs, const int *mats, const double *concs,
                   double *concs_bar, const double *energies, double *energies_bar,
                   const int *mat_samples, double *results, double *results_bar);
void xs_lookup_jvp(int nl, int niso, int ngp, int grid_type, int maxnuc, int hash_bins,
                   const NuclideGridPoint *grids, const NuclideGridPoint *grids_dot,
                   const double *egrid, const double *egrid_dot, const int *index_data,
                   const int *num_nucs, const int *mats, const double *concs,
                   const double *concs_dot, const double *energies, const double *energies_dot,
                   const int *mat_samples, double *results, double *results_dot);

enum { NISO = 68, NGP = 1000, NMAT = 12, BINS = 10000, PER_LOOKUP = 1000 };
static const int small_num_nucs[NMAT] = {34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};

typedef struct {
  int nl, niso, ngp, nmat, maxnuc, bins;
  NuclideGridPoint *grids;
  double *egrid, *concs, *energies;
  int *uindex, *hindex, *num_nucs, *mats, *mat_samples;
} Xs;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// XSBench's data: per nuclide sorted energies and cross sections in [0, 1); the unionized
// grid (every nuclide energy, sorted) with uindex[e*niso + i] = the grid point of nuclide i
// at or below egrid[e] (at most ngp - 2), hindex[bin*niso + i] the same for the bin's lower
// edge; both by a sweep that advances one index per nuclide, as XSBench builds them.
static void xs_make(Xs *s, int nl, int niso, int ngp, int nmat, const int *num_nucs,
                    int bins, unsigned seed) {
  int ng = niso * ngp;
  s->nl = nl; s->niso = niso; s->ngp = ngp; s->nmat = nmat; s->bins = bins;
  s->grids = malloc((size_t)ng * sizeof *s->grids);
  double *r = bench_dalloc(6 * ng);
  bench_fill(r, 6 * ng, seed, 0.0, 1.0);
  for (int i = 0; i < ng; i++) {
    NuclideGridPoint *g = &s->grids[i];
    g->energy = (i % ngp + 0.05 + 0.9 * r[6 * i]) / ngp;
    g->total_xs = r[6 * i + 1];
    g->elastic_xs = r[6 * i + 2];
    g->absorbtion_xs = r[6 * i + 3];
    g->fission_xs = r[6 * i + 4];
    g->nu_fission_xs = r[6 * i + 5];
  }
  free(r);
  s->egrid = bench_dalloc(ng);
  for (int i = 0; i < ng; i++) s->egrid[i] = s->grids[i].energy;
  qsort(s->egrid, ng, sizeof *s->egrid, cmp_double);
  s->uindex = malloc((size_t)ng * niso * sizeof(int));
  s->hindex = malloc((size_t)bins * niso * sizeof(int));
  for (int i = 0; i < niso; i++) {
    const NuclideGridPoint *g = &s->grids[i * ngp];
    for (int e = 0, k = 0; e < ng; e++) {
      while (k < ngp - 2 && g[k + 1].energy <= s->egrid[e]) k++;
      s->uindex[e * niso + i] = k;
    }
    for (int e = 0, k = 0; e < bins; e++) {
      while (k < ngp - 2 && g[k + 1].energy <= (double)e / bins) k++;
      s->hindex[e * niso + i] = k;
    }
  }
  s->maxnuc = 0;
  s->num_nucs = malloc((size_t)nmat * sizeof(int));
  for (int m = 0; m < nmat; m++) {
    s->num_nucs[m] = num_nucs[m];
    if (num_nucs[m] > s->maxnuc) s->maxnuc = num_nucs[m];
  }
  s->mats = malloc((size_t)nmat * s->maxnuc * sizeof(int));
  for (int m = 0; m < nmat; m++) // distinct nuclides per material where niso >= 2 * maxnuc
    for (int j = 0; j < s->maxnuc; j++) s->mats[m * s->maxnuc + j] = (2 * j + m) % niso;
  s->concs = bench_dalloc(nmat * s->maxnuc);
  bench_fill(s->concs, nmat * s->maxnuc, seed + 1, 0.1, 1.0);
  s->energies = bench_dalloc(nl);
  bench_fill(s->energies, nl, seed + 2, 0.0, 1.0);
  double *ms = bench_dalloc(nl);
  bench_fill(ms, nl, seed + 3, 0.0, nmat);
  s->mat_samples = malloc((size_t)(nl > 0 ? nl : 1) * sizeof(int));
  for (int i = 0; i < nl; i++) s->mat_samples[i] = (int)ms[i];
  free(ms);
}

static void xs_free(Xs *s) {
  free(s->grids); free(s->egrid); free(s->concs); free(s->energies); free(s->uindex);
  free(s->hindex); free(s->num_nucs); free(s->mats); free(s->mat_samples);
}

static const int *index_of(const Xs *s, int gt) { return gt == HASH ? s->hindex : s->uindex; }

static void seq(const Xs *s, int gt, double *res) {
  xs_lookup_seq(s->nl, s->niso, s->ngp, gt, s->maxnuc, s->bins, s->grids, s->egrid,
                index_of(s, gt), s->num_nucs, s->mats, s->concs, s->energies, s->mat_samples,
                res);
}

// the grid points' fields as doubles (NuclideGridPoint is six doubles)
static double *fields(NuclideGridPoint *g) { return (double *)g; }

// L = <u, results> from the sequential original
static double L_seq(const Xs *s, int gt, const double *u, double *res) {
  seq(s, gt, res);
  return bench_inner(u, res, NULL, NULL, 5 * s->nl);
}

// Central difference of L_seq in p[j] against f_vjp's g[j]. L is linear in the cross
// sections and concentrations (step 0.5: exact, little rounding) and rational in the
// energies (step 1e-6, on small inputs only: the sum over all lookups rounds too coarsely
// for one lookup's or grid point's share).
static void check_fd_at(Bench *b, const char *label, const char *what, const Xs *s, int gt,
                        const double *u, double *res, double *p, int j, double g, double h) {
  double v = p[j];
  p[j] = v + h; double fp = L_seq(s, gt, u, res);
  p[j] = v - h; double fm = L_seq(s, gt, u, res);
  p[j] = v;
  char buf[96];
  snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
  bench_check_vjp_fd(b, bench_what(label, buf), g, fp, fm, h);
}

static const char *const type_name[] = {"nuclide grid", "unionized grid", "hash grid"};

// All checks on one input and grid type (small: 0 for the timed input): the results of every
// variant against the sequential C; f_vjp with the seed u in [0.5, 1.5) accumulates
// (non-zero initial adjoints give them plus the gradient from zero), leaves results_bar 0
// and egrid_bar as it was (the unionized grid only selects intervals); the gradient against
// finite differences (small: at every cross section, grid energy, concentration and lookup
// energy; else at 12 cross sections of grid points with a non-zero adjoint and 4
// concentrations); f_jvp's tangents against <gradient, tangent>.
static void check_all(Bench *b, const char *label0, Xs *s, int gt, int small) {
  char label[96];
  snprintf(label, sizeof label, "%s%s%s", label0 ? label0 : "", label0 ? ", " : "", type_name[gt]);
  int nl = s->nl, ng = s->niso * s->ngp, nc = s->nmat * s->maxnuc;
  double *u = bench_dalloc(5 * nl), *rs = bench_dalloc(5 * nl), *r = bench_dalloc(5 * nl),
         *rb = bench_dalloc(5 * nl), *zero = bench_dalloc(5 * nl), *want = bench_dalloc(6 * ng);
  NuclideGridPoint *gb = malloc((size_t)ng * sizeof *gb), *gz = malloc((size_t)ng * sizeof *gz),
                   *gd = malloc((size_t)ng * sizeof *gd);
  double *eb = bench_dalloc(ng), *ez = bench_dalloc(ng), *ed = bench_dalloc(ng);
  double *cb = bench_dalloc(nc), *cz = bench_dalloc(nc), *cd = bench_dalloc(nc);
  double *lb = bench_dalloc(nl), *lz = bench_dalloc(nl), *ld = bench_dalloc(nl);
  bench_fill(u, 5 * nl, 90, 0.5, 1.5);
  memset(zero, 0, (size_t)5 * (nl > 0 ? nl : 1) * sizeof *zero);
  seq(s, gt, rs);
  xs_lookup(nl, s->niso, s->ngp, gt, s->maxnuc, s->bins, s->grids, s->egrid, index_of(s, gt),
            s->num_nucs, s->mats, s->concs, s->energies, s->mat_samples, r);
  bench_check_array(b, bench_what(label, "primal results vs sequential C"), r, rs, 5 * nl, BENCH_RTOL);
  // accumulate: from initial adjoints in [-1, 1), then from zero
  bench_fill(fields(gb), 6 * ng, 91, -1.0, 1.0);
  bench_fill(eb, ng, 92, -1.0, 1.0);
  bench_fill(cb, nc, 93, -1.0, 1.0);
  bench_fill(lb, nl, 94, -1.0, 1.0);
  bench_dcopy(rb, u, 5 * nl);
  xs_lookup_vjp(nl, s->niso, s->ngp, gt, s->maxnuc, s->bins, s->grids, gb, s->egrid, eb,
                index_of(s, gt), s->num_nucs, s->mats, s->concs, cb, s->energies, lb,
                s->mat_samples, r, rb);
  bench_check_array(b, bench_what(label, "xs_lookup_vjp results vs sequential C"), r, rs, 5 * nl, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "xs_lookup_vjp results_bar on exit (0)"), rb, zero, 5 * nl, BENCH_RTOL);
  memset(gz, 0, (size_t)ng * sizeof *gz);
  memset(ez, 0, (size_t)ng * sizeof *ez);
  memset(cz, 0, (size_t)nc * sizeof *cz);
  memset(lz, 0, (size_t)(nl > 0 ? nl : 1) * sizeof *lz);
  bench_dcopy(rb, u, 5 * nl);
  xs_lookup_vjp(nl, s->niso, s->ngp, gt, s->maxnuc, s->bins, s->grids, gz, s->egrid, ez,
                index_of(s, gt), s->num_nucs, s->mats, s->concs, cz, s->energies, lz,
                s->mat_samples, r, rb);
  bench_fill(want, 6 * ng, 91, -1.0, 1.0);
  for (int i = 0; i < 6 * ng; i++) want[i] += fields(gz)[i];
  bench_check_array(b, bench_what(label, "xs_lookup_vjp grids_bar accumulates"), fields(gb), want, 6 * ng, BENCH_RTOL);
  bench_fill(want, ng, 92, -1.0, 1.0);
  bench_check_array(b, bench_what(label, "xs_lookup_vjp egrid_bar unchanged (selects only)"), eb, want, ng, BENCH_RTOL);
  bench_fill(want, nc, 93, -1.0, 1.0);
  for (int i = 0; i < nc; i++) want[i] += cz[i];
  bench_check_array(b, bench_what(label, "xs_lookup_vjp concs_bar accumulates"), cb, want, nc, BENCH_RTOL);
  bench_fill(want, nl, 94, -1.0, 1.0);
  for (int i = 0; i < nl; i++) want[i] += lz[i];
  bench_check_array(b, bench_what(label, "xs_lookup_vjp energies_bar accumulates"), lb, want, nl, BENCH_RTOL);
  // the gradient from zero against finite differences of the sequential C
  double *gf = fields(s->grids), *gzf = fields(gz);
  if (small) {
    for (int i = 0; i < 6 * ng; i++)
      check_fd_at(b, label, i % 6 ? "d/dgrids (cross section)" : "d/dgrids (energy)", s, gt, u,
                  r, gf, i, gzf[i], i % 6 ? 0.5 : 1e-6);
    for (int i = 0; i < nc; i++) check_fd_at(b, label, "d/dconcs", s, gt, u, r, s->concs, i, cz[i], 0.5);
    for (int i = 0; i < nl; i++)
      check_fd_at(b, label, "d/denergies", s, gt, u, r, s->energies, i, lz[i], 1e-6);
  } else {
    for (int k = 0, i = 0; k < 12; k++, i = (i + 6 * 9973 + 1) % (6 * ng)) {
      while (i % 6 == 0 || gzf[i] == 0.0) i = (i + 1) % (6 * ng); // a used cross section
      check_fd_at(b, label, "d/dgrids (cross section)", s, gt, u, r, gf, i, gzf[i], 0.5);
    }
    for (int k = 0; k < 4; k++) {
      int i = k * (s->maxnuc + 1) % nc; // materials 0..3, nuclides 0..3
      check_fd_at(b, label, "d/dconcs", s, gt, u, r, s->concs, i, cz[i], 0.5);
    }
  }
  // f_jvp: <u, results_dot> = <gradient, tangent>
  bench_fill(fields(gd), 6 * ng, 95, -1.0, 1.0);
  bench_fill(ed, ng, 96, -1.0, 1.0);
  bench_fill(cd, nc, 97, -1.0, 1.0);
  bench_fill(ld, nl, 98, -1.0, 1.0);
  xs_lookup_jvp(nl, s->niso, s->ngp, gt, s->maxnuc, s->bins, s->grids, gd, s->egrid, ed,
                index_of(s, gt), s->num_nucs, s->mats, s->concs, cd, s->energies, ld,
                s->mat_samples, r, rb);
  bench_check_array(b, bench_what(label, "xs_lookup_jvp results vs sequential C"), r, rs, 5 * nl, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "xs_lookup_jvp <seed, results_dot> vs <vjp gradient, tangent>"),
                     bench_inner(u, rb, NULL, NULL, 5 * nl),
                     bench_inner(gzf, fields(gd), NULL, NULL, 6 * ng) +
                         bench_inner(ez, ed, NULL, NULL, ng) + bench_inner(cz, cd, NULL, NULL, nc) +
                         bench_inner(lz, ld, NULL, NULL, nl),
                     BENCH_RTOL);
  free(u); free(rs); free(r); free(rb); free(zero); free(want); free(gb); free(gz); free(gd);
  free(eb); free(ez); free(ed); free(cb); free(cz); free(cd); free(lb); free(lz); free(ld);
}

static void check_small(Bench *b, int nl, int niso, int ngp, unsigned seed) {
  static const int nn[2] = {3, 2};
  Xs s;
  char label[64];
  xs_make(&s, nl, niso, ngp, 2, nn, 4, seed);
  snprintf(label, sizeof label, "%d lookups, %d x %d grid points", nl, niso, ngp);
  for (int gt = NUCLIDE; gt <= HASH; gt++) check_all(b, label, &s, gt, 1);
  xs_free(&s);
}

// the timed calls (unionized grid)
static Xs S;
static NuclideGridPoint *tgb;
static double *tres, *trb, *teb, *tcb, *tlb;

static double run_seq(void) {
  seq(&S, UNIONIZED, tres);
  return tres[0];
}
static double run_primal(void) {
  xs_lookup(S.nl, S.niso, S.ngp, UNIONIZED, S.maxnuc, S.bins, S.grids, S.egrid, S.uindex,
            S.num_nucs, S.mats, S.concs, S.energies, S.mat_samples, tres);
  return tres[0];
}
static double run_vjp(void) {
  for (int i = 0; i < 5 * S.nl; i++) trb[i] = 1.0;
  xs_lookup_vjp(S.nl, S.niso, S.ngp, UNIONIZED, S.maxnuc, S.bins, S.grids, tgb, S.egrid, teb,
                S.uindex, S.num_nucs, S.mats, S.concs, tcb, S.energies, tlb, S.mat_samples,
                tres, trb);
  return tres[0];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_xs", argc, argv);
  int nl = b.n / PER_LOOKUP < 1 ? 1 : b.n / PER_LOOKUP;
  b.n = nl;
  xs_make(&S, nl, NISO, NGP, NMAT, small_num_nucs, BINS, 100);
  printf("# legacy_xs: %d lookups, %d nuclides x %d grid points, %d materials, unionized grid "
         "(examples/legacy/xs/xs.c)\n", nl, NISO, NGP, NMAT);
  fflush(stdout);

  // ---- checks (once, before timing) ----
  for (int gt = NUCLIDE; gt <= HASH; gt++) check_all(&b, NULL, &S, gt, 0);
  check_small(&b, 1, 3, 3, 101);
  check_small(&b, 7, 3, 5, 102);
  check_small(&b, 12, 4, 6, 103);

  // ---- timing ----
  int ng = NISO * NGP;
  tgb = calloc((size_t)ng, sizeof *tgb);
  tres = bench_dalloc(5 * nl); trb = bench_dalloc(5 * nl); teb = bench_dalloc(ng);
  tcb = bench_dalloc(NMAT * S.maxnuc); tlb = bench_dalloc(nl);
  memset(teb, 0, (size_t)ng * sizeof *teb);
  memset(tcb, 0, (size_t)NMAT * S.maxnuc * sizeof *tcb);
  memset(tlb, 0, (size_t)nl * sizeof *tlb);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);

  free(tgb); free(tres); free(trb); free(teb); free(tcb); free(tlb);
  xs_free(&S);
  return b.warnings ? 3 : 0;
}
