"""Sabaki's test files for GIB, NGF and UGF (tests/records/formats/sabaki/, MIT, copied from SabakiHQ/Sabaki's
`test/` folder): each reads with the players, ranks, komi, handicap stones, date, result and first moves that
Sabaki's own tests assert (`test/gibTests.js`, `ngfTests.js`, `ugfTests.js`), and the files those tests leave
unchecked with the values they show.

Where Sabaki's reading differs from the rules of FMT-13 (../shared/spec/record-format.md), the rules win; each
difference is said beside the value:
- ranks are in SGF's spelling (`10k`, `15k`), where Sabaki keeps Tygem's `10K`, `15K` (FMT-13: `BR`/`WR` as `9p`,
  `7d`, `15k`);
- a komi and a score are numbers (`-5.5`, `B+7.5`), where Sabaki keeps Pandanet's text `-5.50`, `B+7.50` (the same
  values: GEN-8's vocabulary writes `B+7.5`);
- the comment of a `.ugi` review is its lines joined by line breaks (`...game.\\nken03110 2k : Hi!`), where Sabaki
  adds a line break after the last line too;
- an older NGF file (`gb2312.ngf`, header lines starting `GI`), which Sabaki's tests do not read and its reader reads
  as White `GI李载雄`, Black `GI`, komi 0.5 (the fields of the newer form's lines), is read by the fields of its
  own form, with a warning (`ngf-old-form`) that says which order of the fields is relied on;
- a pass in a UGF game is `YA` (the file's `[ReviewNode]` writes the same moves as the point beyond the board), where
  Sabaki reads `YA` as a move on the point `ys`, off the board.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrecords.records.model import Record
from boardrecords.records.reader import read_file

SABAKI = Path(__file__).resolve().parent / "formats" / "sabaki"

# file -> Black, Black's rank, White, White's rank, komi, handicap, handicap stones, date, result, first four moves
EXPECTED: dict[str, tuple[object, ...]] = {
    # gibTests.js "should parse simple files": KM 0, PW leejw977 WR 10K, PB jy512 BR 15K, DT 2016-03-26, HA 3,
    # AB dp pd dd; W pp, B nq, W qn, B no. No RE: the file's GRLT:255 is no result (a warning says so).
    "utf8.gib": ("jy512", "15k", "leejw977", "10k", 0.0, 3, ["dd", "dp", "pd"], "2016-03-26", None,
                 ["W[pp]", "B[nq]", "W[qn]", "B[no]"]),
    # gibTests.js "should be able to detect encoding": PB 石下之臣.
    "gb2312.gib": ("石下之臣", "2d", "harpmaster", "3d", 0.0, 5, ["dd", "dp", "jj", "pd", "pp"], "2012-11-22",
                   "W+11", ["W[qn]", "B[nq]", "W[qf]", "B[qj]"]),
    "euc-kr.gib": ("dustkd1015", "1k", "dongjik", "1k", 6.5, None, [], "2015-08-29", "B+T",
                   ["B[qc]", "W[dp]", "B[qo]", "W[dd]"]),
    # ngfTests.js: KM 7.5, PW LQC WR 9p, PB CYY BR 9p, DT 2017-03-16, RE B+0.5; B qd, W dd, B pq, W dp.
    "even.ngf": ("CYY", "9p", "LQC", "9p", 7.5, None, [], "2017-03-16", "B+0.5", ["B[qd]", "W[dd]", "B[pq]", "W[dp]"]),
    "handicap2.ngf": ("p81587", "5d", "ace550", "7d", 0.0, 2, ["dp", "pd"], "2017-03-16", "W+R",
                      ["W[pq]", "B[dd]", "W[fq]", "B[hq]"]),
    "gb2312.ngf": ("李载雄", "5d", "朴承华", "1d", 6.5, None, [], "2006-09-05", None,
                   ["B[qd]", "W[dd]", "B[pq]", "W[oc]"]),
    # ugfTests.js: CP PANDANET INC., KM -5.50, PW YINNI WR 8d, PB kaziwami BR 7d, DT 2019-03-08, RE B+7.50;
    # B qd, W dd, B pq, W dq.
    "amateur.ugf": ("kaziwami", "7d", "YINNI", "8d", -5.5, None, [], "2019-03-08", "B+7.5",
                    ["B[qd]", "W[dd]", "B[pq]", "W[dq]"]),
    "review.ugi": ("ken03110", "2k", "apetresc", "2k", 6.5, None, [], "2020-06-23", "B+2.5",
                   ["B[qd]", "W[dc]", "B[pq]", "W[dp]"]),
}


def values(record: Record) -> tuple[object, ...]:
    assert record.setup is not None and record.date is not None
    return (record.black, record.black_rank, record.white, record.white_rank, record.komi, record.handicap,
            sorted(f"{chr(97 + x)}{chr(97 + y)}" for x, y in record.setup.black), record.date.raw,
            record.root.get("RE") and record.result.canonical(), [str(m) for m in record.moves()[:4]])


def test_every_sabaki_file_is_checked():
    assert sorted(p.name for p in SABAKI.iterdir() if p.suffix in (".gib", ".ngf", ".ugf", ".ugi")) == \
        sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fmt_13_each_sabaki_file_reads_with_the_values_sabaki_asserts(name):
    (record,) = read_file(SABAKI / name)
    assert values(record) == EXPECTED[name]
    assert record.raw == (SABAKI / name).read_bytes()


def test_fmt_13_the_charset_each_file_shows():
    assert read_file(SABAKI / "gb2312.gib")[0].encoding == "gb18030"
    assert read_file(SABAKI / "euc-kr.gib")[0].encoding == "cp949"
    assert read_file(SABAKI / "gb2312.ngf")[0].encoding == "gb18030"


def test_fmt_13_pandanet_copyright_and_the_unread_result_code():
    (ugf,) = read_file(SABAKI / "amateur.ugf")
    assert ugf.root.get("CP") == "PANDANET INC."
    (gib,) = read_file(SABAKI / "utf8.gib")
    (unread,) = [d for d in gib.diagnostics if d.code == "result-not-read"]
    assert "GRLT:255" in unread.message and unread.rule == "FMT-13"


def test_fmt_13_the_ugi_review_comments_and_variations():
    """ugfTests.js "should parse reviews with comments and variations": the root's comment is the review's first
    (`.Comment,1`); the other comments stand on node N = move N - 1, the variations beside the moves they replace."""
    (record,) = read_file(SABAKI / "review.ugi")
    assert record.root.get("C") == "apetresc 2k?: Let's begin and enjoy a great game.\nken03110 2k : Hi!"
    line = [record.root]
    while line[-1].children:
        line.append(line[-1].children[0])
    assert len(line) == 223  # the root and the 222 moves of [Data]
    assert line[18].get("C") == "apetresc [ 2k?]: I think white is ahead already?"  # .Comment,19: move 18
    assert line[54].get("C").startswith("apetresc [ 2k?]: Game-losing move")  # .Comment,55: move 54
    assert line[222].get("C").endswith("ken03110 done")  # .Comment,223: the last pass
    assert [str(n.move) for n in line[220:]] == ["W[]", "B[]", "W[]"]  # YA: passes
    # VARIATION after NODE,54 (move 53): a second child of move 53, beside move 54; after NODE,56 one of move 55.
    branching = [i for i, n in enumerate(line) if len(n.children) > 1]
    assert branching == [53, 55]
    first = line[53].children[1]
    assert str(first.move) == "W[nm]"  # NODE,225,2,14,7: column 14 (n), row 7 from the bottom (m, 13th from the top)
    depth, node = 1, first
    while node.children:
        depth, node = depth + 1, node.children[0]
    assert depth == 27  # nodes 225..227, 233..248, 255..262
    assert node.get("C") is None
    assert line[55].children[1].get("C") is None
    last = line[55].children[1]
    while last.children:
        last = last.children[0]
    assert last.get("C") == "apetresc [ 2k?]: This probably salvages enough to still be ahead"  # .Comment,269
    (read,) = [d for d in record.diagnostics if d.code == "review-read"]
    assert "2 variations and 5 comments" in read.message and read.rule == "FMT-13" and read.pos.line == 245


def test_fmt_13_the_older_ngf_form():
    (record,) = read_file(SABAKI / "gb2312.ngf")
    assert record.name == "韩国十段战" and record.size == 19 and len(record.moves()) == 211
    assert [d.code for d in record.diagnostics] == ["charset-fallback", "ngf-old-form", "komi-half-point"]
    last = record.root
    while last.children:
        last = last.children[0]
    assert str(last.move) == "B[jn]" and last.get("C") == "黑中盘胜(现场消息)"  # IDB[211]: a comment on move 211


def test_fmt_13_a_ugf_section_of_unknown_layout_is_left_out_with_a_warning(tmp_path):
    """`[Figure]` (a newspaper file's diagrams): no published description or reader says what its lines mean."""
    text = (SABAKI / "amateur.ugf").read_text() + "[Figure]\n.Fig,1,1,100\n.Text,1\n"
    (tmp_path / "figure.ugf").write_text(text)
    (record,) = read_file(tmp_path / "figure.ugf")
    (warning,) = [d for d in record.diagnostics if d.code == "section-not-read"]
    assert "[Figure] section (2 lines) is not read" in warning.message and warning.rule == "FMT-13"
    assert warning.pos.line == text.splitlines().index("[Figure]") + 1
    assert len(record.moves()) == 254


# -- a .ugi review written for the tests: its edge cases --------------------------------------------------------

UGI_HEAD = ("[Header]\nSize=9\nHdcp=0,6.50\nWinner=B,C\nPlayerB=Ann,1d,,\nPlayerW=Bob,1d,,\n"
            "[Data]\nEE,B1,1,0\nCG,W1,2,0\nGC,B1,3,0\n")  # rows from the bottom: ee, cc, gg


def _ugi(tmp_path, body: str) -> Record:
    (tmp_path / "r.ugi").write_text(UGI_HEAD + body)
    (record,) = read_file(tmp_path / "r.ugi")
    return record


def test_a_nested_variation_and_comments_in_it(tmp_path):
    record = _ugi(tmp_path, "[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,5,5\n  VARIATION,\n    NODE,5,2,7,7\n"
                  "      VARIATION,\n        NODE,7,1,2,2\n      VARIATIONEND,\n    NODE,6,1,3,3\n"
                  "  VARIATIONEND,\nNODE,3,2,3,7\nNODE,4,1,7,3\n"
                  "[ReviewComment]\n.Comment,7\n deep\n.Comment,2\nfirst\n")
    first = record.root.children[0]
    assert str(first.move) == "B[ee]" and first.get("C") == "first"  # node 2: move 1
    assert [str(c.move) for c in first.children] == ["W[cc]", "W[gc]"]  # the game's own move first
    branch = first.children[1]
    assert [str(c.move) for c in branch.children] == ["B[cg]", "B[bh]"]
    assert branch.children[1].get("C") == "deep"
    assert [str(m) for m in record.moves()] == ["B[ee]", "W[cc]", "B[gg]"]


def test_a_review_that_is_not_the_game_is_left_out_with_a_warning(tmp_path):
    record = _ugi(tmp_path, "[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,5,5\nNODE,3,2,4,4\n[ReviewComment]\n.Comment,2\nx\n")
    (warning,) = [d for d in record.diagnostics if d.code == "review-not-read"]
    assert "differs from [Data] at move 2" in warning.message
    assert record.root.children[0].get("C") is None and not record.root.children[0].children[0].children[1:]


def test_comments_without_review_nodes_and_on_nodes_not_there(tmp_path):
    record = _ugi(tmp_path, "[ReviewComment]\n.Comment,1\nhello\n.Comment,3\non move two\n.Comment,99\nlost\n")
    assert record.root.get("C") == "hello"
    assert record.root.children[0].children[0].get("C") == "on move two"
    codes = {d.code: d.message for d in record.diagnostics}
    assert "2 comments" in codes["review-read"] and "nodes 99" in codes["review-not-read"]


@pytest.mark.parametrize(("body", "words"), [
    ("[ReviewNode]\nNODE,1,0,0,0\nVARIATIONEND,\n", "VARIATIONEND closes no VARIATION"),
    ("[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,5,5\nVARIATION,\nNODE,3,2,1,1\n", "VARIATION not closed"),
    ("[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,12,5\n", "is not a point of the 9x9 board"),
    ("[ReviewNode]\nNODE,1,0,0,0\nNODE,two\n", "is not a [ReviewNode] line"),
])
def test_a_broken_review_is_an_error_on_its_line(tmp_path, body, words):
    from boardrecords.records.model import FormatError

    (tmp_path / "r.ugi").write_text(UGI_HEAD + body)
    with pytest.raises(FormatError) as caught:
        read_file(tmp_path / "r.ugi")
    assert words in str(caught.value) and caught.value.pos is not None and caught.value.pos.line > 11
