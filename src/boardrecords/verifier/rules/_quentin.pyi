from collections.abc import Sequence
from typing import Any

def play_run(nodes: Sequence[Any], start: int, size: int, cells: bytearray, adj: bytearray, turn: int,
             swapped: bool, black: Any, white: Any, place: Any,
             idents: tuple[str, ...]) -> tuple[int, int, int, int, int]: ...
