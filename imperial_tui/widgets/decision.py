"""Decision panel: what must be decided, by whom, with only the legal options, chosen by keys.

Actions are shown generically by their notation (without the actor in front) and grouped by
their ``kind``, so new decision kinds of the engine (maneuver, battles) appear without changes
here; rondel spaces and bond purchases get the preview figures next to them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.messages import ActionChosen, DonateRequested
from imperial_tui.style import glyphs
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


# Maneuver menu order: fleets move before armies; the explicit done step comes last.
GROUP_ORDER = {
    "move_fleet": 0,
    "move_army": 1,
    "battle": 2,
    "change_status": 3,
    "destroy_factory": 4,
    "end_maneuver": 5,
}
GROUP_TITLES = {
    "battle": "Start a battle",
    "change_status": "Change an army's status",
    "destroy_factory": "Destroy a factory",
}


def region_name(s: Any, rid: str | None) -> str:
    """A region's printed name ('north_sea' -> 'North Sea'), the id if unknown."""
    if rid is None:
        return "-"
    r = s.board.index.get(rid)
    return s.board.regions[r].name if r is not None else rid


def foreign_units(s: Any, rid: str, nation: str) -> str:
    """Other nations' units in a region, e.g. 'IT army, FR fleet x2' (a battle may follow)."""
    r = s.board.index.get(rid)
    if r is None:
        return ""
    out = []
    for m, code in enumerate(NATION_CODES):
        if code == nation:
            continue
        for word, counts in (("army", s.armies), ("fleet", s.fleets)):
            k = counts[m][r]
            if k:
                out.append(f"{code} {word}" + (f" x{k}" if k > 1 else ""))
    return ", ".join(out)


def group_key(action: Action) -> str:
    """Maneuver actions are grouped by unit and origin, the rest by kind."""
    if action.kind in ("move_fleet", "move_army"):
        return f"{action.kind}:{action.origin}"  # type: ignore[attr-defined]
    return action.kind


def unmoved(s: Any, kind: str, nation: str, rid: str) -> int:
    """How many of the nation's units of ``kind`` at ``rid`` have not acted in this Maneuver
    (the engine counts only, units of one nation in one region are interchangeable)."""
    n = NATION_CODES.index(nation)
    r = s.board.index[rid]
    ctx = s.turn_ctx
    if kind == "move_fleet":
        moved = getattr(ctx, "moved_fleets", {}).get(r, 0)
        return s.fleets[n][r] - moved
    moved_armies = getattr(ctx, "moved_armies", {})
    return s.armies[n][r] - moved_armies.get((r, True), 0) - moved_armies.get((r, False), 0)


def move_label(s: Any, action: Action, arrow: str) -> Text:
    """'-> Ionian Sea hostile via Adriatic Sea  [IT fleet]' for one unit move."""
    dest = action.dest  # type: ignore[attr-defined]
    label = Text(f"{arrow} {region_name(s, dest)}")
    status = getattr(action, "status", None)
    if status:
        label.append(f" {status}", style="bold" if status == "hostile" else "")
    convoy = getattr(action, "convoy", ())
    if convoy:
        label.append(" via " + ", ".join(region_name(s, c) for c in convoy), style="dim")
    others = foreign_units(s, dest, action.actor)
    if others:
        label.append(f"  [{others}]", style="italic")
    return label


def battle_label(s: Any, action: Action) -> Text:
    """A battle option in words: which unit fights which, one of each is removed."""
    if action.kind == "no_battle":
        return Text("do not fight")
    a: Any = action
    label = Text("fight: our " + a.unit + " against ")
    label.append_text(nation_text(a.target, " " + a.target_unit))
    label.append(f" in {region_name(s, a.region)}", style="dim")
    return label


def battle_text(game: Any) -> Text:
    """Who is asked about which unit: 'RU fleet entered Ionian Sea (AH fleet there). Asked:
    RU, then AH.' Read from the battle context the engine keeps while it asks."""
    s = game.state
    ctx = s.ctx
    region = getattr(ctx, "region", None)
    if region is None:
        return Text("")
    rid = s.board.id(region)
    mover = NATION_CODES[s.turn]
    text = Text()
    text.append_text(nation_text(mover, f" {getattr(ctx, 'unit', 'unit')}"))
    verb = "entered" if not getattr(ctx, "any_unit", False) else "is in"
    text.append(f" {verb} {region_name(s, rid)}")
    others = foreign_units(s, rid, mover)
    if others:
        text.append(f" ({others} there)")
    asking = [NATION_CODES[m] for m in getattr(ctx, "asking", ())]
    if asking:
        text.append(". Asked now: ")
        text.append_text(nation_text(asking[0]))
        if len(asking) > 1:
            text.append(", then " + ", ".join(asking[1:]))
    return text


class DecisionPanel(Vertical):
    """Title, the plan so far, and the legal options.

    A Maneuver offers up to a hundred unit moves, so its options come as a short menu: first
    the unit (fleet or army by origin; battles, status changes and factory destruction each
    as one entry; "end maneuver"), then that unit's destinations. Escape goes back.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace,left", "back", "back", id="decision.back", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._actions: list[Action] = []
        self._key: Any = None
        self._open: str | None = None  # the maneuver group whose destinations are listed
        self._session: Any = None

    def compose(self) -> ComposeResult:
        yield Static(id="decision-title")
        yield Static(id="decision-plan")
        yield OptionList(id="decision-options")

    @property
    def options(self) -> OptionList:
        return self.query_one("#decision-options", OptionList)

    @property
    def grouped(self) -> bool:
        """Whether the options come as a unit menu (a Maneuver) rather than one flat list."""
        aw = self._session.game.awaiting if self._session is not None else None
        return aw is not None and aw.kind == "maneuver"

    def show(self, session: Any, force: bool = False) -> bool:
        key = (session.version, session.viewer, session.game.awaiting)
        if not force and key == self._key:
            return False
        if key[:1] != (self._key or (None,))[:1] or force:
            self._open = None  # after a move, back to the list of units
        self._key = key
        self._session = session
        game = session.game
        aw = game.awaiting
        title = self.query_one("#decision-title", Static)
        plan = self.query_one("#decision-plan", Static)
        self._actions = []
        if aw is None:
            title.update(Text("Game over", style="bold"))
            plan.update("")
            self.options.clear_options()
            return True
        head = Text("Decide: ", style="bold")
        if aw.nation:
            head.append_text(nation_text(aw.nation, " "))
        words = DECISION_WORDS.get(aw.kind, aw.kind)
        if aw.kind == "battle":
            region = getattr(game.state.ctx, "region", None)
            where = game.state.board.id(region) if region is not None else None
            words = f"battle in {region_name(game.state, where)}?"
        head.append(f"{aw.player} - {words}")
        title.update(head)
        if not session.is_human(aw.player):
            plan.update(Text(f"{aw.player} (computer) is thinking...", style="italic"))
            self.options.clear_options()
            return True
        plan.update(battle_text(game) if aw.kind == "battle" else self.plan_text(session))
        self._actions = game.legal_actions()
        self._fill()
        return True

    def _fill(self) -> None:
        """(Re)build the option list for the open group, without asking the engine again."""
        session = self._session
        ol = self.options
        ol.clear_options()
        if session is None:
            return
        game = session.game
        if not self.grouped:
            ol.add_options(self.labels(session, self._actions))
        elif self._open is None:
            ol.add_options(self.group_options(session, self._actions))
        else:
            ol.add_options(self.member_options(session, self._actions, self._open))
        nation = treasury_short(session)
        aw = game.awaiting
        if nation and aw is not None and game.can_donate(aw.player) and self._open is None:
            ol.add_option(Option(f"donate cash to {nation}'s treasury...", id="donate"))
        ol.highlighted = 0 if ol.option_count else None

    def group_options(self, session: Any, actions: list[Action]) -> list[Option]:
        """One line per unit (fleet/army by origin) or per kind of other action; a group of
        one action is that action itself."""
        s = session.game.state
        g = glyphs(getattr(self.app, "ascii_only", False))
        groups: dict[str, list[int]] = {}
        for i, a in enumerate(actions):
            groups.setdefault(group_key(a), []).append(i)
        order = sorted(groups, key=lambda k: (GROUP_ORDER.get(k.split(":")[0], 9), groups[k][0]))
        out = []
        for k in order:
            members = groups[k]
            first = actions[members[0]]
            kind, _, origin = k.partition(":")
            if kind == "end_maneuver":
                label = Text("End maneuver (flags are placed)", style="bold")
                out.append(Option(label, id=str(members[0])))
                continue
            if kind in ("move_fleet", "move_army"):
                word = "Fleet" if kind == "move_fleet" else "Army "
                label = Text(f"{word} {region_name(s, origin)[:15]:15}", no_wrap=True)
                left = unmoved(s, kind, first.actor, origin)
                label.append(f" x{left}" if left > 1 else "   ")
                if len(members) == 1:
                    label.append_text(Text(" ") + move_label(s, first, g.arrow))
                else:
                    label.append(f" {len(members):3} moves {g.pointer}", style="dim")
            else:
                label = Text(GROUP_TITLES.get(kind, kind))
                if len(members) == 1:
                    label = Text(short(first))
                else:
                    label.append(f" ({len(members)}) {g.pointer}", style="dim")
            oid = str(members[0]) if len(members) == 1 else f"g:{k}"
            out.append(Option(label, id=oid))
        return out

    def member_options(self, session: Any, actions: list[Action], key: str) -> list[Option]:
        """The open group's actions: a unit's destinations (or the battles, status changes,
        factories), after a line that leads back."""
        s = session.game.state
        g = glyphs(getattr(self.app, "ascii_only", False))
        kind, _, origin = key.partition(":")
        head = (
            f"{'fleet' if kind == 'move_fleet' else 'army'} in {region_name(s, origin)}"
            if origin
            else GROUP_TITLES.get(kind, kind).lower()
        )
        out = [Option(Text(f"{g.marker} back (esc) - {head}", style="dim"), id="back")]
        for i, a in enumerate(actions):
            if group_key(a) != key:
                continue
            if a.kind in ("move_fleet", "move_army"):
                label = move_label(s, a, g.arrow)
            elif a.kind == "battle":
                label = battle_label(s, a)
            else:
                label = Text(short(a))
            out.append(Option(label, id=str(i)))
        return out

    def open_group(self, key: str | None) -> None:
        self._open = key
        self._fill()
        if key is not None and self.options.option_count > 1:
            self.options.highlighted = 1

    def action_back(self) -> None:
        if self._open is not None:
            self.open_group(None)

    @staticmethod
    def plan_text(session: Any) -> Text:
        """The steps already taken in this multi-step decision (imports, moves, bonds); a
        Maneuver counts the battles between its moves too."""
        game = session.game
        aw = game.awaiting
        kinds = {aw.kind} | ({"maneuver", "battle"} if aw.kind == "maneuver" else set())
        steps: list[str] = []
        for ply in reversed(game.plies):
            if ply.before.awaiting_kind not in kinds or ply.action.kind == "rondel":
                break
            if ply.before.turn != game.state.turn:
                break
            steps.append(short(ply.action))
        if not steps:
            return Text("")
        shown = list(reversed(steps))
        if len(shown) > 3:
            return Text(f"{len(shown)} so far, last: " + "; ".join(shown[-3:]), style="italic")
        return Text("so far: " + "; ".join(shown), style="italic")

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
            elif a.kind in ("battle", "no_battle"):
                label.append_text(battle_label(s, a))
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
        if oid == "back":
            self.open_group(None)
            return
        if oid is not None and oid.startswith("g:"):
            self.open_group(oid[2:])
            return
        if oid is not None and oid.isdigit() and int(oid) < len(self._actions):
            self.post_message(ActionChosen(self._actions[int(oid)]))


def treasury_short_code(panel: DecisionPanel) -> str | None:
    session = getattr(panel.app, "session", None)
    return treasury_short(session) if session else None
