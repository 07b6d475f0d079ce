"""The archive (docs/archive.md): records verified and stored with their verdicts in SQLModel tables on SQLite or
PostgreSQL, then searched, shown, exported, explored by position and by pattern, and read as tournaments.

Its parts, each a sub-package that imports only from the core and, for archive/, from the other parts too:

- core/: the tables (models), the engine and how to talk to the database (db), names as stored and compared
  (names), the search filters (filters) and their SQL (search), records made rows (ingest), rows read back (rows,
  stored, export), statistics (stats);
- positions/: the position index (values, counts, stage, explore);
- patterns/: the pattern index (lines, search);
- tournaments/: events, crosstables, players and aliases, ratings;
- archive/: the archive as a whole: opening it and making its tables (access), the one replay of a record that fills
  every part (analysis), the import, `records reindex`, curation (fix, delete).

Which handle a function takes says who owns the unit of work (every public function here follows it):

- `--db`'s text or an Engine: the function does: it opens, commits and closes its own engine, sessions, connections
  and transactions (every writer; a read that stands alone, such as `rows`, `explore`, `search_pattern`);
- a Session: a read inside the caller's session, which a command may combine with others (`search`, `count`,
  `game_stats`, `player_list`); it never commits;
- a Connection: a piece of the caller's transaction (`stage_positions`, `write_patterns`); it neither begins nor
  commits.
"""
