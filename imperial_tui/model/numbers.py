"""Whole numbers typed by a person (a donation in the app, ``--at N`` on the command line),
read as Click's int type and ``int()`` agree on them: ASCII digits, with one sign or none.
``int`` alone would also take ``3_000`` and other scripts' digits."""

from __future__ import annotations


def whole_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits, signed or not."""
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isascii() and digits.isdigit()
