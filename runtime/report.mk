# (filled in by the report module's work)
