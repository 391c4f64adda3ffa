"""Who plays a seat: a human, or a computer player at one of the levels of ``rules.bots``.

Written ``human`` or ``bot:LEVEL`` in save files (a player's ``controller``), on the command
line (``--bot Ben=greedy``), in the app's seat lists and the server's seats; this is the one
place that word is made and read. A ``Controller`` is a ``str`` (the word itself), so saves,
JSON and comparisons with the word keep working unchanged.
"""

from __future__ import annotations

from rules.bots.levels import BOT_LEVELS

HUMAN_WORD = "human"
BOT_PREFIX = "bot:"


class Controller(str):
    """``Controller("bot:greedy").level == "greedy"``; ``Controller("human").is_human``.
    Anything else is refused with a one-line ``ValueError`` naming the choices."""

    __slots__ = ()

    def __new__(cls, word: str) -> Controller:
        if word.startswith(BOT_PREFIX) and word[len(BOT_PREFIX) :] not in BOT_LEVELS:
            level = word[len(BOT_PREFIX) :]
            shown = repr(level) if len(level) <= 40 else repr(level[:40]) + "..."
            raise ValueError(f"unknown computer level {shown} (one of {', '.join(BOT_LEVELS)})")
        if word != HUMAN_WORD and not word.startswith(BOT_PREFIX):
            shown = repr(word) if len(word) <= 40 else repr(word[:40]) + "..."
            raise ValueError(f"a seat is played by one of {', '.join(CHOICES)}, not {shown}")
        return super().__new__(cls, word)

    @classmethod
    def bot(cls, level: str) -> Controller:
        """A computer player at ``level`` (one of ``rules.bots.BOT_LEVELS``)."""
        return cls(BOT_PREFIX + level)

    @property
    def is_human(self) -> bool:
        return self == HUMAN_WORD

    @property
    def level(self) -> str | None:
        """The computer player's level; None for a human."""
        return None if self.is_human else self[len(BOT_PREFIX) :]


CHOICES: tuple[str, ...] = (HUMAN_WORD, *(BOT_PREFIX + level for level in BOT_LEVELS))
HUMAN = Controller(HUMAN_WORD)
