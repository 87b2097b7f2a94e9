// tests/e2e/kernel_defs.h: a project header of the kind legacy kernels include.
#ifndef KERNEL_DEFS_H
#define KERNEL_DEFS_H
#define IDX(i, j, ld) ((i) * (ld) + (j))
#define SQR(x) ((x) * (x))
#define SCALE 0.5
#endif
