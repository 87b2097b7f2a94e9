// analysis/analysis.h: facts about the IR that the front end's checks and the transforms use.
#pragma once
#include "../ir/ir.h"

// ---- index.c ----
// The defining statement of every value of a block (recursively), in def[v].
void ir_defs(const Block *b, Node **def);

// An index expression as a function of one loop index i: idx = coef * i + rest, where rest
// does not vary in the loop (affine), or something else (a read, another loop's index, a
// product of i with a variable).  inside[v]: v is defined in the loop's body.
typedef struct {
  bool affine;
  long long coef;
} IndexForm;

IndexForm index_form(Node *const *def, const unsigned char *inside, Val v, Val i);
bool index_invariant(Node *const *def, const unsigned char *inside, Val v, Val i);
// a and b are the same expression (structurally), so they denote the same element.
bool index_same(Node *const *def, Val a, Val b);
