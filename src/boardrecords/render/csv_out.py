"""CSV of rows of fields, the one writer of every listing's CSV, and the stored games' CSV with their JSON fields as
columns: each cell through safe_text.csv_cell, so that no cell is one a spreadsheet would evaluate and no control
character from a record is written.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..archive.answers import JSON_FIELDS, row_json
from .safe_text import csv_cell

if TYPE_CHECKING:
    from ..archive.core.models import GameRow


def dicts_csv(data: Sequence[Mapping[str, Any]], fields: Sequence[str] | None = None) -> str:
    """CSV of `data`, one row each, with `fields` as the columns (default: the first row's keys; no row, no
    header); no cell a spreadsheet would evaluate, no control character (safe_text.csv_cell): every CSV the
    commands write is made here or in crosstable.py, which escapes the same way."""
    buf = io.StringIO()
    if fields is None and data:
        fields = list(data[0])
    if fields is not None:
        w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows({k: csv_cell(v) for k, v in row.items()} for row in data)
    return buf.getvalue()


def rows_csv(found: Sequence[GameRow]) -> str:
    """The stored games as CSV, the JSON fields as columns (archive/answers.py: row_json)."""
    return dicts_csv([dict(row_json(r)) for r in found], None if found else list(JSON_FIELDS))
