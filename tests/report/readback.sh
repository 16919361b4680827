#!/bin/sh
# The partitioned Relay output reads back into a graph with the same calls.
exec "$top_builddir/tests/report/report_dump" readback
