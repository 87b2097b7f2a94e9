// examples/legacy/lstm: the legacy kernel, pragmas added and nothing else changed (its README)
// e2e: sizes l=1,2,1,2 c=2,3,4,3 b=1,2,3,4
// e2e: array main_params[8*l*b] range(-0.5,0.5)
// e2e: array extra_params[3*b] range(-0.5,0.5)
// e2e: array state[2*l*b] range(-0.5,0.5)
// e2e: array sequence[c*b] range(-1,1)
// e2e: array loss[1] range(-1,1)
// e2e: source ../../examples/legacy/lstm/lstm.c
