"""The record format: parse, model and write SGF-syntax game records (pure, no I/O beyond bytes).

`reader.read_bytes` / `read_file` give Records (`model.py`); `writer.write` gives canonical bytes back and
`writer.new_record` builds a record in code. Underneath: `grammar.py` (syntax), `charset.py` (CA and decoding),
`properties.py` (typed values and moves), `setup.py` (Go setup, ING-8), `source.py` (positions), `games.py` and
`points.py` (the five games, point letters), `files.py` (finding record files).
"""
