"""Chains of the connection games (GEN-4): Black joins row 0 to row N-1, White column 0 to column N-1."""

from __future__ import annotations

from collections.abc import Sequence

from .engine import BLACK, WHITE


def has_chain(cells: Sequence[int], size: int, code: int) -> bool:
    """Whether stones of `code` (BLACK or WHITE) on a flat board (index row*size+col) form a chain."""
    if code == BLACK:
        starts = [c for c in range(size) if cells[c] == code]
        is_goal = _last_row(size)
    elif code == WHITE:
        starts = [r * size for r in range(size) if cells[r * size] == code]
        is_goal = _last_col(size)
    else:
        raise ValueError(code)
    seen = set(starts)
    stack = list(starts)
    while stack:
        i = stack.pop()
        if is_goal(i):
            return True
        r, c = divmod(i, size)
        for j in (i - size if r else -1, i + size if r < size - 1 else -1, i - 1 if c else -1,
                  i + 1 if c < size - 1 else -1):
            if j >= 0 and j not in seen and cells[j] == code:
                seen.add(j)
                stack.append(j)
    return False


def chain_points(cells: Sequence[int], size: int, code: int) -> set[int]:
    """The stones of every chain of `code` (for highlighting a won game); empty when there is none."""
    out: set[int] = set()
    seen: set[int] = set()
    for start in range(size * size):
        if cells[start] != code or start in seen:
            continue
        group = [start]
        seen.add(start)
        k = 0
        while k < len(group):
            i = group[k]
            k += 1
            r, c = divmod(i, size)
            for j in (i - size if r else -1, i + size if r < size - 1 else -1, i - 1 if c else -1,
                      i + 1 if c < size - 1 else -1):
                if j >= 0 and j not in seen and cells[j] == code:
                    seen.add(j)
                    group.append(j)
        if code == BLACK:
            rows = {i // size for i in group}
            joined = 0 in rows and size - 1 in rows
        else:
            cols = {i % size for i in group}
            joined = 0 in cols and size - 1 in cols
        if joined:
            out.update(group)
    return out


def _last_row(size: int):
    lo = size * (size - 1)
    return lambda i: i >= lo


def _last_col(size: int):
    return lambda i: i % size == size - 1
