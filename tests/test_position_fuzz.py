"""The position readers under random input (issue #24): any bytes, any TOML or JSON structure,
any change to a good position is either a game or the reader's one-line ``PositionError``;
nothing else is ever raised."""

from __future__ import annotations

import copy
import json
import string
import tomllib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Game
from rules.position import PositionError
from rules.position_text import (
    game_from_document,
    game_from_position_text,
    read_position_text,
    short_form_document,
)

COLOGNE = """
players = ["Anna", "Ben"]
to_move = "GE maneuver"
[Anna]
bonds = ["GE 9"]
[Ben]
bonds = ["GB 9"]
[GE]
armies = { cologne = 2, holland = 1 }
flags = ["holland"]
[GB]
fleets = { north_sea = 1 }
"""
GOOD_SHORT = read_position_text(COLOGNE)
GOOD_JSON = Game.from_position(GOOD_SHORT).summary()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# JSON-like values: what a TOML or JSON reader can hand over, with the words a position uses
WORDS = st.sampled_from(
    [
        "Anna",
        "Ben",
        "GE",
        "GB",
        "AH",
        "cologne",
        "holland",
        "north_sea",
        "berlin",
        "maneuver",
        "GE maneuver",
        "Anna invest",
        "army",
        "fleet",
        "first",
        "2010",
        "GE 9",
        "",
        "x" * 300,
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    WORDS,
    st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.one_of(WORDS, st.text(max_size=6)), inner, max_size=4)
    ),
    max_leaves=20,
)


def only_position_errors(make: Any) -> None:
    try:
        make()
    except PositionError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 600, message


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_are_a_game_or_one_line(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    only_position_errors(lambda: game_from_position_text(text))


@FUZZ
@given(st.text(alphabet=string.printable, max_size=300))
def test_random_text_of_toml_characters_is_a_game_or_one_line(text: str) -> None:
    only_position_errors(lambda: game_from_position_text(text))


@FUZZ
@given(st.integers(0, len(COLOGNE)), st.text(alphabet="[]{}=.,\"'#\n 0123456789ab", max_size=30))
def test_the_short_form_with_characters_inserted_is_a_game_or_one_line(at: int, extra: str) -> None:
    text = COLOGNE[:at] + extra + COLOGNE[at:]
    only_position_errors(lambda: game_from_position_text(text))


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document a value can be replaced."""
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += _paths(value, (*prefix, i))
    return out


def _replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    new = copy.deepcopy(doc)
    here = new
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return new


SHORT_PATHS = _paths(tomllib.loads(COLOGNE))
JSON_PATHS = _paths(GOOD_JSON)


@FUZZ
@given(st.sampled_from(SHORT_PATHS), VALUES)
def test_a_short_form_with_any_value_anywhere_is_a_game_or_one_line(
    path: tuple[Any, ...], value: Any
) -> None:
    short = _replaced(tomllib.loads(COLOGNE), path, value)
    if not isinstance(short, dict):
        return  # a TOML document is always a table
    only_position_errors(lambda: game_from_document(short_form_document(short), short=True))


@FUZZ
@given(st.sampled_from(JSON_PATHS), VALUES)
def test_a_json_position_with_any_value_anywhere_is_a_game_or_one_line(
    path: tuple[Any, ...], value: Any
) -> None:
    doc = _replaced(GOOD_JSON, path, value)
    text = json.dumps(doc, allow_nan=True)
    only_position_errors(lambda: game_from_position_text(text))


@FUZZ
@given(VALUES)
def test_any_json_structure_is_a_game_or_one_line(value: Any) -> None:
    text = json.dumps(value, allow_nan=True)
    only_position_errors(lambda: game_from_position_text(text))


# Strings of every TOML kind and comments, full of brackets, dots and quotes: the limits of
# rules.position_toml count only TOML's own brackets and dots, so none of them is refused.
TRICKY = st.text(alphabet="[]{}.,=#\"'\\\n ab\t", max_size=60)


def _literal(kind: int, text: str) -> str | None:
    if kind == 0:
        return json.dumps(text, ensure_ascii=False)  # a basic string (JSON escapes are TOML's)
    if kind == 1:
        return None if "'" in text or "\n" in text else f"'{text}'"
    if kind == 2:
        body = text.replace("\\", "\\\\").replace('"', '\\"')
        return f'"""{body}"""'
    return None if "'''" in text or text.endswith("'") else f"'''{text}'''"


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 3), TRICKY, TRICKY), min_size=1, max_size=6))
def test_brackets_and_dots_in_strings_and_comments_are_not_counted(items) -> None:
    from rules.position_toml import load_short_toml

    lines = ['players = ["Anna", "Ben"]']
    for i, (kind, text, comment) in enumerate(items):
        value = _literal(kind, text)
        if value is not None:
            lines.append(f"note{i} = {value}  # {comment.replace(chr(10), ' ')}")
        lines.append(f"deep{i} = [[[{value or 1}]]]")
    text = "\n".join(lines) + "\n"
    expected = tomllib.loads(text)
    assert load_short_toml(text) == expected
