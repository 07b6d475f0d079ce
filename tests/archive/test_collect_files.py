"""The files an import reads (archive/store/collect.py `collect_files`): each file once however it is named (as
given, through its folder, through a link to it or to its folder, with `..` in the path), in the order found, and
one error line for a path that does not exist; and the workers' fork server started before the import's modules
load, when the import will make a pool (`prepare_import`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


PREPARED = """
import sys, time
from pathlib import Path
from boardrecords.archive.store.collect import prepare_import
prepare_import(int(sys.argv[1]), int(sys.argv[2]))
time.sleep(0.5)
kids = [c for t in Path("/proc/self/task").iterdir() for c in (t / "children").read_text().split()]
print(sum(b"forkserver" in Path(f"/proc/{c}/cmdline").read_bytes() for c in kids))
print("sqlalchemy" in sys.modules)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="the fork server is Linux's")
@pytest.mark.parametrize(("files", "workers", "started"), [(150, 2, 1), (99, 2, 0), (5000, 1, 0)])
def test_the_fork_server_starts_early_when_the_import_will_make_a_pool(files: int, workers: int,
                                                                        started: int) -> None:
    done = subprocess.run([sys.executable, "-c", PREPARED, str(files), str(workers)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    count, loaded = done.stdout.split()
    assert int(count) == started
    assert loaded == "False"  # nothing heavy loaded here: that is what the fork server's start overlaps
