"""records: verify, archive and replay game records of Go (Simplified Ing Rules), Conversion Go, Cation, Quentin
and Squer.

The names below are the library's public interface (docs/python.md shows them at work):

    >>> import boardrecords
    >>> (record,) = boardrecords.read_file("examples/go/handicap.rec")
    >>> boardrecords.verify(record).passes
    True

Each name is loaded when first used, so `import boardrecords` costs almost nothing, and reading or verifying
records never loads the archive's database layer.
"""

from __future__ import annotations

from importlib import import_module

# `typing.TYPE_CHECKING` without importing typing (a third of what `import boardrecords` would cost): type checkers
# take this name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .archive.core.filters import Filters
    from .archive.front import Archive
    from .common.errors import ArchiveError, InputError, NotFound, RecordsError
    from .records.files import FileFailure
    from .records.games import Colour, Game, MoveKind
    from .records.model import FormatError, Move, Node, Problem, Record, Result, Severity
    from .records.notation import Notation, NotationError
    from .records.reader import read_bytes, read_file
    from .records.writer import new_record, write
    from .verifier.files import RecordVerdict, verify_files
    from .verifier.judging.verdict import Verdict, verify

# Where each public name is defined (a module of this package).
_HOMES = {
    "Archive": ".archive.front",
    "ArchiveError": ".common.errors",
    "Colour": ".records.games",
    "FileFailure": ".records.files",
    "Filters": ".archive.core.filters",
    "FormatError": ".records.model",
    "Game": ".records.games",
    "InputError": ".common.errors",
    "Move": ".records.model",
    "MoveKind": ".records.games",
    "Node": ".records.model",
    "NotFound": ".common.errors",
    "Notation": ".records.notation",
    "NotationError": ".records.notation",
    "Problem": ".records.model",
    "Record": ".records.model",
    "RecordVerdict": ".verifier.files",
    "RecordsError": ".common.errors",
    "Result": ".records.model",
    "Severity": ".records.model",
    "Verdict": ".verifier.judging.verdict",
    "new_record": ".records.writer",
    "read_bytes": ".records.reader",
    "read_file": ".records.reader",
    "verify": ".verifier.judging.verdict",
    "verify_files": ".verifier.files",
    "write": ".records.writer",
}

__all__ = [
    "Archive",
    "ArchiveError",
    "Colour",
    "FileFailure",
    "Filters",
    "FormatError",
    "Game",
    "InputError",
    "Move",
    "MoveKind",
    "Node",
    "NotFound",
    "Notation",
    "NotationError",
    "Problem",
    "Record",
    "RecordVerdict",
    "RecordsError",
    "Result",
    "Severity",
    "Verdict",
    "new_record",
    "read_bytes",
    "read_file",
    "verify",
    "verify_files",
    "write",
]


if not TYPE_CHECKING:  # hidden from type checkers, which would otherwise take any name as one of the package's

    def __getattr__(name: str) -> Any:
        """A public name, imported from its module on first use and kept here for the next."""
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(home, __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(__all__)
