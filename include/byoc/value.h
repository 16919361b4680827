/* Values and types shared by the registry, the graph and generated code.
 *
 * A byoc_value is a small tagged union: attribute defaults, option values,
 * constants in patterns and attribute values on graph nodes all use it, so
 * one comparison and one printer serve them all.  Lists point at arrays of
 * further values, which lets byocc emit them as static const data. */
#ifndef BYOC_VALUE_H
#define BYOC_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum byoc_dtype {
#define BYOC_DTYPE(id, name, bits, cls) BYOC_DT_##id,
#include <byoc/dtypes.def>
#undef BYOC_DTYPE
    BYOC_DT_COUNT_
} byoc_dtype;

/* Name of a dtype ("float32"); "" for BYOC_DT_VOID. */
const char *byoc_dtype_name(byoc_dtype dt);
/* Bits per element, 0 for VOID. */
int byoc_dtype_bits(byoc_dtype dt);
/* Class letter: 'v', 'b', 'i', 'u', 'f'. */
char byoc_dtype_class(byoc_dtype dt);
/* Look a dtype up by name; -1 when unknown.  "" gives BYOC_DT_VOID. */
int byoc_dtype_lookup(const char *name);

/* Versions compare as integers: major.minor.patch packed 16 bits each. */
#define BYOC_VERSION(maj, min, pat) \
    (((uint64_t)(maj) << 32) | ((uint64_t)(min) << 16) | (uint64_t)(pat))

typedef enum byoc_vkind {
    BYOC_V_NONE,    /* absent (Relay None) */
    BYOC_V_BOOL,
    BYOC_V_INT,
    BYOC_V_FLOAT,
    BYOC_V_STRING,
    BYOC_V_DTYPE,
    BYOC_V_VERSION,
    BYOC_V_LIST
} byoc_vkind;

typedef struct byoc_value {
    byoc_vkind kind;
    union {
        bool b;
        int64_t i;
        double f;
        const char *s;
        byoc_dtype dt;
        uint64_t ver;
        struct {
            const struct byoc_value *items;
            size_t n;
        } list;
    } u;
} byoc_value;

/* The declared type of an attribute or option.  base is one of the scalar
 * kinds above; depth counts list levels (int[][] has depth 2).  A union
 * type (Relay's split: int | int[]) sets alt. */
typedef struct byoc_type_desc {
    uint8_t base;     /* byoc_vkind, never LIST or NONE */
    uint8_t depth;
    uint8_t optional; /* may be absent */
    uint8_t has_alt;
    uint8_t alt_base;
    uint8_t alt_depth;
} byoc_type_desc;

/* Structural equality; ints and floats compare by value across kinds. */
bool byoc_value_equal(const byoc_value *a, const byoc_value *b);
/* Does v conform to t?  Ints are accepted where floats are expected. */
bool byoc_value_conforms(const byoc_value *v, const byoc_type_desc *t);
/* Print v the way the .byoc language writes it into buf (always
 * terminated); returns the length it needed, like snprintf. */
size_t byoc_value_format(const byoc_value *v, char *buf, size_t size);
/* Print a type ("int[]?") into buf; returns the needed length. */
size_t byoc_type_format(const byoc_type_desc *t, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
