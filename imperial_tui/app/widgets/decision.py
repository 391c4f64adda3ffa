"""Decision panel: what must be decided, by whom, with only the legal options, chosen by keys.

Actions are shown in words (``action_labels``) with what they cost and bring (rondel spaces
clockwise with the preview figures, bonds with interest, price and any change of government,
units with the region's name); a kind of action without its own words is shown by its
notation without the actor in front, so new decision kinds of the engine appear without
changes here.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.scalar import Scalar
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.app.base import game_app
from imperial_tui.app.messages import ActionChosen, DonateRequested
from imperial_tui.app.widgets.action_labels import (
    action_label,
    money_text,
    step_text,
    treasury_short,
)
from imperial_tui.app.widgets.base import nation_text, set_content
from imperial_tui.app.widgets.maneuver_menu import (  # move_label: also for the map's side
    battle_text,
    canal_text,
    canal_title,
    group_key,
    jump_name,
    move_label,
    move_options,
    status_question,
    unit_options,
)
from imperial_tui.app.widgets.plan_line import fitted_plan
from imperial_tui.render.mapmarks import UnitMove
from imperial_tui.render.style import glyphs
from imperial_tui.render.words import (  # region_name: map
    region_name,
    short_name,
)
from rules import Action
from rules.actions import (
    CanalPassage,
    ChooseRondel,
    MoveArmy,
    MoveFleet,
    NoFight,
)
from rules.decisions import Decision
from rules.engine import DECISION_WORDS
from rules.preview import rondel_preview, swiss_bank_text
from rules.state import Awaiting

if TYPE_CHECKING:
    from imperial_tui.model.session import SessionView

# The lines under the title for a decision whose question needs more than the plan's two:
# a battle's (who entered where, who is asked), a Swiss bank's (the move, the interest a
# forced stop pays, whether going on ends the game). Their answers are few: the list has room.
PLAN_LINES = {Decision.BATTLE: 3, Decision.SWISS_BANK: 4}

# The follow-up a rondel choice carries: Production then produces at every factory at once
# (the right arrow picks factories one by one instead).
PRODUCE_ALL = "produce_all"


class DecisionPanel(Vertical):
    """Title, the plan so far, and the legal options.

    A Maneuver offers up to a hundred unit moves, so its options come as a short menu: first
    the unit (fleet or army by origin; battles, status changes and factory destruction each
    as one entry; "end maneuver"), then that unit's destinations. Escape goes back.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace,left", "back", "back", id="decision.back", show=False),
        Binding("right", "open", "open", id="decision.open", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._actions: list[Action] = []
        # what it last showed: the session's version, the viewer, the decision
        self._key: tuple[object, str | None, Awaiting | None] | None = None
        self._open: str | None = None  # the maneuver group whose destinations are listed
        self._typed = ""  # the letters typed so far in a unit's destinations
        self._typed_at = 0.0
        self._session: SessionView | None = None

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
        aw = self._session.view.awaiting if self._session is not None else None
        return aw is not None and aw.kind == Decision.MANEUVER

    def show(self, session: SessionView, force: bool = False) -> bool:
        key = (session.version, session.viewer, session.view.awaiting)
        if not force and key == self._key:
            return False
        if key[:1] != (self._key or (None,))[:1] or force:
            self._open = None  # after a move, back to the list of units
        keep = self._kept_choice(key[2])
        self._key = key
        self._session = session
        game = session.view
        aw = game.awaiting
        title = self.query_one("#decision-title", Static)
        plan = self.query_one("#decision-plan", Static)
        self._actions = []
        if aw is None:
            set_content(title, Text("Game over", style="bold"), layout=False)
            set_content(plan, "")
            self.options.clear_options()
            self.options.add_option(Option(Text("show the final scores"), id="scores"))
            self.options.highlighted = 0
            return True
        prefix = Text("Decide: ", style="bold")
        head = nation_text(aw.nation, " ") if aw.nation else Text()
        words = DECISION_WORDS.get(aw.kind, aw.kind)
        if aw.kind == Decision.BATTLE:
            region = getattr(game.state.ctx, "region", None)
            where = game.state.board.id(region) if region is not None else None
            name = region_name(game.state, where)
            # the name shortened to fit ("English Chan.", "W. Mediterranean"); too short to
            # read, none: the line under it names the region
            room = (title.content_region.width or 40) - head.cell_len
            room -= len(f"{aw.player} - battle in ?")
            if not short_name(name, room - prefix.cell_len).endswith("."):
                room -= prefix.cell_len
            else:  # a name cut mid-word ("Mediterrane.", a playtest) takes the prefix's room
                prefix = Text()
            fitted = short_name(name, room) if room >= min(len(name), 8) else ""
            words = f"battle in {fitted}?" if fitted else "battle?"
        elif aw.kind == Decision.CANAL:
            words = canal_title(game.state)
        elif aw.kind == Decision.SWISS_BANK:  # (the line under it says which move, and why)
            words = "force a stop?"
        head = prefix + head
        head.append(f"{aw.player} - {words}")
        set_content(title, head, layout=False)  # one line (app.tcss)
        plan_lines = PLAN_LINES.get(aw.kind, 2)
        if plan.styles.max_height != Scalar.parse(str(plan_lines)):
            plan.styles.max_height = plan_lines
        if not session.is_human(aw.player):
            thinking = Text(f"{aw.player} (computer) is thinking...", style="italic")
            set_content(plan, thinking, layout=None)
            self._clear()
            return True
        if not session.controls(aw.player):  # over SSH: another player's decision
            what = (f"{aw.nation} " if aw.nation else "") + DECISION_WORDS.get(aw.kind, aw.kind)
            set_content(plan, Text(f"waiting for {aw.player}: {what}", style="italic"), layout=None)
            self._clear()
            return True
        set_content(plan, self._plan_line(session, plan, plan_lines), layout=None)
        self._actions = game.legal_actions()
        self._fill(keep)
        return True

    def _plan_line(self, session: SessionView, plan: Static, lines: int) -> Text:
        """The line under the title for a decision of this player: a battle's or a canal's
        question, else the plan so far fitted to ``plan``'s width and ``lines``."""
        game = session.view
        aw = game.awaiting
        arrow = glyphs(getattr(self.app, "ascii_only", False)).arrow
        if aw is not None and aw.kind == Decision.BATTLE:
            return battle_text(game)
        if aw is not None and aw.kind == Decision.CANAL:
            return canal_text(game, arrow)
        if aw is not None and aw.kind == Decision.SWISS_BANK:
            return Text(swiss_bank_text(game.state))
        return self.plan_text(session, arrow, plan.content_region.width or 40, lines)

    def on_resize(self, event: events.Resize) -> None:
        """The plan so far is fitted to the panel's width (``fitted_plan``): fitted again
        when the terminal's size changes it, once the new layout is in place."""
        self.call_after_refresh(self._refit_plan)

    def _refit_plan(self) -> None:
        session = self._session
        if session is None or not self._actions or not self.is_attached:
            return  # no decision of this player's on show: its line says who decides
        if self._key is None or self._key[0] != session.version:
            return  # a change is on its way: show() fits the line then
        plan = self.query_one("#decision-plan", Static)
        lines = PLAN_LINES.get(self._key[2].kind, 2) if self._key[2] is not None else 2
        set_content(plan, self._plan_line(session, plan, lines), layout=None)

    def _kept_choice(self, now: Awaiting | None) -> Action | None:
        """The action the flat list highlights, when the same player goes on with the same
        decision (a second import): the highlight stays on it if it is still offered (two
        armies to London: Enter, Enter)."""
        before = self._key[2] if self._key is not None else None
        if before is None or now is None or before != now or self.grouped:
            return None
        chosen = self.highlighted_actions()
        return chosen[0] if len(chosen) == 1 else None

    def _clear(self) -> None:
        """No options (another player's decision): an empty list is left alone, so another
        player's move costs this screen no new layout."""
        if self.options.option_count:
            self.options.clear_options()

    def _fill(self, keep: Action | None = None) -> None:
        """(Re)build the option list for the open group, without asking the engine again;
        the highlight on ``keep`` if it is offered, else on the first choice."""
        session = self._session
        ol = self.options
        ol.clear_options()
        if session is None:
            return
        game = session.view
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
        # the first choice (a heading such as "Fleets (move these first)" is never one)
        ol.highlighted = next(
            (i for i in range(ol.option_count) if not ol.get_option_at_index(i).disabled), None
        )
        if keep is not None and keep in self._actions:
            kept = str(self._actions.index(keep))
            ol.highlighted = next(
                (i for i in range(ol.option_count) if ol.get_option_at_index(i).id == kept),
                ol.highlighted,
            )

    def group_options(self, session: SessionView, actions: list[Action]) -> list[Option]:
        """One line per unit or kind of action, under headings (``unit_options``)."""
        g = glyphs(getattr(self.app, "ascii_only", False))
        return unit_options(session.view.state, actions, g)

    def member_options(self, session: SessionView, actions: list[Action], key: str) -> list[Option]:
        """The open group's actions (``move_options``), after a line that leads back."""
        g = glyphs(getattr(self.app, "ascii_only", False))
        return move_options(session.view.state, actions, key, g)

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
        if oid.startswith("d:"):
            return self.variants(oid)
        if oid.isdigit() and int(oid) < len(self._actions):
            return [self._actions[int(oid)]]
        return []

    def variants(self, oid: str) -> list[Action]:
        """The actions of a ``d:3,4`` line (one destination, hostile or friendly)."""
        picked = [int(k) for k in oid[2:].split(",") if k.isdigit()]
        return [self._actions[k] for k in picked if k < len(self._actions)]

    def ask_variant(self, moves: list[Action]) -> None:
        """Enter on a destination that may end hostile or friendly: which (as on the map)."""
        from imperial_tui.app.screens.dialogs import ChoiceScreen

        session = self._session
        unit_moves = [a for a in moves if isinstance(a, UnitMove)]  # (a d: line's are)
        if not unit_moves or session is None:
            return
        s = session.view.state
        arrow = glyphs(getattr(self.app, "ascii_only", False)).arrow
        picks = [(move_label(s, a, arrow), a) for a in unit_moves]

        def picked(value: UnitMove | None) -> None:
            if value is not None:
                self.post_message(ActionChosen(value))

        self.app.push_screen(ChoiceScreen(status_question(s, unit_moves[0].dest), picks), picked)

    def open_group(self, key: str | None) -> None:
        self._open = key
        self._fill()
        ol = self.options
        if key is not None:
            # the first choice after "back" (and the headings, never highlighted)
            ol.highlighted = next(
                (i for i in range(1, ol.option_count) if not ol.get_option_at_index(i).disabled),
                0,
            )

    def action_back(self) -> None:
        if self._open is not None:
            self.open_group(None)

    def action_open(self) -> None:
        """Right arrow: open the highlighted unit's moves, or choose a Production space
        without producing everywhere at once (its factories are then listed)."""
        ol = self.options
        if ol.highlighted is None:
            return
        oid = ol.get_option_at_index(ol.highlighted).id or ""
        if oid.startswith("g:"):
            self.open_group(oid[2:])
        elif oid.isdigit() and int(oid) < len(self._actions):
            action = self._actions[int(oid)]
            if isinstance(action, ChooseRondel) and action.space.startswith("production"):
                self.post_message(ActionChosen(action))

    TYPE_AHEAD_SECONDS: ClassVar[float] = 1.0  # letters typed within this time spell one name

    def on_key(self, event: events.Key) -> None:
        """In a unit's destinations typed letters jump to the region whose name starts with
        them ('w', 'e', 's' finds Western Mediterranean before West Balkan); a pause starts
        a new name, and the same letter again goes on to the next region with it (the list
        is sorted by name). Elsewhere letters are the screen's keys."""
        char = event.character or ""
        if self._open is None or len(char) != 1 or not (char.isalpha() or char == " "):
            return
        if char == " " and not self._typed:
            return
        event.stop()
        event.prevent_default()
        now = time.monotonic()
        typed = self._typed
        if now - self._typed_at > self.TYPE_AHEAD_SECONDS:
            typed = ""
        again = typed == char.lower()  # the same single letter: the next region with it
        typed = char.lower() if again else typed + char.lower()
        if not self._jump(typed, again or len(typed) == 1) and len(typed) > 1:
            typed = char.lower()  # no name goes on like that: the letter starts a new one
            self._jump(typed, True)
        self._typed, self._typed_at = typed, now

    def _jump(self, typed: str, onward: bool) -> bool:
        """Highlight the next option whose region's name starts with ``typed`` (from the
        one after the highlight when ``onward``, else from the highlight itself)."""
        ol = self.options
        count = ol.option_count
        start = ol.highlighted if ol.highlighted is not None else 0
        first = 1 if onward else 0
        for step in range(first, count + first):
            i = (start + step) % count
            option = ol.get_option_at_index(i)
            actions = self._option_actions(option.id or "")
            if option.disabled or not actions:
                continue
            if self._session is None:
                return False
            name = jump_name(self._session.view.state, actions[0])
            if name.lower().startswith(typed):
                ol.highlighted = i
                return True
        return False

    def _option_actions(self, oid: str) -> list[Action]:
        if oid.startswith("d:"):
            return self.variants(oid)
        if oid.isdigit() and int(oid) < len(self._actions):
            return [self._actions[int(oid)]]
        return []

    @staticmethod
    def plan_text(session: SessionView, arrow: str = "->", width: int = 40, lines: int = 2) -> Text:
        """The steps already taken in this multi-step decision (imports, moves, bonds); a
        Maneuver counts the battles between its moves too. Before the first step, the money
        the decision spends: the player's cash (rondel costs, bonds) or the treasury. The
        line fits ``lines`` lines of ``width`` cells with the newest step whole
        (``fitted_plan``)."""
        game = session.view
        aw = game.awaiting
        s = game.state
        if aw is None:  # (asked only while someone decides)
            return Text("")
        # a Maneuver's steps include the battles and the canal answers between its moves (a
        # canal question wiped the line: a playtest of Imperial 2030)
        maneuver = {Decision.MANEUVER, Decision.BATTLE, Decision.CANAL}
        kinds = {aw.kind} | (maneuver if aw.kind == Decision.MANEUVER else set())
        steps: list[str] = []
        refused = False  # (walking back: the move before a refused canal did not happen)
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
            where = getattr(before.ctx, "region", None) if isinstance(ply.action, NoFight) else None
            step = step_text(s, ply.action, arrow, where)
            if refused and isinstance(ply.action, MoveFleet | MoveArmy):
                step, refused = f"{step} (refused)", False
            refused = refused or (isinstance(ply.action, CanalPassage) and not ply.action.allow)
            steps.append(step)
        money = money_text(session)
        if not steps:
            return Text(money, style="italic")
        head = f"{money} - " if money else ""
        more = "..." if arrow == "->" else "\u2026"  # the ASCII arrow: ASCII throughout
        return Text(fitted_plan(head, steps[::-1], width, lines, more), style="italic")

    def labels(self, session: SessionView, actions: list[Action]) -> list[Option]:
        """One option per legal action; rondel spaces clockwise from the nation's marker."""
        s = session.view.state
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
            game_app(self).show_scores()
            return
        if oid is not None and oid.startswith("g:"):
            self.open_group(oid[2:])
            return
        if oid is not None and oid.startswith("d:"):
            self.ask_variant(self.variants(oid))
            return
        if oid is not None and oid.isdigit() and int(oid) < len(self._actions):
            action = self._actions[int(oid)]
            production = isinstance(action, ChooseRondel) and action.space.startswith("production")
            self.post_message(ActionChosen(action, PRODUCE_ALL if production else None))


def treasury_short_code(panel: DecisionPanel) -> str | None:
    session = game_app(panel).session
    return treasury_short(session) if session else None


__all__ = [  # what the map's side of the screen (screens/game_map.py) imports from here too
    "DecisionPanel",
    "move_label",
    "region_name",
]
