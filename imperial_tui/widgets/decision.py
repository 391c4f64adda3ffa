"""Decision panel: what must be decided, by whom, with only the legal options, chosen by keys.

Actions are shown in words with what they cost and bring (rondel spaces clockwise with the
preview figures, bonds with interest, price and any change of government, units with the
region's name); a kind of action without its own words is shown by its notation without the
actor in front, so new decision kinds of the engine appear without changes here.
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
from imperial_tui.widgets.base import Hanging, nation_text
from rules import Action
from rules.actions import NATION_CODES
from rules.economy import FACTORY_COST, is_port
from rules.engine import DECISION_WORDS
from rules.preview import SpacePreview, government_after_buy, rondel_preview
from rules.rondel import interest_shortfall
from rules.state import NO


def short(action: Action) -> str:
    """The notation without the actor in front ('AH import army vienna' -> 'import army
    vienna')."""
    text = str(action)
    actor = action.actor
    return text[len(actor) + 1 :] if text.startswith(actor + " ") else text


def step_text(s: Any, action: Action, arrow: str = "->") -> str:
    """One step of a multi-step decision in words, for the plan line ('fleet Odessa -> Black
    Sea', 'army Vienna', 'AH 16')."""
    a: Any = action
    if a.kind == "move_fleet":
        return f"fleet {region_name(s, a.origin)}{arrow}{region_name(s, a.dest)}"
    if a.kind == "move_army":
        text = f"army {region_name(s, a.origin)}{arrow}{region_name(s, a.dest)}"
        return text + (f" {a.status}" if a.status else "")
    if a.kind == "import" and a.unit:
        return f"{a.unit} {region_name(s, a.region)}"
    if a.kind == "produce" and a.region not in ("all", "done"):
        return region_name(s, a.region)
    if a.kind == "battle":
        return f"battle in {region_name(s, a.region)}"
    return short(action)


def unit_at(s: Any, rid: str) -> str:
    """What a factory there produces: 'fleet' in a port, else 'army'."""
    return "fleet" if is_port(s, s.board.index[rid]) else "army"


def action_label(
    session: Any,
    actions: list[Action],
    action: Action,
    previews: dict[str, SpacePreview],
    arrow: str,
) -> Text | Hanging:
    """A legal action in a player's words, with what it costs and what it brings."""
    s = session.game.state
    a: Any = action
    kind = a.kind
    if kind == "rondel":
        p = previews.get(a.space)
        cost = "free" if p is None or not p.cost else f"{p.cost}M"
        head = Text(f"{p.label if p else a.space:11}{cost:>5} ", no_wrap=True)
        return Hanging(head, Text(p.text if p else "", style="dim italic"))
    if kind == "buy":
        costs = s.rules.bond_costs
        interest = costs.index(a.value) + 1 if a.value in costs else "?"
        price = a.value - (a.returning or 0)
        head = nation_text(a.nation, f" {a.value:>2}M ")
        body = Text(f"interest {interest}")
        if a.returning:
            body.append(f", pays {price}M + the {a.returning}M bond")
        p = s.players.index(a.actor)
        n = NATION_CODES.index(a.nation)
        new = government_after_buy(s, p, n, price)
        if new != NO and new != s.government[n]:
            body.append(f" {arrow} {s.players[new]} governs {a.nation}", style="bold")
        return Hanging(head, body)
    if kind == "pass":
        aw = session.game.awaiting
        return Text("buy no bond (pass)" if aw and aw.kind in ("invest", "bond_choice") else "pass")
    if kind == "produce":
        if a.region == "done":
            return Text("stop here (the other factories stay idle)")
        if a.region == "all":
            spots = [
                f"{unit_at(s, b.region)} {region_name(s, b.region)}"  # type: ignore[attr-defined]
                for b in actions
                if b.kind == "produce" and b.region not in ("all", "done")  # type: ignore[attr-defined]
            ]
            return Hanging(Text("all: "), Text(", ".join(spots)))
        return Text(f"{unit_at(s, a.region)} in {region_name(s, a.region)}")
    if kind == "import":
        if a.unit is None:
            return Text("done importing")
        return Text(f"{a.unit} in {region_name(s, a.region)} (1M)")
    if kind == "build_factory":
        if a.region is None:
            return Text("build no factory")
        what = "shipyard" if unit_at(s, a.region) == "fleet" else "armaments factory"
        return Text(f"{what} in {region_name(s, a.region)} ({FACTORY_COST}M)")
    if kind in ("battle", "no_battle"):
        return battle_label(s, action)
    return Text(short(action))


def money_text(session: Any) -> str:
    """The money a decision spends: the player's own cash (rondel moves beyond the free
    spaces, bonds) or the nation's treasury (factory, imports); '' when hidden."""
    game = session.game
    aw = game.awaiting
    s = game.state
    if aw is None:
        return ""
    if aw.kind in ("build_factory", "import") and aw.nation:
        return f"{aw.nation} treasury: {s.treasury[NATION_CODES.index(aw.nation)]}M"
    if aw.kind in ("rondel", "invest", "bond_choice") and session.shows_cash_of(aw.player):
        return f"{aw.player}: {game.can_donate(aw.player)}M cash"
    return ""


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
            self.options.add_option(Option(Text("show the final scores"), id="scores"))
            self.options.highlighted = 0
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
        if not session.controls(aw.player):  # over SSH: another player's decision
            what = (f"{aw.nation} " if aw.nation else "") + DECISION_WORDS.get(aw.kind, aw.kind)
            plan.update(Text(f"waiting for {aw.player}: {what}", style="italic"))
            self.options.clear_options()
            return True
        arrow = glyphs(getattr(self.app, "ascii_only", False)).arrow
        plan.update(battle_text(game) if aw.kind == "battle" else self.plan_text(session, arrow))
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
            ol.add_option(Option(Text(f"donate cash to {nation}'s treasury..."), id="donate"))
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

    @property
    def open_key(self) -> str | None:
        """The group whose options are listed (``move_army:vienna``), or None (the map
        highlights that unit's moves)."""
        return self._open

    def highlighted_actions(self) -> list[Action]:
        """The legal actions the highlighted option stands for: all of a unit's moves for a
        unit, the one action for an action, none for "back" or "donate" (for the map)."""
        ol = self.options
        if ol.highlighted is None or not self._actions:
            return []
        oid = ol.get_option_at_index(ol.highlighted).id or ""
        if oid.startswith("g:"):
            return [a for a in self._actions if group_key(a) == oid[2:]]
        if oid.isdigit() and int(oid) < len(self._actions):
            return [self._actions[int(oid)]]
        return []

    def open_group(self, key: str | None) -> None:
        self._open = key
        self._fill()
        if key is not None and self.options.option_count > 1:
            self.options.highlighted = 1

    def action_back(self) -> None:
        if self._open is not None:
            self.open_group(None)

    @staticmethod
    def plan_text(session: Any, arrow: str = "->") -> Text:
        """The steps already taken in this multi-step decision (imports, moves, bonds); a
        Maneuver counts the battles between its moves too. Before the first step, the money
        the decision spends: the player's cash (rondel costs, bonds) or the treasury."""
        game = session.game
        aw = game.awaiting
        s = game.state
        kinds = {aw.kind} | ({"maneuver", "battle"} if aw.kind == "maneuver" else set())
        steps: list[str] = []
        for ply in reversed(game.plies):
            before = ply.before
            if before.awaiting_kind not in kinds or ply.action.kind == "rondel":
                break
            if before.turn != s.turn:
                break
            if before.awaiting_kind == aw.kind and before.players[before.awaiting_player] != (
                aw.player
            ):
                break  # another player's purchase in the same bond round
            steps.append(step_text(s, ply.action, arrow))
        money = money_text(session)
        if not steps:
            return Text(money, style="italic")
        shown = list(reversed(steps))
        head = f"{money} - " if money else ""
        if len(shown) > 2:
            head += f"{len(shown)} so far, last: "
            shown = shown[-2:]
        else:
            head += "so far: "
        return Text(head + "; ".join(shown), style="italic")

    def labels(self, session: Any, actions: list[Action]) -> list[Option]:
        """One option per legal action; rondel spaces clockwise from the nation's marker."""
        s = session.game.state
        arrow = glyphs(getattr(self.app, "ascii_only", False)).arrow
        previews = (
            {p.space: p for p in rondel_preview(s)}
            if actions and actions[0].kind == "rondel"
            else {}
        )
        order = list(range(len(actions)))
        if previews:

            def distance(i: int) -> int:
                p = previews.get(getattr(actions[i], "space", ""))
                return p.distance if p is not None else 9

            order.sort(key=distance)
        return [
            Option(action_label(session, actions, actions[i], previews, arrow), id=str(i))
            for i in order
        ]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id
        if oid == "donate":
            self.post_message(DonateRequested(treasury_short_code(self)))
            return
        if oid == "back":
            self.open_group(None)
            return
        if oid == "scores":
            self.app.show_scores()  # type: ignore[attr-defined]
            return
        if oid is not None and oid.startswith("g:"):
            self.open_group(oid[2:])
            return
        if oid is not None and oid.isdigit() and int(oid) < len(self._actions):
            self.post_message(ActionChosen(self._actions[int(oid)]))


def treasury_short_code(panel: DecisionPanel) -> str | None:
    session = getattr(panel.app, "session", None)
    return treasury_short(session) if session else None
