/* The library's version, as configure recorded it in byoc/version.h.
 *
 * A function rather than only the macro so that a program can tell which
 * libbyoc it was linked against at run time, not only built against. */
#include <byoc/byoc.h>

const char *byoc_version(void)
{
    return BYOC_VERSION_STRING;
}
