/* Decimal numbers as people write them in files and on command lines,
 * read the same whatever the program's locale.  Internal (bx_ prefix). */
#ifndef BX_NUMBER_H
#define BX_NUMBER_H

/* A non-negative decimal ("12", "0.5", ".25", "1.5e-6", "-0") or inf
 * (case does not matter).  Returns 0, or -1 with *why ("not a number",
 * "out of range", "negative"). */
int bx_parse_nonneg(const char *s, double *out, const char **why);

#endif
