"""The compiled pattern scan and Go's compiled plain plays, the one thing pyproject.toml cannot declare with
`optional`: without a C compiler the install goes on and the plain-Python scan and engine serve
(src/boardrecords/verifier/keys/scan.py, src/boardrecords/verifier/rules/go_ing.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("boardrecords.verifier.keys._scan", ["src/boardrecords/verifier/keys/_scan.c"],
                             optional=True),
                   Extension("boardrecords.verifier.rules._go", ["src/boardrecords/verifier/rules/_go.c"],
                             optional=True)])
