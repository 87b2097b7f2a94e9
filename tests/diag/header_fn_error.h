// the header of diag/header_fn_error.c: a function adsoac inlines, with a construct it refuses
static inline double hfe_pick(double v) {
  switch ((int)v) {
  default: break;
  }
  return v;
}
