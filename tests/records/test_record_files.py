"""Finding record files below folders (records/files.py `record_files`): the suffixes of every format in any case,
in the order paths sort (part by part, so `a/b.sgf` before `a-b.sgf`), links to files followed and links to folders
not, as os.walk walks."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.files import record_files


def _touch(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"(;)")


def test_paths_sort_part_by_part_and_links_are_walked_as_os_walk_walks(tmp_path: Path) -> None:
    top = tmp_path / "top"
    for name in ("a/b.sgf", "a-b.sgf", "a/c/d.SGF", "a.b/e.rec", "z.txt", ".sgf", "x.Gib"):
        _touch(top / name)
    outside = tmp_path / "outside"
    _touch(outside / "far.sgf")
    (top / "link-to-folder").symlink_to(outside, target_is_directory=True)
    (top / "link.sgf").symlink_to(outside / "far.sgf")
    found = [(p.relative_to(top).as_posix(), exists) for p, exists in record_files([top])]
    assert found == [("a/b.sgf", True), ("a/c/d.SGF", True), ("a-b.sgf", True), ("a.b/e.rec", True),
                     ("link.sgf", True), ("x.Gib", True)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "a-b", "a.b", "B", "_", "a b"]), min_size=1, max_size=3),
                min_size=1, max_size=12))
def test_the_order_is_the_order_of_sorted_paths(parts: list[list[str]]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        top = Path(folder)
        for p in parts:
            target = top.joinpath(*p[:-1], p[-1] + ".sgf")
            if not any(parent.is_file() for parent in target.parents):
                _touch(target)
        expected = sorted(Path(root, name) for root, _, names in os.walk(top) for name in names)
        assert [p for p, _ in record_files([top])] == expected
