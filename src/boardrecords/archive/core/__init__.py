"""The archive's core, below the indexes, the tournaments and the archive as a whole: its tables, the engine and the
database's rules (read-only, the write lock, retrying), names as stored and compared, the search filters and their
SQL, records made rows and rows read back, statistics. It imports nothing from the rest of archive/.
"""
