// ir/ir_ops.h: the only list of IR node kinds.
// OP(kind, printed name)
// Statements live in Blocks; a statement that produces a scalar names it in Node.out.
OP(IR_CONST, "const")     // out = literal                          u.cst
OP(IR_UNOP, "unop")       // out = op a                             u.un
OP(IR_BINOP, "binop")     // out = a op b                           u.bin
OP(IR_CALL, "call")       // out = math builtin (a [, b [, c]])      u.call
OP(IR_EXT, "ext")         // out = a function with declared derivatives (args), or its vjp/jvp   u.ext
OP(IR_CAST, "cast")       // out = (type of out) a                  u.cast
OP(IR_READ, "read")       // out = arr[idx]                         u.mem
OP(IR_WRITE, "write")     // arr[idx] = v                           u.mem
OP(IR_ACC, "acc")         // arr[idx] += v (plain or atomic)        u.mem
OP(IR_UPDATE, "update")   // arr[idx] OP= v: a hist contribution    u.mem (hist: clause)
OP(IR_IF, "if")           // outs = if cond {then} else {els}       u.ifs
OP(IR_LOOP, "loop")       // sequential for with carried scalars    u.loop
OP(IR_PAR, "par")         // parallel loop: map / reduce / scan / hist clauses   u.par
OP(IR_ALLOC, "alloc")     // out = zeroed array of n elements (or not: nozero)  u.alloc
OP(IR_COPY, "copy")       // dst[0:n] = src[off:off+n], or swap    u.copy
OP(IR_SORT, "sort")       // dst[0:n] = the indices 0..n-1 ordered by src[i] in [0, off], stably  u.copy
OP(IR_FREE, "free")       // release an IR_ALLOC array              u.copy.dst
OP(IR_COLL, "coll")     // an MPI collective at host level: out = coll(in) u.coll
OP(IR_RETURN, "return")   // return v (v may be 0)                  u.ret
