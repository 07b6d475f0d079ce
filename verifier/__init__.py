"""Rules engines, replay and verdicts (pure code: no I/O)."""
