// analysis/uses.c: how often each value is used (transform/simplify.c's dead-code elimination,
// the derivatives, and the emitter, which leaves out a loop's unused results).
#include "analysis.h"

// uses[v] += d for every use of a value (d = -1: the uses of a statement removed)
typedef struct {
  int *uses, d;
} Count;

static void count_val(Val *v, void *ctx) {
  Count *c = ctx;
  c->uses[*v] += c->d;
}

static WalkNext count_in_node(Node *n, void *ctx) {
  ir_node_uses(n, count_val, ctx);
  return WALK_INTO;
}

static void count_in_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++)
    if (b->yields[i]) count_val(&b->yields[i], ctx);
}

// n and the statements nested in it
void count_node(const Node *n, int *uses, int d) {
  ir_walk_node(n, &(Walker){.pre = count_in_node, .block = count_in_yields, .ctx = &(Count){uses, d}});
}

void count_block(const Block *b, int *uses) {
  ir_walk(b, &(Walker){.pre = count_in_node, .block = count_in_yields, .ctx = &(Count){uses, 1}});
}

void count_uses(const Fn *f, int *uses) {
  count_block(f->body, uses);
}

