"""The files an import reads (archive/store/collect.py `collect_files`): each file once however it is named (as
given, through its folder, through a link to it or to its folder, with `..` in the path), in the order found, and
one error line for a path that does not exist."""

from __future__ import annotations

from pathlib import Path

from boardrecords.archive.store.collect import WORKER_MODULE, collect_files


def test_each_file_once_however_it_is_named(tmp_path: Path, monkeypatch) -> None:
    games = tmp_path / "games"
    (games / "sub").mkdir(parents=True)
    for name in ("a.sgf", "b.sgf", "sub/c.sgf"):
        (games / name).write_bytes(b"(;)")
    (tmp_path / "link.sgf").symlink_to(games / "a.sgf")
    (tmp_path / "alias").symlink_to(games, target_is_directory=True)
    (games / "sub" / "up.sgf").symlink_to(Path("..") / "b.sgf")
    monkeypatch.chdir(tmp_path)
    named = [games, "games/a.sgf", tmp_path / "link.sgf", "alias/b.sgf", games / "sub" / ".." / "a.sgf",
             Path("alias") / "sub" / "c.sgf", "missing.sgf", games / "sub" / "up.sgf", "./games/sub/c.sgf"]
    files, errors = collect_files(named)
    assert [f.resolve() for f in files] == [games / "a.sgf", games / "b.sgf", games / "sub" / "c.sgf"]
    assert files == [games / "a.sgf", games / "b.sgf", games / "sub" / "c.sgf"]  # as first named
    assert len(errors) == 1 and "missing.sgf" in errors[0]


def test_the_workers_module_is_the_importers() -> None:
    from boardrecords.archive.store import importer

    assert importer.__name__ == WORKER_MODULE  # the module the fork server loads for the workers
