# Man pages (filled in by the man-pages work).
