// examples/legacy/gmm: the legacy kernel, pragmas added and nothing else changed (its README)
// e2e: sizes d=2,2,3,4 k=1,2,3,3 n=0,1,4,5
// e2e: array alphas[k] range(-1,1)
// e2e: array means[k*d] range(-1,1)
// e2e: array icf[k*d*(d+1)/2] range(-0.5,0.5)
// e2e: array x[n*d] range(-1,1)
// e2e: struct wishart gamma=range(0.5,2) m=range(0,3)
// e2e: array err[1] range(-1,1)
// e2e: source ../../examples/legacy/gmm/gmm.c
