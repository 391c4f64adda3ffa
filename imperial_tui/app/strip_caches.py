"""Textual's rendered lines without seven caches each.

Every rendered line (Textual's ``Strip``) is made with seven small caches of its own (for
its crops, divisions, styles, filters, lengths, padded crops and offsets), although most
lines are drawn once and never asked for any of them: seven more objects per line for the
garbage collector to walk, and about a kilobyte. Some of them also hold the line itself (a
crop or division that is the whole line, a length it already has): a reference cycle, so
that such a line is freed only by a collection of the oldest generation.

``lazy_strip_caches()`` gives a line a cache only when one of those operations keeps a
result in it, and never keeps the line in its own cache. Measured with
``benchmarks/serve_cpu.py`` (five apps in one process, one game; alternating runs):
17.6-17.9 -> 12.4-12.8 ms of CPU per panel switch, 58-60 -> 51-52 ms per move, the same
bytes sent; the whole test suite 245 -> 232 s of CPU. Textual is pinned
exactly (pyproject.toml), so the methods wrapped are the ones read here;
``tests/test_strip_caches.py`` checks what they return and keep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

# method -> (its cache's slot, the cache's size as Textual makes it)
CACHED: dict[str, tuple[str, int]] = {
    "divide": ("_divide_cache", 4),
    "crop": ("_crop_cache", 16),
    "apply_style": ("_style_cache", 16),
    "apply_filter": ("_filter_cache", 4),
    "adjust_cell_length": ("_line_length_cache", 4),
    "crop_extend": ("_crop_extend_cache", 4),
    "apply_offsets": ("_offsets_cache", 4),
}


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """``Strip.__init__`` with no cache made yet."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._divide_cache = None  # type: ignore[assignment]
    self._crop_cache = None  # type: ignore[assignment]
    self._style_cache = None  # type: ignore[assignment]
    self._filter_cache = None  # type: ignore[assignment]
    self._line_length_cache = None  # type: ignore[assignment]
    self._crop_extend_cache = None  # type: ignore[assignment]
    self._offsets_cache = None  # type: ignore[assignment]
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _lazily(method: Callable[..., Any], slot: str, size: int) -> Callable[..., Any]:
    """``method`` with its cache made on first use and dropped while it holds nothing."""
    member = Strip.__dict__[slot]  # the slot's descriptor: no attribute lookup by name
    get, put = member.__get__, member.__set__

    def cached(self: Strip, *args: Any, **kwargs: Any) -> Any:
        cache = get(self)
        if cache is None:
            cache = FIFOCache(size)
            put(self, cache)
        result = method(self, *args, **kwargs)
        if result is self or (type(result) is list and len(result) == 1 and result[0] is self):
            kept = cache._cache  # the line itself: not kept in its own cache (a cycle)
            for key in [key for key, value in kept.items() if value is result]:
                del kept[key]
        if not cache._cache:
            put(self, None)
        return result

    cached.__name__ = method.__name__
    cached.__qualname__ = method.__qualname__
    cached.__doc__ = method.__doc__
    cached.__wrapped__ = method  # type: ignore[attr-defined]
    return cached


def lazy_strip_caches() -> None:
    """Give ``Strip`` its caches lazily, for this process (idempotent: each app calls it)."""
    if Strip.__init__ is _init:
        return
    for name, (slot, size) in CACHED.items():
        setattr(Strip, name, _lazily(getattr(Strip, name), slot, size))
    Strip.__init__ = _init  # type: ignore[method-assign]
