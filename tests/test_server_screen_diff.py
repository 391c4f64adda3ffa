"""ScreenDiff sends only changed cells: whatever Textual writes, a terminal that receives the
filtered stream shows exactly what it would show with the full stream."""

from __future__ import annotations

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from imperial_tui.server.screen_diff import ScreenDiff

W, H = 30, 8
STYLES = ["", "\x1b[1m", "\x1b[38;5;24;48;5;233m", "\x1b[3;38;5;253m", "\x1b[7m"]
TEXT = st.text(alphabet="ab ─│▶×é世界?1", min_size=0, max_size=12)


@st.composite
def frames(draw):  # type: ignore[no-untyped-def]
    """Frames shaped like Textual's: cursor moves, then styled segments each ending in a reset;
    sometimes a sync mark, a bell or a sequence the filter does not know."""
    out = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            out.append("\x1b[?2026h")
        for _ in range(draw(st.integers(1, 5))):
            row, col = draw(st.integers(1, H)), draw(st.integers(1, W - 14))
            chunk = f"\x1b[{row};{col}H"
            room = W - col + 1  # Textual never writes past the right edge
            for _ in range(draw(st.integers(1, 3))):
                text = ""
                for ch in draw(TEXT):
                    if cell_len(text + ch) > room:
                        break
                    text += ch
                room -= cell_len(text)
                chunk += draw(st.sampled_from(STYLES)) + text + "\x1b[0m"
            # (Textual never ends the last row with a line feed: that would scroll)
            out.append(chunk + (draw(st.sampled_from(["", "\n"])) if row < H else ""))
        out.append(draw(st.sampled_from(["", "\x07", "\x1b[?2026l", "\x1b[?25l"])))
    return out


def screen_after(chunks: list[str]) -> list[str]:
    screen = pyte.Screen(W, H)
    stream = pyte.Stream(screen)
    for c in chunks:
        stream.feed(c)
    return [
        "".join(f"{ch.data}|{ch.fg}|{ch.bg}|{ch.bold}|{ch.reverse}" for ch in line.values())
        for line in (screen.buffer[y] for y in range(H))
    ]


@settings(max_examples=150, deadline=None)
@given(frames())
def test_the_filtered_stream_draws_the_same_screen(chunks: list[str]) -> None:
    diff = ScreenDiff(H)
    filtered = [diff.filter(c) for c in chunks]
    assert screen_after(filtered) == screen_after(chunks)


def test_an_unchanged_frame_sends_nothing_and_a_change_sends_a_little() -> None:
    diff = ScreenDiff()
    frame = "\x1b[1;1H\x1b[1mAH\x1b[0m\x1b[38;5;24m treasury 13\x1b[0m\n\x1b[2;1Hline 2\n"
    assert diff.filter(frame) != ""
    assert diff.filter(frame) == ""
    # one figure changed: one cell is sent, at its place, in its style
    assert diff.filter(frame.replace("13", "17")) == "\x1b[1;14H\x1b[0m\x1b[38;5;24m7\x1b[0m"
