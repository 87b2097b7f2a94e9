// tests/e2e/vendor/vendor.h: a library's header, included by headers.c as <vendor/vendor.h>.
// adsoac does not read it (a system header: the C compiler's business); the C compiler finds
// it with -I tests/e2e, and compiles the functions of headers.c that use it only if adsoac's
// output keeps the #include.
#define VENDOR_TWO 2.0
static inline double vendor_twice(double v) {
  return VENDOR_TWO * v;
}
