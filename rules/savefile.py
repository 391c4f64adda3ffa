"""Save files: a game as its record (header + actions in notation), as PGN is for chess.

A save never stores the position itself: it stores what fixes the game before its first action
(edition, variant, every rule option, players, seed and the deal) and the list of actions in
notation. Loading rebuilds the game and replays every action through ``Game.apply``, so a save
written by one version of the engine is checked by the rules of the version that reads it, and a
hand-edited or damaged file is caught at the first action the rules refuse.

Every problem while loading or saving is a ``SaveError`` whose message is one line naming the
file, meant to be shown to a player as it is (the command line prints it without a traceback).
See ``docs/SAVE_FORMAT.md``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rules.actions import NotationError, parse_action
from rules.errors import IllegalAction, SetupError
from rules.game import Game, Setup
from rules.ruleset import EDITIONS, OPTIONS, VARIANTS, RuleSet
from rules.setup import Deal, check_players, parse_deal

FORMAT = "imperial-save"
VERSION = 1
DEFAULT_CONTROLLER = "human"

_REQUIRED = ("edition", "variant", "options", "players", "seed", "deal", "actions")


class SaveError(Exception):
    """A save file cannot be read, written or replayed. The message is one line for a player,
    starting with the file name."""

    def __init__(self, message: str) -> None:
        # A message that spans lines would break the "one clear line" promise of the CLI.
        super().__init__(" ".join(str(message).split()))


@dataclass(slots=True)
class LoadedGame:
    """A game rebuilt from a save, with what the save records besides the game itself."""

    game: Game
    controllers: dict[str, str]  # player -> "human" | "bot:<name>" ...
    app: dict[str, Any] = field(default_factory=dict)  # opaque front-end settings
    header: dict[str, Any] = field(default_factory=dict)  # the file without "actions"


def program_version() -> str:
    """``imperial <version>`` as installed; 0.1.0 when running from a bare source tree."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return f"imperial {version('imperial')}"
    except (ImportError, PackageNotFoundError):
        return "imperial 0.1.0"


def _now() -> str:
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
    deal: dict[str, Any]
    if setup.deal.starter is not None:
        deal = {"starter": setup.deal.starter}
    else:
        deal = {"cards": {p: list(setup.deal.cards[p]) for p in setup.players}}
    now = _now()
    return {
        "format": FORMAT,
        "version": VERSION,
        "program": program_version(),
        "edition": setup.rules.edition,
        "variant": setup.rules.variant,
        "options": setup.rules.options(),
        "players": [
            {"name": p, "controller": controllers.get(p, DEFAULT_CONTROLLER)} for p in setup.players
        ],
        "seed": setup.seed,
        "deal": deal,
        "created": created or now,
        "saved": now,
        "app": dict(app or {}),
        "actions": [str(a) for a in game.history],
    }


def save_game(
    game: Game,
    path: str | os.PathLike[str],
    controllers: Mapping[str, str] | None = None,
    app: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> dict[str, Any]:
    """Write the game to ``path`` atomically and return the document written.

    The text goes to a temporary file in the same directory, is flushed and fsynced, and then
    replaces the old file in one step (``os.replace``): a crash, a full disk or a killed process
    leaves either the old save or the new one, never half a file. ``created`` keeps the time the
    game was first saved (pass the loaded header's value when saving again).
    """
    path = Path(path)
    doc = game_to_dict(game, controllers, app, created)
    try:
        text = to_json(doc) + "\n"
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{path}: cannot save: {exc}") from None
    write_atomically(path, text)
    return doc


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


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once, keeping the old file's permissions."""
    directory = path.parent if str(path.parent) else Path(".")
    tmp_name: str | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp_name, _mode_for(path))
        os.replace(tmp_name, path)
        tmp_name = None
        _fsync_dir(directory)
    except OSError as exc:
        raise SaveError(f"{path}: cannot save: {exc.strerror or exc}") from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _mode_for(path: Path) -> int:
    """The old file's mode, or what a plain ``open()`` would give (mkstemp makes 0600)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX only)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- reading


def load_game(path: str | os.PathLike[str]) -> LoadedGame:
    """Read a save, rebuild the game and replay every action. Raises SaveError (one line)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SaveError(f"{path}: is a directory, not a save file") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not an imperial save file (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "the file is damaged or not an imperial save"
        ) from None
    return game_from_dict(data, source=str(path))


def game_from_dict(data: Any, source: str = "save") -> LoadedGame:
    """Rebuild a game from a save document (already parsed JSON). ``source`` names it in
    messages. Raises SaveError."""
    where = source

    def fail(message: str) -> SaveError:
        return SaveError(f"{where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'not an imperial save file (no "format": "{FORMAT}" at the top)')
    version = data.get("version")
    if not _is_int(version) or version < 1:
        raise fail(f'"version" must be a whole number of 1 or more, not {_show(version)}')
    if version > VERSION:
        raise fail(
            f"written in save format version {version} by a newer program "
            f"({data.get('program', 'unknown')}); this program reads version {VERSION}: "
            "update imperial to open it"
        )
    for key in _REQUIRED:
        if key not in data:
            raise fail(f'the field "{key}" is missing')

    rules = _read_rules(data, fail)
    players, controllers = _read_players(data.get("players"), fail)
    seed = data["seed"]
    if seed is not None and not _is_int(seed):
        raise fail(f'"seed" must be a whole number or null, not {_show(seed)}')
    deal = _read_deal(data["deal"], players, rules, fail)
    for key in ("created", "saved", "program"):
        if key in data and not isinstance(data[key], str):
            raise fail(f'"{key}" must be a string, not {_show(data[key])}')
    app = data.get("app", {})
    if not isinstance(app, dict):
        raise fail(f'"app" must be an object, not {_show(app)}')
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail(f'"actions" must be a list of actions in notation, not {_show(actions)}')

    try:
        game = Game(Setup(players, rules, deal, seed))
    except SetupError as exc:
        raise fail(f"cannot set up the game: {exc}") from None
    for number, text in enumerate(actions, start=1):
        if not isinstance(text, str):
            raise fail(f"action {number} must be a string in notation, not {_show(text)}")
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise fail(f"action {number} {text!r} is not an action: {exc}") from None
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise fail(f"action {number} {text!r} is illegal: {exc.reason}") from None
        except Exception as exc:  # an engine bug must not hide which action triggered it
            raise fail(
                f"action {number} {text!r} could not be replayed "
                f"({type(exc).__name__}: {exc}); please report this"
            ) from None
    header = {k: v for k, v in data.items() if k != "actions"}
    return LoadedGame(game, controllers, dict(app), header)


def _read_rules(data: dict[str, Any], fail: Any) -> RuleSet:
    edition, variant, options = data["edition"], data["variant"], data["options"]
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
        # JSON true is not 1 and 1 is not true: compare types too, not only equality.
        if not any(type(value) is type(c) and value == c for c in info.choices):
            choices = ", ".join(json.dumps(c) for c in info.choices)
            raise fail(f"rule option {name} cannot be {_show(value)}; choose {choices}")
    # Options missing from an older save keep the edition's preset value.
    try:
        return RuleSet.from_dict(edition, variant, options)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _read_players(value: Any, fail: Any) -> tuple[tuple[str, ...], dict[str, str]]:
    if not isinstance(value, list) or not value:
        raise fail(f'"players" must be a list of {{"name", "controller"}}, not {_show(value)}')
    names: list[str] = []
    controllers: dict[str, str] = {}
    for i, entry in enumerate(value, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise fail(f'player {i} must be an object with a "name" string, not {_show(entry)}')
        name = entry["name"]
        controller = entry.get("controller", DEFAULT_CONTROLLER)
        if not isinstance(controller, str) or not controller:
            raise fail(
                f'player {name}: "controller" must be a string such as "human" or '
                f'"bot:greedy", not {_show(controller)}'
            )
        names.append(name)
        controllers[name] = controller
    try:
        players = check_players(names)
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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    """A short rendering of a bad value for a message."""
    text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
