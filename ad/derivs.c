// ad/derivs.c: partial derivatives of the math built-ins (language.md §6, §7).
// r = fn(x [, y [, z]]) is already computed; each rule returns d r / d(argument), or 0 (no
// value) where it is zero.
//
//   sqrt   1/(2r)              exp    r                 log    1/x
//   log1p  1/(1+x)             expm1  r+1               sin    cos x
//   cos    -sin x              tan    1+r*r             asin   1/sqrt(1-x*x)
//   acos   -1/sqrt(1-x*x)      atan   1/(1+x*x)         atan2  dy: x/(x*x+y*y), dx: -y/(x*x+y*y)
//   sinh   cosh x              cosh   sinh x            tanh   1-r*r
//   pow    dx: y*pow(x,y-1)    dy: x > 0 ? r*log x : 0  (no log of 0 or of negatives)
//   fabs   sign(x), 0 at 0     fmin   tie (x == y): all to x      fmax likewise
//   erf    2/sqrt(pi)*exp(-x*x)        erfc   -2/sqrt(pi)*exp(-x*x)
//   lgamma digamma(x)          tgamma r*digamma(x)  (for x < 0 too: d log|G| = G'/G)
//   cbrt   1/(3r*r)            (infinite at 0, as sqrt's 1/(2r))
//   hypot  dx: x/r, dy: y/r    0 at (0, 0), a kink (§7)
//   exp2   ln2*r               log2   1/(x ln2)          log10  1/(x ln10)
//   fma    dx: y, dy: x, dz: 1 (the primal keeps fma's single rounding)
//   copysign  dx: sign(x)*copysign(1, y), 0 at x = 0 (|x| has a kink there, §7)   dy: 0
//   floor ceil round trunc: 0
// digamma is the runtime's adsoac_digamma (runtime/src/rt_math.h): C has none.
#include "ad_internal.h"

static Val k(Builder *b, Val like, double c) {
  return b_const_f(b, val_type(b->fn, like), c);
}

static Val div_(Builder *b, Val x, Val y) {
  return b_binop(b, BIN_DIV, x, y);
}

static Val cmp(Builder *b, BinOp op, Val x, Val y) {
  return b_binop(b, op, x, y);
}

// 1 when cond holds, else 0, in the type of like
static Val indicator(Builder *b, Val cond, Val like) {
  return b_cast(b, val_type(b->fn, like), cond);
}

// sign(x): 1, -1, or 0 at 0 (and NaN)
static Val sign(Builder *b, Val x) {
  return b_sub(b, indicator(b, cmp(b, BIN_GT, x, k(b, x, 0)), x),
               indicator(b, cmp(b, BIN_LT, x, k(b, x, 0)), x));
}

Val deriv_call(Builder *b, MathFn fn, int argno, Val x, Val y, Val z, Val r) {
  switch (fn) {
  case M_SQRT: return div_(b, k(b, x, 0.5), r);
  case M_EXP: return r;
  case M_LOG: return div_(b, k(b, x, 1), x);
  case M_LOG1P: return div_(b, k(b, x, 1), b_add(b, k(b, x, 1), x));
  case M_EXPM1: return b_add(b, r, k(b, x, 1));
  case M_SIN: return b_call(b, M_COS, x, 0);
  case M_COS: return b_neg(b, b_call(b, M_SIN, x, 0));
  case M_TAN: return b_add(b, k(b, x, 1), b_mul(b, r, r));
  case M_ASIN:
  case M_ACOS: {
    Val d = div_(b, k(b, x, 1), b_call(b, M_SQRT, b_sub(b, k(b, x, 1), b_mul(b, x, x)), 0));
    return fn == M_ASIN ? d : b_neg(b, d);
  }
  case M_ATAN: return div_(b, k(b, x, 1), b_add(b, k(b, x, 1), b_mul(b, x, x)));
  case M_ATAN2: { // r = atan2(x, y): x is the ordinate
    Val den = b_add(b, b_mul(b, x, x), b_mul(b, y, y));
    return argno == 0 ? div_(b, y, den) : b_neg(b, div_(b, x, den));
  }
  case M_SINH: return b_call(b, M_COSH, x, 0);
  case M_COSH: return b_call(b, M_SINH, x, 0);
  case M_TANH: return b_sub(b, k(b, x, 1), b_mul(b, r, r));
  case M_POW:
    if (argno == 0) { // y x^(y-1); 0 where y == 0 (x^0 = 1 for every x, 0^-1 = inf)
      Val d = b_mul(b, y, b_call(b, M_POW, x, b_sub(b, y, k(b, x, 1))));
      return b_select(b, cmp(b, BIN_NE, y, k(b, y, 0)), d, k(b, x, 0));
    }
    {
      Val pos = cmp(b, BIN_GT, x, k(b, x, 0));
      Val safe = b_select(b, pos, x, k(b, x, 1)); // log(1) = 0 where x <= 0
      return b_mul(b, indicator(b, pos, x), b_mul(b, r, b_call(b, M_LOG, safe, 0)));
    }
  case M_FABS: return sign(b, x);
  case M_FMIN:
  case M_FMAX: {
    Val first = cmp(b, fn == M_FMIN ? BIN_LE : BIN_GE, x, y); // ties go to x
    return argno == 0 ? indicator(b, first, x) : indicator(b, b_unop(b, UN_NOT, first), x);
  }
  case M_ERF:
  case M_ERFC:
    return b_mul(b, k(b, x, fn == M_ERF ? 1.1283791670955126 : -1.1283791670955126),
                 b_call(b, M_EXP, b_neg(b, b_mul(b, x, x)), 0));
  case M_LGAMMA: return b_call(b, M_DIGAMMA, x, 0);
  case M_TGAMMA: return b_mul(b, r, b_call(b, M_DIGAMMA, x, 0));
  case M_CBRT: return div_(b, k(b, x, 1.0 / 3), b_mul(b, r, r));
  case M_HYPOT: { // r is 0 only at (0, 0), where x / 1 = 0
    Val den = b_add(b, r, indicator(b, cmp(b, BIN_EQ, r, k(b, x, 0)), x));
    return div_(b, argno == 0 ? x : y, den);
  }
  case M_EXP2: return b_mul(b, k(b, x, 0.6931471805599453), r);
  case M_LOG2: return div_(b, k(b, x, 1.4426950408889634), x);   // 1/ln 2
  case M_LOG10: return div_(b, k(b, x, 0.4342944819032518), x);  // 1/ln 10
  case M_FMA: return argno == 0 ? y : argno == 1 ? x : k(b, x, 1);
  case M_COPYSIGN:
    return argno == 0 ? b_mul(b, sign(b, x), b_call(b, M_COPYSIGN, k(b, x, 1), y)) : 0;
  case M_FLOOR:
  case M_CEIL:
  case M_ROUND:
  case M_TRUNC: return 0;
  case M_DIGAMMA: // only derivatives call it, and derivatives are not differentiated again
  case M_COUNT: break;
  }
  UNREACHABLE();
}

int ext_nactive(const ExtFn *e) {
  int n = 0;
  for (int k = 0; k < e->nparams; k++) n += ext_active(e, k);
  return n;
}

void deriv_coll(Builder *b, const Node *n, CollMode mode, const Val *pv, Val in_d, Val out_d) {
  Node *d = node_new(b->fn->arena, IR_COLL, n->loc);
  d->u.coll = n->u.coll;
  d->u.coll.mode = mode;
  d->u.coll.in = pv[n->u.coll.in], d->u.coll.out = 0;
  d->u.coll.in_d = in_d, d->u.coll.out_d = out_d;
  d->u.coll.count = pv[n->u.coll.count], d->u.coll.comm = pv[n->u.coll.comm];
  d->u.coll.root = n->u.coll.root ? pv[n->u.coll.root] : 0;
  b_push(b, d);
}

void deriv_ext(Builder *b, const ExtFn *e, const Val *args, Val *d) {
  int np = e->nparams, na = ext_nactive(e);
  Val *a = ARENA_ARRAY(b->fn->arena, Val, np + na + 1);
  for (int k = 0; k < np; k++) a[k] = args[k];
  if (e->vjp) {
    a[np] = b_const_f(b, e->ret, 1.0);
    Node *n = b_ext(b, e, EXT_VJP, a, np + 1, na);
    for (int j = 0; j < na; j++) d[j] = n->u.ext.outs[j];
    return;
  }
  int j = 0;
  for (int k = 0; k < np; k++) {
    if (!ext_active(e, k)) continue;
    int t = 0;
    for (int i = 0; i < np; i++)
      if (ext_active(e, i)) a[np + t++] = b_const_f(b, e->ptypes[i], i == k ? 1.0 : 0.0);
    Node *n = b_ext(b, e, EXT_JVP, a, np + na, 1);
    n->out = 0; // (the result is computed already)
    d[j++] = n->u.ext.outs[0];
  }
}
