"""The archive as a whole, above its core, its indexes and the tournaments: opening it and making its tables
(access.py), the one replay of a record that fills every part of it (analysis.py), and what changes records:
`records import` (importer.py), `records reindex` (reindex.py), `records fix` and `records delete` (curate.py).
"""
