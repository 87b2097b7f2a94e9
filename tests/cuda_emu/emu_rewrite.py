#!/usr/bin/env python3
"""emu_rewrite.py < IN > OUT: CUDA source made C++ for the emulation (cuda_emu.h): each kernel
launch `k<T><<<g, b>>>(args);` (on one line, as the runtime and adsoac's output write them)
becomes adsoac_emu_launch(g, b, [&] { k<T>(args); }).  (<cuda_runtime.h> is found in
tests/cuda_emu/include: cuda_emu.h.)"""
import re
import sys

LAUNCH = re.compile(r"(\b\w+(?:<[^<>()]*>)?)\s*<<<(.*?)>>>\s*\((.*)\);")


def rewrite(s):
    return LAUNCH.sub(r"adsoac_emu_launch(\2, [&] { \1(\3); });", s)


if __name__ == "__main__":
    out = rewrite(sys.stdin.read())
    if "<<<" in out:
        sys.exit("emu_rewrite.py: a launch left that is not on one line")
    sys.stdout.write(out)
