// ir/source.c: reading the input and its headers as source text.
//
// Only regular files of a sane size are read: /dev/zero or a fifo named as a header would
// otherwise be read until memory runs out, or block forever.  The text is normalized once
// here so that no later stage sees anything but '\n' line ends: a UTF-8 byte-order mark is
// dropped, and CR LF (DOS) and lone CR (old Mac) line ends become '\n', as gcc reads them.
#define _XOPEN_SOURCE 700 // fstat, fileno
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir.h"

// Drops the byte-order mark, turns every CR LF and lone CR into LF; returns the new length.
// Columns stay as the user counts them: the mark is not a character of line 1.
static size_t src_normalize(char *s, size_t n) {
  size_t i = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0, k = 0;
  for (; i < n; i++) {
    if (s[i] == '\r') {
      s[k++] = '\n';
      if (i + 1 < n && s[i + 1] == '\n') i++;
    } else {
      s[k++] = s[i];
    }
  }
  s[k] = 0;
  return k;
}

// Reads at most SRC_MAX_BYTES + 1 bytes (a file may grow after fstat).
static char *src_slurp(Arena *a, FILE *f, size_t *len, int *err) {
  size_t cap = 1 << 16, n = 0, got;
  char *data = malloc(cap);
  while (data && n <= SRC_MAX_BYTES && (got = fread(data + n, 1, cap - n, f)) > 0) {
    n += got;
    char *more = n < cap ? data : realloc(data, cap *= 2);
    if (!more) free(data);
    data = more;
  }
  char *text = NULL;
  if (!data || ferror(f))
    *err = data ? errno : ENOMEM;
  else if (n > SRC_MAX_BYTES)
    *err = SRC_TOO_BIG;
  else
    text = arena_strndup(a, data, n);
  free(data);
  *len = text ? src_normalize(text, n) : 0;
  return text;
}

char *src_read(Arena *a, const char *path, size_t *len, int *err) {
  struct stat st;
  *err = 0;
  *len = 0;
  // stat first: opening a fifo to look at it would block until someone writes to it
  if (stat(path, &st)) return *err = errno, NULL;
  if (S_ISDIR(st.st_mode)) return *err = EISDIR, NULL;
  if (!S_ISREG(st.st_mode)) return *err = SRC_NOT_REGULAR, NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return *err = errno, NULL;
  char *text = NULL;
  if (fstat(fileno(f), &st)) // the file opened may not be the one looked at
    *err = errno;
  else if (!S_ISREG(st.st_mode))
    *err = SRC_NOT_REGULAR;
  else if ((unsigned long long)st.st_size > SRC_MAX_BYTES)
    *err = SRC_TOO_BIG;
  else
    text = src_slurp(a, f, len, err);
  fclose(f);
  return text;
}

const char *src_error(int err) {
  if (err == SRC_NOT_REGULAR) return "not a regular file";
  if (err == SRC_TOO_BIG) return "larger than 64 MiB";
  return strerror(err);
}
