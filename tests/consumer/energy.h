// tests/consumer/energy.h: a header the annotated source includes (touching it must re-run
// adsoac).
#ifndef ENERGY_H
#define ENERGY_H
#define SPRING(d) ((d) * (d))
#endif
