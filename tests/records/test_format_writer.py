"""The writer: canonical output that reads back as the same record, lossless for what it does not know, loadable by
sgfmill for Go; and records built in code."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from boardrecords.records.games import SPECS, Game, MoveKind
from boardrecords.records.model import Colour, Move, Node, Record, ResultMethod
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, properties_of, write, write_node

SKIP_IDENTS = {"FF", "CA"}  # the two root properties the writer sets


def shape(record: Record) -> list[tuple]:
    """The tree in source order: each node's properties (but FF/CA), move and number of children."""
    out = []
    stack = [record.root]
    while stack:
        node = stack.pop()
        props = {k: v for k, v in properties_of(node).items() if k not in SKIP_IDENTS}
        out.append((props, node.move, len(node.children)))
        stack.extend(reversed(node.children))
    return out


def round_trip(record: Record) -> Record:
    (again,) = read_bytes(write(record), "written.sgf")
    return again


SAMPLE = (
    "(;FF[3]CA[ISO-8859-1]GM[1]SZ[9]PB[Zoë \\] ]PW[Bo\\\\]KM[6.5]RE[W+2.5]ZZ[unknown][kept]\n"
    "C[A comment\nover two lines, with a soft\\\nbreak]\n"
    ";B[ee]C[first];W[]BL[30](;B[tt]TB[aa][bb:cc];W[dd]LB[dd:x\\]y])(;B[cc]N[var 2](;W[dd])(;W[ff]XX[]))"
    "(;B[aa]))"
).encode("latin-1")


def test_a_record_reads_back_the_same_after_writing():
    (r,) = read_bytes(SAMPLE, "t.sgf")
    again = round_trip(r)
    assert shape(again) == shape(r)
    assert again.moves() == r.moves()
    assert [[n.move for n in line] for line in again.lines()] == [[n.move for n in line] for line in r.lines()]
    assert (again.black, again.white, again.komi, again.result) == (r.black, r.white, r.komi, r.result)
    assert again.root.get("C") == "A comment\nover two lines, with a softbreak"


def test_writing_is_canonical_and_stable():
    (r,) = read_bytes(SAMPLE, "t.sgf")
    out = write(r)
    assert out.startswith(b"(;FF[4]CA[UTF-8]GM[1]SZ[9]")
    assert write(round_trip(r)) == out
    assert "PB[Zoë \\] ]".encode() in out and b"PW[Bo\\\\]" in out
    assert out.count(b"CA[") == 1


def test_long_lines_are_wrapped_between_nodes():
    moves = [("B" if i % 2 == 0 else "W", f"{chr(97 + i % 19)}{chr(97 + i // 19)}") for i in range(200)]
    out = write(new_record(Game.GO, 19, moves, black="Ann", white="Bo"))
    lines = out.decode().splitlines()
    assert len(lines) > 10
    assert max(len(line) for line in lines) <= 80
    assert all(line.startswith((";", "(")) for line in lines)


def test_a_collection_is_written_as_one_file():
    records = read_bytes(b"(;GM[1];B[aa])(;GM[Cation]SZ[4];B[bb])", "t.sgf")
    out = write(records)
    again = read_bytes(out, "t.sgf")
    assert [shape(r) for r in again] == [shape(r) for r in records]


def test_nodes_made_in_code_are_written():
    node = Node({"B": _prop("B", ["dd"]), "C": _prop("C", ["a]b"])})
    assert write_node(node) == ";B[dd]C[a\\]b]"


def _prop(ident, values):
    from boardrecords.records.model import Property

    return Property(ident, values)


# -- sgfmill reads what we write ----------------------------------------------------------------------------------


def sgfmill_moves(data: bytes) -> list[tuple[str, tuple[int, int] | None]]:
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    out = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None:
            continue
        # sgfmill: (row, col) with row 0 at the bottom; ours: (col, row) with row 0 at the top.
        out.append((colour.upper(), None if move is None else (move[1], size - 1 - move[0])))
    return out


@pytest.mark.parametrize("size", [7, 9, 13, 19])
def test_sgfmill_loads_our_go_records_and_sees_the_same_moves(size):
    moves = [("B", "aa"), ("W", ""), ("B", "cc"), ("W", "tt" if size <= 19 else "ss"), ("B", "gb")]
    r = new_record(Game.GO, size, moves, black="Zoë", white="Bo", komi=6.5, result="B+R", GC="a ] b \\ c")
    data = write(r)
    ours = [(m.colour.value, m.point if m.kind is MoveKind.PLACE else None) for m in r.moves()]
    assert sgfmill_moves(data) == ours
    game = sgf.Sgf_game.from_bytes(data)
    assert game.get_player_name("b") == "Zoë"
    assert game.get_komi() == 6.5
    assert game.get_root().get("GC") == "a ] b \\ c"


def test_sgfmill_loads_a_written_record_with_variations_and_markup():
    (r,) = read_bytes(SAMPLE, "t.sgf")
    data = write(r)
    game = sgf.Sgf_game.from_bytes(data)
    assert len(game.get_root()[0][0]) == 3  # the branch after W[] keeps its three variations
    assert [c for c, _ in sgfmill_moves(data)] == ["B", "W", "B", "W"]


# -- records built in code --------------------------------------------------------------------------------------------


def test_new_record_builds_what_a_file_would_give():
    moves = [Move(Colour.BLACK, MoveKind.PLACE, (3, 2)), Move(Colour.WHITE, MoveKind.SWAP),
             Move(Colour.WHITE, MoveKind.RELOCATE, (3, 2), (0, 1)), "B[cc-]", ("W", "resign")]
    r = new_record(Game.CATION, 6, moves, black="Ann", white="Bo", event="Cup", date="2024-05-03", result="B+R",
                   round="3", GC="note")
    assert r.game is Game.CATION and r.size == 6
    assert [m.kind for m in r.moves()] == [MoveKind.PLACE, MoveKind.SWAP, MoveKind.RELOCATE, MoveKind.REMOVE,
                                           MoveKind.RESIGN]
    assert [m.sgf_value() for m in r.moves()] == ["dc", "swap-sides", "dc-ab", "cc-", "resign"]
    assert (r.black, r.white, r.event, r.round) == ("Ann", "Bo", "Cup", "3")
    assert r.date.iso and r.result.method is ResultMethod.RESIGN
    assert r.root.get("GC") == "note" and r.root.get("GM") == "Cation"
    assert not r.diagnostics
    assert r.raw.startswith(b"(;FF[4]CA[UTF-8]GM[Cation]SZ[6]")


def test_new_record_refuses_unknown_fields_and_games():
    with pytest.raises(TypeError):
        new_record(Game.GO, 9, [], colour="B")
    with pytest.raises(ValueError):
        new_record("chess", 8, [])
    with pytest.raises(ValueError):
        new_record(Game.GO, 9, ["X[aa]"])


# -- generated records round-trip ---------------------------------------------------------------------------------

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
IDENT = st.sampled_from(["C", "N", "GC", "ZZ", "LB", "MA", "TR", "BL", "XYZ", "AB"])


def _value(game: Game, size: int):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[:size + 2]
    point = st.tuples(st.sampled_from(letters), st.sampled_from(letters)).map("".join)
    return st.one_of(point, st.just(""), st.just("tt"), st.just("swap-sides"), st.just("resign"),
                     point.map(lambda p: p + "-"), st.tuples(point, point).map("-".join),
                     st.sampled_from(letters).map(lambda c: "sweep-" + c), TEXT)


@st.composite
def records(draw):
    game = draw(st.sampled_from(list(Game)))
    size = draw(st.integers(SPECS[game].min_size, 25))
    root = Node({"GM": _prop("GM", [SPECS[game].gm_value]), "SZ": _prop("SZ", [str(size)])})
    for ident in draw(st.lists(st.sampled_from(["PB", "PW", "EV", "DT", "RE", "GC", "KM"]), unique=True)):
        root.properties[ident] = _prop(ident, [draw(TEXT)])
    # A tree drawn level by level without recursion: each new node hangs under a random earlier node.
    nodes = [root]
    for _ in range(draw(st.integers(0, 25))):
        parent = nodes[draw(st.integers(0, len(nodes) - 1))] if draw(st.booleans()) else nodes[-1]
        props = {}
        if draw(st.booleans()):
            colour = draw(st.sampled_from(["B", "W"]))
            props[colour] = _prop(colour, [draw(_value(game, size))])
        for ident in draw(st.lists(IDENT, max_size=2, unique=True)):
            props[ident] = _prop(ident, draw(st.lists(TEXT, min_size=1, max_size=3, unique=True)))
        node = Node(props, parent=parent)
        parent.children.append(node)
        nodes.append(node)
    return Record(root=root, game=game, size=size, raw=b"", encoding="utf-8")


@given(records())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_records_round_trip_through_write_and_read(record):
    (read,) = read_bytes(write(record), "generated.sgf")
    assert shape(read)[0][0] == {k: v for k, v in properties_of(record.root).items()}
    assert [s[0] for s in shape(read)] == [
        {k: v for k, v in properties_of(n).items() if k not in SKIP_IDENTS} for n in _preorder(record.root)]
    assert [s[2] for s in shape(read)] == [len(n.children) for n in _preorder(record.root)]
    again = read_bytes(write(read), "again.sgf")[0]
    assert shape(again) == shape(read)
    assert write(again) == write(read)


def _preorder(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


@given(st.sampled_from(list(Game)), st.data())
@settings(max_examples=100, deadline=None)
def test_generated_main_lines_keep_their_moves(game, data):
    size = data.draw(st.integers(max(SPECS[game].min_size, 3), 19))
    values = data.draw(st.lists(_value(game, size), max_size=40))
    moves = [("B" if i % 2 == 0 else "W", v) for i, v in enumerate(values)]
    r = new_record(game, size, moves, black="A", white="B")
    assert [m.raw for m in r.moves()] == values
    assert [m.colour.value for m in r.moves()] == [c for c, _ in moves]
    assert round_trip(r).moves() == r.moves()
