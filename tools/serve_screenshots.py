"""Screenshots of `records serve` for the docs: `.venv/bin/python tools/serve_screenshots.py [OUT_DIR]`.

Imports the bundled examples into a fresh archive, with a small club league it writes beside them (four players,
a double round robin of short 9x9 games, one with variations and the players' clocks), so that a player's page has
opponents and openings to show; records a short game of each of the five games through the recording API; starts
`records serve` on a free port, and photographs the explorer, the games page, a game page, a game's variation, the
printable view, a player's page, an event's crosstable, a pattern with its dragged region and the recording pages
(the start page and each game being recorded) with headless Chromium (as the browser tests start it) into
docs/images/serve-*.png, at a desktop's width (1280 px) and the boards' pages also at a phone's (390 px:
serve-*-phone.png).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = str(Path(sys.executable).with_name("records"))
PAGES = {
    "serve-explorer.png": "explore?game=go&size=9&moves=E5",
    "serve-games.png": "games",
    "serve-game.png": "games/{game}#move=8",
    "serve-crosstable.png": "crosstable?event=Autumn+club+tournament",
    "serve-player.png": "players/Ann%20Lee",
    "serve-game-variation.png": "games/{league}?line=5.1#move=6",
    "serve-print.png": "games/{game}/print",
    "serve-patterns.png": "patterns?pattern=X./..&region=a6:b5&anchor=corner&game=cation&size=6&either-colour=true",
    "serve-patterns-go.png": "patterns?pattern=X..&anchor=corner&game=go&size=9&either-colour=true",
    "serve-record.png": "record",
    "serve-record-go.png": "record/{go}",
    "serve-record-conversion-go.png": "record/{conversion_go}",
    "serve-record-cation.png": "record/{cation}",
    "serve-record-quentin.png": "record/{quentin}",
    "serve-record-squer.png": "record/{squer}",
}
PHONE = ("serve-explorer.png", "serve-game.png", "serve-patterns.png", "serve-patterns-go.png", "serve-player.png",
         "serve-game-variation.png", "serve-record-go.png", "serve-record-cation.png")
PLAYERS = ("Ann Lee", "Bo Chen", "Cara Diaz", "Dev Patel")
# Three openings the league's games share (after them every game goes on the same way), in SGF points.
OPENINGS = (("ee", "cc", "gg"), ("ee", "gc", "cg"), ("cc", "gg", "ee"))
MIDDLE = ("cg", "gc", "dd", "ff", "fd", "df", "eg", "ge")
# The games being recorded in the shots: (game, size, moves as (colour or None, move)), each move through the API.
RECORDINGS = {
    "go": ("go", 9, [(None, m) for m in ["E5", "C3", "G7", "C7", "G3", "E3", "D4", "D3"]]),
    "conversion_go": ("conversion-go", 6, [("W", "C3"), ("B", "D4"), ("B", "C4")]),
    # the beginning of the conformance game cation-7401-8: a relocation is offered
    "cation": ("cation", 4, [(None, m) for m in ["cd", "bd", "ab", "cb", "bb", "bc", "ad", "aa", "cc"]]),
    "quentin": ("quentin", 6, [(None, "c3"), (None, "swap"), (None, "d4"), (None, "c4")]),
    # the beginning of squer-7401-2: a sweep is offered
    "squer": ("squer", 4, [(None, m) for m in ["cb", "db", "ac", "cd", "dd", "ba", "ab", "ca", "dc", "bd", "bb",
                                               "cc", "da"]]),
}


def recordings(url: str) -> dict[str, int]:
    """The games of RECORDINGS recorded through the API (from this machine, as the read-only default allows): their
    ids by name."""
    import urllib.request

    def post(path: str, body: dict[str, object]) -> dict[str, object]:
        request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            data: dict[str, object] = json.load(answer)
            return data

    ids = {}
    for name, (game, size, moves) in RECORDINGS.items():
        made = post("api/recordings", {"game": game, "size": size, "black": "Ann Lee", "white": "Bo Chen",
                                       "event": "Club night", "round": "3"})
        ids[name] = int(str(made["id"]))
        for colour, move in moves:
            post(f"api/recordings/{ids[name]}/moves", {"move": move, **({"colour": colour} if colour else {})})
    return ids


WIDTHS = {"": (1280, 900), "-phone": (390, 844)}


def league(folder: Path) -> None:
    """The club league's records: each pair of players twice, once with each colour; the sixth game with two
    variations at move 6 and the players' clocks (BL / WL, seconds left)."""
    pairs = [(b, w) for b in PLAYERS for w in PLAYERS if b != w]
    for n, (black, white) in enumerate(pairs):
        nodes = []
        for i, point in enumerate((*OPENINGS[n % len(OPENINGS)], *MIDDLE)):
            colour = "BW"[i % 2]
            clock = f"{colour}L[{900 - 37 * i}]" if n == 5 else ""
            nodes.append(f";{colour}[{point}]{clock}")
        line = "".join(nodes)
        if n == 5:
            nodes[5] += "C[The usual move; the variations try the other side.]"
            line = ("".join(nodes[:5]) + "(" + "".join(nodes[5:]) + ")(;W[cd]C[A quieter move.];B[dc])"
                    "(;W[hh])")
        winner = "B" if (PLAYERS.index(black) + n) % 3 else "W"
        text = (f"(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[7]PB[{black}]PW[{white}]EV[Tuesday league]RO[{n // 2 + 1}]"
                f"DT[2024-09-{n + 3:02d}]RE[{winner}+R]{line})\n")
        (folder / f"league-{n + 1:02d}.sgf").write_text(text, encoding="utf-8")


def main(out: Path) -> int:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "a.db"
        # From the repository's root, so that the pages name the files as examples/... wherever it is checked out.
        subprocess.run([RECORDS, "import", "-q", "--db", str(db), "examples"], check=False, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
        (Path(tmp) / "league").mkdir()
        league(Path(tmp) / "league")
        subprocess.run([RECORDS, "import", "-q", "--db", str(db), "league"], check=False, cwd=tmp,
                       stdout=subprocess.DEVNULL)
        proc = subprocess.Popen([RECORDS, "serve", "--db", str(db), "--port", "0"], stderr=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, text=True)
        assert proc.stderr is not None
        found = re.search(r"(http://\S+/)", proc.stderr.readline())
        assert found, "records serve did not start"
        url = found.group(1)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    "--window-size=1280,900", f"--user-data-dir={tmp}/profile"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        try:
            driver.get(url + "api/search?game=go&sort=-moves&limit=1")
            game = driver.execute_script("return JSON.parse(document.body.innerText)[0].id;")
            driver.get(url + "api/search?event=Tuesday+league&round=3")
            played = driver.execute_script("return JSON.parse(document.body.innerText);")
            variations = next(g["id"] for g in played if g["source_file"].endswith("league-06.sgf"))
            ids = recordings(url)
            for suffix, (width, height) in WIDTHS.items():
                driver.set_window_size(width, height)
                for name, path in PAGES.items():
                    if suffix and name not in PHONE:
                        continue
                    shot = out / name.replace(".png", f"{suffix}.png")
                    driver.get(url + path.format(game=game, league=variations, **ids))
                    time.sleep(0.3)
                    driver.save_screenshot(str(shot))
                    print(shot)
        finally:
            driver.quit()
            proc.terminate()
            proc.wait(timeout=20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"))
