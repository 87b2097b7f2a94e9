// xs_types.h: the data types of the cross-section lookup (tests/e2e/xs_legacy.c), in a header
// of the project's own as XSBench has them.
#ifndef XS_TYPES_H
#define XS_TYPES_H

typedef struct {
  double energy;
  double total_xs;
  double elastic_xs;
  double absorbtion_xs;
  double fission_xs;
  double nu_fission_xs;
} NuclideGridPoint;

#define NUCLIDE 0
#define UNIONIZED 1
#define HASH 2

#endif
