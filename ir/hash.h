// ir/hash.h: tables by name, with uthash (Debian's uthash-dev), their memory in an arena.
//
// An entry is a struct with a string key and a UT_hash_handle `hh`, allocated in an arena;
// TABLE_ADD links it in, HASH_FIND_STR finds it.  uthash's own blocks (the table and
// its bucket arrays) come from the same arena instead of malloc: a table goes when its arena
// does, also when an error longjmps out of the pass that built it, so none needs freeing and
// none leaks.  (The grown-out bucket arrays stay in the arena until then.)
#pragma once
#include <string.h>

#include "ir.h"

#define uthash_malloc(sz) arena_alloc(hash_arena_, (sz)) // hash_arena_: see TABLE_ADD
#define uthash_free(ptr, sz) ((void)(ptr), (void)(sz))   // the arena frees
#include <uthash.h>

// Adds entry to the table head (a pointer to the first entry, NULL when empty), keyed by
// its field key, a string that lives as long as the table.
#define TABLE_ADD(arena, head, key, entry)                                                   \
  do {                                                                                       \
    Arena *hash_arena_ = (arena);                                                            \
    HASH_ADD_KEYPTR(hh, head, (entry)->key, strlen((entry)->key), (entry));                 \
  } while (0)
