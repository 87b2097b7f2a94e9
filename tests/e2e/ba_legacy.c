// examples/legacy/ba: the legacy kernel, pragmas added and nothing else changed (its README)
// e2e: sizes n=1,2,3,3 m=1,3,4,5 p=0,1,5,8
// e2e: array cams[11*n] range(-0.5,0.5)
// e2e: array X[3*m] range(-1,1)
// e2e: array w[p] range(0.5,1.5)
// e2e: array obs[2*p] fill(i % 2 == 0 ? (i / 2) % n : (i / 2 * 7 + 1) % m)
// e2e: array feats[2*p] range(-1,1)
// e2e: array reproj_err[2*p] range(-1,1)
// e2e: array w_err[p] range(-1,1)
// e2e: source ../../examples/legacy/ba/ba.c
