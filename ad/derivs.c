// ad/derivs.c: partial derivatives of the math built-ins (language.md §6, §7).
// r = fn(x [, y]) is already computed; each rule returns d r / d(argument).
//
//   sqrt   1/(2r)              exp    r                 log    1/x
//   log1p  1/(1+x)             expm1  r+1               sin    cos x
//   cos    -sin x              tan    1+r*r             asin   1/sqrt(1-x*x)
//   acos   -1/sqrt(1-x*x)      atan   1/(1+x*x)         atan2  dy: x/(x*x+y*y), dx: -y/(x*x+y*y)
//   sinh   cosh x              cosh   sinh x            tanh   1-r*r
//   pow    dx: y*pow(x,y-1)    dy: x > 0 ? r*log x : 0  (no log of 0 or of negatives)
//   fabs   sign(x), 0 at 0     fmin   tie (x == y): all to x      fmax likewise
//   erf    2/sqrt(pi)*exp(-x*x)
//   floor ceil round trunc: 0
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

Val deriv_call(Builder *b, MathFn fn, int argno, Val x, Val y, Val r) {
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
  case M_FABS:
    return b_sub(b, indicator(b, cmp(b, BIN_GT, x, k(b, x, 0)), x),
                 indicator(b, cmp(b, BIN_LT, x, k(b, x, 0)), x));
  case M_FMIN:
  case M_FMAX: {
    Val first = cmp(b, fn == M_FMIN ? BIN_LE : BIN_GE, x, y); // ties go to x
    return argno == 0 ? indicator(b, first, x) : indicator(b, b_unop(b, UN_NOT, first), x);
  }
  case M_ERF:
    return b_mul(b, k(b, x, 1.1283791670955126),
                 b_call(b, M_EXP, b_neg(b, b_mul(b, x, x)), 0));
  case M_FLOOR:
  case M_CEIL:
  case M_ROUND:
  case M_TRUNC: return 0;
  case M_COUNT: break;
  }
  UNREACHABLE();
}
