"""Tournaments, players and ratings, read from the archive's game rows: events, crosstables and their tie-breaks,
the aliases that make several spellings one player, the player list, Whole-History ratings (docs/tournaments.md)."""
