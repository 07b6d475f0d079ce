"""Export after import gives back the exact bytes of any record (hypothesis), on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.core.export import record_bytes
from boardrecords.archive.core.models import GameRow
from boardrecords.archive.store.access import create_schema
from boardrecords.archive.store.importer import Importer

LETTERS = "abcdefghi"
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=0x17F, exclude_categories=("Cs",)) | st.sampled_from(
    "\n\t]\\:;()[é日本"), max_size=30)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


@st.composite
def record_files(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """(file bytes, the bytes of its one game tree): varied charsets, line ends, escapes, comments, variations."""
    charset = draw(st.sampled_from(["utf-8+CA", "utf-8", "latin-1", "latin-1+CA"]))
    eol = draw(st.sampled_from(["\n", "\r\n", "\r", ""]))
    latin = charset.startswith("latin-1")
    text = TEXT.map(lambda t: t.encode("latin-1", "replace").decode("latin-1") if latin else t)
    props = ["GM[1]FF[4]SZ[9]"]
    if charset.endswith("+CA"):
        props.append("CA[UTF-8]" if charset.startswith("utf") else "CA[ISO-8859-1]")
    for ident in draw(st.lists(st.sampled_from(["PB", "PW", "GN", "EV", "C", "DT", "PC", "XX"]), unique=True)):
        props.append(f"{ident}[{_escape(draw(text))}]")
    if draw(st.booleans()):
        props.append(f"C[soft\\{eol or chr(10)}break]")  # a soft line break (backslash + newline)
    nodes = [";" + eol.join(props)]
    colour = "B"
    for _ in range(draw(st.integers(0, 12))):
        point = draw(st.sampled_from(LETTERS)) + draw(st.sampled_from(LETTERS))
        comment = f"C[{_escape(draw(text))}]" if draw(st.integers(0, 4)) == 0 else ""
        nodes.append(f";{colour}[{point}]{comment}")
        colour = "W" if colour == "B" else "B"
    body = eol.join(nodes)
    if draw(st.booleans()):
        body += f"({eol};{colour}[aa])({eol};{colour}[bb]{eol})"
    tree = ("(" + body + eol + ")").encode("latin-1" if latin else "utf-8")
    before = draw(st.sampled_from(["", "\n", "\r\n  ", "\ufeff"] if not latin else ["", "\n", " \r\n"]))
    after = draw(st.sampled_from(["", "\n", "\r\n", "\n\n"]))
    return before.encode("utf-8") + tree + after.encode("utf-8"), tree


@pytest.fixture
def engine(db_url: str):
    engine = make_engine(db_url)
    create_schema(engine)
    yield engine
    engine.dispose()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=record_files())
def test_export_after_import_is_byte_for_byte(engine, tmp_path: Path, case: tuple[bytes, bytes]) -> None:
    data, tree = case
    path = tmp_path / f"r{next(_counter)}.sgf"
    path.write_bytes(data)
    summary = Importer(engine, workers=1).run([path])
    assert summary.unreadable == 0, summary.errors
    assert summary.records == 1
    sha = hashlib.sha256(tree).hexdigest()
    with Session(engine) as session:
        row = session.exec(select(GameRow).where(GameRow.sha256 == sha)).one()
    assert row.raw == tree
    assert record_bytes([row]) == tree


_counter = itertools.count()
