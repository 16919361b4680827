/* Decimal numbers, locale-independent (see number.h).  strtod reads the
 * locale's decimal point, so the text is checked by hand and its '.'
 * replaced by the locale's before strtod sees it. */
#define _POSIX_C_SOURCE 200809L   /* strcasecmp */
#include "number.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "die.h"

int bx_parse_nonneg(const char *s, double *out, const char **why)
{
    const char *p = s;
    bool neg = *p == '-';
    if (*p == '+' || *p == '-')
        p++;
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
        *out = INFINITY;
    } else {
        size_t digits = strspn(p, "0123456789");
        const char *q = p + digits;
        if (*q == '.') {
            size_t frac = strspn(q + 1, "0123456789");
            digits += frac;
            q += 1 + frac;
        }
        if (digits && (*q == 'e' || *q == 'E')) {
            const char *e = q + 1 + (q[1] == '+' || q[1] == '-');
            size_t ed = strspn(e, "0123456789");
            q = ed ? e + ed : q;
        }
        if (!digits || *q) {
            *why = "not a number";
            return -1;
        }
        const char *dp = localeconv()->decimal_point;
        size_t n = strlen(s), dpl = strlen(dp);
        char *buf = malloc(n + dpl + 1), *w = buf;
        if (!buf)
            bx_oom();
        for (const char *c = s; *c; c++) {
            if (*c == '.') {
                memcpy(w, dp, dpl);
                w += dpl;
            } else {
                *w++ = *c;
            }
        }
        *w = 0;
        errno = 0;
        *out = strtod(buf, NULL);
        int range = errno == ERANGE;
        free(buf);
        if (range) {
            *why = "out of range";
            return -1;
        }
    }
    if (neg && *out != 0) {
        *why = "negative";
        return -1;
    }
    *out = fabs(*out);   /* "-0" is zero */
    return 0;
}

