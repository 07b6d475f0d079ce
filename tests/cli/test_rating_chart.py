"""The rating chart of docs/tournaments.md's example (`records ratings --player "Alice Martin" --svg alice.svg` on
the examples' archive) shows each rated day: a dot and its 95% interval inside the plot, for a history of one day
as for a longer one."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from boardrecords.archive.tournaments.ratings import Rating
from boardrecords.cli.main import app
from boardrecords.render.rating_chart import rating_svg

from ..shared import EXAMPLES

SVG = "{http://www.w3.org/2000/svg}"


def dots(svg: str) -> list[tuple[float, float]]:
    root = ET.fromstring(svg)
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    found = [(float(c.get("cx", "-1")), float(c.get("cy", "-1"))) for c in root.iter(f"{SVG}circle")
             if c.get("class") == "point"]
    assert all(0 < x < width and 0 < y < height for x, y in found), found
    return found


def test_the_docs_example_chart_shows_its_point(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    runner = CliRunner()
    assert runner.invoke(app, ["import", "-q", "--db", str(db), str(EXAMPLES)]).exit_code == 0
    done = runner.invoke(app, ["ratings", "--player", "Alice Martin", "--svg", str(tmp_path / "alice.svg"),
                               "--db", str(db)])
    assert done.exit_code == 0, done.output
    svg = (tmp_path / "alice.svg").read_text(encoding="utf-8")
    assert len(dots(svg)) == 1  # Alice Martin has one rated day in the examples
    (x, _), = dots(svg)
    assert 100 < x < 540  # in the middle of the axis, not on its edge
    assert '<line class="interval"' in svg


def test_a_longer_history_has_a_dot_for_each_day_on_its_line() -> None:
    day = dt.date(2024, 3, 1)
    rating = Rating("ann", "Ann", "go-ing", 20.0, 40.0, 3, day + dt.timedelta(days=9),
                    [(day, 0.0, 60.0), (day + dt.timedelta(days=3), 10.0, 50.0), (day + dt.timedelta(days=9), 20.0,
                                                                                    40.0)])
    svg = rating_svg([rating])
    points = dots(svg)
    assert len(points) == 3 and points == sorted(points) and points[0][1] > points[-1][1]  # later, higher
