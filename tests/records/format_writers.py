"""Writers of Tygem GIB, WBaduk NGF and Pandanet UGF text, for the tests only: a Go game (19x19 for GIB, any size for
NGF and UGF) written as those servers write it, so that properties can read generated games in every format.

The layouts are those the readers document (src/boardrecords/records/formats/): GIB's header and `STO` lines, NGF's
twelve header lines and `PM` lines, UGF's `[Header]` and `[Data]`.
"""

from __future__ import annotations

from dataclasses import dataclass

# (colour "B" or "W", point as (column, row from the top), or None for a pass)
Move = tuple[str, tuple[int, int] | None]


@dataclass(frozen=True)
class Game:
    size: int
    moves: list[Move]
    black: str = "Kim Minho"
    white: str = "Li Wei"
    black_rank: str = "3D"
    white_rank: str = "5D"
    komi_tenths: int = 65  # 6.5
    result: str = "W+R"  # B+R, W+R, B+T, W+T


_GIB_CODES = {"B+R": 3, "W+R": 4, "B+T": 7, "W+T": 8}


def gib(game: Game) -> bytes:
    """A Tygem GIB file (19x19 only, as Tygem plays; passes are not written, as Tygem writes none)."""
    assert game.size == 19
    head = [
        "\\HS",
        f"\\[GAMEBLACKNAME={game.black} ({game.black_rank})\\]",
        f"\\[GAMEWHITENAME={game.white} ({game.white_rank})\\]",
        "\\[GIBOKIND=Global\\]",
        f"\\[GAMEINFOMAIN=GBKIND:3,GTYPE:0,GCDT:0,GTIME:1200-30-3,GRLT:{_GIB_CODES[game.result]},ZIPSU:0,"
        f"LINECNT:19,GONGJE:{game.komi_tenths},\\]",
        f"\\[GAMETAG=S1,R1,D0,G{game.komi_tenths},W{_GIB_CODES[game.result]},Z0,T30-3-1200,C2024:06:04:12:00,"
        "I:none\\]",
        "\\HE",
        "\\GS",
        "2 1 0",
        "INI 0 1 0 &4",
    ]
    for number, (colour, point) in enumerate(game.moves, 1):
        assert point is not None
        head.append(f"STO 0 {number} {1 if colour == 'B' else 2} {point[0]} {point[1]}")
    head.append("\\GE")
    return ("\r\n".join(head) + "\r\n").encode("utf-8")


def ngf(game: Game) -> bytes:
    """A WBaduk NGF file: the twelve header lines, then `PM` moves (`AA` a pass)."""
    result = {"B+R": "Black wins by resignation!", "W+R": "White wins by resignation!",
              "B+T": "White loses on time!", "W+T": "Black loses on time!"}[game.result]
    lines = ["Rated game", str(game.size), f"{game.white}      {game.white_rank}",
             f"{game.black}      {game.black_rank}", "www.wbaduk.com", "0", "0", str(game.komi_tenths // 10),
             "20240604 [12:00]", "5", result, str(len(game.moves))]
    for number, (colour, point) in enumerate(game.moves, 1):
        digits = chr(ord("A") + number // 26) + chr(ord("A") + number % 26)
        spot = "AA" if point is None else chr(ord("B") + point[0]) + chr(ord("B") + point[1])
        lines.append(f"PM{digits}{colour}{spot}{spot[::-1]}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def ugf(game: Game) -> bytes:
    """A Pandanet UGF file: `[Header]`, then `[Data]` (`YA` a pass; rows counted from the bottom)."""
    winner = game.result.replace("+R", ",C").replace("+T", ",T")
    lines = ["[Header]", "Ver=UGF3,200", "Lang=UTF-8", "Title=Club league,", "Date=2024/06/04,12:00:00",
             "Rule=JPN", f"Size={game.size}", f"Hdcp=0,{game.komi_tenths / 10:.2f}", f"Winner={winner}",
             f"Moves={len(game.moves)}", f"PlayerB={game.black},{game.black_rank.lower()},,",
             f"PlayerW={game.white},{game.white_rank.lower()},,", "[Data]"]
    for number, (colour, point) in enumerate(game.moves, 1):
        spot = "YA" if point is None else chr(ord("A") + point[0]) + chr(ord("A") + game.size - 1 - point[1])
        lines.append(f"{spot},{colour}1,{number},0")
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


WRITERS = {"gib": gib, "ngf": ngf, "ugf": ugf}
