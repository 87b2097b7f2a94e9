// Parameters named like CUDA's built-in variables (blockIdx, threadIdx, blockDim, gridDim):
// the CUDA output renames them (blockIdx_), or the kernels' own blockIdx.x would not compile.
// e2e: sizes n=0,1,5
// e2e: int blockDim = 3
// e2e: scalar gridDim range(-1,1)
// e2e: array threadIdx[n] range(-1,1)
// e2e: array blockIdx[n] range(-1,1)
// e2e: written blockIdx

#pragma adsoac grad
double cuda_names(int n, int blockDim, double gridDim, const double *threadIdx, double *blockIdx) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    blockIdx[i] = threadIdx[i] * gridDim + blockDim;
    s += blockIdx[i] * threadIdx[i];
  }
  return s;
}
