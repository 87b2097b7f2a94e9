// emit/emit.h: IR -> C11/OpenMP or CUDA source.
#pragma once
#include "../ir/ir.h"

typedef enum { TARGET_CUDA, TARGET_C } Target;

typedef struct {
  Target target;
  bool line_directives;
  const char *input_name; // as named on the command line, for comments and #line
  const char *output_name; // for the #line after the user's code (NULL: none)
  const char *version;
  bool check; // --emit=check: the translation is part of the validation program (check.c)
  bool no_fuse; // --no-fuse: a scan's loops are not run in its passes
  bool check_sched; // --check-schedules: adsoac_sched_check before each plain ACC_COLOR update
  bool deterministic; // --deterministic (C): no combination in an order the threads decide
} EmitOptions;

// Writes the whole output file for prog into out.
void emit_program(const Prog *prog, const EmitOptions *opt, Buf *out);

// --emit=header: the prototypes of the functions emit_program's output defines (for
// opt->target), with the struct types they use, for C and C++ callers.
void emit_header(const Prog *prog, const EmitOptions *opt, Buf *out);

// Does a marked function call MPI (language.md §10)?  Then the output needs <mpi.h>, the
// MPI library and rt_mpi.h; --emit=check refuses it.
bool prog_uses_mpi(const Prog *prog);

// ---- check.c ----
// --emit=check: after emit_program's output, the original functions (NAME_ref) and a main
// that validates f, f_vjp and f_jvp against them on random inputs.
void emit_check(const Prog *prog, const EmitOptions *opt, Buf *out);

// ---- dot.c ----
void emit_dot(const Prog *prog, Buf *out);

// ---- names.c ----
// Every name adsoac invents:
//   p, p_bar, p_dot, ret_bar, ret_dot   parameters (language.md §2)
//   <source name>_<N>, t_<N>            SSA values; N is the value's id, stable across runs
//   adsoac_k<N>_<fn>                    CUDA kernels; N counts kernels in the file
//   adsoac_r<N>, adsoac_part<N>         partial results of reduction N of a loop
//   adsoac_*                            runtime functions and macros
// A name that equals an identifier of the input gets '_' appended until it does not.
typedef struct Names Names;
// cuda: parameters named like CUDA's built-in variables get '_' appended.
Names *names_new(Arena *a, const Fn *f, const Prog *prog, bool cuda);
const char *names_get(Names *nm, Val v);
