"""The compiled pattern scan, the one thing pyproject.toml cannot declare with `optional`: without a C compiler the
install goes on and the plain-Python scan serves (src/boardrecords/verifier/keys/scan.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("boardrecords.verifier.keys._scan", ["src/boardrecords/verifier/keys/_scan.c"],
                             optional=True)])
