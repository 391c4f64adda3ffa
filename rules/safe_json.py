"""JSON from untrusted text, for save files and positions: every way it can go wrong is one
``JsonProblem`` (a message for a player, without the file name), never a traceback, and
never a silent choice.

``json`` itself recurses (a document nested 100,000 deep ends in ``RecursionError``), refuses
an integer of more than 4300 digits with a ``ValueError`` about ``sys.set_int_max_str_digits``
and keeps the last of two equal keys in one object without a word. ``read_json`` turns each
into a reason, and refuses any document nested deeper than ``MAX_DEPTH`` (a save needs 6,
a position 5), so that no later reader can recurse on it.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 40  # nesting of objects and lists (tables and arrays in TOML)


class JsonProblem(Exception):
    """The text is not JSON a save or a position can hold; the message says why."""


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key is written once: what was written is what is read."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def read_json(text: str) -> Any:
    """The document, or JsonProblem."""
    try:
        data = json.loads(text, object_pairs_hook=_object_once)
    except _DuplicateKey as exc:
        key = json.dumps(exc.key, ensure_ascii=False)
        key = key if len(key) <= 40 else key[:37] + "..."
        raise JsonProblem(
            f"the key {key} appears twice in one object; write each key once (which one was meant?)"
        ) from None
    except json.JSONDecodeError as exc:
        raise JsonProblem(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "the file is damaged or not an imperial save"
        ) from None
    except RecursionError:
        raise JsonProblem("nested too deeply to be a save file") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        detail = str(exc) if len(str(exc)) <= 80 else str(exc)[:77] + "..."
        raise JsonProblem(f"not a save file ({detail})") from None
    if deeper_than(data, MAX_DEPTH):
        raise JsonProblem("nested too deeply to be a save file")
    return data


def deeper_than(value: Any, limit: int) -> bool:
    """Whether objects (dicts) and lists nest more than ``limit`` deep; checked without
    recursion, so any depth is safe to ask about."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False
