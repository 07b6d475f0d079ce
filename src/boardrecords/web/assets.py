"""The files the web application ships: its templates and static assets, in the installed package."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def package_dir(name: str) -> Path:
    """A folder of the package boardrecords.web (templates, static)."""
    return Path(str(resources.files("boardrecords.web").joinpath(name)))


def replay_asset(name: str) -> str:
    """The replayer of `records html` (render/: replay.js, replay.css), for the game page."""
    return resources.files("boardrecords.render").joinpath(name).read_text(encoding="utf-8")
