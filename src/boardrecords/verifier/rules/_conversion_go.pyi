from collections.abc import Sequence
from typing import Any

def play_run(nodes: Sequence[Any], start: int, size: int, cells: bytearray, images: bytes, sides: bytes,
             runs: Any, turn: int, swapped: bool, last_play: int, black: Any, white: Any, place: Any,
             idents: tuple[str, ...]) -> tuple[int, int, int, int, int]: ...
