// Hand-written OpenMP adjoint for bench/heat2.c: the same function as bench/heat.c
// (only adsoac's checkpointing differs), so the same hand adjoint, which already
// checkpoints every ceil(sqrt(steps)) steps.
#include "heat_hand.c"
