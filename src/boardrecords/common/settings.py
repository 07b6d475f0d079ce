"""The settings of a run: which archive, the limits of what is read, which indexes an import keeps, which pattern
scan runs. The library takes them as a `Settings` value (default: `DEFAULTS`), passed down by its callers and to
worker processes as data; only the faces read them from the environment (`from_environment`): the `records`
command when a command starts, and `records serve`.

| variable | setting | meaning |
| --- | --- | --- |
| RECORDS_DB | `db` | the archive when no `--db` is given (default: records.db in the current folder) |
| RECORDS_MAX_FILE_SIZE | `max_file_size` | the largest file read, in bytes or with K, M, G; 0: no cap |
| RECORDS_MAX_RECORDS | `max_records` | the most game records one file may hold; 0: no limit |
| RECORDS_PATTERNS | `patterns` | `off` (or 0, no): an import keeps no pattern change lists |
| RECORDS_POSITION_INDEX | `position_index` | `0`: an import fills no position index |
| RECORDS_SCAN | `plain_scan` | `python` (or plain): the pattern search runs the plain scan, not the compiled one |
| RECORDS_HEAVY_SECONDS | `heavy_seconds` | a served heavy question's time budget, seconds (default 10); 0: none |
| RECORDS_HEAVY_APPEARANCES | `heavy_appearances` | the pattern appearances it may hold (default 500000); 0: no cap |
| RECORDS_HEAVY_WORKERS | `heavy_workers` | heavy questions answered at once (default: the CPUs but one, at least 1) |
| RECORDS_HEAVY_QUEUE | `heavy_queue` | how many more wait, each at most its time budget (default 8); the rest: 503 |
| RECORDS_HEAVY_APART | `heavy_apart` | `off` (0, no): the Python-bound heavy questions in the asker's threads |
| RECORDS_TENUKI | `tenuki` | the tenuki count of a pattern search: `between` (default) or `kombilo` (TENUKI_GAPS) |
| RECORDS_PATTERN_MEMORY | `pattern_memory` | bytes of change lists kept for repeated pattern searches (256M); 0: none |

The heavy questions (docs/serve.md): pattern searches, player-name wildcards and text searches, explorations and
position searches with filters beyond the game and size, and the listings of players, events and ratings. The
budgets are the server's: the commands run every question to its end unless they give an `Archive` a budget.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import InputError

ENV_DB = "RECORDS_DB"
ENV_MAX_FILE_SIZE = "RECORDS_MAX_FILE_SIZE"
ENV_MAX_RECORDS = "RECORDS_MAX_RECORDS"
ENV_PATTERNS = "RECORDS_PATTERNS"
ENV_POSITION_INDEX = "RECORDS_POSITION_INDEX"
ENV_SCAN = "RECORDS_SCAN"
ENV_HEAVY_SECONDS = "RECORDS_HEAVY_SECONDS"
ENV_HEAVY_APPEARANCES = "RECORDS_HEAVY_APPEARANCES"
ENV_HEAVY_WORKERS = "RECORDS_HEAVY_WORKERS"
ENV_HEAVY_QUEUE = "RECORDS_HEAVY_QUEUE"
ENV_HEAVY_APART = "RECORDS_HEAVY_APART"
ENV_TENUKI = "RECORDS_TENUKI"
ENV_PATTERN_MEMORY = "RECORDS_PATTERN_MEMORY"

DEFAULT_MAX_FILE_SIZE = 3 * 1024 * 1024
DEFAULT_MAX_RECORDS = 100_000
DEFAULT_HEAVY_SECONDS = 10.0
DEFAULT_HEAVY_APPEARANCES = 500_000
# One CPU is left to the quick questions: heavy ones on every CPU made the explorer's p99 ten times its idle one.
DEFAULT_HEAVY_WORKERS = max(1, (os.cpu_count() or 2) - 1)
DEFAULT_HEAVY_QUEUE = 8
DEFAULT_PATTERN_MEMORY = 256 * 1024 * 1024

# A pattern's continuation in its region (the first move played there after an appearance) is counted as tenuki
# when it came more than this many moves after the appearance. `between`: when any move came between (elsewhere,
# a pass...); `kombilo`: as Kombilo counts, only when two or more came between (one move elsewhere by the
# opponent and the answer in the region by the same colour is no tenuki there).
TENUKI_GAPS = {"between": 1, "kombilo": 2}
DEFAULT_TENUKI = "between"

_SIZE = re.compile(r"\s*(\d+)\s*([kmg]?)i?b?\s*", re.I)
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


class SettingError(InputError):
    """An environment variable holds something that is not a setting: a usage error (an InputError), never read as
    the default."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What a run is set to (the module's table says which variable sets each one)."""

    db: str | None = None  # None: records.db in the current folder
    max_file_size: int | None = DEFAULT_MAX_FILE_SIZE  # None: no cap
    max_records: int | None = DEFAULT_MAX_RECORDS  # None: no limit
    patterns: bool = True
    position_index: bool = True
    plain_scan: bool = False
    heavy_seconds: float | None = DEFAULT_HEAVY_SECONDS  # None: no time budget
    heavy_appearances: int | None = DEFAULT_HEAVY_APPEARANCES  # None: no cap
    heavy_workers: int = DEFAULT_HEAVY_WORKERS
    heavy_queue: int = DEFAULT_HEAVY_QUEUE
    heavy_apart: bool = True  # budgeted questions that work in Python answered by helper processes (archive/apart.py)
    tenuki: str = DEFAULT_TENUKI  # a key of TENUKI_GAPS
    pattern_memory: int = DEFAULT_PATTERN_MEMORY  # bytes of change lists kept for repeated searches; 0: none

    @classmethod
    def from_environment(cls, env: Mapping[str, str]) -> Settings:
        """The settings the variables of `env` give (the others: their defaults); SettingError for a limit that is
        no setting."""
        return cls(db=env.get(ENV_DB) or None, max_file_size=max_file_size(env.get(ENV_MAX_FILE_SIZE)),
                   max_records=max_records(env.get(ENV_MAX_RECORDS)),
                   patterns=env.get(ENV_PATTERNS, "").strip().lower() not in ("off", "0", "no"),
                   position_index=env.get(ENV_POSITION_INDEX, "1") != "0",
                   plain_scan=env.get(ENV_SCAN, "").strip().lower() in ("python", "plain"),
                   heavy_seconds=seconds(ENV_HEAVY_SECONDS, env.get(ENV_HEAVY_SECONDS), DEFAULT_HEAVY_SECONDS),
                   heavy_appearances=count(ENV_HEAVY_APPEARANCES, env.get(ENV_HEAVY_APPEARANCES),
                                           DEFAULT_HEAVY_APPEARANCES),
                   heavy_workers=count(ENV_HEAVY_WORKERS, env.get(ENV_HEAVY_WORKERS), DEFAULT_HEAVY_WORKERS,
                                       least=1) or DEFAULT_HEAVY_WORKERS,
                   heavy_queue=count(ENV_HEAVY_QUEUE, env.get(ENV_HEAVY_QUEUE), DEFAULT_HEAVY_QUEUE) or 0,
                   heavy_apart=env.get(ENV_HEAVY_APART, "").strip().lower() not in ("off", "0", "no"),
                   tenuki=tenuki_rule(env.get(ENV_TENUKI)),
                   pattern_memory=pattern_memory(env.get(ENV_PATTERN_MEMORY)))


DEFAULTS = Settings()


def byte_size(name: str, raw: str | None, default: int, zero: str) -> int:
    """The bytes a variable's value gives: a whole number, or one with K, M or G (unset or blank: `default`);
    SettingError for anything else, saying what 0 means (`zero`)."""
    if raw is None or not raw.strip():
        return default
    m = _SIZE.fullmatch(raw)
    if m is None:
        raise SettingError(f"{name}={raw} is not a size: write a whole number of bytes, or one with K, M or G "
                           f"(64K, 16M, 1G), or 0 {zero}")
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


def max_file_size(raw: str | None) -> int | None:
    """The cap on one file's size in bytes (None: no cap) that a value of RECORDS_MAX_FILE_SIZE gives."""
    return byte_size(ENV_MAX_FILE_SIZE, raw, DEFAULT_MAX_FILE_SIZE, "for no cap") or None


def pattern_memory(raw: str | None) -> int:
    """The bytes of change lists an archive may keep in memory (0: none) that a value of RECORDS_PATTERN_MEMORY
    gives."""
    return byte_size(ENV_PATTERN_MEMORY, raw, DEFAULT_PATTERN_MEMORY, "to keep none")


def max_records(raw: str | None) -> int | None:
    """The most game records one file may hold (None: no limit) that a value of RECORDS_MAX_RECORDS gives."""
    return count(ENV_MAX_RECORDS, raw, DEFAULT_MAX_RECORDS, what="a number of records")


def count(name: str, raw: str | None, default: int, *, what: str = "a number", least: int = 0) -> int | None:
    """The whole number a variable's value gives (unset or blank: `default`; 0: None, no limit); SettingError for
    anything else, or for a number below `least` other than 0."""
    text = (raw or "").strip().replace("_", "")
    if not text:
        return default
    if not text.isascii() or not text.isdigit() or 0 < int(text) < least:
        raise SettingError(f"{name}={raw} is not {what}: write a whole number, or 0 for no limit")
    return int(text) or None


def seconds(name: str, raw: str | None, default: float) -> float | None:
    """The seconds a variable's value gives (unset or blank: `default`; 0: None, no limit); SettingError for
    anything but a number of seconds."""
    text = (raw or "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value < 0:
        raise SettingError(f"{name}={raw} is not a number of seconds: write one such as 10 or 2.5, or 0 for no "
                           "limit")
    return value or None


def tenuki_rule(raw: str | None) -> str:
    """The name of the tenuki count (a key of TENUKI_GAPS) a value of RECORDS_TENUKI (or an option) gives; empty or
    None: the default."""
    text = (raw or "").strip().lower()
    if not text:
        return DEFAULT_TENUKI
    if text not in TENUKI_GAPS:
        raise SettingError(f"tenuki {raw!r} is not a tenuki count: write " + " or ".join(TENUKI_GAPS))
    return text
