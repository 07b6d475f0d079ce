"""The compiled pattern scan, Go's compiled plain plays, Cation's compiled plain placements and the parser's
compiled runs of plain moves, the one thing pyproject.toml cannot declare with `optional`: without a C compiler the
install goes on and the plain-Python scan, engines and parser serve
(src/boardrecords/verifier/keys/scan.py, src/boardrecords/verifier/rules/go_ing.py,
src/boardrecords/verifier/rules/cation.py, src/boardrecords/records/grammar.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("boardrecords.verifier.keys._scan", ["src/boardrecords/verifier/keys/_scan.c"],
                             optional=True),
                   Extension("boardrecords.verifier.rules._go", ["src/boardrecords/verifier/rules/_go.c"],
                             optional=True),
                   Extension("boardrecords.verifier.rules._cation", ["src/boardrecords/verifier/rules/_cation.c"],
                             optional=True),
                   Extension("boardrecords.records._runs", ["src/boardrecords/records/_runs.c"], optional=True)])
