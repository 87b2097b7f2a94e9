// tests/deps/include/cfg.h: found only through -I.
#pragma once
#include "inner.h"
#define OFFSET (FACTOR + INNER)
