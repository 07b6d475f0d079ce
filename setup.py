"""The one mapping from the repository's folders to the installed package `boardrecords`.

The layers stay top-level folders (`records/`, `verifier/`, `schema/`, `cli/` and beside it `web/`, and `common/`
below them all) and install as `boardrecords.records`, `boardrecords.verifier`... Every folder of a layer that
holds an `__init__.py` is a sub-package, found here; nothing keeps a list by hand. `boardrecords` itself is a
namespace package, so no folder named `boardrecords` at the repository's root can shadow the installed one.
tests/system/test_packaging.py checks that the built wheel holds every module of the tree; tools/typecheck.py gives
mypy the same mapping.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent
LAYERS = ("common", "records", "verifier", "schema", "cli", "web")


def package_dirs(root: Path = ROOT) -> dict[str, str]:
    """Each sub-package's installed name and its folder, relative to the repository's root."""
    found: dict[str, str] = {}
    for layer in LAYERS:
        for init in sorted((root / layer).rglob("__init__.py")):
            folder = init.parent.relative_to(root)
            found[".".join(("boardrecords", *folder.parts))] = folder.as_posix()
    return found


if __name__ == "__main__":  # setuptools runs this file as __main__; tools/typecheck.py imports it
    from setuptools import Extension, setup

    packages = package_dirs()
    setup(
        packages=list(packages),
        package_dir=packages,
        # The compiled pattern scan; optional: without a C compiler the install goes on and the plain-Python path
        # serves.
        ext_modules=[Extension("boardrecords.verifier._scan", ["verifier/_scan.c"], optional=True)],
    )
