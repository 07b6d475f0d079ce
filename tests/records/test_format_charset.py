"""Charsets: CA honoured in its common spellings, UTF-8 then ISO-8859-1 without it, and no byte ever lost."""

from __future__ import annotations

import pytest

from boardrecords.records.charset import codec_for
from boardrecords.records.model import FormatError, Severity
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import write


def one(data: bytes, **kw):
    (record,) = read_bytes(data, "t.sgf", **kw)
    return record


@pytest.mark.parametrize(("name", "codec"), [
    ("UTF-8", "utf-8"), ("utf8", "utf-8"), ("ISO-8859-1", "iso-8859-1"), ("ISO8859_1", "iso-8859-1"),
    ("Latin-1", "iso-8859-1"), ("latin1", "iso-8859-1"), ("ASCII", "ascii"), ("US-ASCII", "ascii"),
    ("GB2312", "gb18030"), ("GBK", "gb18030"), ("Big5", "big5hkscs"), ("Shift_JIS", "cp932"),
    ("EUC-KR", "cp949"), ("EUC-JP", "euc_jp"), ("ISO-8859-3", "iso8859-3"), ("windows-1252", "cp1252"),
    ("KOI8-R", "koi8-r"),
])
def test_common_spellings_of_charsets_are_understood(name, codec):
    assert codec_for(name) == codec


@pytest.mark.parametrize("name", ["foo", "", "UTF-16", "UTF-32", "rot13", "hex"])
def test_unknown_charsets_and_ones_the_syntax_cannot_be_read_in_are_refused(name):
    assert codec_for(name) is None


@pytest.mark.parametrize(("ca", "text"), [
    ("UTF-8", "Zoë Ångström"), ("ISO-8859-1", "Zoë Ångström"), ("GB2312", "吴清源"), ("Big5", "吳清源"),
    ("Shift_JIS", "本因坊秀策"), ("EUC-KR", "이창호"), ("ISO-8859-3", "Ştefan"),
])
def test_fmt_11_ca_is_honoured(ca, text):
    data = f"(;CA[{ca}]GM[1]PB[{text}]C[{text}];B[aa])".encode(codec_for(ca) or ca)
    r = one(data)
    assert r.black == text
    assert r.main_line()[0].move.raw == "aa"
    assert not r.diagnostics
    assert r.encoding == codec_for(ca)


def test_without_ca_utf8_is_read_silently():
    r = one("(;GM[1]PB[Zoë])".encode())
    assert r.black == "Zoë"
    assert r.encoding == "utf-8"
    assert not r.diagnostics


def test_fmt_11_without_ca_bytes_that_are_not_utf8_are_read_in_the_charset_they_show_with_a_warning():
    data = "(;GM[1]PB[Zoë]\n;B[aa]C[Très bien])".encode("latin-1")
    r = one(data)
    assert r.black == "Zoë"
    assert r.main_line()[0].comment == "Très bien"
    assert r.encoding == "cp1252"  # what the detector names for Western European text: ISO-8859-1's letters
    (d,) = r.diagnostics
    assert d.code == "charset-fallback" and d.severity is Severity.WARNING and "Windows-1252" in d.message
    assert (d.pos.line, d.pos.column) == (1, 13)  # the first byte that is not UTF-8


def test_an_unknown_ca_is_a_warning_and_falls_back():
    r = one("(;CA[foo]GM[1]PB[Zoë])".encode("latin-1"))
    assert r.black == "Zoë"
    assert [d.code for d in r.diagnostics] == ["charset-unknown", "charset-fallback"]
    assert r.diagnostics[0].pos.column == 3


def test_invalid_bytes_under_a_declared_utf8_are_kept_and_written_back():
    # A server cut the name in the middle of a character (as in 16 files of the Go corpus).
    name = "风吹梦醒".encode()[:-1]
    data = b"(;CA[UTF-8]GM[1]PB[" + name + b"]PW[ok];B[aa])"
    r = one(data)
    assert r.black is not None and r.black.startswith("风吹梦")
    assert r.black.encode("utf-8", "surrogateescape") == name  # every byte recoverable
    (d,) = r.diagnostics
    assert d.code == "charset-invalid"
    assert d.pos.offset == data.index(name) + 9  # where the cut character starts
    out = write(r)
    assert b"PB[" + name + b"]" in out  # the writer gives the original bytes back
    assert one(out).black == r.black


def test_a_bom_means_utf8():
    r = one("\ufeff(;GM[1]PB[Zoë])".encode())
    assert r.black == "Zoë"
    assert [d.code for d in r.diagnostics] == ["bom"]


def test_each_record_of_a_collection_has_its_own_charset():
    data = "(;CA[UTF-8]PB[Zoë])".encode() + "(;CA[ISO-8859-1]PB[Zoë])".encode("latin-1")
    first, second = read_bytes(data, "t.sgf")
    assert first.black == second.black == "Zoë"
    assert (first.encoding, second.encoding) == ("utf-8", "iso-8859-1")


def test_reading_strictly_refuses_the_latin1_fallback():
    with pytest.raises(FormatError) as info:
        read_bytes("(;GM[1]PB[Zoë])".encode("latin-1"), "t.sgf", strict=True)
    assert info.value.code == "charset-fallback"


def test_a_record_in_latin1_is_written_as_utf8():
    r = one("(;CA[ISO-8859-1]GM[1]PB[Zoë])".encode("latin-1"))
    out = write(r)
    assert b"CA[UTF-8]" in out and "PB[Zoë]".encode() in out
    assert one(out).black == "Zoë"


COMMENTED = (b"(;GM[1]FF[4]SZ[9]PB[%s]PW[Carla Nunes]EV[Autumn club tournament]RE[B+R]"
             b"C[A capture in the corner, then White resigns. Black fills the last liberty of the white stone.]"
             b";B[bb];W[ab];B[ac];W[gg];B[aa]C[Black captures the stone on ab and White resigns soon after.])")


@pytest.mark.parametrize(("name", "codec"), [("白".encode("gb2312"), "gb18030"), ("柯洁".encode("gb2312"), "gb18030"),
                                             ("Müller".encode("latin-1"), "cp1252")])
def test_fmt_11_a_short_cjk_name_in_an_ascii_file_is_read_in_its_cjk_charset(name: bytes, codec: str) -> None:
    """FMT-11: a GB2312 name of two bytes among English comments is too little for the detector, which names a
    Western charset (`°×`): the file's non-ASCII bytes, all byte pairs that read as Han characters, decide."""
    r = one(COMMENTED % name)
    assert r.encoding == codec
    assert r.black == name.decode(codec)
    assert [d.code for d in r.diagnostics] == ["charset-fallback"]


def test_fmt_11_cjk_is_chosen_only_when_every_non_ascii_byte_reads_as_it() -> None:
    from boardrecords.records.charset import cjk_codec

    assert cjk_codec(b"PB[\xb0\xd7]") == "gb18030"
    assert cjk_codec("PB[이세돌]".encode("cp949")) == "gb18030"  # a tie: GB2312 first (both read as their script)
    assert cjk_codec("PB[ㄱㄴ]".encode("cp949")) == "cp949"  # GB2312 reads these pairs as kana: only EUC-KR fits
    assert cjk_codec(b"PB[\xb0\xd7] C[caf\xe9]") is None  # a lone accented letter: a Western file
    assert cjk_codec(b"PB[plain]") is None
