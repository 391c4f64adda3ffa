"""Textual's rendered lines get their caches only when used, and never hold themselves
(imperial_tui/app/strip_caches.py)."""

from __future__ import annotations

import sys

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from imperial_tui.app.strip_caches import CACHED, lazy_strip_caches

RED = Style(color="red")


def line() -> Strip:
    return Strip([Segment("Wien", RED), Segment(" - "), Segment("Budapest", RED)])


def caches(strip: Strip) -> dict[str, object]:
    return {slot: getattr(strip, slot) for slot, _ in CACHED.values()}


def test_a_new_line_has_no_cache() -> None:
    lazy_strip_caches()
    lazy_strip_caches()  # twice: the methods are wrapped once
    assert set(caches(line()).values()) == {None}
    assert Strip.crop.__wrapped__.__name__ == "crop"  # type: ignore[attr-defined]
    assert not hasattr(Strip.crop.__wrapped__, "__wrapped__")  # type: ignore[attr-defined]


def test_a_crop_is_kept_and_answered_again_from_the_cache() -> None:
    lazy_strip_caches()
    strip = line()
    first = strip.crop(0, 4)
    assert first.text == "Wien" and first.cell_length == 4
    assert strip.crop(0, 4) is first
    assert strip._crop_cache is not None and len(strip._crop_cache) == 1
    assert strip.divide([4, 7, 15])[2].text == "Budapest"
    assert strip.divide([4, 7, 15]) is strip.divide([4, 7, 15])
    assert strip.apply_style(Style(bold=True)) is strip.apply_style(Style(bold=True))
    assert strip.adjust_cell_length(20).cell_length == 20
    assert strip.crop_extend(10, 18, None).text == "apest   "  # padded to 8


def test_a_line_is_never_kept_in_its_own_cache() -> None:
    """The whole line as its own crop, division, length or padded crop: the same line back,
    no cache left behind, no reference to itself (without the change each is a cycle that only
    a full garbage collection frees)."""
    lazy_strip_caches()
    strip = line()
    references = sys.getrefcount(strip)
    n = strip.cell_length
    assert strip.crop(0, n) is strip
    assert strip.divide([n]) == [strip] and strip.divide([n])[0] is strip
    assert strip.adjust_cell_length(n) is strip
    assert strip.crop_extend(0, n, None) is strip
    assert sys.getrefcount(strip) == references
    assert set(caches(strip).values()) == {None}


def test_the_cache_keeps_textuals_size() -> None:
    lazy_strip_caches()
    strip = line()
    crops = [strip.crop(0, end) for end in range(1, 15)]  # 14 different crops, 16 kept
    assert all(strip.crop(0, end) is crop for end, crop in zip(range(1, 15), crops, strict=True))
    for end in range(1, 5):
        strip.crop(1, end)  # 18 asked in all: the first two are dropped
    assert strip._crop_cache is not None and len(strip._crop_cache) == 16
    assert strip.crop(0, 1) is not crops[0]
