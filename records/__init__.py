"""The record format: parse, model and write SGF-syntax game records (pure, no I/O beyond bytes)."""
