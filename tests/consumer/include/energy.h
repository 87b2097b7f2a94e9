// tests/consumer/include/energy.h: a header the annotated source includes, found through the
// relative -Iinclude of adsoac_add_gradient's OPTIONS (touching it must re-run adsoac).
#ifndef ENERGY_H
#define ENERGY_H
#define SPRING(d) ((d) * (d))
#endif
