// ir/ir.h: the SOAC IR and the services every stage shares (arena, diagnostics).
//
// A marked C function becomes an Fn: a tree of Blocks of statements (Node).
// Scalars are in SSA form: every scalar value is a Val, defined once.
// Arrays are storage: a Val of pointer type names the array; IR_READ and
// IR_WRITE are ordered effects on it.  Control flow is structured: IR_IF and
// IR_LOOP merge scalars through their outs/carried values, IR_PAR is a
// parallel loop whose body yields one contribution per reduction clause.
#pragma once
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  const char *file;
  uint32_t line, col; // 1-based
} Loc;

// ---- arena.c ----
typedef struct Arena Arena;
Arena *arena_new(size_t block);
void arena_free(Arena *a);
void arena_release(void *a); // arena_free, as a cleanup handler (pthread_cleanup_push)
void *arena_alloc(Arena *a, size_t n); // zeroed
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

// Growable buffer of bytes (output text).  With an arena, it grows in the arena and buf_free
// lets it go: a buffer of a translation's temporaries then goes with the translation's arena,
// also when an error ends the translation's thread (diag_try) while the buffer is in use.
typedef struct {
  char *data;
  size_t len, cap;
  Arena *arena; // NULL: malloc (the caller frees it with buf_free)
} Buf;
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_free(Buf *b);

// ---- diag.c ----
typedef struct {
  const char *path; // as named on the command line
  const char *text;
  size_t len;
  Loc at; // when set, every location in this text is reported at `at` (macro expansions)
  uint32_t at_byte; // with at: the byte of the main file it stands for (macro lookups)
  bool header;      // a project header's text: its macros are those in force where the
                    // marked function being lowered starts
} Src;
void diag_set_source(const Src *src);
void diag_add_source(const Src *src); // another text locations may name (a header)
// "file:line:col: error: msg", the source line, a caret, then "  hint: ..." when hint != NULL.
_Noreturn void diag_error(Loc loc, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_warn(Loc loc, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_note(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// --remarks: "file:line:col: remark: ..." (no source line), what a translation proved,
// assumed and chose; nothing without diag_set_remarks(true).
void diag_set_remarks(bool on);
bool diag_remarks(void);
void diag_remark(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void diag_internal(const char *file, int line, const char *msg);
// Runs fn(arg) on a thread of its own with a stack of `stack` bytes, and returns how it
// ended.  An error diagnosed there (diag_error) ends that thread, after the cleanup handlers
// pushed on the way (pthread_cleanup_push) have run, and diag_try returns DIAG_FAILED;
// outside diag_try an error exits the process with status 1.  No longjmp: the caller gets
// the failure as a value (translate.c, the fuzz target, the unit tests).
typedef enum { DIAG_OK, DIAG_FAILED, DIAG_NO_THREAD } DiagTry;
DiagTry diag_try(void (*fn)(void *), void *arg, size_t stack, int *err);
// Diagnostics go to this stream (default stderr; the fuzz target silences them).
void diag_set_stream(FILE *f);

// ---- source.c ----
#define SRC_MAX_BYTES ((size_t)64 << 20) // a bigger input or header is refused
enum { SRC_NOT_REGULAR = -1, SRC_TOO_BIG = -2 }; // src_read's errors besides errno values
// The text of the file at path (NUL-terminated, in a), with '\n' line ends and no UTF-8
// byte-order mark; NULL when it cannot be read, with *err an errno value (EISDIR for a
// directory), SRC_NOT_REGULAR (a device, a fifo) or SRC_TOO_BIG.
char *src_read(Arena *a, const char *path, size_t *len, int *err);
// src_read's *err in words ("No such file or directory", "not a regular file", ...).
const char *src_error(int err);

#define IR_ASSERT(c) ((c) ? (void)0 : diag_internal(__FILE__, __LINE__, #c))
#define UNREACHABLE() diag_internal(__FILE__, __LINE__, "unreachable")

// ---- types (ir.c) ----
typedef enum { TY_VOID, TY_BOOL, TY_INT, TY_FLOAT, TY_DOUBLE, TY_STRUCT, TY_PTR } TypeKind;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  const char *name; // C spelling of scalars and structs ("int", "size_t", "Lin")
  Type *elem;       // TY_PTR
  bool elem_const;  // TY_PTR: pointer to const
  int nfields;      // TY_STRUCT
  const char **fnames;
  Type **ftypes;
};
extern Type ty_void, ty_bool, ty_int, ty_long, ty_float, ty_double;
// MPI_Comm (language.md §10): an opaque integer-like handle, passive, never in a kernel
extern Type ty_comm;
bool ty_is_float(const Type *t); // float or double
bool ty_is_int(const Type *t);   // any integer or bool
typedef struct {
  int bits;
  bool sign;
} IntInfo;
IntInfo ty_int_info(const Type *t); // width and signedness of an integer type, from its name
Type *ty_ptr(Arena *a, Type *elem, bool elem_const);
const char *ty_c_name(Arena *a, const Type *t); // "const double *"

// ---- operators and math built-ins ----
typedef enum { UN_NEG, UN_NOT, UN_BITNOT } UnOp;
typedef enum {
  BIN_ADD, BIN_SUB, BIN_MUL, BIN_DIV, BIN_MOD,
  BIN_LT, BIN_LE, BIN_GT, BIN_GE, BIN_EQ, BIN_NE,
  BIN_LAND, BIN_LOR, BIN_BAND, BIN_BOR, BIN_BXOR, BIN_SHL, BIN_SHR,
} BinOp;
const char *binop_c(BinOp op);  // "+"
const char *unop_c(UnOp op);    // "-"
bool binop_is_compare(BinOp op); // result is int 0/1

// MATH(id, double name, arity); the float form is the name with 'f' appended.  The last,
// M_DIGAMMA, only derivatives call (lgamma's, tgamma's): C has no digamma, so its body comes
// from the runtime (runtime/src/rt_math.h), emitted into the files that call it, and
// math_lookup does not offer it to programs.
#define MATH_FUNCS(MATH)                                                                          \
  MATH(M_SQRT, "sqrt", 1) MATH(M_EXP, "exp", 1) MATH(M_LOG, "log", 1) MATH(M_LOG1P, "log1p", 1)   \
  MATH(M_EXPM1, "expm1", 1) MATH(M_SIN, "sin", 1) MATH(M_COS, "cos", 1) MATH(M_TAN, "tan", 1)     \
  MATH(M_ASIN, "asin", 1) MATH(M_ACOS, "acos", 1) MATH(M_ATAN, "atan", 1)                         \
  MATH(M_ATAN2, "atan2", 2) MATH(M_SINH, "sinh", 1) MATH(M_COSH, "cosh", 1)                       \
  MATH(M_TANH, "tanh", 1) MATH(M_POW, "pow", 2) MATH(M_FABS, "fabs", 1) MATH(M_FMIN, "fmin", 2)   \
  MATH(M_FMAX, "fmax", 2) MATH(M_ERF, "erf", 1) MATH(M_LGAMMA, "lgamma", 1)                       \
  MATH(M_TGAMMA, "tgamma", 1) MATH(M_CBRT, "cbrt", 1) MATH(M_HYPOT, "hypot", 2)                   \
  MATH(M_EXP2, "exp2", 1) MATH(M_LOG2, "log2", 1) MATH(M_LOG10, "log10", 1) MATH(M_FMA, "fma", 3) \
  MATH(M_COPYSIGN, "copysign", 2) MATH(M_ERFC, "erfc", 1) MATH(M_FLOOR, "floor", 1)               \
  MATH(M_CEIL, "ceil", 1) MATH(M_ROUND, "round", 1) MATH(M_TRUNC, "trunc", 1)                     \
  MATH(M_DIGAMMA, "adsoac_digamma", 1)
typedef enum {
#define MATH(id, name, ar) id,
  MATH_FUNCS(MATH)
#undef MATH
      M_COUNT
} MathFn;
const char *math_name(MathFn fn, const Type *t); // "sqrt" or "sqrtf"
int math_arity(MathFn fn);
bool math_lookup(const char *name, MathFn *fn, bool *is_f32); // a function a program may call

// ---- values ----
typedef uint32_t Val; // 0 = no value

typedef struct {
  Type *type;
  const char *hint; // source name, or NULL for a temporary
  // A field of a struct parameter (language.md §2): the IR stays scalar, so a struct passed
  // by value is one scalar value per field and an array of structs one array per field
  // (element k of field f's array is p[k].f).  parent is the parameter as C declares it (a
  // struct, or a pointer to structs; a value no statement defines or uses), field the
  // field's index in its struct type.  Analyses and derivative rules see ordinary scalars
  // and arrays (two fields never alias); the emitter writes p.f and p[k].f.
  Val parent;
  int field;
  Val *fields; // a parent: its fields' values, one per field of the struct type
  // An array-of-arrays parameter (double A[N][M], double (*A)[M]): the IR sees a flat
  // pointer to the elements; the signature declares it as C does, this declarator text with
  // %s for the name ("%s[N][M]"), and the body reads it through a flat alias (emit.c).
  const char *adecl;
  bool arows; // adecl is an array of arrays (double x[N] has adecl "%s[N]" alone)
  bool avla; // ... whose extents are not constants (double A[n][m]): C++ (the CUDA target)
             // declares it a flat pointer, with the C declarator as a comment
  const char *adecl_num; // adecl with every extent a number ("(*%s)[64]", "%s[8]"; NULL:
                         // one is not a constant): a header has not the input's macros
  // While the front end lowers a sequential loop's body: the parameter of a variable the loop
  // does not assign is the value it had before the loop (the dependence test reads it as
  // that: `n` in the bounds of a map in a time loop is the n of a VLA extent); verified, and
  // the parameter replaced by it, where the loop ends (parser/lower_loop.c)
  Val same;
} ValInfo;

// ---- nodes ----
typedef enum {
#define OP(k, name) k,
#include "ir_ops.h"
#undef OP
} NodeKind;
extern const char *const node_kind_names[];

typedef enum { RED_ADD, RED_MUL, RED_MIN, RED_MAX, RED_USER } RedOp;
const char *redop_name(RedOp op);

// ACC_COLOR: an update that other iterations of the enclosing host-level parallel loop may
// make at the same element, but only iterations fewer than its `color` apart (emit_par.c's
// two-phase schedule makes it plain; anywhere else it is atomic).
// ACC_WINDOW: an update of an array in the enclosing host-level parallel loop's `wins`: on the
// C target into the thread's window of that array (a copy of the elements its updates have
// reached so far, added to the array after the loop), atomic where the window cannot grow.
typedef enum { ACC_PLAIN, ACC_ATOMIC, ACC_COLOR, ACC_WINDOW } AccMode;

typedef struct Node Node;
typedef struct Block Block;

// A function whose body adsoac does not see (a library's), called with scalars, whose
// derivatives the user declares: #pragma adsoac derivative(name) vjp(name_vjp) jvp(name_jvp)
// (language.md §6).  Its float and double parameters are active, its integer ones passive;
// it returns float or double and is pure (its result depends only on its arguments).
//   R name(P1 a1, ..., Pn an)
//   R vjp(P1 a1 [, P1 *a1_bar], ..., Pn an [, Pn *an_bar], R ret_bar)   (*ak_bar += ...)
//   R jvp(P1 a1 [, P1 a1_dot], ..., Pn an [, Pn an_dot], R *ret_dot)
// (the bracketed parameters for the active ones), as adsoac's own f_vjp and f_jvp are.
typedef struct ExtFn {
  const char *name, *vjp, *jvp; // vjp, jvp: NULL where not declared
  Type *ret;
  Type **ptypes;
  const char **pnames;
  int nparams;
  Loc loc; // the derivative pragma
  uint32_t decl_end; // where the last declaration of vjp, jvp in the input ends (0: headers)
  bool global;       // a file-scope variable's value (no call, no derivative): the name alone
                     // (an array, ret a pointer: the address of its elements)
  bool unsized;      // a file-scope array declared without its length (extern double t[];)
} ExtFn;
bool ext_active(const ExtFn *e, int k); // parameter k is float or double

typedef enum { EXT_CALL, EXT_VJP, EXT_JVP } ExtMode;

// An MPI collective of a marked function (language.md §10), at host level, over the ranks of
// comm.  Its arrays are its own temporaries (the front end copies the program's buffers into
// `in` and out of `out`), so it reads all of in and writes all of out: count elements, or
// count times the number of ranks for an allgather's and a gather's out and a scatter's in.
// Where MPI leaves a buffer alone (a reduce's or gather's result off the root), out is 0s:
// the front end copies it to the program's buffer on the root only.  COLL_RANK and COLL_SIZE
// define Node.out, an int (MPI_Comm_rank, MPI_Comm_size).
//   COLL_CALL  out = coll(in)
//   COLL_VJP   in_d += the adjoint of in, given out_d, out's adjoint (in: the primal input)
//   COLL_JVP   out_d = the tangent of out, given in_d, in's tangent
typedef enum {
  COLL_ALLREDUCE, COLL_REDUCE, COLL_BCAST, COLL_ALLGATHER, COLL_GATHER, COLL_SCATTER,
  COLL_RANK, COLL_SIZE
} CollKind;
bool coll_rooted(CollKind k); // reduce, bcast, gather, scatter: a root rank
typedef enum { COLL_CALL, COLL_VJP, COLL_JVP } CollMode;
const char *coll_name(CollKind k); // "MPI_Allreduce"
typedef struct Node Node;
bool coll_reads(const Node *n, uint32_t arr); // an IR_COLL reads array arr (VJP: in_d too)
uint32_t coll_writes(const Node *n);          // the array an IR_COLL writes (0: none)

struct Block {
  Node **stmts;
  int n, cap;
  Val *yields; // values handed to the enclosing IF/LOOP/PAR
  int nyields;
};

// A user operator as a function of two values of nf scalar fields each:
// body computes a OP b from the parameters pa[0..nf), pb[0..nf) and yields its nf fields.
typedef struct {
  int nf;
  Val *pa, *pb;
  Block *body;
} Lambda;

// One reduction clause of an IR_PAR: out = init OP (OP over i of the body's contribution).
// A value has nf scalar fields (1, or the fields of a struct); the body yields the
// contribution's fields in slots [slot, slot + nf).
typedef struct {
  RedOp op;
  int nf;
  Val *init, *out;     // nf each
  Val *ne;             // RED_USER: the neutral element (nf), computed before the loop
  int slot;
  Lambda *lam;         // RED_USER
  Lambda *inv;         // RED_USER declared with inverse(fn): inv(a, b) = x with op(x, b) == a
  bool commutative;    // RED_USER declared commutative
  // lift_argext's (value, index) pairs of a max (1) or min (-1), the index the loop's: a fold
  // in index order from the neutral (-inf, LLONG_MAX) takes x_i where it is better (a tie
  // goes to the earlier index it holds); combining partials takes the whole operator
  int argext;
  const char *user_fn; // RED_USER: the operator's name
  const char *var;     // source variable name
} Red;

// A scan clause: in iteration i the body sees excl = init OP y_0 OP ... OP y_{i-1} (values
// the loop defines, like its index) and yields its contribution y_i; out is the total.
typedef struct {
  RedOp op;
  int nf;
  Val *init, *excl, *out; // nf each
  int slot;
  Lambda *lam;
  const char *user_fn;
  const char *var;
  bool reverse; // a canonical scan from the last element down: excl = y_{i+1} OP ... OP init
} Scan;

// A hist clause: arr[idx] OP= v for every IR_UPDATE of the body with lo <= idx < lo + len.
typedef struct {
  RedOp op;
  Val arr, lo, len;
  Lambda *lam;
  Lambda *inv;         // RED_USER declared with inverse(fn)
  const char *user_fn;
  const char *var;
  // C target, f_vjp: min/max whose loop also records each bin's winner (ad/rev_hist.c
  // hist_win_inline): win[b] is the key (i - lo) * nsites + site of the update that made the
  // bin's value, -1 for the initial contents (earliest key on ties); 0: none
  Val win;
  long long nsites;
} Hist;



struct Node {
  NodeKind kind;
  Loc loc;
  Val out;
  union {
    struct {
      double f;
      long long i;
    } cst; // IR_CONST: f for float types, i for ints
    struct {
      UnOp op;
      Val a;
    } un;
    struct {
      BinOp op;
      Val a, b;
    } bin;
    struct {
      MathFn fn;
      Val a, b, c; // b, c: 0 where the arity is lower
    } call;
    struct {
      const ExtFn *fn;
      ExtMode mode;
      // EXT_CALL: args = the arguments (nparams).  EXT_VJP: the arguments, then the seed of
      // the result; outs = the adjoint of each active argument (one per active parameter, in
      // order), out = 0.  EXT_JVP: the arguments, then the tangent of each active one; outs[0]
      // = the result's tangent, out = the result (or 0: not needed).
      Val *args, *outs;
      int nargs, nouts;
    } ext;
    struct {
      Val a;
    } cast;
    struct {
      Val arr, idx, v;
      AccMode mode;
      int hist; // IR_UPDATE: which hist clause of the enclosing IR_PAR
      int site; // IR_UPDATE of a clause with win: its site among the clause's (program order)
    } mem; // IR_READ, IR_WRITE, IR_ACC, IR_UPDATE
    struct {
      Val cond;
      Block *then, *els;
      Val *outs;
      int nouts;
    } ifs;
    struct {
      Val idx, lo, hi;
      Block *body; // body->yields: the carried values for the next iteration
      Val *init, *params, *outs;
      int ncarry;
      int stripmine; // levels requested with #pragma adsoac stripmine(L); 0: default
      bool strips;   // an outer level of a strip-mined loop (transform/stripmine.c)
      const char *note; // f_vjp: what the loop checkpoints (a comment in the output)
      const char *hints; // another tool's pragmas before the source loop ("GCC ivdep\n..."):
                         // written before it in the primal f (emit.c), not in derivatives
      Val exit; // 0, or one of params: the loop ends before an iteration that starts with it
                // nonzero (C's break, and while loops: then hi is the type's maximum)
    } loop;
    struct {
      Val idx, lo, hi;
      Block *body;
      Red *reds;
      int nreds;
      Scan *scans;
      int nscans;
      Hist *hists;
      int nhists;
      const char *pragma; // the source pragma text, for comments
      Val *injective;     // arrays the user asserts each iteration touches its own elements of
      int ninjective;
      // an OpenMP loop's schedule, num_threads, if and proc_bind clauses, written on its loop
      // in the primal f on the C target: each clause's text; the identifiers in it, parameters
      // of the function (hint_names[k] is written as hint_vals[k]'s name)
      const char **hints, **hint_names;
      Val *hint_vals;
      int nhints, nhint_vals;
      // 0, or a long defined before the loop: iterations at least this far apart make their
      // ACC_COLOR updates at different elements (the loop runs in chunks of that many
      // iterations, the even chunks in parallel, then the odd ones)
      Val color;
      Val *wins; // arrays whose ACC_WINDOW updates go to per-thread windows (float, double)
      int nwins;
    } par;
    struct {
      Val n;
      bool tape; // checkpoints of a sequential loop (counted: adsoac_checkpoint_peak)
      bool nozero; // every element is written before it is read: not zeroed (transform/zero.c)
    } alloc;
    struct {
      Val dst, src, n, off; // dst[doff:doff+n] = src[off:off+n]; with swap, the two exchange
      Val doff;             // 0: no offset
      bool swap;
      bool tape; // IR_FREE of a tape: n is its element count
    } copy; // IR_COPY; IR_FREE uses dst
    struct {
      CollKind kind;
      CollMode mode;
      RedOp op; // COLL_ALLREDUCE, COLL_REDUCE: RED_ADD, RED_MUL, RED_MIN, RED_MAX
      Val in, out, in_d, out_d; // arrays (see CollKind); in_d, out_d: COLL_VJP, COLL_JVP
      Val count, root, comm;    // root: coll_rooted
    } coll;
    struct {
      Val v;
      // the file-scope integer variables the function assigns (language.md 6): gname[k] =
      // gv[k] where it returns
      Val *gv;
      const char **gname;
      int ng;
    } ret;
  } u;
};

// ---- functions and programs ----
typedef enum { PARAM_SCALAR, PARAM_ARRAY } ParamShape;

typedef struct {
  const char *name;
  Type *type;
  Val val;
  Loc loc;
  bool is_float;   // float/double scalar, or pointer to float/double
  bool is_array;   // pointer
  bool written;    // pointer that the function writes
  bool active;     // differentiated
} Param;

typedef struct Fn {
  const char *name;
  Loc loc;
  Type *ret;
  Param *params;
  int nparams;
  Block *body;
  ValInfo *vals; // vals[id]
  Node **defs;   // defs[id]: the statement a Builder made it with (others: NULL)
  int nvals, capvals;
  Arena *arena;
  bool is_static; // declared static: f, f_vjp and f_jvp are (language.md §2)
} Fn;

// A marked function and what was derived from it.
typedef struct {
  Fn *primal, *vjp, *jvp;
  Loc loc;
  uint32_t start_byte, end_byte; // the original definition, pragma included
  uint32_t proto_byte; // the end of the input's first prototype of it, before the definition
                       // (0: none): f_vjp and f_jvp are declared there too
} Marked;

typedef struct {
  Src src;  // the input as read (the output copies its unmarked parts)
  Src text; // what the front end parses and reads: the same bytes and lines, with comments
            // and inactive #if regions blanked
  Marked *marked;
  int nmarked;
  // byte ranges of the input that the output drops (marked functions and adsoac pragmas)
  uint32_t *drop_start, *drop_end;
  int ndrop;
  const char **idents; // every identifier of the input, for name clash checks
  int nidents;
  const char *const *deps; // headers read through #include "..." (for -MD)
  int ndeps;
  // the project headers as parsed (while the front end runs): their functions' bodies are
  // inlined as the file's are (language.md 6)
  const Src **hsrc;
  const void **htree; // (TSTree *)
  int nh;
} Prog;

// ---- ir.c: building ----
Fn *fn_new(Arena *a, const char *name, Loc loc);
Val fn_val(Fn *f, Type *t, const char *hint);
// A field value of parent (ValInfo.parent): the field's type is the struct field's type, or
// a pointer to it when parent is a pointer to structs.
Val fn_field_val(Fn *f, Val parent, int field);
// parent's name as C declares the parameter ("p"), for a field of a struct parameter; else
// NULL
const char *val_struct_param(const Fn *f, Val v);
Type *val_type(const Fn *f, Val v);
Block *block_new(Arena *a);
void block_push(Arena *a, Block *b, Node *n);
void block_insert(Arena *a, Block *b, int pos, Node *n);
void block_yield(Arena *a, Block *b, Val v);
Node *node_new(Arena *a, NodeKind k, Loc loc);

// A Builder appends statements to a block of a function.
typedef struct {
  Fn *fn;
  Block *blk;
  Loc loc;
} Builder;
Val b_const_f(Builder *b, Type *t, double v);
Val b_const_i(Builder *b, Type *t, long long v);
Val b_unop(Builder *b, UnOp op, Val a);
Val b_binop(Builder *b, BinOp op, Val a, Val c);
Val b_call(Builder *b, MathFn fn, Val a, Val c);          // arity 1 (c = 0) or 2
Val b_call3(Builder *b, MathFn fn, Val a, Val c, Val d); // fma
Val b_cast(Builder *b, Type *t, Val a);
// An IR_EXT statement (args copied); returns it, its outs left to the caller.
Node *b_ext(Builder *b, const ExtFn *fn, ExtMode mode, const Val *args, int nargs, int nouts);
Val b_read(Builder *b, Val arr, Val idx);
void b_write(Builder *b, Val arr, Val idx, Val v);
void b_acc(Builder *b, Val arr, Val idx, Val v, AccMode mode);
Node *b_push(Builder *b, Node *n);
Val b_select(Builder *b, Val cond, Val x, Val y); // an IR_IF yielding x or y
// arithmetic helpers that fold zeros and ones (used by the derivative rules)
Val b_add(Builder *b, Val x, Val y); // x or y may be 0 (= zero)
Val b_mul(Builder *b, Val x, Val y);
Val b_neg(Builder *b, Val x);
Val b_sub(Builder *b, Val x, Val y);

void ir_replace_uses(Block *b, Val from, Val to); // also in nested blocks and yields
bool ir_uses_val(const Block *b, Val v);           // ... whether b uses v there

// ---- walk.c: the walk over statements (doc/ir.md) ----
// ir_walk visits the statements of b in program order and, inside each, the blocks nested
// in it: an if's then and else, a loop's or parallel loop's body, and with `lambdas` the
// bodies of a parallel loop's operators (before its body).  pre(n) runs before n's blocks,
// post(n) after them, block(b) after the statements of each block (b itself included).  A
// NULL callback does nothing (pre: WALK_INTO).  Callbacks may change the node they are given
// and its nested blocks (pre: before they are walked); only `block` may add or remove
// statements, of the block it is given.
typedef enum {
  WALK_INTO, // walk n's nested blocks, then post(n)
  WALK_SKIP, // not n's nested blocks, nor post(n)
  WALK_STOP, // end the walk: ir_walk returns n
} WalkNext;

typedef struct {
  WalkNext (*pre)(Node *n, void *ctx);
  void (*post)(Node *n, void *ctx);
  void (*block)(Block *b, void *ctx);
  bool lambdas;
  void *ctx;
} Walker;

// Returns the statement whose pre stopped the walk, or NULL.
Node *ir_walk(const Block *b, const Walker *w);
Node *ir_walk_node(const Node *n, const Walker *w); // n and the blocks nested in it

// fn(&v, ctx) for each value v != 0 of one statement (not of its nested blocks); through the
// pointer fn may rename it.
typedef void IrValFn(Val *v, void *ctx);
// The values n uses: operands; an if's condition; a loop's bounds and initial values; a
// parallel loop's bounds, its clauses' initial values and neutral elements, its histograms'
// arrays and sections.  (Not a block's yields: those are the block's.)
void ir_node_uses(Node *n, IrValFn *fn, void *ctx);
// The values n defines: out; an if's outs; a loop's index, parameters and outs; a parallel
// loop's index, its reductions' results, its scans' running values and results.
void ir_node_defs(Node *n, IrValFn *fn, void *ctx);

// ---- ir_print.c ----
void ir_print_fn(const Fn *f, Buf *out);

// ---- ir_verify.c ----
void ir_verify(const Fn *f, const char *after_pass);
