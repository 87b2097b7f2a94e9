// A function defined in a project header is inlined (language.md 6); an error in its body
// names the header's line
#include "header_fn_error.h"
#pragma adsoac grad
double g(double v) {
  return hfe_pick(v) * v;
}
