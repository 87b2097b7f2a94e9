#!/usr/bin/env python3
# tests/fuzz/deep_seeds.py OUTDIR: seeds at the nesting limits (parser/parser.h), generated
# rather than kept (the deepest are 50-100 KB): run.sh adds them to the seed corpus so that
# mutations cross the limits both ways.  MAX_TREE_DEPTH is 50,000 levels of the syntax tree,
# MAX_NESTING 256 levels of if/for/blocks/conditional operands.
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

fn = "#pragma adsoac grad\ndouble f(double a) {\n  double s = %s;\n  return s;\n}\n"
body = "#pragma adsoac grad\ndouble f(double a) {\n  double s = 0.0;\n%s  return s;\n}\n"
loop = ("#pragma adsoac grad\ndouble f(int m, const double *x) {\n  double s = 0.0;\n"
        "#pragma adsoac reduce(+: s)\n  for (int t = 0; t < m; t++) {\n    double a = x[t];\n"
        "%s  }\n  return s;\n}\n")

seeds = {
    # just under MAX_TREE_DEPTH (a sum of 49,996 terms is the largest accepted)
    "deep_sum": fn % "+".join(["a"] * 49990),
    "deep_not": fn % ("!" * 49990 + "(a > 0)"),
    "deep_paren": fn % ("(" * 49990 + "a" + ")" * 49990),
    "deep_neg": fn % ("-+" * 24995 + "a"),  # (no "--": a decrement)
    "deep_macro": "#define DEEP " + "(" * 49980 + "a" + ")" * 49980 + "\n" + fn % "DEEP",
    "deep_unmarked": ("static double g(double a) {\n" + "{" * 49990 + "a = a * 2;" + "}" * 49990 +
                      "\n  return a;\n}\n" + fn % "a"),
    # a long sum in a loop body (the shape)
    "long_loopsum": loop % ("    s += " + " + ".join(["a * x[t]"] * 1000) + ";\n"),
    # just under MAX_NESTING
    "nest_blocks": body % ("  " + "{" * 255 + "s = s + a;" + "}" * 255 + "\n"),
    "nest_ifs": body % ("".join("  if (a > %d)\n" % k for k in range(255)) + "    s = s + a;\n"),
    "nest_ternary": fn % ("".join("a > %d ? a : " % k for k in range(255)) + "a"),
    "nest_returns": body % "".join("  if (s > %d) return s;\n  s = s + a;\n" % k for k in range(255)),
    "nest_loops": ("#pragma adsoac grad\ndouble f(int m, const double *x) {\n  double s = 1.0;\n" +
                   "".join("  for (int i%d = 0; i%d < m; i%d++)\n" % (k, k, k) for k in range(60)) +
                   "    s = s * x[0] + 1.0;\n  return s;\n}\n"),
    "nest_maploops": ("#pragma adsoac grad\nvoid f(int m, const double *x, double *y) {\n"
                      "#pragma adsoac map\n  for (int i = 0; i < m; i++) {\n    double s = x[i];\n" +
                      "".join("    for (int j%d = 0; j%d < 2; j%d++)\n" % (k, k, k) for k in range(30)) +
                      "      s = s * x[i] + 1.0;\n    y[i] = s;\n  }\n}\n"),
    # long definition chains (walks of definitions)
    "chain_values": loop % ("    double b = a;\n" + "    b = b * a + 1.0;\n" * 2000 + "    s += b;\n"),
    "chain_index": ("#pragma adsoac grad\nvoid f(int m, const double *x, double *y) {\n"
                    "#pragma adsoac map\n  for (int i = 0; i < m; i++) {\n    int k = i;\n" +
                    "    k = k * 1;\n" * 2000 + "    y[i] = x[k] * x[i];\n  }\n}\n"),
}
for name, text in seeds.items():
    with open(os.path.join(out, name + ".c"), "w") as f:
        f.write(text)
