// transform/transform.h: IR -> IR passes: automatic differentiation and clean-up.
#pragma once
#include "../ir/ir.h"
#include "../analysis/analysis.h" // the layer below: the passes' callers use its facts too

// ---- clone.c ----
// Copies the statements of src to the end of b's block, renaming every value through map
// (map[old] = new; unmapped values that are used must already be mapped).  With
// drop_writes, IR_WRITE statements are left out (re-execution in a reverse sweep).
void clone_block(Builder *b, const Fn *src_fn, const Block *src, Val *map, bool drop_writes);
// ... leaving out the writes but those to the arrays keep[arr] (an iteration's own arrays).
void clone_block_keep(Builder *b, const Fn *src_fn, const Block *src, Val *map,
                      const unsigned char *keep);
Val clone_val(Fn *dst, const Fn *src, Val v, Val *map); // fresh value of the same type
Lambda *clone_lambda(Builder *b, const Fn *src_fn, const Lambda *l, Val *map);


// ---- distribute.c ----
// Splits each parallel loop that does several things (writes, reductions, histograms) into
// one loop per thing, where the dependences allow it (before differentiation).
void distribute_loops(Fn *f);
// A part's pragma text is the loop's, then PART_MARK and what the part does.
#define PART_MARK "; part: "

// ---- scan.c ----
// Splits each loop with scan clauses into its contributions (a map), one canonical scan per
// clause, and the rest of the loop (before differentiation).  Top-level reductions with a
// declared operator that is not commutative or has no inverse become scans first (their
// total), and with general (--general-rule) every top-level reduction.
void lower_scans(Fn *f, bool general);
// Removes the prefix arrays of canonical scans that nothing reads (after differentiation:
// the prefixes of a reduction computed as a scan are read by its derivative only).
void scan_drop_unread(Fn *f);
// Appends a canonical scan of s's operator over src[0:len) into dst, with init and out
// (dst[f] == 0: field f's prefixes are not stored).
Node *scan_build(Builder *b, const Fn *sf, const Scan *s, const Val *src, const Val *dst,
                 Val len, const Val *init, const Val *out, Loc loc, const char *pragma);
Val scan_alloc(Builder *b, Type *elem, Val len, const char *hint); // a zeroed array
// The trip count of [lo, hi) as a long: 0 when hi <= lo, else hi - lo computed in long (the
// difference of two ints wraps in int: 1 - INT_MIN).
Val b_trip(Builder *b, Val lo, Val hi);
void scan_free(Builder *b, Val arr);

// ---- fuse.c ----
// Fuses adjacent parallel loops over the same index space when that is safe, then shares
// common subexpressions in loop bodies (the reverse loop's re-reads of the primal's inputs).
void fuse_loops(Fn *f);

// ---- promote.c ----
// f_vjp: a sequential loop's plain accumulations into one element it does not otherwise
// touch are summed in a carried value and added once after the loop; an element's adjoint
// taken and given back unchanged (a[j] = a[j] + e) is left alone.
void promote_accs(Fn *f);

// ---- zero.c ----
// Temporaries whose first use writes every element are not zeroed (alloc.nozero); a first
// accumulation into one becomes a write.
void zero_unneeded(Fn *f);

// ---- simplify.c ----
void simplify_dce(Fn *f);  // removes pure statements whose results are unused
void simplify_fold(Fn *f); // casts of constants become constants, i < i becomes 0
// Arrays allocated and never read go, with their writes (after differentiation).
void simplify_dead_arrays(Fn *f);

// ---- counted.c ----
bool has_exit_loops(const Fn *f); // a loop that ends on a flag (while, do, break)
// Each such loop becomes a run that counts its iterations, then a loop of that many (reverse
// mode's copy of the function: the reverse runs iterations backwards).
void count_exit_loops(Fn *f);

// ---- stripmine.c ----
Fn *fn_copy(Arena *a, const Fn *f); // the same function (fresh values)
// Each sequential loop at the function's level (and in such loops) nested stripmine(L) (else
// deflt) levels deep.
void stripmine_loops(Fn *f, int deflt);

