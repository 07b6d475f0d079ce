"""`Archive`: one object over one archive, the front door that the CLI, the web application and Python code use.

    >>> from boardrecords import Archive
    >>> with Archive("records.db") as archive:       # read-only; Archive(url, write=True) to change it
    ...     page = archive.search(game="cation")

It takes its settings as arguments (the environment is read once, by the faces: the CLI's entry and `serve`), and
every question is one method returning a typed answer (archive/answers.py) whose `to_json()` is the object that
the commands' `--json` and the web application's `/api/` routes give. Errors are the family of common/errors.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from pathlib import Path
    from types import TracebackType

    from sqlalchemy import Engine

    from .core.filters import Filters
    from .core.models import AliasRow, GameRow, GameVersionRow
    from .store.importer import FileResult, ImportProgress, ImportSummary
    from .store.reindex import ReindexSummary


class Archive:
    """An archive on SQLite (a file path) or PostgreSQL (a SQLAlchemy URL), opened read-only unless `write`;
    `create` makes a new one (and implies `write`). Use it as a context manager, or call `close()`."""

    def __init__(self, db: str, *, write: bool = False, create: bool = False) -> None:
        from .store.access import open_archive

        self.db = db
        self.writable = write or create
        self.engine: Engine = open_archive(db, create=create, write=self.writable)

    def close(self) -> None:
        """Let go of the archive's connections."""
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- read questions ------------------------------------------------------------------------------------------

    # -- writers -------------------------------------------------------------------------------------------------
    # Each writer asks `_writable` for the engine first: on an archive opened read-only it raises ArchiveError
    # before anything is read or written.

    def _writable(self, what: str) -> Engine:
        if not self.writable:
            from ..common.errors import ArchiveError
            from .core.db import named

            raise ArchiveError(f"cannot {what}: the archive {named(self.db)} was opened read-only (open it with "
                               "Archive(db, write=True))")
        return self.engine

    def import_paths(self, paths: Iterable[str | Path], *, workers: int | None = None, batch_size: int = 500,
                     skip_duplicates: bool = False,
                     progress: Callable[[ImportProgress], None] | None = None) -> ImportSummary:
        """Read, verify and store the records of `paths` (files, and folders searched for record files as
        `records import` searches them); returns what was stored, read and refused, as that command reports it.

        `workers`: processes that parse and verify (None: one per CPU but one, at most 8; 1: none); `batch_size`:
        records per transaction; `skip_duplicates`: keep out likely duplicates (a stored record's Dyer signature
        and players); `progress`: called after each file. A path that cannot be opened is listed in the summary's
        `missing`. Ctrl-C raises ImportInterrupted (a KeyboardInterrupt) whose `summary` counts the records of the
        batches committed before it; the same import run again stores the rest.
        """
        from .store.importer import Importer, ImportInterrupted, ImportProgress, collect_files

        engine = self._writable("import records")
        files, missing = collect_files(paths)

        def on_file(result: FileResult) -> None:
            if progress is not None:
                progress(ImportProgress(result, len(files), importer.summary))

        importer = Importer(engine, batch_size=batch_size, workers=workers, on_file=on_file,
                            skip_likely=skip_duplicates)
        importer.summary.missing.extend(missing)
        try:
            return importer.run(files)
        except KeyboardInterrupt as exc:
            raise ImportInterrupted(importer.summary) from exc

    def fix(self, record_id: int, settings: Mapping[str, str] | Iterable[tuple[str, str]]) -> GameRow:
        """Set root properties of the stored record `record_id` (`{"PB": "Lee Sedol", "RO": "3"}`, or pairs; an
        empty value removes the property) and store it as the record's new version, verified again, its index rows
        with it in the same transaction; the bytes it replaces go to its history. Returns the row as stored now.

        Raises Unchanged when the record already holds these settings (no version is stored), FixError for a
        setting that cannot be made (the moves, setup and frame are not fixed this way), LookupError when there
        is no such record."""
        from .store.curate import checked_settings, fix_record

        engine = self._writable("fix a record")
        return fix_record(engine, record_id, checked_settings(settings))

    def undo_fix(self, record_id: int) -> GameRow:
        """Bring back the version the last fix of `record_id` replaced (the undo is kept in the history too);
        FixError for a record never fixed, Unchanged when it holds those bytes already."""
        from .store.curate import undo_fix

        return undo_fix(self._writable("undo a fix"), record_id)

    def history(self, record_id: int) -> list[GameVersionRow]:
        """The versions of `record_id` that fixes replaced, oldest first (empty for a record never fixed); a read,
        so a read-only archive answers it too."""
        from .store.curate import history

        return history(self.engine, record_id)

    def delete(self, filters: Filters | None = None, *, confirm: Callable[[int], bool] | None = None,
               **criteria: Any) -> list[int]:
        """Delete the records that `filters` and `criteria` (the fields of Filters: `ids=[3, 4]`, `event="Cup"`)
        select, with their problems, history and index rows; returns their ids.

        Nothing selects every record: with no filter at all it raises InputError. NotFound when no record
        matches. `confirm`, when given, is asked with how many records match before anything is deleted; False
        deletes nothing (and returns [])."""
        import dataclasses

        from ..common.errors import InputError, NotFound
        from .core.db import session_scope
        from .core.filters import Filters
        from .core.search import count
        from .store.curate import delete_records

        engine = self._writable("delete records")
        known = {f.name for f in dataclasses.fields(Filters)}
        unknown = sorted(set(criteria) - known)
        if unknown:
            raise InputError(f"no filter named {', '.join(unknown)} (one of: {', '.join(sorted(known))})")
        chosen = dataclasses.replace(filters or Filters(), **criteria)
        if chosen.empty:
            raise InputError("name record ids or give search filters")
        if confirm is not None:
            with session_scope(engine) as session:
                n = count(session, chosen)
            if not n:
                raise NotFound("no records match")
            if not confirm(n):
                return []
        deleted = delete_records(engine, chosen)
        if not deleted and confirm is None:
            raise NotFound("no records match")
        return deleted

    def alias(self, name: str, *others: str) -> list[tuple[str, str]]:
        """Make each of `others` the same player as `name`, in every search, statistic, crosstable and rating;
        returns (spelling key, player key) for each made. AliasError (a ValueError) for an empty name."""
        from .tournaments.players import AliasError, add_alias

        engine = self._writable("make an alias")
        if not others:
            raise AliasError("give a player and at least one other spelling")
        return add_alias(engine, name, others)

    def remove_alias(self, name: str) -> int:
        """Undo `alias` for `name`: its own alias, or (for a player others were made) all that point to it;
        returns how many aliases were removed (0 when it has none)."""
        from .tournaments.players import remove_alias

        return remove_alias(self._writable("remove an alias"), name)

    def aliases(self) -> list[AliasRow]:
        """Every alias, by player then spelling key (a read: a read-only archive answers it too)."""
        from .core.db import session_scope
        from .tournaments.players import aliases

        with session_scope(self.engine) as session:
            return aliases(session)

    def reindex(self, *, batch: int = 500, progress: Callable[[int], None] | None = None) -> ReindexSummary:
        """Rebuild the position index and the pattern change lists from the stored records, and bring stored
        verdicts up to the rules as they stand; `progress` is told how many records are done after each batch of
        `batch`. Stopped (Ctrl-C), the records done so far stay indexed and the others answer as before."""
        from .store.reindex import reindex

        return reindex(self._writable("reindex"), batch=batch, on_batch=progress)
