// Structs as legacy code has them (language.md §2, §6): struct types with int fields (passive:
// no derivative), arrays of structs as parameters (const Nuc *nuc, Nuc *out) read and written
// in maps and reductions through p[i].f, (p + i)->f, p->f and pointer variables, an int field
// used as an index into another array (XSBench's nuc[i].id), a struct passed by value with an
// int field (ADBench GMM's Wishart prior), a helper taking const Nuc * (&p[i], p + i) and
// returning a struct with an int field, whole elements read and written (Nuc e = p[i];
// q[i] = e;), a helper updating an element through Nuc * (&p[i]), memcpy between arrays of
// structs, a malloc'd array of structs, injective(...) naming an array of structs, types from
// a project header (struct_defs.h), and an array of structs updated in place in a time loop.
// e2e: sizes n=0,1,2,7,33 m=3,1,2,4,5
// e2e: array conc[m] range(-1,1)
// e2e: struct nuc[n] id=range(0,m) w=range(-1,1) v=range(0.5,2)
// e2e: struct out[n] id=range(-5,5) w=range(-1,1) v=range(-1,1)
// e2e: struct q[n] id=range(-5,5) w=range(-1,1) v=range(-1,1)
// e2e: func xs_lookup
// e2e: func wishart_prior
// e2e: int p = m + 1
// e2e: array sum_qs[n] range(-1,1)
// e2e: struct wishart gamma=range(0.5,2) m=range(0,4)
// e2e: func wishart_wrt
// e2e: int p = m + 1
// e2e: array sum_qs[n] range(-1,1)
// e2e: struct wishart gamma=range(0.5,2) m=range(0,4)
// e2e: func spans
// e2e: scalar a range(0.5,1.5)
// e2e: array y[n] range(-1,1)
// e2e: func copy_elems
// e2e: func energy
// e2e: sizes n=0,1,2,7,33 m=3,1,2,4,5 steps=0,1,3,2,4
// e2e: struct wi gamma=range(0.5,1.5) m=range(0,4)
// e2e: func update_copy
// e2e: scalar a range(0.5,1.5)
// e2e: struct p[n] id=range(0,3) w=range(-1,1) v=range(-1,1)
// e2e: struct r[n] id=range(0,3) w=range(-1,1) v=range(-1,1)
// e2e: array out[1] range(-1,1)
// e2e: func scatter
// e2e: array perm[n] range(0,1) fill((5 * i + 3) % (n > 0 ? n : 1))
// e2e: func advance
// e2e: sizes n=0,1,2,7,33 m=3,1,2,4,5 steps=0,1,3,2,4
// e2e: scalar dt range(0.05,0.2)
// e2e: struct pts[n] x=range(-1,1) v=range(-1,1) k=range(0,m)
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "struct_defs.h" // Nuc

typedef struct {
  double gamma;
  count_t m; // (an integer typedef of the header)
} Wishart;

struct Span {
  int bin;
  double lo, hi;
};

typedef struct Particle Particle; // (the tag's body follows)
struct Particle {
  double x;
  double v;
  long k;
};

// XSBench-style lookup: an int field indexes another array.
#pragma adsoac grad
double xs_lookup(int n, int m, const Nuc *nuc, const double *conc, Nuc *out) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < n; i++) {
    const Nuc *e = &nuc[i];
    double xs = e->w * conc[e->id] + nuc[i].v * (nuc + i)->v;
    total += xs;
  }
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    out[i].w = nuc[i].w * conc[nuc[i].id];
    out[i].v = sqrt(nuc[i].v) + out[i].v * out[i].w;
  }
  if (n > 0) total += nuc->w * 0.5; // element 0
  return total;
}

// ADBench GMM's Wishart prior: an int field of a struct passed by value in integer code.
#pragma adsoac grad
double wishart_prior(int n, int p, Wishart wishart, const double *sum_qs) {
  int dof = p + wishart.m + 1;
  double c = dof * p * (log(wishart.gamma) - 0.5 * log(2.0));
  double out = 0.0;
#pragma adsoac reduce(+: out)
  for (int i = 0; i < n; i++)
    out += 0.5 * wishart.gamma * wishart.gamma * sum_qs[i] * sum_qs[i] - wishart.m * sum_qs[i];
  return out - n * c;
}

// The same with the struct left out of the derivatives: no wishart_bar, no wishart_dot.
#pragma adsoac grad wrt(sum_qs)
double wishart_wrt(int n, int p, Wishart wishart, const double *sum_qs) {
  double out = 0.0;
#pragma adsoac reduce(+: out)
  for (int i = 0; i < n; i++) out += wishart.gamma * sum_qs[i] * sum_qs[i] * (p + wishart.m);
  return out;
}

// A helper taking const Nuc * and returning a struct with an int field.
static struct Span widen(const Nuc *e, double a) {
  struct Span s = {e->id % 2, e->w - a, e->w + a * e->v};
  return s;
}

#pragma adsoac grad
void spans(int n, int m, double a, const Nuc *nuc, const double *conc, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    struct Span s;
    if (i % 2)
      s = widen(nuc + i, a);
    else
      s = widen(&nuc[i], a * conc[nuc[i].id]);
    y[i] = s.bin ? s.hi * s.lo : s.hi - s.lo;
  }
}

// Whole elements: read into a local, written back into another array (its int field too).
#pragma adsoac grad
void copy_elems(int n, int m, const Nuc *nuc, Nuc *q) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    Nuc e = nuc[i];
    e.w = e.w * q[i].v;
    e.id = e.id + 1;
    q[i] = e;
  }
}

// Elements passed by value ((*(p + i)), p[i]), (*q).f, and a struct passed by value read in a
// time loop that carries a scalar.
static double en(Nuc e, Wishart w) { return e.w * e.v * w.gamma + e.id * w.m; }

#pragma adsoac grad
double energy(int n, int steps, const Nuc *nuc, Wishart wi) {
  double e = 0.0;
  for (int t = 0; t < steps; t++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int i = 0; i < n; i++) {
      const Nuc *q = nuc + i;
      s += (i % 2 ? en(nuc[i], wi) : en(*(nuc + i), wi)) * (*q).w;
    }
    e = e * wi.gamma + s;
  }
  return e;
}

// A helper scaling an element through Nuc *, memcpy between arrays of structs, a temporary
// array of structs.
static void upd(Nuc *q, double a) {
  q->w *= a;
  q->v = q->v + a * q->w;
}

#pragma adsoac grad
void update_copy(int n, double a, Nuc *p, Nuc *r, double *out) {
#pragma adsoac map
  for (int i = 0; i < n; i++) upd(&p[i], a);
  memcpy(r, p, n * sizeof(Nuc));
  Nuc *tmp = malloc(n * sizeof *tmp);
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    tmp[i] = r[i];
    tmp[i].w += 1.0;
  }
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += tmp[i].w * tmp[i].v * (tmp[i].id + 1);
  free(tmp);
  out[0] = s;
}

// Written through a permutation (the user's promise, injective(q)).
#pragma adsoac grad
void scatter(int n, int m, const int *perm, const Nuc *nuc, const double *conc, Nuc *q) {
#pragma adsoac map injective(q)
  for (int i = 0; i < n; i++) {
    q[perm[i]].w = nuc[i].w * conc[nuc[i].id];
    q[perm[i]].v = nuc[i].v;
    q[perm[i]].id = nuc[i].id;
  }
}

// An array of structs updated in place in a time loop (saved per step in f_vjp: the fields
// are strided copies).
#pragma adsoac grad
void advance(int n, int m, int steps, double dt, const double *conc, Particle *pts) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      pts[i].v = pts[i].v - dt * conc[pts[i].k] * sin(pts[i].x);
      pts[i].x = pts[i].x + dt * pts[i].v;
    }
  }
}
