"""The EGD's h9 of an imported tournament, line for line against the one derived by hand from OpenGotha's rules
(archive/tournaments/mcmahon.py says them), and the standings' scores on their own."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords import Archive
from boardrecords.archive.tournaments.mcmahon import h9, standings
from boardrecords.archive.tournaments.opengotha import parse_tournament
from boardrecords.cli.main import app
from boardrecords.common.errors import InputError

SMALL = (Path(__file__).parent / "tournament_files" / "small.xml").read_bytes()

# Derived by hand. Settings: bar 2D, floor 20K, zero 30K, a bye 2 half points, an absence 1, rounded down.
# Starting McMahon scores (rank - zero, held between floor - zero = 10 and bar - zero = 31): Adams 3D 31 (held at
# the bar), Berg 1K 29, Côté 2K 28, Do 5K 25, Ek 5K 25.
# Round 1: Adams (W) beats Berg; Do (B, 2 stones) beats Côté by forfeit; Ek has the bye.
# Round 2: Berg (W) - Côté jigo; Ek (W) - Adams both lose; Do has the bye.
# Round 3: Adams - Do of unknown colours, Do wins; Ek (W) - Côté not entered; Berg has the bye.
# MMS: Adams 31+1 = 32; Berg 29+0+½+1 = 30½; Côté 28+0+½+0 = 28½; Do 25+1+1+1 = 28; Ek 25+1+0+0 = 26.
# SOS (opponent's MMS, +handicap as White, -handicap as Black; own start score for a round without a game):
#   Adams 30½ + 26 + 28 = 84½; Berg 32 + 28½ + 29 = 89½; Côté (28+2) + 30½ + 26 = 86½;
#   Do (28½-2) + 25 + 32 = 83½; Ek 25 + 32 + 28½ = 85½.
# SOSOS (opponent's SOS; own start score x 3 rounds for a round without a game):
#   Adams 89½ + 85½ + 83½ = 258½; Berg 84½ + 86½ + 87 = 258; Côté 83½ + 89½ + 85½ = 258½;
#   Do 86½ + 75 + 84½ = 246; Ek 75 + 84½ + 86½ = 246.
# Places by MMS, then SOS, then SOSOS: Adams 1, Berg 2, Côté 3, Do 4, Ek 5.
EXPECTED = """\
; EV[Small Open 2024]
; PC[Berlin]
; DT[2024-05-04,2024-05-05]
; HA[h1]
; KM[6.5]
; Pl Name Rk Co Club MMS SOS SOSOS 1 2 3
   1 Adams Alice  3d DE Ber    32  84.5  258.5  2+/w0    5-/b0    4-/?0  |12345678
   2 Berg Björn   1k US NYC  30.5  89.5    258  1-/b0    3=/w0    0+
   3 Côté Chloé   2k FR 75Al 28.5  86.5  258.5  4-!w2    2=/b0    5?/b0
   4 Do Dan       5k DE Ber    28  83.5    246  3+!b2    0+       1+/?0  |23456789
   5 Ek Eve       5k SE -      26  85.5    246  0+       1-/w0    3?/w0
"""


def test_h9_line_for_line() -> None:
    assert h9(parse_tournament(SMALL)).splitlines() == EXPECTED.splitlines()


def _edited(old: str, new: str) -> bytes:
    text = SMALL.decode("utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


def test_absence_and_rounding() -> None:
    """Ek absent in round 3 (the game removed): an absence is half a point, and with a bye's whole point the 1½
    is rounded down to 1; without rounding it stays 1½."""
    data = _edited('participating="11111111111111111111" rank="5K" rating="1540"',
                   'participating="11011111111111111111" rank="5K" rating="1540"')
    data = data.replace(b'<Game blackPlayer="C\xc3\x94T\xc3\x89CHLO\xc3\x89" handicap="0" knownColor="true" '
                        b'result="RESULT_UNKNOWN" roundNumber="3" tableNumber="2" whitePlayer="EKEVE"/>\n', b"")
    ek = {s.player.name: s for s in standings(parse_tournament(data))}["Ek"]
    assert ek.participation == ["bye", "paired", "absent"]
    assert ek.mms2 == 2 * 25 + 2  # 25 + 1 (bye and absence, 1½ rounded down)
    unrounded = {s.player.name: s for s in standings(parse_tournament(
        data.replace(b'genRoundDownNBWMMS="true"', b'genRoundDownNBWMMS="false"')))}["Ek"]
    assert unrounded.mms2 == 2 * 25 + 3
    line = next(x for x in h9(parse_tournament(data)).splitlines() if "Ek Eve" in x)
    assert line.split()[-1] == "0="  # the absent round as its points give it


def test_archive_and_cli(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    with Archive(db, create=True) as archive:
        archive.import_tournament(SMALL)
        assert archive.export_tournament("Small Open 2024") == EXPECTED
        with pytest.raises(InputError, match="no tournament format 'tou'"):
            archive.export_tournament("Small Open 2024", "tou")
    result = CliRunner().invoke(app, ["tournament", "export", "small-open-2024", "--format", "h9", "--db", db])
    assert result.exit_code == 0 and result.stdout == EXPECTED


def test_a_player_without_game_or_bye_is_left_out() -> None:
    """OpenGotha's h9 lists the players who took part (a game or a bye): one registered who never played is left
    out, and the others' places and opponents' numbers stay as they are."""
    data = _edited("</Players>", '<Player agaExpirationDate="" agaId="" club="" country="NO" egfPin="34567890" '
                                 'ffgLicence="" ffgLicenceStatus="" firstName="Fay" grade="1D" name="Fu" '
                                 'participating="00000000000000000000" rank="1D" rating="2100" ratingOrigin="INI" '
                                 'registeringStatus="FIN" smmsCorrection="0"/>\n</Players>')
    found = parse_tournament(data)
    assert "Fu" in {s.player.name for s in standings(found)}
    assert h9(found).splitlines() == EXPECTED.splitlines()
    nobody = parse_tournament(data.replace(b"<ByePlayer ", b"<Ignored ").replace(b"<Game ", b"<Ignored "))
    with pytest.raises(InputError, match="no game and no bye yet"):
        h9(nobody)
