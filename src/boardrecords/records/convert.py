"""`records convert`: record files of any format (SGF, or the servers' formats of FMT-13) written as the record
format's canonical SGF text, and the name each written file gets.

A file's records are written together, in the writer's canonical form (records/writer.py), to one file named after
the input with its suffix replaced: `.sgf` when every record of it is a Go game (such files load in any SGF tool),
`.rec` when one is a game of another kind (Conversion Go, Cation, Quentin, Squer), whose move values only this
format knows. A file named directly goes into the output folder itself; a file found below a named folder keeps
its path below that folder (`tygem/2024/a.gib` with `-o out` is `out/2024/a.sgf`), so that files of the same name in
different folders do not meet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath

from .games import Game
from .model import Record

GO_SUFFIX = ".sgf"
OTHER_SUFFIX = ".rec"


def output_suffix(records: Sequence[Record]) -> str:
    """`.sgf` when every record is Go (and none names a game the archive does not know), else `.rec`."""
    go = all(r.game is Game.GO and r.unknown_game is None for r in records)
    return GO_SUFFIX if go else OTHER_SUFFIX


def output_path(source: Path, below: Path | None, records: Sequence[Record], folder: Path) -> Path:
    """Where the records read from `source` are written in `folder`: the file's name with the suffix
    `output_suffix` gives, under its path below the named folder `below` (None: a file named directly)."""
    relative = PurePath(source.name)
    if below is not None:
        try:
            relative = source.relative_to(below)
        except ValueError:
            relative = PurePath(source.name)
    return folder / relative.with_suffix(output_suffix(records))


def converted_bytes(records: Sequence[Record]) -> bytes:
    """The records in the writer's canonical form, one collection."""
    from .writer import write

    return write(list(records))


__all__ = ["GO_SUFFIX", "OTHER_SUFFIX", "converted_bytes", "output_path", "output_suffix"]
