from collections.abc import Sequence
from typing import Any

def play_run(nodes: Sequence[Any], start: int, size: int, cells: list[int], parent: list[int], mask: list[int],
             gsize: list[int], crosscuts: set[int], latest: int, black_to_move: bool, black: Any, white: Any,
             place: Any, idents: tuple[str, ...]) -> tuple[int, int, int, int, bool, bool, bool]: ...
