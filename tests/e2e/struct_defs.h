// tests/e2e/struct_defs.h: a project header defining the struct types of structs_legacy.c
// (adsoac reads the types of the headers included with #include "...").
#ifndef STRUCT_DEFS_H
#define STRUCT_DEFS_H

typedef struct {
  int id;      // which concentration the nuclide reads
  double w, v; // its weight and a second parameter
} Nuc;

typedef unsigned int count_t;

#endif
