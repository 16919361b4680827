# (filled in by the explain module's work)
