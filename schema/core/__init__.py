"""The archive's core, below every other part of schema/: its tables, the engine and the rules of talking to the
database, the names it stores and compares, the search filters and their SQL, records made rows and rows read back.
It imports nothing from the rest of schema/."""
