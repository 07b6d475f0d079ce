"""The numbers input is bounded by in every layer, kept apart so that a command checks them without loading the
layers that use them."""

from __future__ import annotations

DB_INT_MAX = 2**63 - 1  # the largest integer SQLite and PostgreSQL (bigint) compare with: ids, sizes, limits
