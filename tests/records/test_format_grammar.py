"""The record format's syntax: collections, variations, escapes, soft line breaks, line endings, positions, the
lenient readings (each with its warning, and its error in strict mode), deep nesting and large files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.model import FormatError, Severity
from boardrecords.records.reader import read_bytes
from boardrecords.records.source import LINE_BREAK, SourceText
from boardrecords.verifier.judging.verdict import verify


def one(data: bytes, **kw):
    records = read_bytes(data, "t.sgf", **kw)
    assert len(records) == 1
    return records[0]


def codes(record) -> list[str]:
    return [d.code for d in record.diagnostics]


def raises(data: bytes, **kw) -> FormatError:
    with pytest.raises(FormatError) as info:
        read_bytes(data, "t.sgf", **kw)
    return info.value


# -- collections and trees -----------------------------------------------------------------------------------------


def test_fmt_1_a_collection_holds_one_record_per_game_tree_in_order():
    data = b"(;GM[1]PB[a];B[aa])\n(;GM[Cation]SZ[5]PB[b];B[bb])(;GM[Squer]SZ[4]PB[c])"
    records = read_bytes(data, "t.sgf")
    assert [r.black for r in records] == ["a", "b", "c"]
    assert [r.index for r in records] == [0, 1, 2]
    assert [r.game.value for r in records] == ["go-ing", "cation", "squer"]
    # Record.raw: the exact bytes of each tree, parentheses included.
    assert records[1].raw == b"(;GM[Cation]SZ[5]PB[b];B[bb])"
    assert records[2].raw == b"(;GM[Squer]SZ[4]PB[c])"
    assert all(not r.diagnostics for r in records)


def test_variations_make_a_tree_and_the_main_line_is_the_first_variation():
    r = one(b"(;GM[1]SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))")
    assert [m.raw for m in r.moves()] == ["aa", "bb", "cc", "dd"]
    lines = [[n.move.raw for n in line] for line in r.lines()]
    assert lines == [["aa", "bb", "cc", "dd"], ["aa", "bb", "cc", "ee"], ["aa", "ff"]]
    branch = r.main_line()[0]
    assert [c.move.raw for c in branch.children] == ["bb", "ff"]
    assert all(c.parent is branch for c in branch.children)


@pytest.mark.parametrize("comment_at", [4094, 4095, 4096, 4097, 8191])
def test_a_long_run_of_moves_reads_as_one_line_whatever_its_length(comment_at):
    # The reader takes long runs of plain moves in pieces (records/grammar.py, group 1): the pieces join into one
    # line, a comment on any node stays on it, and every node keeps its place in the data.
    letters = "abcdefghijklmnopqrs"
    moves = [letters[i % 19] + letters[i // 19 % 19] for i in range(9000)]
    nodes = [f";{'BW'[i % 2]}[{m}]" + ("C[here]" if i == comment_at else "") for i, m in enumerate(moves)]
    data = ("(;GM[1]SZ[19]" + "".join(nodes) + ")").encode()
    r = one(data)
    line = r.main_line()
    assert [m.raw for m in r.moves()] == moves
    assert [i for i, n in enumerate(line) if n.comment] == [comment_at]
    starts = [i for i, byte in enumerate(data) if byte == ord(";")]
    assert [n.pos.offset for n in line] == starts[1:]
    assert not r.diagnostics


def test_whitespace_may_stand_between_all_tokens():
    r = one(b" \t\n( ;\r\n GM [1]\tSZ\n[9] ; B [aa] ;W\n[bb] C [x]\n(\n;B[cc]\n)\n(;B[dd]) ) \n")
    assert [m.raw for m in r.moves()] == ["aa", "bb", "cc"]
    assert r.main_line()[1].comment == "x"
    assert not r.diagnostics


def test_fmt_2_properties_keep_source_order_and_unknown_properties():
    r = one(b"(;GM[1]ZZ[odd][values]SZ[9]MULTIGOGM[1];C[hi]B[aa]XY[q])")
    assert list(r.root.properties) == ["GM", "ZZ", "SZ", "MULTIGOGM"]
    assert r.root.get_all("ZZ") == ["odd", "values"]
    node = r.main_line()[0]
    assert list(node.properties) == ["C", "B", "XY"]
    assert node.move.raw == "aa"


# -- values ------------------------------------------------------------------------------------------------------


def test_fmt_2_escapes_are_resolved():
    r = one(rb"(;GM[1]C[a \] b \\ c \x d \: e]GN[\\];B[aa])")
    assert r.root.get("C") == "a ] b \\ c x d : e"
    assert r.name == "\\"


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r", b"\n\r"], ids=["LF", "CRLF", "CR", "LFCR"])
def test_a_soft_line_break_of_every_style_is_removed_and_a_hard_one_kept(newline):
    r = one(b"(;GM[1]C[ab\\" + newline + b"cd" + newline + b"ef])")
    assert r.root.get("C") == "abcd" + newline.decode() + "ef"


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r", b"\n\r"], ids=["LF", "CRLF", "CR", "LFCR"])
def test_every_line_ending_style_reads_and_counts_lines(newline):
    text = newline.join([b"(;GM[1]SZ[9]", b";B[aa]", b";W[bb]", b"  ;B[cc])"])
    r = one(text)
    assert [m.raw for m in r.moves()] == ["aa", "bb", "cc"]
    nodes = r.main_line()
    assert [(n.pos.line, n.pos.column) for n in nodes] == [(2, 1), (3, 1), (4, 3)]


def test_positions_of_nodes_properties_and_values():
    data = b"(;GM[1]SZ[9]\n  PB[Ann] PW[Bo]\n;B[aa]C[x];W[bb])"
    r = one(data)
    pb = r.root.properties["PB"]
    assert (pb.pos.line, pb.pos.column, pb.pos.offset) == (2, 3, data.index(b"PB"))
    assert [(p.line, p.column) for p in pb.value_pos] == [(2, 5)]
    second = r.main_line()[1]
    assert (second.pos.line, second.pos.column) == (3, 11)
    assert str(r.main_line()[0].properties["C"].pos) == "3:7"


def test_columns_count_characters_not_bytes():
    data = "(;GM[1]PB[Zoë Ångström]C[x]XX[ü])".encode()
    r = one(data)
    assert r.root.properties["C"].pos.column == len("(;GM[1]PB[Zoë Ångström]") + 1
    assert r.root.properties["XX"].pos.offset == data.index(b"XX")


# -- errors: file, line, column, what was expected -----------------------------------------------------------------


@pytest.mark.parametrize(("data", "line", "column", "expected"), [
    (b"(;GM[1]\n;B[aa]\n;W[bb] ?)", 3, 8, "expected a property, ';', '(' or ')', found '?'"),
    (b"(;GM[1]\r\n;B[aa]\r\n;W[bb] ?)", 3, 8, "found '?'"),
    (b"(;GM[1]\r;B[aa]\r;W[bb] ?)", 3, 8, "found '?'"),
    (b"(;GM[1]\n;B[aa]\n;W (;B[cc]))", 3, 2, "expected '[' after the property identifier 'W', found '('"),
    (b"(;GM[1];B[aa](;W[bb]);B[cc])", 1, 22, "a node cannot follow variations"),
    (b"(;GM[1]((;B[aa])))", 1, 9, "expected ';' after '('"),
    (b"(;GM[1](B[aa]))", 1, 9, "expected ';' before the property 'B'"),
    (b"(;GM[1];[aa])", 1, 9, "expected a property identifier before '['"),
    (b"(;GM[1]foo[1])", 1, 8, "has no upper-case letter"),
    (b"hello", 1, 1, "no game tree: expected '(;', found 'h'"),
    (b"  \n ", 1, 1, "the data is empty"),
    (b"", 1, 1, "the data is empty"),
])
def test_fmt_5_errors_name_the_file_line_and_column_and_what_was_expected(data, line, column, expected):
    err = raises(data)
    assert (err.pos.line, err.pos.column) == (line, column)
    assert expected in err.message
    assert str(err).startswith(f"t.sgf:{line}:{column}: ")


def test_error_column_counts_characters_in_the_records_charset():
    err = raises("(;GM[1]PB[Åsa] ?)".encode())
    assert (err.pos.line, err.pos.column) == (1, 16)


# -- lenient readings, each a warning, and an error when reading strictly -----------------------------------------

LENIENT = [
    ("junk-before", b"Here is the game.\n(;GM[1];B[aa])", (1, 1)),
    ("junk-after", b"(;GM[1];B[aa])\n---\n", (2, 1)),
    ("lc-propident", b"(;GM[1]CoPyright[x];B[aa])", (1, 8)),
    ("repeated-property", b"(;GM[1]CA[UTF-8][UTF-8];B[aa])", (1, 8)),
    ("repeated-property", b"(;GM[1]GN[][];B[aa])", (1, 8)),
    ("repeated-property", b"(;GM[1]GM[1];B[aa])", (1, 8)),
    ("extra-paren", b"(;GM[1];B[aa]))\n", (1, 15)),
    ("empty-tree", b"()(;GM[1];B[aa])", (1, 1)),
    ("empty-tree", b"(;GM[1];B[aa]())", (1, 14)),
    ("bom", b"\xef\xbb\xbf(;GM[1];B[aa])", (1, 1)),
]


@pytest.mark.parametrize(("code", "data", "where"), LENIENT, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(LENIENT)])
def test_lenient_reading_warns(code, data, where):
    r = one(data)
    found = [d for d in r.diagnostics if d.code == code]
    assert len(found) == 1, r.diagnostics
    assert found[0].severity is Severity.WARNING
    assert (found[0].pos.line, found[0].pos.column) == where
    assert r.moves()[0].raw == "aa"  # and the record is read


@pytest.mark.parametrize(("code", "data", "where"), LENIENT, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(LENIENT)])
def test_strict_reading_refuses_what_lenient_reading_warns_about(code, data, where):
    err = raises(data, strict=True)
    assert err.code == code
    assert (err.pos.line, err.pos.column) == where
    assert "not allowed when reading strictly" in err.message


def test_lower_case_letters_are_dropped_from_identifiers():
    r = one(b"(;GaMe[1]CoPyright[free]AddBlack[aa][bb])")
    assert r.root.get("CP") == "free"
    assert r.root.properties["CP"].raw_ident == "CoPyright"
    assert r.root.get_all("AB") == ["aa", "bb"]
    assert codes(r).count("lc-propident") == 3


def test_repeated_values_are_read_once_and_different_ones_kept_with_a_warning():
    r = one(b"(;GM[1]CA[UTF-8][UTF-8]GN[][]PB[Ann]PB[Bo]AB[aa]AB[bb];B[cc])")
    assert r.root.get_all("CA") == ["UTF-8"]
    assert r.root.get_all("GN") == [""]
    assert r.root.get_all("PB") == ["Ann", "Bo"]
    assert r.black == "Ann"
    assert r.root.get_all("AB") == ["aa", "bb"]
    assert sorted(codes(r)) == ["conflicting-property", "repeated-property", "repeated-property",
                                "repeated-property"]


def test_an_empty_game_tree_is_skipped_between_records():
    records = read_bytes(b"(;GM[1];B[aa]) () (;GM[1];B[bb])", "t.sgf")
    assert len(records) == 2
    assert codes(records[0]) == ["empty-tree"]


def test_data_ending_inside_a_value_keeps_what_was_read():
    r = one(b"(;GM[1];B[aa];W[bb]C[unfinished comm")
    assert r.main_line()[-1].comment == "unfinished comm"
    assert [(d.code, d.severity, d.rule) for d in r.diagnostics] == [("truncated", Severity.ERROR, "FMT-3")] * 2


@pytest.mark.parametrize("data", [b"(;GM[1]SZ[9];B[aa];W[bb];B[", b"(;GM[1]SZ[9];B[aa];W[bb];B[cc",
                                  b"(;GM[1]SZ[9];B[aa];W[bb]", b"(;GM[1]SZ[9];B[aa];W[bb];B"])
def test_fmt_3_a_truncated_file_is_an_error_never_a_pass(data):
    r = one(data)
    assert [m.raw for m in r.moves()] == ["aa", "bb"]  # a move cut in the middle is not read as a pass
    truncated = [d for d in r.diagnostics if d.code == "truncated"]
    assert truncated and all(d.severity is Severity.ERROR and d.rule == "FMT-3" for d in truncated)
    v = verify(r)
    assert not v.valid and not v.passes and v.verdict.value == "invalid"
    assert v.moves_replayed == 2 and v.replayed  # what was read before the cut is still replayed


def test_data_ending_inside_nested_variations_keeps_them():
    r = one(b"(;GM[1];B[aa](;W[bb](;B[cc]")
    assert [m.raw for m in r.moves()] == ["aa", "bb", "cc"]
    assert "3 parentheses missing" in r.diagnostics[0].message


def test_text_between_trees_is_junk_after_the_tree_before_it():
    records = read_bytes(b"(;GM[1]) junk (;GM[1])", "t.sgf")
    assert codes(records[0]) == ["junk-after"]
    assert codes(records[1]) == []


# -- robustness ------------------------------------------------------------------------------------------------------


def test_one_hundred_thousand_nested_variations_read_and_write_without_recursion():
    from boardrecords.records.writer import write

    depth = 100_000
    data = b"(;GM[1]SZ[19]" + b"(;B[aa]" * depth + b")" * (depth + 1)
    r = one(data)
    line = r.main_line()
    assert len(line) == depth
    assert len(r.lines()) == 1
    assert line[-1].pos.offset == len(data) - (depth + 1) - 6
    again = one(write(r))
    assert len(again.main_line()) == depth


def test_a_wide_tree_of_many_variations_lists_every_line():
    data = b"(;GM[1]SZ[19]" + b"".join(b"(;B[%s])" % bytes([97 + i % 19, 97 + i // 19 % 19]) for i in range(5000))
    r = one(data + b")")
    assert len(r.lines()) == 5000
    assert r.moves()[0].raw == "aa"


@pytest.mark.slow
def test_a_50_megabyte_collection_reads():
    # An annotated collection: a game commentary in each root, sixty moves, a comment every ten moves.
    commentary = b"Commentary: " + b"the opening follows a well-known pattern, then Black tries something new. " * 20
    moves = b"".join(b";B[%c%c];W[%c%c]" % (97 + i, 100, 100, 97 + i) for i in range(5)) + b"C[a note]\n"
    game = (b"(;FF[4]GM[1]SZ[19]PB[Black #]PW[White]RE[B+R]GC[" + commentary + b"]\n" + moves * 6 + b";B[tt];W[])\n")
    parts = []
    size = 0
    while size < 50_000_000:
        part = game.replace(b"#", str(len(parts)).encode())
        parts.append(part)
        size += len(part)
    data = b"".join(parts)
    records = read_bytes(data, "big.sgf")
    assert len(records) == len(parts)
    last = records[-1]
    assert last.black == f"Black {len(parts) - 1}"
    assert len(last.moves()) == 62
    assert last.main_line()[9].comment == "a note"
    assert last.raw == parts[-1].rstrip(b"\n")
    assert last.main_line()[-1].pos.offset == len(data) - len(b";W[])\n")
    assert last.root.properties["GC"].pos.offset == len(data) - len(parts[-1]) + parts[-1].index(b"GC[")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\xc3\xa9", b"\n", b"\r", b"\r\n", b"\n\r"]), max_size=60),
       st.lists(st.integers(0, 200), max_size=8))
def test_line_and_column_are_the_same_whatever_order_positions_are_asked_in(pieces, asked):
    """Line starts are found only as far as needed: positions asked in any order, far ones first or near ones,
    give what counting every line break before them gives."""
    data = b"".join(pieces)
    text = SourceText(data)
    for offset in asked:
        offset = min(offset, len(data))
        before = data[:offset]
        starts = [0] + [m.end() for m in LINE_BREAK.finditer(data) if m.end() <= offset]
        expected = (len(starts), len(before[starts[-1]:].decode("utf-8", "surrogateescape")) + 1)
        assert text.line_col(offset) == expected
