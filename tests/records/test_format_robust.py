"""Any input at all: the reader answers with records or a FormatError naming line and column, never anything else;
what it reads, the writer writes and the reader reads again the same."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.model import FormatError
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import write

from ..shared import CONFORMANCE, EXAMPLES

SEEDS = sorted(EXAMPLES.rglob("*.sgf")) + sorted(EXAMPLES.rglob("*.rec"))
if CONFORMANCE.is_dir():
    SEEDS += sorted(CONFORMANCE.glob("*/*-1.rec"))
REAL = [p.read_bytes() for p in SEEDS] or [b"(;GM[1]SZ[9]PB[a]C[x\\]y];B[aa](;W[bb])(;W[cc]C[z]))"]

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PIECES = [b"(", b")", b";", b"[", b"]", b"\\", b"\\\n", b"\r", b"\n", b" ", b"B", b"W", b"C", b"GM", b"SZ", b"CA",
          b"[UTF-8]", b"[aa]", b"[tt]", b"[]", b"[swap]", b"ab", b"Co", b"\xe5\x9b", b"\xff", b"\x00", b"\xef\xbb\xbf"]


def typed(moves):
    """Moves without their positions (an invalid move keeps where it stood, which writing may change)."""
    return [(m.colour, m.kind, m.point, m.target, m.line, m.raw, m.rule) for m in moves]


def check(data: bytes) -> None:
    for strict in (False, True):
        try:
            records = read_bytes(data, "fuzz.sgf", strict=strict)
        except FormatError as err:
            assert err.pos is None or (err.pos.line >= 1 and err.pos.column >= 1)
            assert str(err).startswith("fuzz.sgf")
            continue
        assert records
        for record in records:
            for d in record.diagnostics:
                d.describe("fuzz.sgf")
            record.moves()
            record.lines()
        (again,) = [read_bytes(write(r), "again.sgf") for r in records[:1]]
        assert len(again) == 1
        assert typed(again[0].moves()) == typed(records[0].moves())


@given(st.binary(max_size=300))
@SETTINGS
def test_arbitrary_bytes_never_raise_anything_but_format_error(data):
    check(data)


@given(st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join))
@SETTINGS
def test_syntax_soup_never_raises_anything_but_format_error(data):
    check(data)


@given(st.sampled_from(REAL), st.lists(st.tuples(st.floats(0, 1), st.sampled_from([*PIECES, b""]),
                                                  st.integers(0, 4)), min_size=1, max_size=6))
@SETTINGS
def test_mutated_real_records_never_raise_anything_but_format_error(original, edits):
    data = bytearray(original)
    for where, insert, cut in edits:
        at = int(where * len(data))
        data[at:at + cut] = insert
    check(bytes(data))


@given(st.sampled_from(REAL), st.floats(0, 1))
@SETTINGS
def test_truncated_real_records_are_read_as_far_as_they_go(original, where):
    check(original[:int(where * len(original))])
