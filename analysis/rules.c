// analysis/rules.c: which derivative rule each combinator gets, special or general: one
// classifier per combinator, for both modes (papers/reduce-scan-hist-rules.md §2).
//
//   combinator   +           *          min, max     OP with inverse(fn)   otherwise
//   reduce       RULE_ADD    RULE_MUL   RULE_MINMAX  RULE_INVERTIBLE       RULE_GENERAL
//   scan         RULE_ADD    -          -            -                     RULE_GENERAL
//   hist         RULE_ADD    RULE_MUL   RULE_MINMAX  RULE_INVERTIBLE       RULE_GENERAL
//
// general (--general-rule, a cross-check of the special rules) forces RULE_GENERAL where the
// general rule exists.  The special rule of a declared operator needs it commutative with an
// inverse: then y = b OP x with b = inv(y, x) the combination of everything else.
#include "analysis.h"

static Rule op_rule(RedOp op, const Lambda *inv, bool commutative) {
  switch (op) {
  case RED_ADD: return RULE_ADD;
  case RED_MUL: return RULE_MUL;
  case RED_MIN:
  case RED_MAX: return RULE_MINMAX;
  case RED_USER: return inv && commutative ? RULE_INVERTIBLE : RULE_GENERAL;
  }
  UNREACHABLE();
}

Rule reduce_rule(const Red *red, bool general) {
  return general ? RULE_GENERAL : op_rule(red->op, red->inv, red->commutative);
}

// Only scan(+) has a special rule (a reverse scan of the adjoints); every other operator
// goes by the linear recurrence of the general rule.
Rule scan_rule(const Scan *s, bool general) {
  return s->op == RED_ADD && !general ? RULE_ADD : RULE_GENERAL;
}

// A hist's declared operator is commutative (the parser checks).
Rule hist_rule(const Hist *h, bool general) {
  return general ? RULE_GENERAL : op_rule(h->op, h->inv, true);
}
