/* Filling a byoc_error, for the runtime's user errors.
 *
 * Every public call that can fail takes a byoc_error * that may be NULL, so
 * the helpers here accept NULL and do nothing with it.  Messages follow the
 * compiler's style: lowercase, no final period, names in single quotes, and
 * a "did you mean" hint when a misspelt name is close to a known one.
 * Internal (bx_ prefix). */
#ifndef BX_ERRFMT_H
#define BX_ERRFMT_H

#include <stddef.h>

#include <byoc/error.h>

/* Fill e (when not NULL) with a printf-formatted message; file may be NULL
 * when the error is not about an input file.  Long texts are truncated. */
void bx_error_set(byoc_error *e, const char *file, int line, int col,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Optimal string alignment distance: insertions, deletions, substitutions
 * and swaps of neighbours each count one ("cdua" is one edit from "cuda"). */
int bx_edit_distance(const char *a, const char *b);
/* The same when it is at most max, else max + 1, in time that stops as
 * soon as no alignment can stay within max: what "did you mean" needs
 * when it offers thousands of names. */
int bx_edit_distance_within(const char *a, const char *b, int max);

/* "Did you mean": offer candidate names one by one, then read best.  A
 * candidate is kept when it is within two edits of word (and closer than
 * the word is long), the first of the closest winning, so the hint is
 * deterministic for a given order of offers. */
typedef struct bx_suggest {
    const char *word;
    const char *best;   /* NULL: nothing close */
    int dist;
} bx_suggest;

void bx_suggest_init(bx_suggest *s, const char *word);
void bx_suggest_offer(bx_suggest *s, const char *candidate);
/* " (did you mean 'x'?)" into buf, or "" when nothing was close; returns buf. */
const char *bx_suggest_hint(const bx_suggest *s, char *buf, size_t size);

#endif
