/* libbyoc: the whole public API. */
#ifndef BYOC_BYOC_H
#define BYOC_BYOC_H

#include <byoc/version.h>
#include <byoc/error.h>
#include <byoc/value.h>
#include <byoc/registry.h>
#include <byoc/graph.h>
#include <byoc/pred.h>
#include <byoc/relay.h>
#include <byoc/onnx.h>
#include <byoc/partition.h>
#include <byoc/pass.h>
#include <byoc/lower.h>
#include <byoc/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The library's version string, e.g. "0.1.0". */
const char *byoc_version(void);
#ifdef __cplusplus
}
#endif
#endif
