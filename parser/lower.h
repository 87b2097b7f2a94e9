// parser/lower.h: state shared by the lowering files (CST -> IR), private to parser/.
#pragma once
#include "parser.h"
#include "../analysis/analysis.h"
#include "../ir/hash.h"

#define MAX_DIMS 4 // extents of an array of arrays, after the first
#define MAX_BASES 4 // the arrays one pointer variable may point into

typedef enum {
  VAR_SCALAR, // a C scalar variable; val is its current SSA value (0 = not yet assigned)
  VAR_ARRAY,  // a pointer (parameter or local): a view; val names the array it points into
              // (0: not assigned yet), its offset is the variable named off (NULL: none)
  VAR_INDEX,  // the index of an enclosing loop (read only)
  VAR_RED,    // inside a parallel loop: the running contribution to a reduction variable
  VAR_SCAN,   // inside a parallel loop: a scan variable; val is its running (inclusive) value
  VAR_STRUCT, // a struct variable; its fields follow as scalar variables "name.field"
  VAR_REF,    // a pointer parameter of an inlined function bound to &s, s a local of the
              // caller: vars[ref]
} VarKind;

#define PVAL_LOST ((Val)-1) // Var.pval: assigned on some path, the value unknown here
typedef struct {
  const char *name;
  Type *type;
  VarKind kind;
  Val val;
  Loc loc;
  int par_level; // number of parallel loops around the declaration
  RedOp red_op;  // VAR_RED, VAR_SCAN
  Val neutral;   // VAR_RED: the neutral element the running value starts from
  const struct UserOp *red_user; // RED_USER
  int contrib;   // VAR_SCAN: index of the hidden VAR_RED holding this iteration's contribution
  VarKind red;   // VAR_STRUCT: VAR_RED or VAR_SCAN for a struct clause variable, else 0
  Val *neutral_fields; // VAR_STRUCT reduction: the neutral element's fields
  int shadow;    // the variable of the same name that this one hides (-1: none; var_push)
  int idx;       // its index in Lower.vars
  Loc partial;   // (line 0: none) the if after which it has a value only where a branch ran
  Val pval;      // with partial, at host level: that value where the branch ran, else 0 (the
                 // root of an MPI_Bcast sends it: lower_mpi.c); 0: no path assigned it;
                 // PVAL_LOST: a path did (a loop, a privatizing parallel loop) but its
                 // value is not known here
  Loc priv;      // (line 0: none) the parallel loop whose iterations it was private to: no
                 // value after it (lower_loop.c privatize_scalars)
  const char *off; // VAR_ARRAY: the hidden variable holding the view's offset (NULL: 0)
  int ref;       // VAR_REF: the variable referred to (its index in Lower.vars)
  int ndim;      // VAR_ARRAY of arrays (double q[3][4]): the extents after the first (4)
  Val dims[MAX_DIMS];
  // VAR_ARRAY that points into one of several arrays (double *xp = x2; ... xp = &s[i];): the
  // arrays, and the hidden variable holding the index of the one it points into now
  int nbase;
  Val bases[MAX_BASES];
  const char *sel;
  const char *offs[MAX_BASES]; // (and the offset into each: off is unused)
} Var;

// Lower.var_names: the newest variable of each name, vars[newest] (-1: none in scope now).
typedef struct {
  const char *name;
  int newest;
  UT_hash_handle hh;
} VarName;

// An element this iteration wrote (store-to-load forwarding): after the write arr[idx] = val,
// a read of the same element (the same index expression, or one equal to it) takes val.
// After an if that wrote it in one branch, val is the if's out: the side that did not write
// it yields the element as the iteration found it (read before the if: initial; stale when an
// earlier write in a nested loop may have reached it), or, where that read would not be at
// the loop's own index, nothing: flag (an int, 0: none) is then 1 where val holds the element
// and 0 where memory does (a later read reads it there).  val 0: the element may have been
// written, at this or another index expression, where forwarding cannot follow: a later read
// goes to memory and is refused (map_dependence).
typedef struct {
  Val arr, idx, val, flag;
  bool initial, stale;
} FwdEntry;

typedef struct ParCtx {
  struct ParCtx *up;
  Val idx;
  int var_base; // vars[0 .. var_base) are declared outside the loop
  Val lo, hi;   // the loop's range
  Access *acc;
  int nacc, capacc;
  const char *pragma;
  FwdEntry *fwd; // the elements this iteration wrote so far on the path being lowered
  int nfwd, capfwd;
  Val *lost;        // arrays whose element this iteration may have written where forwarding
  int nlost, caplost; // cannot follow (in a sequential or nested loop): an unforwarded read
                      // of them is not known to see the element as the iteration found it
  int inline_base; // inline depth at the loop
  Hist *hists;      // the loop's hist clauses (arrays updated only through OP)
  int nhists;
  const struct UserOp **hist_user;
} ParCtx;

// The elements a branch wrote: its entries, in order.
typedef struct {
  FwdEntry *e;
  int n;
} Fwd;


// A function defined in the file, callable (inlined) from marked functions.
typedef struct {
  const char *name;
  TSNode def;
  UT_hash_handle hh; // the functions by name; of two of the same name, the first
} FnDef;

// A file-scope variable (language.md 6: passive, read as a constant): its declaration and
// the declarator that names it (an identifier, an array's, an init_declarator's).
typedef struct {
  const char *name;
  TSNode decl, declarator;
  UT_hash_handle hh; // (the first declaration of a name)
} GlobalDef;

// Types the file (and the project headers it includes) names: struct types of scalar fields
// and scalar typedefs.
typedef struct {
  const char *name; // "Lin", "struct Lin", "real"
  Type *type;       // the newest definition of the name (NULL: refused, see why)
  const char *why;  // a struct adsoac cannot scalarise: what it has ("an array field 'v'")
  const char *alias; // typedef struct P P; before struct P's body: the tag it names
  UT_hash_handle hh;
} TypeDef;

typedef struct {
  TypeDef *byname; // (uthash)
} TypeTable;

// A function declared with #pragma adsoac operator (language.md §4).
typedef struct UserOp {
  const char *name; // as clauses name it
  const char *call; // the function the loop bodies' updates call (an omp declare reduction's
                    // combiner function, named apart from the reduction: parse.c)
  const char *builtin; // an omp declare reduction whose combiner is +, *, min or max: that
                       // operator (the rest unused)
  const char *unread, *unread_hint; // an omp declare reduction adsoac does not read: the
                                    // error, given where a marked function uses it
  TSNode def;
  Type *type;
  const char *neutral; // text of the neutral element
  Loc neutral_loc, loc;
  bool commutative;
  const char *inverse; // or NULL
  UT_hash_handle hh;    // the operators by name; of two of the same name, the first
} UserOp;

// A function with derivatives declared by #pragma adsoac derivative (extern.c).
typedef struct ExtDef {
  const char *name;
  ExtFn *fn;
  UT_hash_handle hh;
} ExtDef;

// The innermost loop being lowered, for break and continue (language.md §6).  They set flags,
// hidden scalar variables; the statements after one that may have set them run under
// `if (!(brk | cont))`, and a sequential loop ends before an iteration that starts with its
// break flag set (IR_LOOP's exit).
typedef struct LoopCtx {
  struct LoopCtx *up;
  bool parallel;
  const char *brk, *cont; // the flags' variable names (NULL: this loop has none)
  const char *ibrk;       // the index at the break, for an index declared before the loop
  Val index;              // this iteration's index
} LoopCtx;

typedef struct Lower {
  Arena *a;
  const Src *src;
  Fn *fn;
  Builder b;
  Var **vars; // (each Var where var_push put it: a Var * stays valid while vars grows)
  int nvars, capvars;
  VarName *var_names; // (uthash)
  ParCtx *par; // innermost parallel loop, NULL at function level
  LoopCtx *loop; // innermost loop (parallel or not) of the function being lowered, or NULL
  bool returned;
  bool in_expansion;  // lowering a macro expansion (its identifiers are expanded already)
  int inline_depth;   // calls being inlined
  int expr_depth;     // nesting of lower_expr (0: a whole expression)
  int expr_nesting;   // lower_expr calls in progress (inlined calls and macros included)
  int nesting;        // levels of MAX_NESTING entered (nest_enter)
  int choice_depth;   // operands of ?:, && and || being lowered (each in a branch of its own)
  // Local arrays are allocated at the start of the innermost parallel loop's body (each
  // iteration has its own), or of the function's: alloc_blk, at alloc_pos; they are freed at
  // its end (allocs: the arrays to free there).
  Block *alloc_blk;
  int alloc_pos;
  Val *allocs;
  int nallocs, capallocs;
  struct Pending *pending; // arrays of the function that parallel loops may privatize
  int npending, cappending;
  const char *decl_ptr; // the pointer variable being declared (T *p = malloc(n * sizeof *p))
  Type *decl_elem;      // its element type
  int var_floor;      // var_find sees vars[var_floor ..] only (an inlined body's scope)
  const Prog *prog;   // the file
  FnDef *fndefs;      // functions defined in the file (uthash, by name)
  UserOp *ops;        // declared operators (uthash, by name)
  ExtDef *exts;       // functions with declared derivatives (uthash, by name)
  GlobalDef *globals; // file-scope variables (uthash, by name)
  Val *rowof;         // an element's index -> its row in an array of arrays (lower_ptr.c)
  int caprowof;
  struct GlobalRead { const char *name; Val v; } *gread; // those read: their values at entry
  int ngread;
  // the integer ones the marked function assigns: variables of the function (vars[var],
  // from their value at entry), stored back where it returns (lower.c bind_global_writes)
  struct GlobalVar { const char *name; int var; Val entry; } *gvar;
  int ngvar;
  uint32_t fn_start;  // where the marked function's definition starts in the input
  TSNode fn_body;     // the body being lowered (an inlined function's while inlining)
  const char *hints;  // loop pragmas of other tools before the next statement, a loop's (IR_LOOP)
  TSNode collapse_node; // the loop an OpenMP collapse(n) makes a map too, with collapse_pr
  Pragma collapse_pr;
  int omp_base; // the variables private to the threads of an OpenMP team: vars[omp_base..)
                // (0: all the function's, an orphaned omp for's; parser/omp.c)
  const char **omp_red; // the reduction variables of the omp parallel region around
  int nomp_red;
  TSNode do_cond;     // a do loop's condition: lower_stmt sets the hidden flag do_brk to !cond
  const char *do_brk;
  const TypeTable *types;
  struct MacroTable *macros;
  const char *inline_stack[32];
  Val (*expr)(struct Lower *L, TSNode e);                            // lower_expr
  void (*struct_expr)(struct Lower *L, TSNode e, Type *t, Val *out); // lower_struct_expr
  void (*block)(struct Lower *L, TSNode compound);                   // lower_block
  void (*stmt)(struct Lower *L, TSNode s);                           // lower_stmt
  void (*guarded)(struct Lower *L, TSNode s, bool rest, bool brk_only); // lower_guarded
} Lower;

// The lowering files call each other one way only, down this list (tests/run-layers.sh):
//   lower.c (statements) > lower_loop.c > lower_update.c > lower_expr.c > lower_text.c
//   > lower_struct.c > lower_call.c > lower_type.c, lower_access.c > lower_scope.c
// A construct recurses into the ones above its file through the dispatchers that Lower holds
// (set by parse.c): a struct initializer's fields are expressions, an inlined call's body is
// statements.

// ---- extern.c ----
// The #pragma adsoac derivative lines of the file (root), their functions' signatures read
// off the declarations in the file and the project headers it includes.
ExtDef *collect_derivatives(Arena *a, TSParser *parser, const Prog *p, TSNode root,
                            const TypeTable *types);

// ---- lower_scope.c ----
int var_push(Lower *L, Var v);
Var *var_find(Lower *L, const char *name);
void var_pop(Lower *L, int n); // back to the variables vars[0 .. n) (leaving a scope)
// A struct variable: the marker, then one scalar variable per field, named field_name(...).
int struct_var_push(Lower *L, const char *name, Type *t, const Val *fields, Loc loc);
const char *field_name(Lower *L, const char *var, const char *field); // "l.a"
TSNode fn_def(FnDef *fns, const char *name); // a null node when the file defines none
const Src *def_src(Lower *L, TSNode def);    // the text a function's definition is in
const char *node_text(Lower *L, TSNode n);
Loc node_loc(Lower *L, TSNode n);
uint32_t use_byte(Lower *L, TSNode n);
void nest_enter(Lower *L, TSNode n); // one level of MAX_NESTING (refused past it) ...
void nest_leave(Lower *L);           // ... left
void check_not_macro(Lower *L, TSNode name);

// ---- lower_type.c ----
Type *lower_type(Lower *L, TSNode type_node);
// The dimensions of a parameter's declarator (language.md §2: double x[], double A[N][M],
// double A[][M], double A[n][m], double (*A)[M]), in C's order: size[k] the extent of
// dimension k (a null node: unknown, as a pointer or [] gives), the identifier, and the
// declarator as C text with the name as %s ("%s[N][M]", "(*%s)[M]").  A pointer after the
// first dimension (double **p, double *a[4]) is refused; so is a missing extent there.
typedef struct {
  int n; // 0: a scalar
  TSNode size[MAX_DIMS + 1];
  TSNode ident;
  const char *fmt;
  bool array; // the first dimension is an array declarator (double x[N]), not a pointer
} DeclDims;
void declarator_dims(Lower *L, TSNode d, DeclDims *out);
Val convert(Lower *L, Val v, Type *to);
Type *common_type(Type *x, Type *y);
void collect_types(Arena *a, const Src *src, TSNode root, TypeTable *tt);
Type *find_type(const Lower *L, const char *name);

// ---- lower_access.c ----
Val read_element(Lower *L, Val arr, Val idx, Loc loc);
void par_note_access(Lower *L, Val arr, Val idx, bool write, Loc loc);
// a read of arr[idx] as the iteration found it, taken before the writes noted so far
void par_note_initial(Lower *L, Val arr, Val idx, Loc loc);
// Looks arr[idx] up in the entries e[0 .. n) and then base[0 .. nbase), newest first: the
// entry of the element (FWD_FOUND), or an entry at another index expression that may be the
// same element (FWD_BLOCKED), or none (FWD_NONE).
typedef enum { FWD_NONE, FWD_FOUND, FWD_BLOCKED } FwdLook;
FwdLook fwd_look(Lower *L, const FwdEntry *e, int n, const FwdEntry *base, int nbase, Val arr,
                 Val idx, FwdEntry *found);
bool fwd_lost(const ParCtx *p, Val arr);
void fwd_lose(Lower *L, ParCtx *p, Val arr);
void fwd_push(Lower *L, FwdEntry e);

// ---- lower_ptr.c ----
// A pointer value: an array and an offset into it, or a reference to a local variable.
typedef struct {
  Val arr;    // the array (0: a reference)
  Type *type; // the pointer's type: its element type and const-ness
  Val off;    // the offset (0: none)
  int ref;    // a reference to L->vars[ref] (-1: none)
  int ndim;   // a pointer to arrays (a row of double q[3][4] is q[i]): their extents
  Val dims[MAX_DIMS];
  int nbase;  // > 1: a pointer into one of bases[], the one sel (an int value) says, at
  Val bases[MAX_BASES]; // offs[k] into bases[k] (off is unused)
  Val sel, offs[MAX_BASES];
  Val row;    // an array of arrays indexed from its start: the first subscript (A[i]...)
} View;
bool ptr_view(Lower *L, TSNode e, View *out); // false: e is not a pointer expression
bool global_array_view(Lower *L, TSNode e, View *out); // false: e names no file-scope array

// ---- omp.c ----
typedef enum {
  OMP_NOT, OMP_OTHER, OMP_LOOP, OMP_SCAN, OMP_ATOMIC,
  OMP_REGION, // omp parallel: the statement after it, run once (its one-thread execution)
  OMP_ONCE,   // single, master, masked, critical: the statement after it, run once
  OMP_SKIP    // barrier, flush, taskwait: implied by the order of the statements
} OmpRead;
// An OpenMP directive (text: after "#pragma") in a marked function: OMP_LOOP fills *pr with
// the annotation of the loop after it; OMP_SCAN: `omp scan inclusive(v)` in a loop with
// reduction(inscan, ...); OMP_OTHER: another OpenMP directive; OMP_NOT: not OpenMP.
// Constructs with no reading are errors.
OmpRead omp_read(Lower *L, Loc loc, const char *text, Pragma *pr);
// pr (read from OpenMP) with a hist clause for each array and a reduce clause for each scalar
// the loop's body updates under `#pragma omp atomic` (out holds it; pr itself if none).
const Pragma *omp_atomics(Lower *L, const Pragma *pr, TSNode body, Pragma *out);
const char *omp_priv_clause(const Pragma *pr, int k); // "private", "firstprivate", ...
void omp_region_private(Lower *L, const Pragma *pr); // a region's private, firstprivate
Val global_scalar(Lower *L, TSNode e, const char *name); // its value at entry (0: not one)
bool global_read(Lower *L, TSNode e, const char *name, Val *out); // a file-scope scalar's
void bind_global_writes(Lower *L, TSNode body);
Node *global_stores(Lower *L); // the return with the stores of bind_global_writes' variables
void refuse_global_array(Lower *L, Val arr, Loc loc); // an error if arr is one
View view_expr(Lower *L, TSNode e, const char *what); // an error when e is not one
View var_view(Lower *L, Var *v, Loc loc);
Val view_index(Lower *L, const View *v, Val idx); // the array index of element idx
Val view_read(Lower *L, const View *v, Val idx, Loc loc);
void view_write(Lower *L, const View *v, Val idx, Val x, Loc loc);
bool struct_view(const View *v); // a view of an array of structs
View field_view(Lower *L, const View *v, int k); // the array of field k of the structs

int ptr_var_push(Lower *L, const char *name, Type *t, const View *v, bool assigned, Loc loc);
// ... that may also point into the arrays cands[0 .. ncands) (a pointer assigned views of
// several arrays: its reads and writes go to the one it points into now)
int ptr_var_push_bases(Lower *L, const char *name, Type *t, const View *v, bool assigned,
                       const Val *cands, int ncands, Loc loc);
// The arrays the assignments to pointer name in scope give it (their right-hand sides).
int ptr_candidates(Lower *L, TSNode scope, const char *name, Val *out);
void ptr_assign(Lower *L, Var *p, const View *v, Loc loc);
bool assigned_in(Lower *L, TSNode n, const char *name);
bool lower_alloc(Lower *L, TSNode e, Type *t, View *out);
void lower_free(Lower *L, TSNode call);
bool lower_mem_call(Lower *L, TSNode call);
// dst[0:n] = src[0:n], a map (memcpy's; the MPI buffers' copies)
void lower_copy(Lower *L, const View *dst, const View *src, Val n, Loc loc, const char *what);
// the value of a name the emitter writes as it is, read where the function starts (a
// file-scope variable's, MPI_COMM_WORLD)
Val lower_global_value(Lower *L, const char *name, Type *t, Loc loc);
// ---- lower_mpi.c ----
bool is_mpi_name(const char *name);
bool lower_mpi_call(Lower *L, TSNode call); // false: not an MPI call
Val mpi_comm_constant(Lower *L, TSNode e);  // MPI_COMM_WORLD, MPI_COMM_SELF (0: not one)
void lower_array_decl(Lower *L, TSNode decl, TSNode name, TSNode value, Type *t);
void free_allocs(Lower *L, int from);

// ---- lower_call.c ----
Val lower_user_call(Lower *L, TSNode call, TSNode def);
Val lower_call_vals(Lower *L, TSNode def, const Val *args, int nargs, Loc loc);
void lower_call_fields(Lower *L, TSNode def, Val *const *args, Loc loc, Val *out);
void lower_struct_call(Lower *L, TSNode call, Type *t, Val *out);
Type *call_result_type(Lower *L, TSNode call);
Val lower_ext_call(Lower *L, TSNode call, const ExtFn *x); // a function with declared derivatives

// ---- lower_struct.c ----
void lower_struct_expr(Lower *L, TSNode e, Type *t, Val *out);
Val lower_field(Lower *L, TSNode e);
Var *field_target(Lower *L, TSNode lhs);
bool field_elem(Lower *L, TSNode e, View *fv, Val *idx); // p[k].f, p->f of an array of structs
void assign_struct(Lower *L, Var *v, TSNode rhs);

// ---- lower_text.c ----
Val lower_expr_text(Lower *L, const char *text, Loc at, bool expanded);
void lower_struct_text(Lower *L, const char *text, Loc at, Type *t, Val *out);

// ---- lower_expr.c ----
Val lower_expr(Lower *L, TSNode e);
Val lower_cond(Lower *L, TSNode e); // an int 0/1 value

// ---- lower_update.c ----
RedOp clause_op(Lower *L, const char *op, Loc loc, const UserOp **user);
void red_neutral(Lower *L, RedOp op, const UserOp *u, Type *t, Val *out);
Val red_combine(Lower *L, RedOp op, const UserOp *u, Val a, Val b);
void red_combine_fields(Lower *L, const UserOp *u, const Val *a, const Val *b, Val *out);
Lambda *make_lambda(Lower *L, const UserOp *u);
Lambda *make_inverse_lambda(Lower *L, const UserOp *u);
TSNode sub_operand(Lower *L, const char *target, TSNode asg, const char *aop); // s -= e
TSNode update_operand(Lower *L, const char *target, RedOp op, const UserOp *u, TSNode asg,
                      const char *aop);
TSNode if_update(Lower *L, TSNode s, const char *target, RedOp op, TSNode *e);

// ---- lower_priv.c ----
// An array the function allocates, written by a parallel loop's iterations at elements that
// are not their own: scratch that each iteration may have a copy of, if it writes every
// element it reads (an OpenMP private array).  Decided when the whole function is lowered.
typedef struct Pending {
  Node *par;
  Val arr;
  Loc w, r;          // the two accesses that showed the dependence (r: 0 line: none)
  bool meet;         // shown to touch one element in two iterations
} Pending;
void pending_private(Lower *L, Node *par, Val arr, Loc w, Loc r, bool meet);
void privatize(Lower *L); // every pending one: privatized, or the dependence reported

// ---- lower_loop.c ----
// A for, while or do statement; pragma: its adsoac pragma, or NULL.
void lower_for(Lower *L, TSNode for_stmt, const Pragma *pragma);
// Does s contain a break (brk) or continue (!brk) of the loop around it, outside the loops
// nested in s?

// ---- lower.c ----
void lower_block(Lower *L, TSNode compound);
void lower_stmt(Lower *L, TSNode stmt);
// stmt (with rest, it and the statements after it in its block) lowered under
// `if (!(brk | cont))` of the innermost loop (only its break flag: brk_only)
void lower_guarded(Lower *L, TSNode stmt, bool rest, bool brk_only);
