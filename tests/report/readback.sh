#!/bin/sh
# The partitioned Relay output reads back into a graph with the same calls.
# Skipped (77) while the Relay reader does not read partitioned modules
# (global functions, fn literals); report_dump decides that with a probe.
exec "$top_builddir/tests/report/report_dump" readback
