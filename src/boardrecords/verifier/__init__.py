"""The rules, pure code with no I/O, in three rooms: the engines (rules/), judging a record with them (judging/:
replay, result check, verdict), and the keys that find games again (keys/: positions, symmetries, signatures,
patterns)."""
