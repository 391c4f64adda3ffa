"""The TOML of a short-form position, read safely: a position file is bad input like any other.

The standard library's ``tomllib`` parses arrays and inline tables recursively (a thousand
nested brackets end in ``RecursionError``), keeps a set entry per prefix of a dotted key
(50,000 parts need gigabytes) and refuses an integer of more than 4300 digits with a
``ValueError`` about ``sys.set_int_max_str_digits``. ``load_short_toml`` scans the text
first, without parsing it, for what a position never needs: brackets nested more than
``MAX_DEPTH`` deep, a dotted key of more than ``MAX_KEY_PARTS`` parts. Only then does
``tomllib`` read it, and every way it can fail is one ``PositionError`` line. The text itself
is at most ``rules.safe_file.MAX_BYTES`` long (the callers read no more).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from rules.position_fields import PositionError
from rules.safe_json import MAX_DEPTH, deeper_than

MAX_KEY_PARTS = 40  # parts of one dotted key; a short form needs 3 (GE.armies.cologne)

# What the scan stops at: a string's start, a comment, a bracket, a key or value separator,
# a dot. Everything else (key names, numbers, spaces) is skipped by the regular expression.
_STOPS = re.compile(r"\"\"\"|'''|[\"'#\[\]{}=,.\n]")
_BASIC = re.compile(r'(?:[^"\\\n]|\\.)*')  # the inside of a "basic string"


def load_short_toml(text: str) -> dict[str, Any]:
    """The TOML document of a short-form position, or PositionError (one line)."""
    problem = _shape_problem(text)
    if problem:
        raise PositionError(f"not JSON and not the short form: {problem}")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"not JSON and not the short form (TOML: {exc})") from None
    except ValueError:  # an integer of more than 4300 digits
        raise PositionError(
            "not JSON and not the short form: a number has too many digits (no figure in a "
            "game needs more than 7)"
        ) from None
    except RecursionError:  # pragma: no cover - the scan refuses such nesting first
        raise PositionError(
            f"not JSON and not the short form: nested more than {MAX_DEPTH} deep"
        ) from None
    if deeper_than(doc, MAX_DEPTH):
        raise PositionError(
            f"not JSON and not the short form: tables nested more than {MAX_DEPTH} deep (a "
            "position needs 3)"
        )
    return doc


def _shape_problem(text: str) -> str:
    """Why the text cannot be a short form before it is parsed ("" when it may be): nesting
    or a dotted key beyond the limits. Strings and comments are skipped as TOML reads them."""
    depth = 0
    parts = 1  # of the key (or value) being read: dots since the last separator, plus one
    pos, end = 0, len(text)
    while pos < end:
        m = _STOPS.search(text, pos)
        if m is None:
            break
        token, pos = m.group(), m.end()
        if token == "\n" or token in "=,":
            parts = 1
        elif token == ".":
            parts += 1
            if parts > MAX_KEY_PARTS:
                return (
                    f"a dotted key of more than {MAX_KEY_PARTS} parts (a position needs 3, "
                    "as in GE.armies.cologne)"
                )
        elif token in "[{":
            depth += 1
            parts = 1
            if depth > MAX_DEPTH:
                return f"brackets nested more than {MAX_DEPTH} deep (a position needs 3)"
        elif token in "]}":
            depth = max(0, depth - 1)
            parts = 1
        elif token == "#":
            newline = text.find("\n", pos)
            pos = end if newline < 0 else newline
        elif token == '"':
            inside = _BASIC.match(text, pos)
            pos = inside.end() if inside else pos
            pos += pos < end and text[pos] == '"'  # the closing quote (none at a line's end)
        elif token == "'":
            newline, quote = text.find("\n", pos), text.find("'", pos)
            pos = end if quote < 0 else (quote + 1 if newline < 0 or quote < newline else newline)
        else:  # a multi-line string: up to its closing triple quote
            pos = _multi_line_end(text, pos, token)
    return ""


def _multi_line_end(text: str, pos: int, quotes: str) -> int:
    """Where a multi-line string that starts before ``pos`` ends (after its closing quotes,
    which may be followed by one or two more quotes that belong to the string)."""
    while True:
        close = text.find(quotes, pos)
        if close < 0:
            return len(text)
        if quotes == '"""':  # a backslash escapes the quote after it
            before = close
            while before > pos and text[before - 1] == "\\":
                before -= 1
            if (close - before) % 2:
                pos = close + 1
                continue
        close += 3
        extra = 0
        while extra < 2 and text.startswith(quotes[0], close + extra):
            extra += 1
        return close + extra
