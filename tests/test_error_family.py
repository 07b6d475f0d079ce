"""The exception family (common/errors.py): every exception class defined in the package is a RecordsError,
or one of the few kept outside it on purpose (listed here with why); every RecordsError is an InputError, a
NotFound or an ArchiveError, so that the faces' tables (cli/common.py, web/app.py) give every one a status."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import boardrecords
from boardrecords.common.errors import ArchiveError, InputError, NotFound, RecordsError

# Exceptions kept outside the family on purpose (each says why where it is defined).
OUTSIDE = {
    # Control flow inside the library: caught where they are raised, never shown to a user.
    "boardrecords.records.charset.NeedsFallback": "the reader reads the record again as ISO-8859-1",
    "boardrecords.verifier.rules.engine.IllegalMove": "a finding of the replay (a problem), not a failure",
    "boardrecords.archive.store.curate.Unchanged": "an answer (nothing to change), not an error",
    "boardrecords.archive.store.importer.ImportInterrupted": "Ctrl-C (a KeyboardInterrupt) with what was committed",
    # The CLI's own: what only its options and output files can get wrong.
    "boardrecords.cli.common.CommandError": "a command's usage, with its exit status",
    "boardrecords.cli.output_files.OutputError": "an output file that is not written",
}


def package_modules() -> list[str]:
    """The names of every module of the package, each imported."""
    names = [boardrecords.__name__]
    names += [m.name for m in pkgutil.walk_packages(boardrecords.__path__, prefix=f"{boardrecords.__name__}.")]
    for name in names:
        importlib.import_module(name)
    return names


def defined_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of the package (not merely imported there), by its full name."""
    found: dict[str, type[BaseException]] = {}
    for name in package_modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{value.__qualname__}"] = value
    return found


def family_classes() -> list[type[RecordsError]]:
    """Every class of the family defined in the package but the base (which is never raised itself)."""
    return sorted((k for k in defined_exceptions().values() if issubclass(k, RecordsError) and k is not RecordsError),
                  key=lambda k: (k.__module__, k.__qualname__))


def instance_of(kind: type[RecordsError]) -> RecordsError:
    """An instance of `kind` with a message (InputRefused takes a path and a reason, StaleVersion the record's
    versions and header)."""
    from boardrecords.archive.store.curate import StaleVersion
    from boardrecords.records.limits import InputRefused

    if issubclass(kind, InputRefused):
        return kind("some.sgf", "a FIFO (named pipe), not a regular file")
    if issubclass(kind, StaleVersion):
        return kind(3, 1, 2, {"PB": "Lee Sedol"})
    return kind("the message of the error")


def test_every_exception_is_of_the_family_or_listed() -> None:
    found = defined_exceptions()
    strays = [name for name, kind in found.items() if not issubclass(kind, RecordsError) and name not in OUTSIDE]
    assert not strays, f"not RecordsErrors, and not listed as kept outside on purpose: {strays}"


def test_the_list_of_outsiders_is_current() -> None:
    found = defined_exceptions()
    for name in OUTSIDE:
        assert name in found, f"{name} is listed but no longer defined"
        assert not issubclass(found[name], RecordsError), f"{name} is in the family now: take it off the list"


def test_every_error_of_the_family_is_of_one_kind() -> None:
    for kind in family_classes():
        kinds = [base for base in (InputError, NotFound, ArchiveError) if issubclass(kind, base)]
        assert len(kinds) == 1, (kind, kinds)


def test_the_errors_the_library_raises_are_of_the_family() -> None:
    """Each by name (a class renamed or moved fails here rather than leave the family unnoticed)."""
    from boardrecords.archive.core import db
    from boardrecords.archive.core.filters import FilterError
    from boardrecords.archive.store.curate import FixError
    from boardrecords.archive.tournaments.players import AliasError
    from boardrecords.common.settings import SettingError
    from boardrecords.records.limits import InputRefused
    from boardrecords.records.model import FormatError
    from boardrecords.records.notation import NotationError
    from boardrecords.verifier.keys.patterns import PatternError
    from boardrecords.verifier.keys.targets import PositionError

    for kind in (FormatError, NotationError, SettingError, InputRefused, FilterError, AliasError, FixError,
                 PatternError, PositionError):
        assert issubclass(kind, InputError), kind
        assert issubclass(kind, ValueError), kind  # what callers that catch ValueError still catch
    assert issubclass(InputRefused, OSError)  # a file that cannot be read is reported as any OSError
    assert db.ArchiveError is ArchiveError  # one class, named where the archive raises it


def test_an_input_refused_keeps_its_os_fields() -> None:
    import errno

    from boardrecords.records.limits import InputRefused

    exc = InputRefused("a.sgf", "a FIFO (named pipe)", errno.EINVAL)
    assert (exc.errno, exc.strerror, exc.filename) == (errno.EINVAL, "a FIFO (named pipe)", "a.sgf")
    assert str(exc) == "a.sgf: a FIFO (named pipe)"


def test_a_path_that_cannot_be_opened_is_refused_with_its_reason(tmp_path) -> None:
    import errno

    from boardrecords.records.limits import InputRefused, read_input

    with pytest.raises(InputRefused) as caught:
        read_input(tmp_path / "missing.sgf")
    exc = caught.value
    assert exc.errno == errno.ENOENT and exc.filename == str(tmp_path / "missing.sgf")
    assert str(exc).endswith("missing.sgf: No such file or directory")
