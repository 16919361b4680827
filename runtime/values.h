/* Internal helpers on byoc_value shared by the registry and the graph.
 *
 * Values handed to libbyoc may point at the caller's memory, so whatever
 * the runtime keeps it copies deeply: the copy is one block, sized first,
 * holding the list items and then the string bytes, which the registry can
 * free in one call and the graph can take from its arena.  Internal (bx_
 * prefix). */
#ifndef BX_VALUES_H
#define BX_VALUES_H

#include <stddef.h>

#include <byoc/value.h>

/* Bytes of the block a deep copy of v needs (0 for scalars). */
size_t bx_value_copy_size(const byoc_value *v);
/* Deep-copy src into *dst, putting what it points at into mem, a block of
 * bx_value_copy_size(src) bytes aligned for any object. */
void bx_value_copy_into(byoc_value *dst, const byoc_value *src, void *mem);

/* Does v conform to t once the conversions the language allows are made:
 * an int where a float is expected, a string naming a dtype where a dtype
 * is expected?  byoc_value_conforms is the strict form. */
bool bx_value_accepts(const byoc_value *v, const byoc_type_desc *t);
/* Make those conversions in v, a deep copy the caller owns, so that it
 * then conforms strictly. */
void bx_value_coerce(byoc_value *v, const byoc_type_desc *t);

/* The type of a value as the language writes it ("int[]", "string",
 * "None", "[]" for an empty list) into buf; returns buf. */
const char *bx_value_type_name(const byoc_value *v, char *buf, size_t size);

#endif
