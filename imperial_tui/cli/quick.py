"""The answers of ``imperial state`` and ``imperial moves``, opening a save in the app, and a
quick way to them.

``state`` and ``moves`` are what scripts and quick rules checks call again and again, so their
time is mostly the interpreter's start-up: loading Typer, Click and Rich costs more than
replaying a 700-action save; and the app's first frame should not wait for a command-line
library either. ``answer`` therefore recognises the plain forms (``state|moves FILE [--json]
[--at N]``, ``play FILE`` and bare ``imperial``) before the Typer app is imported and answers
them with the same functions the Typer commands call (``imperial_tui.cli.positions`` and
``games``). Anything else (``--help``, a misspelt option, an option given twice, a global
option) returns None and goes the usual way through Typer, so the command line has one
definition and one set of messages. Nothing here imports Typer, Rich or (but to open the app)
Textual: ``tests/test_import_budget.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from imperial_tui.cli.messages import EXIT_USAGE, CommandError, one_line
from imperial_tui.model.numbers import whole_number
from rules.decisions import Decision
from rules.game import Game
from rules.savefile import SaveError, load_game, printable

if TYPE_CHECKING:
    from imperial_tui.model.session import Session
    from rules.controllers import Controller

QUICK_COMMANDS = ("state", "moves")


# --------------------------------------------------------------------------- loading


def load_at(path: Path, at: int | None) -> Game:
    """The saved game, or the position after its first ``at`` actions (``game_at``: the
    position the engine recorded then, exactly as undo restores it)."""
    try:
        game = load_game(path).game
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    if at is None:
        return game
    from rules.history import game_at

    total = len(game.history)
    n = at if at >= 0 else total + at
    if not 0 <= n <= total:
        raise CommandError(
            f"--at {at}: {path} has {total} action{'s' if total != 1 else ''}", EXIT_USAGE
        )
    return game_at(game, n)


# --------------------------------------------------------------------------- the answers


def state_text(game: Game) -> str:
    """A few plain lines for a quick look (``show`` has the full tables)."""
    s = game.summary()
    rules = game.setup.rules
    if rules.game == "imperial":  # (as ``imperial new`` names it: render.show.setup_overview)
        lines = [f"Imperial, {rules.edition} edition, {rules.variant} variant"]
    else:  # (Imperial 2030 has one edition: the 2010 rules)
        lines = [f"{rules.title}, {rules.variant} variant"]
    if s["finished"]:
        result = game.result()
        lines.append(f"Game over: {result.describe() if result else ''}")
    else:
        turn, awaiting = s["turn"], s["awaiting"]
        where = f"round {turn['round']}, {turn['nation']}'s turn" if turn["nation"] else "set-up"
        if awaiting:
            who = f"{awaiting['player']} decides {awaiting['kind']}"
            if awaiting["nation"]:
                who += f" for {awaiting['nation']}"
            where += f"; {who}"
        lines.append(where[:1].upper() + where[1:])
    for code, n in s["nations"].items():
        lines.append(
            f"  {code} {n['governor'] or '-':<12} treasury {n['treasury']:>3}M  "
            f"power {n['power']:>2}  rondel {n['rondel'] or '-'}"
        )
    for p in s["players"]:
        bonds = ", ".join(f"{b['nation']} {b['value']}" for b in p["bonds"]) or "no bonds"
        extra = []
        if p["governs"]:
            extra.append("governs " + " ".join(p["governs"]))
        if p["investor_card"]:
            extra.append("investor card")
        if p["swiss_bank"]:
            extra.append("Swiss bank")
        tail = f" ({'; '.join(extra)})" if extra else ""
        lines.append(f"  {p['name']}: {p['cash']}M cash; {bonds}{tail}")
    return "\n".join(lines)


def state_output(game: Game, as_json: bool) -> str:
    """What ``imperial state`` prints: the state summary JSON (docs/STATE.md) or a few lines."""
    if as_json:
        return json.dumps(game.summary(), indent=2, ensure_ascii=False) + "\n"
    return state_text(game) + "\n"


def moves_output(game: Game, as_json: bool) -> str:
    """What ``imperial moves`` prints: the legal actions in notation (a JSON list with
    ``--json``), and what a donation of the deciding government would make legal."""
    awaiting = game.awaiting
    actions = game.legal_actions() if awaiting is not None else []
    if as_json:
        rows = [
            {
                "notation": str(a),
                "player": awaiting.player if awaiting else None,
                "kind": type(a).kind,
                "nation": awaiting.nation if awaiting else None,
            }
            for a in actions
        ]
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    if awaiting is None:
        result = game.result()
        return f"The game is over{': ' + result.describe() if result else ''}.\n"
    head = f"{awaiting.player} decides ({awaiting.kind}"
    head += f", {awaiting.nation})" if awaiting.nation else ")"
    out = head + ":\n" + "".join(f"  {a}\n" for a in actions)
    if awaiting.kind == Decision.SWISS_BANK:  # what is decided (as the app says it)
        from rules.preview import swiss_bank_text

        out += swiss_bank_text(game.state) + "\n"
    from rules.donations import donation_routes

    routes = donation_routes(game)
    if routes and awaiting.nation is not None:  # (routes: a nation's decision only)
        treasury = game.summary()["nations"][awaiting.nation]["treasury"]
        out += (
            f"Legal after a donation ({awaiting.nation}'s treasury holds {treasury}M; a "
            "government may donate its own cash first):\n"
            + "".join(f"  {r.action}: {r.words()}\n" for r in routes)
        )
    return out


# --------------------------------------------------------------------------- the app


def load_session(path: Path) -> Session:
    """The saved game with its seats, for the app; what the file's reader warned about (an
    unknown computer level, say) goes to stderr."""
    from imperial_tui.model.session import Session

    try:
        session = Session.load(path)
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    for warning in session.warnings:
        sys.stderr.write(f"imperial: {printable(warning)}\n")
    return session


def reseat(session: Session, seats: dict[str, Controller]) -> Session:
    """The session with ``seats`` (``--bot NAME=LEVEL``) put in: its computer players are
    closed and made anew for the seats as they now are. Everything else the save holds
    stays (the computer players' reasons and the pause setting are saved with the seats by
    ``open_in_app``), and so do the warnings of its reading, which the app shows."""
    from imperial_tui.model.session import Session

    if not seats:
        return session
    session.controllers.update(seats)
    session.close_bots()
    return Session(
        session.game,
        session.controllers,
        session.path,
        hidden_cash=session.hidden_cash,
        pace=session.pace,
        created=session.created,
        digest=session.digest,
        warnings=session.warnings,
        reasons=session.reasons,
        pause=session.pause,
    )


def open_in_app(session: Session) -> None:
    """Save the session if it changed (the seats given, a save of an older form) and play it
    in the app.

    A save that the file already holds is not written again (``Session.save_if_changed``):
    another app showing it would otherwise see the file changed and offer a reload for
    nothing. Only whether it could be written is checked then: the app autosaves to it, so a
    read-only save is refused here, before the app starts, without touching it.

    The save is written in a thread while the app's modules load: it waits for the disk
    (the file is flushed to it: ``rules.safe_file``, 5-10 ms) while Textual loads, instead of
    before (issue 26). Whatever it raises is raised here once it is done, before the app
    starts: a save that fails still ends the command with one line."""
    import threading

    failed: list[BaseException] = []

    def save() -> None:
        try:
            session.save_if_changed()
        except BaseException as exc:  # (raised again in the command's thread, below)
            failed.append(exc)

    saving = threading.Thread(target=save, name="imperial-save")
    saving.start()
    try:
        from imperial_tui.app import ImperialApp, run_app
    finally:
        saving.join()
    for exc in failed:
        if isinstance(exc, SaveError):
            raise CommandError(str(exc)) from None
        raise exc
    run_app(ImperialApp(session=session))


def start_app(path: Path | None = None) -> None:
    """The app on a save file, or (None) on the new-game screen (bare ``imperial``)."""
    from imperial_tui.app import run

    try:
        run(str(path) if path is not None else None)
    except SaveError as exc:
        raise CommandError(str(exc)) from None


# --------------------------------------------------------------------------- the quick way


def _plain_form(words: list[str]) -> tuple[str, Path, bool, int | None] | None:
    """(command, FILE, --json, --at) when ``words`` is a plain form of ``state``/``moves``,
    each option at most once; None for anything Typer should read (help, errors included)."""
    if len(words) < 2 or words[0] not in QUICK_COMMANDS:
        return None
    file: str | None = None
    as_json = at_given = False
    at: int | None = None
    rest = iter(words[1:])
    for word in rest:
        if word == "--json" and not as_json:
            as_json = True
        elif (word == "--at" or word.startswith("--at=")) and not at_given:
            value = next(rest, None) if word == "--at" else word.removeprefix("--at=")
            if value is None or not whole_number(value):
                return None
            at, at_given = int(value), True
        elif file is None and word and not word.startswith("-"):
            file = word
        else:
            return None
    if file is None:
        return None
    return words[0], Path(file), as_json, at


def answer(words: list[str]) -> int | None:
    """Answer ``imperial WORDS`` here if it is a plain ``state`` or ``moves`` (the exit code),
    or None: the Typer app answers it."""
    try:
        if not words:
            start_app()
            return 0
        if len(words) == 2 and words[0] == "play" and words[1] and words[1][0] != "-":
            open_in_app(reseat(load_session(Path(words[1])), {}))
            return 0
        form = _plain_form(words)
        if form is None:
            return None
        command, path, as_json, at = form
        game = load_at(path, at)
        text = state_output(game, as_json) if command == "state" else moves_output(game, as_json)
    except CommandError as exc:
        sys.stderr.write(f"imperial: {one_line(str(exc))}\n")
        return exc.code
    sys.stdout.write(text)
    return 0
