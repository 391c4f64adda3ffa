"""A monkey for the app: seeded random keys and window sizes, the way a thousand impatient
players would press them. Used by the test suite (a short run) and by ``scripts/monkey.py``
(long runs by hand). Keys that end the program or throw the game away (quit, new game, load)
are left out, so the run keeps testing the same game."""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field

from textual import events
from textual.geometry import Size
from textual.keys import _character_to_key, _get_unicode_name_from_key

# Every key some screen binds, the keys that move around, and a few that nothing binds.
KEYS = (
    *"0123456789",
    *"abcdefghijklmnopqrstuvwxyz",
    "A",
    "Z",
    "space",
    "enter",
    "escape",
    "tab",
    "shift+tab",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "backspace",
    "delete",
    "plus",
    "minus",
    "equals_sign",
    "slash",
    "question_mark",
    "f1",
    "f2",
    "f5",
    "f10",
    "ctrl+a",
    "ctrl+e",
    "ctrl+g",
    "ctrl+p",
    "ctrl+s",
    "ctrl+z",
    "ctrl+y",
)
# The sizes that broke things before, the smallest one, and ordinary ones.
SIZES = ((1, 1), (2, 2), (10, 4), (20, 5), (40, 10), (80, 14), (120, 12), (60, 18), (80, 24))
SIZES_WEIGHTED = (*SIZES, (80, 24), (80, 24), (120, 40))
# Keys pressed far more often than others in real play.
FREQUENT = ("enter", "down", "up", "escape", "pageup", "pagedown", "tab", "1", "2", "3", "4")


@dataclass
class MonkeyLog:
    """What the monkey did, to reproduce a failure: the sizes and keys in order."""

    steps: list[str] = field(default_factory=list)

    def tail(self, n: int = 30) -> str:
        return " ".join(self.steps[-n:])


def send_key(app, key: str) -> None:
    """Queue one key as the terminal driver would."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)


async def press(pilot, *keys: str) -> None:
    """Send keys and wait until every widget has processed what they caused.

    ``Pilot.press`` also waits until the process looks idle (at least 20 ms twice, up to a
    second while a computer player thinks), which makes thousands of keys take many minutes;
    the monkey only needs the messages processed, as a player typing fast would have them."""
    for key in keys:
        send_key(pilot.app, key)
    await pilot._wait_for_screen()


async def resize(pilot, width: int, height: int) -> None:
    """Resize the headless terminal, without ``Pilot.resize_terminal``'s idle wait."""
    app = pilot.app
    size = Size(width, height)
    app._driver._size = size
    app.post_message(events.Resize(size, size))
    await pilot._wait_for_screen()


async def monkey(pilot, rng: random.Random, presses: int, log: MonkeyLog, burst: int = 3) -> None:
    """Press ``presses`` random keys, resizing now and then (one step in twenty). Keys come
    in bursts of up to ``burst`` before the app catches up, as from a fast typist. Stops when
    the app stopped (a crash is raised by ``run_test`` when the test leaves it)."""
    app = pilot.app
    done = 0
    while done < presses:
        if app.return_code is not None or not app.is_running:
            return
        if rng.random() < 0.05:
            w, h = rng.choice(SIZES_WEIGHTED)
            log.steps.append(f"[{w}x{h}]")
            await resize(pilot, w, h)
            done += 1
            continue
        keys = [
            rng.choice(FREQUENT) if rng.random() < 0.5 else rng.choice(KEYS)
            for _ in range(min(presses - done, rng.randint(1, burst)))
        ]
        log.steps.extend(keys)
        await press(pilot, *keys)
        done += len(keys)
    if app.is_running:
        await pilot.pause()  # let the last keys land before the test leaves the app
