"""Save files: a game as its record (header + actions in notation), as PGN is for chess.

A save never stores the position itself: it stores what fixes the game before its first action
(edition, variant, every rule option, players, seed and the deal) and the list of actions in
notation. Loading rebuilds the game and replays every action through ``Game.apply``, so a save
written by one version of the engine is checked by the rules of the version that reads it, and a
hand-edited or damaged file is caught at the first action the rules refuse.

A game that starts from a position (``Game.from_position``) records that position in the header
(format version 2), so it replays exactly as well.

Every problem while loading or saving is a ``SaveError`` whose message is one line naming the
file, meant to be shown to a player as it is (the command line prints it without a traceback).
Files are bad input too: ``rules.safe_file`` refuses anything but a regular file of sane size,
writes through symbolic links, never over a read-only file, and ``SaveLock`` makes two programs
changing one save take turns. See ``docs/SAVE_FORMAT.md``.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TypeGuard

from rules.actions import NotationError, parse_action
from rules.controllers import CHOICES, HUMAN, Controller
from rules.errors import IllegalAction, SetupError
from rules.game import Game, Setup
from rules.games import GAMES, game_info
from rules.options import OPTIONS
from rules.position import STATE_FORMAT, PositionError, read_position
from rules.program_version import program_version
from rules.ruleset import EDITIONS, VARIANTS, RuleSet
from rules.safe_file import FileProblem, LockedFile, check_name, digest, read_regular
from rules.safe_file import write_atomically as _write_file
from rules.safe_json import JsonProblem, read_json
from rules.setup import Deal, check_players, parse_deal

FORMAT = "imperial-save"
VERSION = 2  # the highest version this program reads; 1 is written unless a position is kept
POSITION_SAVE_VERSION = 2

_REQUIRED = ("edition", "variant", "options", "players", "seed", "deal", "actions")


def printable(text: str, limit: int | None = None) -> str:
    """``text`` safe to print on a terminal on one line: control characters (a terminal escape
    sequence starts with one) and lone surrogates escaped, whitespace runs made one space, cut
    to ``limit`` characters."""
    out = []
    for ch in " ".join(str(text).split()):
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or (cat == "Cf" and ch != "\u200d"):
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
        else:
            out.append(ch)
    clean = "".join(out)
    if limit is not None and len(clean) > limit:
        clean = clean[: max(0, limit - 3)] + "..."
    return clean


class SaveError(Exception):
    """A save file cannot be read, written or replayed. The message is one line for a player,
    starting with the file name."""

    def __init__(self, message: str) -> None:
        # A message that spans lines would break the "one clear line" promise of the CLI, and
        # one with an escape sequence from a hostile file would talk to the terminal.
        super().__init__(printable(message))


class SaveConflict(SaveError):
    """The file changed on disk since it was read (another program saved it): not
    overwritten. The front end offers to reload it."""


@dataclass(slots=True)
class LoadedGame:
    """A game rebuilt from a save, with what the save records besides the game itself.
    ``digest`` identifies the file's content as read (``save_game(expected_digest=...)``
    refuses to overwrite a file that changed since); ``warnings`` are one-line notes about
    front-end settings that were dropped."""

    game: Game
    controllers: dict[str, Controller]  # who plays each seat
    app: dict[str, Any] = field(default_factory=dict)  # opaque front-end settings
    header: dict[str, Any] = field(default_factory=dict)  # the file without "actions"
    warnings: list[str] = field(default_factory=list)
    raw: bytes = b""  # the file as read

    @property
    def digest(self) -> str:
        """Computed when asked: a command that only reads the save (``imperial state``)
        never loads the hashing library (issue 26, the start-up budget)."""
        return digest(self.raw)


def _now() -> str:
    from datetime import UTC, datetime  # (only a save being written needs the clock)

    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


# --------------------------------------------------------------------------- writing


def game_to_dict(
    game: Game,
    controllers: Mapping[str, str] | None = None,
    app: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> dict[str, Any]:
    """The save document of a game (a plain JSON-ready dict, actions in notation)."""
    setup = game.setup
    controllers = dict(controllers or {})
    unknown = [name for name in controllers if name not in setup.players]
    if unknown:
        raise SaveError(f"controllers name {', '.join(unknown)}, who are not players")
    deal: dict[str, Any] | None
    if setup.position is not None:
        deal = None
    elif setup.deal.starter is not None:
        deal = {"starter": setup.deal.starter}
    else:
        deal = {"cards": {p: list(setup.deal.cards[p]) for p in setup.players}}
    now = _now()
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": POSITION_SAVE_VERSION if setup.position is not None else 1,
        "program": program_version(),
        "game": setup.rules.game,
        "edition": setup.rules.edition,
        "variant": setup.rules.variant,
        "options": setup.rules.options(),
        "players": [{"name": p, "controller": controllers.get(p, HUMAN)} for p in setup.players],
        "seed": setup.seed,
        "deal": deal,
        "created": created or now,
        "saved": now,
        "round": game.state.round,  # (informative, for Load's list: loading never reads it)
        "app": dict(app or {}),
    }
    if (result := game.result()) is not None:  # (informative too)
        doc["winners"] = list(result.winners)
    if setup.position is not None:
        doc["position"] = dict(setup.position)
    doc["actions"] = [str(a) for a in game.history]
    return doc


def document_text(doc: Mapping[str, Any]) -> str:
    """The exact text ``save_game`` writes for a document."""
    return to_json(doc) + "\n"


def document_digest(doc: Mapping[str, Any]) -> str:
    """The digest of the file ``save_game`` wrote for ``doc`` (see ``LoadedGame.digest``)."""
    return digest(document_text(doc).encode("utf-8"))


def save_game(
    game: Game,
    path: str | os.PathLike[str],
    controllers: Mapping[str, str] | None = None,
    app: Mapping[str, Any] | None = None,
    created: str | None = None,
    *,
    expected_digest: str | None = None,
) -> dict[str, Any]:
    """Write the game to ``path`` atomically and return the document written.

    The text goes to a temporary file beside the file ``path`` names (through a symbolic link:
    the link stays), is flushed and fsynced, then replaces the old file in one step: a crash,
    a full disk or a killed process leaves either the old save or the new one, never half a
    file. A read-only file, a directory, a pipe or a device is never overwritten. The file is
    locked while it is replaced; with ``expected_digest`` (the ``LoadedGame.digest`` of the
    version this program read or last wrote) a file that another program changed meanwhile
    raises ``SaveConflict`` instead of being overwritten. ``created`` keeps the time the game
    was first saved (pass the loaded header's value when saving again).
    """
    path = Path(path)
    text = _document_text(game, path, controllers, app, created)
    try:
        if not os.path.lexists(path) or not os.path.exists(path):
            _write_file(path, text[1])
            return text[0]
        with LockedFile(path) as locked:
            if expected_digest is not None and digest(locked.read()) != expected_digest:
                raise SaveConflict(
                    f"{path}: changed on disk by another program since it was loaded; "
                    "not overwritten (reload it, or save under another name)"
                )
            locked.replace(text[1])
    except FileProblem as exc:
        raise SaveError(f"{path}: {exc}") from None
    return text[0]


def _document_text(
    game: Game,
    path: Path,
    controllers: Mapping[str, str] | None,
    app: Mapping[str, Any] | None,
    created: str | None,
) -> tuple[dict[str, Any], str]:
    doc = game_to_dict(game, controllers, app, created)
    try:
        return doc, document_text(doc)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveError(f"{path}: cannot save: {exc}") from None


class SaveLock:
    """One program's read-change-write of a save, with the file locked throughout, so that
    two commands changing one save take turns and neither update is lost::

        with SaveLock(path) as lock:
            loaded = lock.loaded          # read and replayed under the lock
            loaded.game.apply(...)
            lock.save(loaded.game, loaded.controllers, loaded.app, created)

    Raises SaveError (one line) when the file cannot be read, replayed or written.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file = LockedFile(self.path)
        self.loaded: LoadedGame

    def __enter__(self) -> SaveLock:
        try:
            self._file.__enter__()
        except FileProblem as exc:
            raise SaveError(f"{self.path}: {exc}") from None
        try:
            raw = self._file.read()
            self.loaded = _load_bytes(raw, self.path)
        except BaseException:
            self._file.__exit__(None, None, None)
            raise
        return self

    def save(
        self,
        game: Game,
        controllers: Mapping[str, str] | None = None,
        app: Mapping[str, Any] | None = None,
        created: str | None = None,
    ) -> dict[str, Any]:
        doc, text = _document_text(game, self.path, controllers, app, created)
        try:
            self._file.replace(text)
        except FileProblem as exc:
            raise SaveError(f"{self.path}: {exc}") from None
        return doc

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._file.__exit__(kind, exc, tb)


def to_json(doc: Any, indent: int = 0, key: str | None = None) -> str:
    """JSON for people as well as programs: small objects and lists (a player, the deal) on
    one line, bigger ones one entry per line, and the actions always one per line so that two
    saves of the same game differ by whole lines."""
    one_line = json.dumps(doc, ensure_ascii=False)
    if (
        not isinstance(doc, (dict, list))
        or not doc
        or (indent and key != "actions" and 2 * indent + len(key or "") + len(one_line) <= 84)
    ):
        return one_line
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(doc, list):
        items = [inner + to_json(v, indent + 1) for v in doc]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    items = [
        f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {to_json(v, indent + 1, str(k))}"
        for k, v in doc.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def typed_save_path(text: str) -> Path:
    """The file a player typed for a save (the app's Save as prompt), ``~`` expanded, or
    SaveError (one line): a name no file can have is refused here, before anything touches
    the disk (a NUL character would otherwise end the app with a ValueError)."""
    if not text.strip():
        raise SaveError("give a file name to save to")
    try:
        check_name(text)
    except FileProblem as exc:
        raise SaveError(f"{printable(text, 60)}: {exc}") from None
    return Path(text).expanduser()


def write_atomically(path: Path, text: str) -> None:
    """Replace the file ``path`` names by ``text`` all at once (see ``rules.safe_file``)."""
    try:
        _write_file(Path(path), text)
    except FileProblem as exc:
        raise SaveError(f"{path}: {exc}") from None


# --------------------------------------------------------------------------- reading


def load_game(path: str | os.PathLike[str]) -> LoadedGame:
    """Read a save, rebuild the game and replay every action. Raises SaveError (one line).
    Anything but a regular file of sane size is refused before a byte is read, so a pipe or
    a device never makes this wait."""
    path = Path(path)
    try:
        raw = read_regular(path)
    except FileProblem as exc:
        raise SaveError(f"{path}: {exc}") from None
    return _load_bytes(raw, path)


def _load_bytes(raw: bytes, path: Path) -> LoadedGame:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not an imperial save file (not UTF-8 text)") from None
    try:
        data = parse_json(text, str(path))
    except SaveError:
        if _is_short_position(text):
            raise SaveError(_POSITION_NOT_SAVE.format(path=path)) from None
        raise
    loaded = game_from_dict(data, source=str(path))
    loaded.raw = raw
    return loaded


_POSITION_NOT_SAVE = (
    "{path}: this is a position, not a saved game: start a game from it with "
    "`imperial new --position {path} --save GAME.json` (docs/POSITIONS.md)"
)


def _is_short_position(text: str) -> bool:
    """Whether a text that is not JSON is the short form of a position (docs/POSITIONS.md),
    read with the position reader's own guards (a hostile text is just "no")."""
    from rules.position_toml import load_short_toml

    try:
        doc = load_short_toml(text)
    except PositionError:
        return False
    return "players" in doc and "to_move" in doc


def parse_json(text: str, source: str) -> Any:
    """JSON from an untrusted file (``rules.safe_json``): a bad document, one nested without
    end, a number too long to read or an object with a key written twice is one line naming
    ``source``, never a traceback or a silent choice."""
    try:
        return read_json(text)
    except JsonProblem as exc:
        raise SaveError(f"{source}: {exc}") from None


_SURROGATE = re.compile("[\ud800-\udfff]")  # (searched in C: every action of a save is read)


def _bad_text(value: Any) -> str | None:
    """Where in ``value`` a string holds a lone surrogate (text no file can hold), or None."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return where or "a text"
        elif isinstance(item, dict):
            for k, v in item.items():
                if _SURROGATE.search(k):
                    return f"{where}.{printable(k, 20)}".lstrip(".")
                stack.append((v, f"{where}.{k}".lstrip(".")))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
    return None


def game_from_dict(data: Any, source: str = "save") -> LoadedGame:
    """Rebuild a game from a save document (already parsed JSON). ``source`` names it in
    messages. Raises SaveError."""
    where = source

    def fail(message: str) -> SaveError:
        return SaveError(f"{where}: {message}")

    if isinstance(data, dict) and data.get("format") == STATE_FORMAT:
        raise SaveError(_POSITION_NOT_SAVE.format(path=source))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'not an imperial save file (no "format": "{FORMAT}" at the top)')
    version = data.get("version")
    if not _is_int(version) or version < 1:
        raise fail(f'"version" must be a whole number of 1 or more, not {_show(version)}')
    if version > VERSION:
        program = data.get("program", "unknown")
        shown = printable(program, 40) if isinstance(program, str) else "unknown"
        raise fail(
            f"written in save format version {_show(version)} by a newer program "
            f"({shown}); this program reads version {VERSION}: update imperial to open it"
        )
    for key in _REQUIRED:
        if key not in data:
            raise fail(f'the field "{key}" is missing')
    warnings: list[str] = []
    app = data.get("app", {})
    if not isinstance(app, dict):
        raise fail(f'"app" must be an object, not {_show(app)}')
    app = dict(app)
    for key in list(app):
        if _bad_text({key: app[key]}) is not None:
            del app[key]
            warnings.append(
                f"{where}: app setting {printable(key, 20)!r} ignored: it holds text that is "
                "not valid Unicode"
            )
    bad = _bad_text({k: v for k, v in data.items() if k != "app"})
    if bad is not None:
        raise fail(f'"{bad}" holds text that is not valid Unicode (a lone surrogate)')

    rules = _read_rules(data, fail)
    players, controllers = _read_players(data.get("players"), rules.game, fail)
    seed = data["seed"]
    if seed is not None and (not _is_int(seed) or abs(seed) >= 2**63):
        raise fail(f'"seed" must be a whole number (below 2^63) or null, not {_show(seed)}')
    position = data.get("position")
    deal = Deal({}) if position is not None else _read_deal(data["deal"], players, rules, fail)
    for key in ("created", "saved", "program"):
        if key in data and not isinstance(data[key], str):
            raise fail(f'"{key}" must be a string, not {_show(data[key])}')
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail(f'"actions" must be a list of actions in notation, not {_show(actions)}')

    if position is not None:
        position = _read_position(position, players, rules, fail)
    try:
        game = Game(Setup(players, rules, deal, seed, position))
    except SetupError as exc:
        raise fail(f"cannot set up the game: {exc}") from None
    for number, text in enumerate(actions, start=1):
        if not isinstance(text, str):
            raise fail(f"action {number} must be a string in notation, not {_show(text)}")
        shown = repr(text) if len(text) <= 60 else repr(text[:57]) + "..."
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise fail(f"action {number} {shown} is not an action: {exc}") from None
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise fail(f"action {number} {shown} is illegal: {exc.reason}") from None
        except Exception as exc:  # an engine bug must not hide which action triggered it
            raise fail(
                f"action {number} {shown} could not be replayed "
                f"({type(exc).__name__}: {exc}); please report this"
            ) from None
    header = {k: v for k, v in data.items() if k != "actions"}
    header["app"] = app
    return LoadedGame(game, controllers, app, header, warnings=warnings)


def _read_position(
    value: Any, players: tuple[str, ...], rules: RuleSet, fail: Any
) -> dict[str, Any]:
    """The starting position of a game that did not start from the set-up."""
    try:
        start = read_position(value)
    except PositionError as exc:
        raise fail(f"bad starting position: {exc}") from None
    if start.players != players:
        raise fail('the starting position\'s players differ from "players"')
    if start.rules != rules:
        raise fail(
            'the starting position\'s rules differ from "game", "edition", "variant", "options"'
        )
    return dict(value)


def _read_rules(data: dict[str, Any], fail: Any) -> RuleSet:
    edition, variant, options = data["edition"], data["variant"], data["options"]
    game = data.get("game", "imperial")  # saves written before Imperial 2030 have none
    if game not in GAMES:
        raise fail(f'"game" must be one of {", ".join(GAMES)}, not {_show(game)}')
    if edition not in EDITIONS:
        raise fail(f'"edition" must be one of {", ".join(EDITIONS)}, not {_show(edition)}')
    if variant not in VARIANTS:
        raise fail(f'"variant" must be one of {", ".join(VARIANTS)}, not {_show(variant)}')
    if not isinstance(options, dict):
        raise fail(f'"options" must be an object of rule options, not {_show(options)}')
    for name, value in options.items():
        info = OPTIONS.get(name)
        if info is None:
            raise fail(f"unknown rule option {name!r} (see `imperial options`)")
        if game not in info.games:
            raise fail(
                f"rule option {name} does not apply to {game_info(game).title} "
                f"(see `imperial options --game {game}`)"
            )
        # JSON true is not 1 and 1 is not true: compare types too, not only equality.
        if not any(type(value) is type(c) and value == c for c in info.choices):
            choices = ", ".join(json.dumps(c) for c in info.choices)
            raise fail(f"rule option {name} cannot be {_show(value)}; choose {choices}")
    # Options missing from an older save keep the edition's preset value.
    try:
        return RuleSet.from_dict(edition, variant, options, game)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _read_players(
    value: Any, game: str, fail: Any
) -> tuple[tuple[str, ...], dict[str, Controller]]:
    if not isinstance(value, list) or not value:
        raise fail(f'"players" must be a list of {{"name", "controller"}}, not {_show(value)}')
    names: list[str] = []
    controllers: dict[str, Controller] = {}
    for i, entry in enumerate(value, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise fail(f'player {i} must be an object with a "name" string, not {_show(entry)}')
        name = entry["name"]
        word = entry.get("controller", HUMAN)
        if word not in CHOICES:
            raise fail(
                f'player {printable(name, 20)}: "controller" must be one of '
                f"{', '.join(CHOICES)}, not {_show(word)}"
            )
        names.append(name)
        controllers[name] = Controller(word)
    try:
        players = check_players(names, game)
    except SetupError as exc:
        raise fail(f"bad players: {exc}") from None
    return players, controllers


def _read_deal(value: Any, players: tuple[str, ...], rules: RuleSet, fail: Any) -> Deal:
    """Check the recorded deal against the set-up rules by re-dealing it from its first cards
    (the extra cards of a 2- or 3-player game follow from them)."""
    if not isinstance(value, dict):
        raise fail(f'"deal" must be {{"cards": ...}} or {{"starter": ...}}, not {_show(value)}')
    if rules.variant == "experienced":
        starter = value.get("starter")
        if not isinstance(starter, str):
            raise fail('the experienced variant needs "deal": {"starter": <player>}')
        text = starter
    else:
        cards = value.get("cards")
        if not isinstance(cards, dict) or not all(
            isinstance(c, list) and c and all(isinstance(x, str) for x in c) for c in cards.values()
        ):
            raise fail('"deal" must be {"cards": {<player>: [<nation>, ...]}}')
        if set(cards) != set(players):
            raise fail('"deal" must give flag cards to exactly the players of the game')
        text = ",".join(f"{p}={cards[p][0]}" for p in players)
    try:
        deal = parse_deal(text, players, rules)
    except SetupError as exc:
        raise fail(f"bad deal: {exc}") from None
    if rules.variant != "experienced" and any(
        tuple(value["cards"][p]) != deal.cards[p] for p in players
    ):
        expected = "; ".join(f"{p} {' '.join(deal.cards[p])}" for p in players)
        raise fail(f"bad deal: the flag cards do not match the set-up rules ({expected})")
    return deal


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    """A short rendering of a bad value for a message (escaped: it came from a file)."""
    text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    return printable(text, 40)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True
