#!/usr/bin/env python3
"""Host-pointer shims around adsoac's CUDA output, so that the end-to-end harness's checks
(tests/e2e/run_e2e.py) run on a GPU (architecture.md section 5.3).

The CUDA output is compiled with every generated function renamed NAME -> NAME_dev; the shim
defines NAME with the C target's signature over host pointers: it copies every array argument
(its length in bytes from the driver, whose e2e_driver.h registers every buffer) to the device,
calls NAME_dev, copies back every array the call may write, and frees.  A CUDA failure is
reported through adsoac_last_error() and aborts the driver.

    cuda_shim.py PROGRAM.c OUT.cu GRAD.cu [--async]
        writes the shim; prints the -D renames for nvcc, or INLINE: static kernels, the shim
        includes GRAD.cu

--async: the shim calls NAME_async instead (the output's variants for applications), on a
stream of its own and with a workspace that it grows to what the calls need (AdsoacWorkspace
need), then waits for the stream and copies the result back.  On the CUDA emulation
(tests/cuda_emu, which counts what the calls do) each call must issue nothing to the legacy
default stream; a call whose workspace already had what the calls before needed must allocate
nothing, unless it needed more; and a function whose output says "The host waits for
nothing." must not synchronize.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import run_e2e as E  # noqa: E402


def ptr_params(f, which):
    """(name, C element type, const?) of every pointer argument of f/f_vjp/f_jvp, with the
    name of the array whose length it has."""
    out = []
    for p in f.params:
        dtype = p.base if p.kind == E.STRUCT else p.ftype  # (a struct's derivative: a struct)
        if p.ptr:
            out.append((p.name, p.base, p.const, p.name))
        if p.active and which == "vjp":
            out.append((p.name + "_bar", dtype, False, p.name if p.ptr else None))
        if p.active and which == "jvp" and p.ptr:
            out.append((p.name + "_dot", dtype, not p.written, p.name))
    if f.ret_kind == 1 and which == "jvp":
        out.append(("ret_dot", f.rtype, False, None))
    return out


def nosync(grad, name):
    """Whether the output's comment on NAME_async says that it waits for nothing."""
    m = re.search(r"^// %s_async: .*?\n(// .*\n)*?extern|^// %s_async: .*?\n(// .*\n)*?static" %
                  (re.escape(name), re.escape(name)), grad, re.M)
    return bool(m) and "// The host waits for nothing." in m.group(0)


def shim(f, which, asy=False, grad=""):
    for p in f.params:  # an array of arrays as a plain pointer (C linkage: the same symbol;
        if p.decl:      # its declarator may name the program's macros)
            p.decl = ("const " if p.const else "") + p.base + " *%s"
    proto = E.prototypes(f, which)[:-1]
    name = f.name + ("" if which == "f" else "_" + which)
    dev = re.sub(r"\b%s\(" % re.escape(name), name + "_dev(", proto, count=1)
    code = ["", 'extern "C" ' + proto + " {"]
    if not f.static:  # (a static one: the shim is compiled with the output, which defines it)
        code.insert(1, 'extern "C" ' + dev + ";")
    if asy and not f.static:  # (its _async variant, as the output declares it)
        ret = (", %s *adsoac_ret" % f.rtype) if f.ret_kind else ""
        params = proto[proto.index("(") + 1:proto.rindex(")")]
        params = "" if params.strip() == "void" else params + ", "
        code.insert(1, 'extern "C" int %s_async(%s%sAdsoacWorkspace *adsoac_ws, cudaStream_t adsoac_stream);' %
                    (name, params, ret.lstrip(", ") + ", " if ret else ""))
    calls = []
    for pname, ctype, const, arr in ptr_params(f, which):
        # (the bytes of the driver's buffer: e2e_driver.h registers each one)
        code.append("  long L_%s = e2e_bytes(%s);" % (pname, pname))
        code.append("  if (L_%s < 0) L_%s = (long)sizeof(%s);" % (pname, pname, ctype))
        code.append("  %s *D_%s = (%s *)shim_in(%s, L_%s);" % (ctype, pname, ctype, pname, pname))
        if not const:
            calls.append("  shim_out(%s, D_%s, L_%s);" % (pname, pname, pname))
    args = []
    for p in f.params:
        # (an array of arrays: whatever pointer type the output's definition takes)
        wrap = (lambda a: "shim_any{(void *)%s}" % a) if p.decl else (lambda a: a)
        args.append(wrap("D_" + p.name) if p.ptr else p.name)
        if p.active and which == "vjp":
            args.append(wrap("D_%s_bar" % p.name))
        if p.active and which == "jvp":
            args.append(wrap("D_%s_dot" % p.name) if p.ptr else p.name + "_dot")
    if f.ret_kind == 1 and which == "vjp":
        args.append("ret_bar")
    if f.ret_kind == 1 and which == "jvp":
        args.append("D_ret_dot")
    if asy:  # NAME_async: the result to the device, a workspace, the shim's stream
        if f.ret_kind:
            code.append("  %s *D_shim_r = (%s *)shim_in(NULL, (long)sizeof(%s));" % (f.rtype, f.rtype, f.rtype))
            args.append("D_shim_r")
        args += ["&shim_ws", "shim_stream()"]
        code.append("  SHIM_BEFORE();")
        code.append('  int shim_bad = %s_async(%s);' % (name, ", ".join(args)))
        code.append('  SHIM_AFTER("%s", %d);' % (name, 1 if nosync(grad, name) else 0))
        code.append('  if (shim_bad) shim_check("%s_async");' % name)
        code.append("  shim_wait();")
        if f.ret_kind:
            code.append("  %s shim_r;" % f.rtype)
            code.append("  shim_out(&shim_r, D_shim_r, (long)sizeof shim_r);")
            code.append("  cudaFree(D_shim_r);")
    else:
        call = "%s_dev(%s)" % (name, ", ".join(args))
        code.append(("  %s shim_r = %s;" % (f.rtype, call)) if f.ret_kind else "  %s;" % call)
    code.append('  shim_check("%s");' % name)
    code += calls
    code += ["  cudaFree(D_%s);" % pn for pn, _, _, _ in ptr_params(f, which)]
    code.append("  return shim_r;" if f.ret_kind else "  return;")
    return code + ["}"]


HEADER = r'''// Generated by tests/gpu/cuda_shim.py: host-pointer wrappers around adsoac's CUDA output.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
extern "C" const char *adsoac_last_error(void);
extern "C" long e2e_bytes(const void *p);

struct shim_any {  // converts to any pointer type
  void *p;
  template <class T> operator T *() const { return (T *)p; }
};

static void shim_fail(const char *what, cudaError_t e) {
  fprintf(stderr, "FAIL cuda: %s: %s\n", what, cudaGetErrorString(e));
  exit(2);
}

static void *shim_in(const void *host, long bytes) {
  void *d = NULL;
  cudaError_t e = cudaMalloc(&d, bytes > 0 ? (size_t)bytes : 1);
  if (e != cudaSuccess) shim_fail("cudaMalloc", e);
  if (host && bytes > 0 && (e = cudaMemcpy(d, host, (size_t)bytes, cudaMemcpyHostToDevice)))
    shim_fail("cudaMemcpy to the device", e);
  return d;
}

static void shim_out(void *host, const void *d, long bytes) {
  cudaError_t e;
  if (host && bytes > 0 && (e = cudaMemcpy(host, d, (size_t)bytes, cudaMemcpyDeviceToHost)))
    shim_fail("cudaMemcpy to the host", e);
}

// (--async) the shim's stream and workspace; what the emulation counted around a call
static cudaStream_t shim_stream(void) {
  static cudaStream_t s;
  if (!s && cudaStreamCreate(&s) != cudaSuccess) shim_fail("cudaStreamCreate", cudaGetLastError());
  return s;
}

static void shim_wait(void) {
  cudaError_t e = cudaStreamSynchronize(shim_stream());
  if (e != cudaSuccess) shim_fail("cudaStreamSynchronize", e);
}

#ifndef ADSOAC_WORKSPACE_DEFINED
#define ADSOAC_WORKSPACE_DEFINED
typedef struct AdsoacWorkspace {
  void *base;
  size_t bytes;
  size_t need;
} AdsoacWorkspace;
#endif
static AdsoacWorkspace shim_ws;
static size_t shim_had; // the need that the workspace was grown to before this call

static AdsoacWorkspace *shim_workspace(void) { // grown to what the calls so far needed at once
  if (shim_ws.need > shim_ws.bytes) {
    cudaFree(shim_ws.base);
    cudaError_t e = cudaMalloc(&shim_ws.base, shim_ws.need);
    if (e != cudaSuccess) shim_fail("cudaMalloc of the workspace", e);
    shim_ws.bytes = shim_ws.need;
  }
  shim_had = shim_ws.need;
  return &shim_ws;
}

#ifdef ADSOAC_CUDA_EMU
static AdsoacEmuStats shim_stats;
#define SHIM_BEFORE() (shim_workspace(), shim_stats = adsoac_emu_stats)
#define SHIM_AFTER(name, nosync) shim_counted(name, nosync)
static void shim_counted(const char *name, int nosync) {
  long syncs = adsoac_emu_stats.syncs - shim_stats.syncs, allocs = adsoac_emu_stats.allocs - shim_stats.allocs;
  long dflt = adsoac_emu_stats.default_stream - shim_stats.default_stream;
  if (dflt) fprintf(stderr, "FAIL cuda: %s_async: %ld launches or copies on the default stream\n", name, dflt), exit(2);
  if (allocs && shim_ws.need <= shim_had)
    fprintf(stderr, "FAIL cuda: %s_async: %ld allocations with a workspace of what it needs (%zu bytes)\n", name,
            allocs, shim_had), exit(2);
  if (nosync && syncs)
    fprintf(stderr, "FAIL cuda: %s_async: the host waited %ld times; its output says it waits for nothing\n", name,
            syncs), exit(2);
}
#else
#define SHIM_BEFORE() ((void)shim_workspace())
#define SHIM_AFTER(name, nosync) ((void)0)
#endif

static void shim_check(const char *fn) {
  const char *err = adsoac_last_error();
  if (err) {
    fprintf(stderr, "FAIL cuda: %s reported: %s\n", fn, err);
    exit(2);
  }
}
'''


def main():
    asy = "--async" in sys.argv
    sys.argv = [a for a in sys.argv if a != "--async"]
    src, out = sys.argv[1], sys.argv[2]
    with open(sys.argv[3]) as fh:
        grad = fh.read()
    funcs = E.parse_program(src)
    code = [HEADER]
    names = [f.name + s for f in funcs for s in ("", "_vjp", "_jvp")]
    inline = any(f.static for f in funcs)
    if inline:  # static kernels: reached only from their own file, which the shim includes
        code = (["#define %s %s_dev" % (n, n) for n in names] + ['#include "%s"' % sys.argv[3]] +
                ["#undef %s" % n for n in names] + code)
    done = set()
    for f in funcs:  # the program's struct types, as it names them
        for p in f.params:
            if inline:  # (defined by the output)
                break
            if p.kind != E.STRUCT or p.base in done:
                continue
            done.add(p.base)
            fields = " ".join("%s %s;" % (c, n) for n, c, _ in p.fields)
            code.append(("%s { %s };" % (p.base, fields)) if p.base.startswith("struct ") else
                        "typedef struct { %s } %s;" % (fields, p.base))
    for f in funcs:
        for which in ("f", "vjp", "jvp"):
            code += shim(f, which, asy, grad)
    with open(out, "w") as fh:
        fh.write("\n".join(code) + "\n")
    print("INLINE" if inline else " ".join("-D%s=%s_dev" % (n, n) for n in names))


if __name__ == "__main__":
    main()
