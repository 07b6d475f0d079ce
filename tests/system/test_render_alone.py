"""The renderers both faces draw with (boardrecords.render) stand on their own: a process that draws an SVG
diagram, a numbered figure, the HTML replay page and a rating chart loads neither rich, nor typer, nor the command
(boardrecords.cli), nor the web application; and no module of the package imports them."""

from __future__ import annotations

import json
import subprocess
import sys

from ..shared import EXAMPLES, ROOT, imported_modules, package_modules

RENDER = ROOT / "src" / "boardrecords" / "render"
RECORD = EXAMPLES / "go" / "capture-and-resignation.rec"
FACES = ("rich", "typer", "fastapi", "starlette", "boardrecords.cli", "boardrecords.web")

DRAW = """
import datetime as dt
import json
import sys

from boardrecords.archive.tournaments.ratings import Rating
from boardrecords.records.reader import read_file
from boardrecords.render.figures import figure_ranges, figure_svg
from boardrecords.render.html_replay import html_page
from boardrecords.render.rating_chart import rating_svg
from boardrecords.render.svg import diagram_svg
from boardrecords.verifier.judging.analysis import analyse

data = analyse(read_file(sys.argv[1])[0])
first, last = figure_ranges(data)[0]
day = dt.date(2024, 3, 1)
rating = Rating("ann", "Ann", "go-ing", 1510.0, 40.0, 2, day + dt.timedelta(days=7),
                [(day, 1500.0, 60.0), (day + dt.timedelta(days=7), 1510.0, 40.0)])
drawn = {"diagram": diagram_svg(data, data.last), "figure": figure_svg(data, first, last),
         "page": html_page(data), "chart": rating_svg([rating])}
faces = sorted(m for m in sys.modules if m.partition(".")[0] in ("rich", "typer", "fastapi", "starlette")
               or m.startswith(("boardrecords.cli", "boardrecords.web")))
print(json.dumps({"drawn": drawn, "faces": faces, "moves": data.last}))
"""


def test_drawing_loads_neither_rich_nor_typer_nor_the_command():
    done = subprocess.run([sys.executable, "-c", DRAW, str(RECORD)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["faces"] == []
    drawn = out["drawn"]
    assert out["moves"] > 0
    assert f'data-move="{out["moves"]}"' in drawn["diagram"] and 'class="stone black"' in drawn["diagram"]
    assert 'data-first="1"' in drawn["figure"] and 'class="number"' in drawn["figure"]
    page = drawn["page"]
    assert page.startswith("<!DOCTYPE html>") and 'id="replay-data"' in page
    assert "// The replayer" in page  # replay.js, read from the package's files
    assert "<polyline" in drawn["chart"] and "Ann (Go (Simplified Ing Rules))" in drawn["chart"]


def test_no_render_module_imports_a_face_or_its_libraries():
    found = {}
    for module, path in package_modules(RENDER, "boardrecords.render").items():
        faces = {name for name in imported_modules(path, module)
                 if any(name == face or name.startswith(face + ".") for face in FACES)}
        if faces:
            found[module] = sorted(faces)
    assert found == {}


def test_render_imports_only_the_layers_below_it():
    """records, verifier and archive (and common, below every layer) and the standard library."""
    below = ("boardrecords.records", "boardrecords.verifier", "boardrecords.archive", "boardrecords.common",
             "boardrecords.render")
    found = {}
    for module, path in package_modules(RENDER, "boardrecords.render").items():
        above = {name for name in imported_modules(path, module)
                 if name.startswith("boardrecords") and not name.startswith(below)}
        if above:
            found[module] = sorted(above)
    assert found == {}
    outside = {name.partition(".")[0] for module, path in package_modules(RENDER, "boardrecords.render").items()
               for name in imported_modules(path, module) if not name.startswith("boardrecords")}
    assert outside <= set(sys.stdlib_module_names) | {"__future__"}
