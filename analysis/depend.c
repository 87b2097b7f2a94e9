// analysis/depend.c: the dependence check of a map: can its iterations run in any order?
#include "analysis.h"

static bool asserted(Val arr, const Val *injective, int n) {
  for (int k = 0; k < n; k++)
    if (injective[k] == arr) return true;
  return false;
}

Dep map_dependence(Node *const *def, const unsigned char *inside, Val i, const Access *acc,
                   int nacc, const Val *injective, int ninjective) {
  for (int w = 0; w < nacc; w++) {
    if (!acc[w].write) continue;
    IndexForm f = index_form(def, inside, acc[w].idx, i);
    if ((!f.affine || !f.coef) && !asserted(acc[w].arr, injective, ninjective))
      return (Dep){DEP_NOT_INJECTIVE, w, w};
    for (int r = 0; r < nacc; r++) {
      if (acc[r].arr != acc[w].arr || r == w) continue;
      if (!index_same(def, acc[r].idx, acc[w].idx)) return (Dep){DEP_OTHER_INDEX, w, r};
      if (!acc[r].write && r > w) return (Dep){DEP_READ_BACK, w, r};
    }
  }
  return (Dep){DEP_NONE, -1, -1};
}
