# Files for other projects' builds: byoc.m4, byoc.mk (filled in by that work).
