"""The commands about the actions of a saved game: ``apply`` and ``undo`` change it (under
the save's lock, all or nothing), ``log`` prints the actions played and ``explain`` says why
one action is legal or not, citing the rule."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from imperial_tui.cli.common import (
    EXIT_GAME,
    AtOpt,
    FileArg,
    _console,
    _fail,
    _game_at,
    _load,
    one_line,
)
from rules import Event, Game, IllegalAction
from rules.savefile import SaveError, SaveLock

# --------------------------------------------------------------------------- apply


def apply(
    file: FileArg,
    actions: Annotated[
        list[str],
        typer.Argument(
            metavar="ACTION...", help="Actions in notation, applied in order.", show_default=False
        ),
    ],
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            "-n",
            help="Show what would happen (events and the changed figures) without saving.",
        ),
    ] = False,
) -> None:
    """Apply actions to a saved game and save it once, then print what happened.

    All or nothing: if one action is illegal, it prints `illegal: <reason>` naming the action,
    exits with 1 and leaves the file untouched. The file stays locked from reading to saving,
    so two commands on one save take turns. With --dry-run nothing is saved: it shows the
    events and every figure that would change (what if?).

    Examples:

    * `imperial apply game.json "AH rondel import"`

    * `imperial apply game.json "AH import army vienna" "AH import fleet trieste" "AH import
      done"`

    * `imperial apply game.json "Anna donates 3 to IT"`

    * `imperial apply game.json --dry-run "IT rondel taxation"`
    """
    if dry_run:
        game = _load(file).game
        before = game.summary()
        done = _apply_all(game, actions, file, saved=False)
        from rules.changes import summary_changes

        _print_applied(game, done)
        changes = summary_changes(before, game.summary())
        out = ["changes:", *(f"  {c}" for c in changes)] if changes else ["no figure changes"]
        out.append(f"Not saved (--dry-run); {file} is unchanged.")
        _console().print("\n".join(out), markup=False)
        return
    try:
        with SaveLock(file) as lock:
            loaded = lock.loaded
            game = loaded.game
            done = _apply_all(game, actions, file, saved=True)
            lock.save(game, loaded.controllers, loaded.app, loaded.header.get("created"))
    except SaveError as exc:
        _fail(str(exc))
    _print_applied(game, done)


def _apply_all(
    game: Game, actions: list[str], file: Path, saved: bool
) -> list[tuple[str, list[Event]]]:
    done: list[tuple[str, list[Event]]] = []
    for number, text in enumerate(actions, start=1):
        try:
            events = game.apply(text)
        except IllegalAction as exc:
            which = f"action {number} of {len(actions)}, " if len(actions) > 1 else ""
            text = text if len(text) <= 60 else text[:57] + "..."
            what = "nothing was saved" if saved else "nothing would be saved"
            _fail_plain(
                f"illegal: {exc.reason} ({which}{text!r}; {what}; see `imperial moves {file}` "
                f"or `imperial explain {file} ACTION`)"
            )
        done.append((str(game.history[-1]), events))
    return done


def _print_applied(game: Game, done: list[tuple[str, list[Event]]]) -> None:
    out = []
    for notation, events in done:
        out.append(notation)
        out.extend(f"  {e.text}" for e in events)
    from imperial_tui.render.show import decision_text

    console = _console()
    console.print("\n".join(out), markup=False)
    console.print(decision_text(game))


# --------------------------------------------------------------------------- undo


def undo(
    file: FileArg,
    count: Annotated[
        int,
        typer.Argument(metavar="[N]", min=1, help="How many actions to take back (default 1)."),
    ] = 1,
) -> None:
    """Take back the last N actions of a saved game and save it (all at once, locked like
    apply). A game that started from a position stops there.

    Examples:

    * `imperial undo game.json`

    * `imperial undo game.json 3`
    """
    try:
        with SaveLock(file) as lock:
            loaded = lock.loaded
            game = loaded.game
            total = len(game.history)
            if count > total:
                start = "the position it starts from" if game.setup.position else "the set-up"
                has = f"only {total} action{'s' if total != 1 else ''}" if total else "no action"
                _fail(f"{file} has {has} since {start}; nothing was undone")
            taken = [str(game.undo()) for _ in range(count)]
            lock.save(game, loaded.controllers, loaded.app, loaded.header.get("created"))
    except SaveError as exc:
        _fail(str(exc))
    from imperial_tui.render.show import decision_text

    console = _console()
    console.print("\n".join(f"undone: {t}" for t in taken), markup=False)
    console.print(decision_text(game))


# --------------------------------------------------------------------------- log


def log(
    file: FileArg,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print {"actions": N, "turns": [{"heading", "nation", "events", "actions": '
            '[{"number", "notation", "actor", "events"}]}]}.',
        ),
    ] = False,
) -> None:
    """Print the history of a saved game: the numbered actions with the events they caused,
    grouped by nation turn, as the app's log shows them. The numbers are the N of
    `show/state/moves --at N`.

    Examples:

    * `imperial log game.json`

    * `imperial log game.json --json | jq '.turns[-1]'`
    """
    from rules.history import log_json, turn_logs

    game = _load(file).game
    if as_json:
        sys.stdout.write(json.dumps(log_json(game), indent=2, ensure_ascii=False) + "\n")
        return
    lines: list[str] = []
    for turn in turn_logs(game):
        lines.append(turn.heading[:1].upper() + turn.heading[1:])
        lines.extend(f"       {e.text}" for e in turn.events)
        for a in turn.actions:
            lines.append(f"  {a.number:>4} {a.notation}")
            lines.extend(f"         {e.text}" for e in a.events)
    if not game.plies:
        lines.append("(no actions yet)")
    _console().print("\n".join(lines), markup=False)


# --------------------------------------------------------------------------- explain


def explain(
    file: FileArg,
    action: Annotated[
        str, typer.Argument(metavar="ACTION", help="An action in notation.", show_default=False)
    ],
    at: AtOpt = None,
) -> None:
    """Explain why an action is legal or illegal here, citing the rule (the rules page and
    section, and the RULES.md paragraph). Nothing is saved. Exits with 0 when the action is
    legal and 1 when it is not (the answer is on standard output either way).

    Examples:

    * `imperial explain game.json "GE move army hamburg -> danzig"`

    * `imperial explain game.json "AH build factory trieste" --at 30`
    """
    from rules.explain import explain as explain_action

    game = _game_at(file, at)
    answer = explain_action(game, action)
    lines = [one_line(answer.headline()), f"  action: {one_line(answer.action)}"]
    if answer.engine_reason and answer.engine_reason != answer.why:
        lines.append(f"  the engine says: {one_line(answer.engine_reason)}")
    lines.append(f"  rule: {answer.rule.short()} ({answer.rule.where()})")
    if answer.legal:
        lines.append("  what would happen (not saved):")
        lines.extend(f"    {e.text}" for e in answer.events)
    _console().print("\n".join(lines), markup=False)
    if not answer.legal:
        raise typer.Exit(EXIT_GAME)


def _fail_plain(message: str) -> NoReturn:
    """Like ``_fail`` but without the program prefix, for the documented ``illegal:`` line."""
    sys.stderr.write(one_line(message) + "\n")
    raise typer.Exit(EXIT_GAME)
