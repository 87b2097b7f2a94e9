// Timing driver for bench/heat2.c: bench/heat_main.c under the name heat2 (same
// problem: N / 100 grid points, 100 steps; same checks).
#define HEAT_NAME "heat2"
#include "heat_main.c"
