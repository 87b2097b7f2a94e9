// tests/cuda_emu/test_mpi_emu.cpp: the CUDA target's MPI collectives on device arrays
// (rt_mpi.h adsoac_mpi_dev, adsoac_mpi_vjp_dev: what a CUDA-aware MPI receives) run through
// the CUDA emulation, under mpirun with 1, 2, 3 ranks: the same results as the host rules
// (adsoac_mpi, adsoac_mpi_vjp_d) for every collective, and which rules stay on the host.
// Values are small integers: every sum is exact whatever the order.  run-cuda-emu.sh runs it.
#define __CUDACC__ 1        // (rt_mpi.h's CUDA part)
#define ADSOAC_CUDA_AWARE_MPI // (the emulation's device memory is host memory: any MPI takes it)
#include "cuda_emu.h"
#include "runtime_mpi.inc"

static AdsoacCx *cx() { // (the context of the runtime's calls: a stream of its own)
  static AdsoacCx c;
  static bool made = (adsoac_begin_(&c, "t", NULL, (cudaStream_t)&c), true);
  (void)made;
  return &c;
}

static int failures, checks;
static void check(bool ok, const char *what, int k, int me) {
  checks++;
  if (!ok) failures++, printf("FAIL rank %d: %s, collective %d\n", me, what, k);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const AdsoacColl kinds[] = {ADSOAC_ALLREDUCE, ADSOAC_REDUCE, ADSOAC_BCAST,
                              ADSOAC_ALLGATHER, ADSOAC_GATHER, ADSOAC_SCATTER};
  for (long n : {0L, 1L, 5L})
    for (int root : {0, p - 1})
      for (AdsoacColl k : kinds) {
        long nin = k == ADSOAC_SCATTER ? n * p : n, nout = k == ADSOAC_ALLGATHER || k == ADSOAC_GATHER ? n * p : n;
        std::vector<double> in(nin + 1), out_h(nout + 1, -7), out_d(nout + 1, -7), ob(nout + 1);
        std::vector<double> ib_h(nin + 1), ib_d(nin + 1);
        for (long j = 0; j < nin; j++) in[j] = (double)(3 * me + j % 4 + 1), ib_h[j] = ib_d[j] = (double)j;
        for (long j = 0; j < nout; j++) ob[j] = (double)((me + 2 * j) % 5 + 1);
        int bh = adsoac_mpi(k, ADSOAC_MPI_SUM, in.data(), out_h.data(), n, MPI_DOUBLE, root, MPI_COMM_WORLD, cx());
        int bd = adsoac_mpi_dev(k, ADSOAC_MPI_SUM, in.data(), out_d.data(), n, MPI_DOUBLE, root, MPI_COMM_WORLD, cx());
        check(!bh && !bd && out_h == out_d, "the collective", k, me);
        bh = adsoac_mpi_vjp_d(k, ADSOAC_MPI_SUM, in.data(), ib_h.data(), ob.data(), n, root, MPI_COMM_WORLD, cx());
        bd = adsoac_mpi_vjp_dev(k, ADSOAC_MPI_SUM, ib_d.data(), (const double *)ob.data(), n, MPI_DOUBLE, root,
                                MPI_COMM_WORLD, cx());
        check(!bh && !bd && ib_h == ib_d, "its adjoint", k, me);
        bool moved = false; // (the adjoint reached in_bar somewhere: not a test of nothing)
        for (long j = 0; j < nin; j++) moved |= ib_h[j] != (double)j;
        int any = moved, all = 0;
        MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        check(n == 0 || all, "an adjoint that changes in_bar", k, me);
      }
  // the rules that compute on the host stage their arrays
  check(adsoac_mpi_on_device_(ADSOAC_ALLREDUCE, ADSOAC_MPI_SUM, ADSOAC_MPI_VJP, MPI_DOUBLE), "sum's adjoint on the device", 0, me);
  check(adsoac_mpi_on_device_(ADSOAC_ALLREDUCE, ADSOAC_MPI_MAX, ADSOAC_MPI_CALL, MPI_DOUBLE), "max on the device", 0, me);
  check(!adsoac_mpi_on_device_(ADSOAC_ALLREDUCE, ADSOAC_MPI_MAX, ADSOAC_MPI_VJP, MPI_DOUBLE), "max's adjoint staged", 0, me);
  check(!adsoac_mpi_on_device_(ADSOAC_REDUCE, ADSOAC_MPI_PROD, ADSOAC_MPI_JVP, MPI_FLOAT), "product's tangent staged", 1, me);
  check(adsoac_mpi_on_device_(ADSOAC_BCAST, ADSOAC_MPI_SUM, ADSOAC_MPI_VJP, MPI_DOUBLE), "bcast's adjoint on the device", 2, me);
  int bad = 0;
  MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("%d ranks: %d checks a rank, %d failures\n", p, checks, bad);
  MPI_Finalize();
  return bad != 0;
}
