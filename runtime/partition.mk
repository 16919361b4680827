# (filled in by the partition module's work)
