// tests/consumer/other.c: unrelated to adsoac (touching it must not re-run adsoac).
double consumer_h(void) { return 1e-6; }
