"""The pattern index (docs/patterns.md): the change list of each record's main line (lines.py), and the pattern
search over them (search.py)."""
