"""Rendered panels shared by the apps of one process (the SSH server).

Every screen of a game redraws the same nations table and rondel after each move: five
connections, five identical renderings (Rich's Table and text wrapping are a good part of a
redraw's CPU). A panel whose lines depend only on its key (``Panel.SHARED``) looks them up
here first, by its kind, its key, its size and its style; the first app renders, the others
reuse the lines. Bounded: the oldest entries go first.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


class SharedRenders:
    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._lines: OrderedDict[Any, list[Any]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Any) -> list[Any] | None:
        lines = self._lines.get(key)
        if lines is None:
            self.misses += 1
        else:
            self.hits += 1
            self._lines.move_to_end(key)
        return lines

    def put(self, key: Any, lines: list[Any]) -> None:
        self._lines[key] = lines
        self._lines.move_to_end(key)
        while len(self._lines) > self.size:
            self._lines.popitem(last=False)

    def __len__(self) -> int:
        return len(self._lines)
