# Plugins: targets loaded from shared libraries (filled in by that work).
