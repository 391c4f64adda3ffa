"""Decision panel: what must be decided, by whom, with only the legal options, chosen by keys.

Actions are shown generically by their notation (without the actor in front) and grouped by
their ``kind``, so new decision kinds of the engine (maneuver, battles) appear without changes
here; rondel spaces and bond purchases get the preview figures next to them.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.messages import ActionChosen, DonateRequested
from imperial_tui.widgets.base import nation_text
from rules import Action
from rules.actions import NATION_CODES
from rules.engine import DECISION_WORDS
from rules.preview import government_after_buy, rondel_preview
from rules.rondel import interest_shortfall
from rules.state import NO

KIND_TITLES = {
    "rondel": "Rondel",
    "build_factory": "Factory",
    "produce": "Produce",
    "import": "Import",
    "move_fleet": "Fleets",
    "move_army": "Armies",
    "change_status": "Status",
    "battle": "Battle",
    "no_battle": "Battle",
    "destroy_factory": "Destroy",
    "end_maneuver": "Done",
    "buy": "Buy",
    "pass": "Pass",
    "swiss_bank": "Swiss bank",
}


def short(action: Action) -> str:
    """The notation without the actor in front ('AH import army vienna' -> 'import army
    vienna')."""
    text = str(action)
    actor = action.actor
    return text[len(actor) + 1 :] if text.startswith(actor + " ") else text


def treasury_short(session: Any) -> str | None:
    """The nation whose treasury is short for the current decision (donations matter)."""
    s = session.game.state
    aw = session.game.awaiting
    if aw is None or aw.nation is None:
        return None
    n = NATION_CODES.index(aw.nation)
    if aw.kind == "build_factory" and s.treasury[n] < 5:
        return aw.nation
    if aw.kind == "import" and s.treasury[n] < 3:
        return aw.nation
    if aw.kind == "rondel" and interest_shortfall(s, n) > 0:
        return aw.nation
    return None


class DecisionPanel(Vertical):
    """Title, the plan so far, and the legal options."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._actions: list[Action] = []
        self._key: Any = None

    def compose(self) -> ComposeResult:
        yield Static(id="decision-title")
        yield Static(id="decision-plan")
        yield OptionList(id="decision-options")

    @property
    def options(self) -> OptionList:
        return self.query_one("#decision-options", OptionList)

    def show(self, session: Any, force: bool = False) -> bool:
        key = (session.version, session.viewer, session.game.awaiting)
        if not force and key == self._key:
            return False
        self._key = key
        game = session.game
        aw = game.awaiting
        title = self.query_one("#decision-title", Static)
        plan = self.query_one("#decision-plan", Static)
        ol = self.options
        ol.clear_options()
        self._actions = []
        if aw is None:
            title.update(Text("Game over", style="bold"))
            plan.update("")
            return True
        head = Text("Decide: ", style="bold")
        if aw.nation:
            head.append_text(nation_text(aw.nation, " "))
        head.append(f"{aw.player} - {DECISION_WORDS.get(aw.kind, aw.kind)}")
        title.update(head)
        if not session.is_human(aw.player):
            plan.update(Text(f"{aw.player} (computer) is thinking...", style="italic"))
            return True
        plan.update(self.plan_text(session))
        self._actions = game.legal_actions()
        ol.add_options(self.labels(session, self._actions))
        nation = treasury_short(session)
        if nation and game.can_donate(aw.player):
            ol.add_option(Option(f"donate cash to {nation}'s treasury...", id="donate"))
        ol.highlighted = 0
        return True

    @staticmethod
    def plan_text(session: Any) -> Text:
        """The steps already taken in this multi-step decision (imports, moves, bonds)."""
        game = session.game
        aw = game.awaiting
        steps: list[str] = []
        for ply in reversed(game.plies):
            if ply.before.awaiting_kind != aw.kind or ply.action.kind == "rondel":
                break
            if ply.before.turn != game.state.turn:
                break
            steps.append(short(ply.action))
        if not steps:
            return Text("")
        return Text("so far: " + "; ".join(reversed(steps)), style="italic")

    @staticmethod
    def labels(session: Any, actions: list[Action]) -> list[Option]:
        s = session.game.state
        previews = (
            {p.space: p for p in rondel_preview(s)}
            if actions and actions[0].kind == "rondel"
            else {}
        )
        out = []
        last_kind = None
        grouped = len({a.kind for a in actions}) > 1
        for i, a in enumerate(actions):
            title = KIND_TITLES.get(a.kind, a.kind)
            group = f"{title[:7]:8}" if a.kind != last_kind else " " * 8
            last_kind = a.kind
            label = Text(group if grouped else "", style="dim", no_wrap=True, overflow="ellipsis")
            if a.kind == "rondel":
                p = previews.get(a.space)  # type: ignore[attr-defined]
                cost = "free" if p is None or not p.cost else f"{p.cost}M"
                label.append(f"{p.label if p else a.space:11}{cost:>5} ")  # type: ignore
                label.append(p.text if p else "", style="dim italic")
            elif a.kind == "buy":
                label.append(short(a))
                p = s.players.index(a.actor)
                n = NATION_CODES.index(a.nation)  # type: ignore[attr-defined]
                price = a.value - (a.returning or 0)  # type: ignore[attr-defined]
                new = government_after_buy(s, p, n, price)
                if new != NO and new != s.government[n]:
                    label.append(f" -> {s.players[new]} governs {a.nation}", style="bold")
            else:
                label.append(short(a))
            out.append(Option(label, id=str(i)))
        return out

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id
        if oid == "donate":
            self.post_message(DonateRequested(treasury_short_code(self)))
            return
        if oid is not None and oid.isdigit() and int(oid) < len(self._actions):
            self.post_message(ActionChosen(self._actions[int(oid)]))


def treasury_short_code(panel: DecisionPanel) -> str | None:
    session = getattr(panel.app, "session", None)
    return treasury_short(session) if session else None
