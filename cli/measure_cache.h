/* The measurement cache of byoc measure: every time a runner gave, keyed
 * by (runner, device, target, signature), in one CSV file that grows by
 * one line per kernel as soon as its time is known (doc/cost-table.md,
 * "Measuring with byoc measure"). */
#ifndef BYOC_CLI_MEASURE_CACHE_H
#define BYOC_CLI_MEASURE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct mcache mcache;

typedef struct mcache_entry {
    const char *runner, *device, *target, *signature;
    double seconds;       /* +inf: it could not run */
    const char *note;     /* why it could not run, or "" */
} mcache_entry;

/* Read the cache at path (creating it and its folders when it does not
 * exist) and keep it open for appending.  NULL with err set
 * ("path:line:col: error: ..." for a bad line). */
mcache *mcache_open(const char *path, char *err, size_t errsize);
void mcache_close(mcache *c);
size_t mcache_size(const mcache *c);
const char *mcache_path(const mcache *c);

/* The last entry for the key, or NULL. */
const mcache_entry *mcache_find(const mcache *c, const char *runner, const char *device,
                                const char *target, const char *signature);

/* Append one line, under an exclusive lock of the file.  Returns 0, or -1
 * with err set. */
int mcache_append(mcache *c, const char *runner, const char *device, const char *target,
                  const char *signature, double seconds, const char *note, char *err,
                  size_t errsize);

/* A CSV field as the cache and cost tables write it: quoted (with "" for
 * a quote) when it holds a comma, a quote, an outer space or a leading
 * '#', or always with force.  A new string, or NULL. */
char *mcache_csv_field(const char *s, bool force);

/* A time as both files write it: %.6g, or inf. */
void mcache_format_seconds(char *buf, size_t size, double seconds);

#endif
