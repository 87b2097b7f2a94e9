// tests/deps/include/inner.h: included by cfg.h, next to it.
#define INNER 10
