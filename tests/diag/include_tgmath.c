// <tgmath.h> makes sqrt(float) sqrtf: refused (adsoac lowers the functions of <math.h>)
#include <tgmath.h>

#pragma adsoac grad
float f(float x) {
  return sqrt(x);
}
