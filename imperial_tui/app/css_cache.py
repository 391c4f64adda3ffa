"""Textual's parsed style sheets, kept from one start of the app to the next.

Textual parses the app's style sheet and the default CSS of every kind of widget at each start:
some 210 parses of 28 texts before the first frame, 14-16 ms of its ~320 ms on the 2-core
machine (issue 26), and every start the same texts give the same rules. So the local app keeps
the rules it parsed in one file in the user's cache folder (``$XDG_CACHE_HOME/imperial``,
``~/.cache``), keyed by everything a parse reads: the text, where it comes from, whether it is
a widget's default CSS, its tie-breaker and scope, and the theme's variables. A start reads the
file once (about 3 ms) and writes it again only when it parsed something not in it (a screen
opened for the first time, another theme), when the app ends. Another Python version has a
file of its own; a file written with another Textual is ignored and replaced.

The file is bad input like any other. One that is not the user's own, that others may write,
or that is damaged, truncated or from another version is ignored and replaced: the app parses
as if there were none. Reading it may build only the objects a parsed style sheet is made of
(``_Reader``): a forged file could at worst spoil the look, never run code.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import stat
import sys
from functools import partial
from pathlib import Path
from typing import Any

from textual.css import model, styles
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet

# (the theme's variables, css, read_from, is_default_rules, tie_breaker, scope): the theme
# (written out: one string object, its hash computed once) and Stylesheet._parse_rules's
# arguments
Key = tuple[str, str, CSSLocation, bool, int, str]

FORMAT = 1  # the layout of the file (Python's version is in its name, Textual's stamp inside)
MAX_ENTRIES = 400  # parses kept: a start needs about 30; a few themes and screens fit
MAX_BYTES = 16 * 1024 * 1024  # a larger file is not ours (ours: about 100 kB)

# the modules whose classes a parsed style sheet is made of (a class of any other module, or
# anything that is not a class, stops the reading: see _Reader.find_class)
_CLASS_MODULES = frozenset(
    {
        "textual.color",
        "textual.css.model",
        "textual.css.scalar",
        "textual.css.styles",
        "textual.css.tokenizer",
        "textual.css.transition",
        "textual.css.types",
        "textual.geometry",
        "textual.layouts.grid",
        "textual.layouts.horizontal",
        "textual.layouts.stream",
        "textual.layouts.vertical",
        "textual.style",
        "rich.color",
        "rich.color_triplet",
        "rich.style",
    }
)
# a selector's test is a function with its argument bound (functools.partial)
_SELECTOR_TESTS = frozenset({"_check_class", "_check_id", "_check_type", "_check_universal"})
# Styles keeps two methods of its rules' dict: pickle rebuilds them with getattr
_DICT_METHODS = frozenset({"get", "__contains__"})


def default_path() -> Path:
    """The file for this Python version in the user's cache folder."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    python = f"{sys.version_info.major}{sys.version_info.minor}"
    return base / "imperial" / f"css-py{python}.pickle"


def textual_stamp() -> tuple[int, ...]:
    """Which Textual's classes the file holds: the size and time of the two files defining
    them (another Textual installed, even in place, makes another stamp). Not its version
    number: ``textual.__version__`` loads importlib.metadata, 5 ms of a start."""
    stamp: list[int] = []
    for module in (model, styles):
        info = os.stat(module.__file__ or "")
        stamp += (info.st_size, info.st_mtime_ns)
    return tuple(stamp)


def _dict_method(obj: object, name: str) -> object:
    """``getattr`` as the file may use it: a method of a dict, nothing else."""
    if type(obj) is not dict or name not in _DICT_METHODS:
        raise pickle.UnpicklingError(f"not a parsed style sheet: getattr(…, {name!r})")
    return getattr(obj, name)


class _Reader(pickle.Unpickler):
    """Reads a parsed style sheet and nothing else: the classes of Textual's CSS, the selector
    tests, functools.partial and a dict's own methods."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("builtins", "getattr"):
            return _dict_method
        if (module, name) == ("functools", "partial"):
            return partial
        if module == "textual.css.model" and name in _SELECTOR_TESTS:
            return super().find_class(module, name)
        if module in _CLASS_MODULES and not name.startswith("_"):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"not a parsed style sheet: {module}.{name}")


def _trusted(fd: int) -> bool:
    """A file of this user's that only they may change (as ssh asks of its keys): otherwise
    someone else could choose what this app reads."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


class ParsedCss:
    """The parses kept in one file: read when first asked, written by ``save`` if anything new
    was parsed meanwhile. Each parse is kept as it was when parsed (pickled then: Textual may
    add to the rules later) and read only when asked for. The parses this process used and the
    most recently used of the rest are kept (``MAX_ENTRIES``)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path  # None: kept in memory only
        self._entries: dict[Key, bytes] | None = None
        self._read_rules: dict[Key, list[RuleSet]] = {}  # each entry is read once
        self._used: set[Key] = set()
        self._new = False

    def _header(self) -> tuple[int, tuple[int, ...]]:
        return FORMAT, textual_stamp()

    def _loaded(self) -> dict[Key, bytes]:
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def _read(self) -> dict[Key, bytes]:
        if self.path is None:
            return {}
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return {}
        try:
            with os.fdopen(fd, "rb") as file:
                if not _trusted(file.fileno()):
                    return {}
                data = file.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                return {}
            found = _Reader(io.BytesIO(data)).load()
        except Exception:  # damaged, forged, another layout: as if there were none
            return {}
        if not (isinstance(found, tuple) and len(found) == 3 and found[:2] == self._header()):
            return {}
        entries = found[2]
        if not isinstance(entries, dict) or not all(
            isinstance(blob, bytes) for blob in entries.values()
        ):
            return {}
        return entries

    def get(self, key: Key) -> list[RuleSet] | None:
        """The rules parsed from this text before, if kept and readable."""
        known = self._read_rules.get(key)
        if known is not None:
            return known
        entries = self._loaded()
        blob = entries.get(key)
        if blob is None:
            return None
        try:
            rules = _Reader(io.BytesIO(blob)).load()
        except Exception:
            rules = None
        if not (isinstance(rules, list) and all(isinstance(rule, RuleSet) for rule in rules)):
            del entries[key]  # (parsed again, and replaced)
            self._new = True
            return None
        self._used.add(key)
        self._read_rules[key] = rules
        return rules

    def put(self, key: Key, rules: list[RuleSet]) -> None:
        """Keep a parse (one that cannot be pickled is simply not kept)."""
        try:
            blob = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return
        self._loaded()[key] = blob
        self._read_rules[key] = rules
        self._used.add(key)
        self._new = True

    def save(self) -> None:
        """Write the file if this process parsed anything not in it (atomically: another app
        reading it meanwhile finds the old file or the new one). A folder that cannot be
        written leaves things as they were: the next start parses again."""
        if not self._new or self.path is None or self._entries is None:
            return
        entries = self._entries
        used = [key for key in entries if key in self._used]
        others = [key for key in entries if key not in self._used]
        # (the file lists the parses most recently used first: the ones dropped are the
        # least recently used)
        kept = {key: entries[key] for key in (used + others)[:MAX_ENTRIES]}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            data = pickle.dumps((*self._header(), kept), protocol=pickle.HIGHEST_PROTOCOL)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.replace(temporary, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()
            return
        self._new = False


class CachingStylesheet(Stylesheet):
    """Textual's style sheet, its parses looked up in a ``ParsedCss`` first (Textual is pinned:
    ``_parse_rules`` is its private method that every parse goes through)."""

    def __init__(self, *, variables: dict[str, str] | None = None, store: ParsedCss) -> None:
        super().__init__(variables=variables)
        self.store = store
        self._variables_key: str | None = None

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_key = None

    def copy(self) -> CachingStylesheet:
        sheet = CachingStylesheet(variables=self._variables.copy(), store=self.store)
        sheet.source = self.source.copy()
        return sheet

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        if self._variables_key is None:
            self._variables_key = repr(sorted(self._variables.items()))
        key: Key = (self._variables_key, css, read_from, is_default_rules, tie_breaker, scope)
        found = self.store.get(key)
        if found is not None:
            return found
        rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        self.store.put(key, rules)
        return rules
