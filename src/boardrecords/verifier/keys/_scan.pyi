from collections.abc import Callable, Iterable, Sequence
from typing import Any

class Scanner:
    def __init__(self, size: int, families: Sequence[tuple[Sequence[tuple[int, int]], bytes, dict[int, int]]],
                 needs: Sequence[Sequence[tuple[int, int]]], regions: Sequence[Sequence[int]]) -> None: ...
    def possible(self, rows: Iterable[Sequence[Any]]) -> list[int]: ...
    def lines(self, rows: Iterable[Sequence[Any]]
              ) -> list[tuple[int, list[tuple[int, int, int, int, int, int, int]]]]: ...

def tally(lines: Iterable[tuple[int, list[tuple[int, int, int, int, int, int, int]]]], plies: dict[int, int],
          winners: dict[int, str | None], swapped: bytes, gap: int, region_of: Callable[[int, int, int], int],
          next_of: Callable[[int, int, int], int]
          ) -> tuple[list[tuple[int, int, int, int, int]], list[tuple[int, int, int, int, int]]]: ...
