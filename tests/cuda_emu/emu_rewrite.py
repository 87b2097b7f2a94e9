#!/usr/bin/env python3
"""emu_rewrite.py < IN > OUT: CUDA source made C++ for the emulation (cuda_emu.h): each kernel
launch `k<T><<<g, b>>>(args);` (on one line, as the runtime and adsoac's output write them)
becomes adsoac_emu_launch(g, b, [&] { k<T>(args); }).  (<cuda_runtime.h> is found in
tests/cuda_emu/include: cuda_emu.h.)  CUB does not run on the emulation: the embedded
rt_cuda_scan.cuh (CUB's device scan) is replaced by rt_cuda_scan_det.cuh, a scan of the same
contract, and rt_cuda_sort.cuh (CUB's radix sort) by sort_emu.h, a stable sort on the host."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.join(HERE, "..", "..", "runtime", "src")

LAUNCH = re.compile(r"(\b\w+(?:<[^<>()]*>)?)\s*<<<(.*?)>>>\s*\((.*)\);")


def replace_part(s, name, path):
    """The embedded runtime file `name` (from its first line to the next part) replaced by the
    file at path."""
    start = s.find("// runtime/src/%s:" % name)
    if start < 0:
        return s
    end = min(i for i in (s.find("// runtime/src/", start + 1), s.find("// ---- end of adsoac runtime", start))
              if i >= 0)
    with open(path) as fh:
        return s[:start] + fh.read() + s[end:]


def rewrite(s):
    s = replace_part(s, "rt_cuda_scan.cuh", os.path.join(RUNTIME, "rt_cuda_scan_det.cuh"))
    s = replace_part(s, "rt_cuda_sort.cuh", os.path.join(HERE, "sort_emu.h"))
    return LAUNCH.sub(r"adsoac_emu_launch(\2, [&] { \1(\3); });", s)


if __name__ == "__main__":
    out = rewrite(sys.stdin.read())
    if "<<<" in out:
        sys.exit("emu_rewrite.py: a launch left that is not on one line")
    sys.stdout.write(out)
