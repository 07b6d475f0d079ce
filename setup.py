"""The compiled pattern scan and the import's watchers of a compiled run, the compiled plain moves of the rules
engines (all five games) and the parser's compiled runs of plain moves and walks of a tree, the one thing
pyproject.toml cannot declare with `optional`: without a C compiler the install goes on and the plain-Python scan,
watchers, engines and parser serve (src/boardrecords/verifier/keys/scan.py, follow.py;
src/boardrecords/verifier/rules/go_ing.py, conversion_go.py, cation.py, quentin.py, squer.py;
src/boardrecords/records/grammar.py, model.py)."""

from setuptools import Extension, setup


def _rules(name: str) -> Extension:
    # Each engine's run reads a line's nodes with the same helpers (_plain_moves.h).
    return Extension(f"boardrecords.verifier.rules._{name}", [f"src/boardrecords/verifier/rules/_{name}.c"],
                     depends=["src/boardrecords/verifier/rules/_plain_moves.h"], optional=True)


def _keys(name: str) -> Extension:
    return Extension(f"boardrecords.verifier.keys._{name}", [f"src/boardrecords/verifier/keys/_{name}.c"],
                     optional=True)


setup(ext_modules=[_keys("scan"), _keys("follow"),
                   *(_rules(name) for name in ("go", "conversion_go", "cation", "quentin", "squer")),
                   Extension("boardrecords.records._runs", ["src/boardrecords/records/_runs.c"], optional=True)])
