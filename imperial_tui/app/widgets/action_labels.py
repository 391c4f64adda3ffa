"""The decision list's words for actions: what a legal action costs and brings, in a
player's words (``action_label``), one step of a decision for the plan line (``step_text``),
the money a decision spends (``money_text``) and the treasury a donation would help
(``treasury_short``). Kept apart from the panel (``decision.py``), which lays them out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from imperial_tui.app.widgets.base import Hanging, nation_text
from imperial_tui.app.widgets.maneuver_menu import battle_label, canal_label
from imperial_tui.render.words import action_words, canal_name, region_name, space_label
from rules import Action
from rules.actions import (
    BuildFactory,
    Buy,
    CanalPassage,
    ChooseRondel,
    Fight,
    Import,
    MoveArmy,
    MoveFleet,
    NoFight,
    Pass,
    Produce,
)
from rules.decisions import Decision
from rules.economy import FACTORY_COST, is_port
from rules.preview import SpacePreview, claim_shortfall, government_after_buy
from rules.rondel import interest_shortfall
from rules.state import NO, GameState

if TYPE_CHECKING:
    from imperial_tui.model.session import SessionView


def step_text(s: GameState, action: Action, arrow: str = "->", where: int | None = None) -> str:
    """One step of a multi-step decision in words, for the plan line ('fleet Odessa -> Black
    Sea', 'army Vienna', 'AH 16'). A battle's answers name who answered, since in a
    Maneuver other nations answer too ('IT fights FR in Paris', 'GB does not fight in
    Paris'); ``where`` is the region a "does not fight" declined (the battle's, from the
    position it answered)."""
    a = action
    if isinstance(a, MoveFleet):
        return f"fleet {region_name(s, a.origin)}{arrow}{region_name(s, a.dest)}"
    if isinstance(a, MoveArmy):
        text = f"army {region_name(s, a.origin)}{arrow}{region_name(s, a.dest)}"
        return text + (f" {a.status}" if a.status else "")
    if isinstance(a, Import) and a.unit:
        return f"{a.unit} {region_name(s, a.region)}"
    if isinstance(a, Produce) and a.region not in ("all", "done"):
        return region_name(s, a.region)
    if isinstance(a, Fight):
        return f"{a.nation} fights {a.target} in {region_name(s, a.region)}"
    if isinstance(a, NoFight):
        place = f" in {region_name(s, s.board.id(where))}" if where is not None else ""
        return f"{a.nation} does not fight{place}"
    if isinstance(a, CanalPassage):  # (the canal controller's answer, within the Maneuver)
        canal = canal_name(s, a.canal).removesuffix(" Canal")
        if a.allow:
            return f"{a.nation} lets {a.mover} through {canal}"
        return f"{a.nation} refuses {a.mover} passage through {canal}"
    return action_words(s, action, arrow)


def unit_at(s: GameState, rid: str) -> str:
    """What a factory there produces: 'fleet' in a port, else 'army'."""
    return "fleet" if is_port(s, s.board.index[rid]) else "army"


def action_label(
    session: SessionView,
    actions: list[Action],
    action: Action,
    previews: dict[str, SpacePreview],
    arrow: str,
) -> Text | Hanging:
    """A legal action in a player's words, with what it costs and what it brings."""
    s = session.view.state
    a = action
    if isinstance(a, ChooseRondel):
        p = previews.get(a.space)
        cost = "free" if p is None or not p.cost else f"{p.cost}M"
        head = Text(f"{space_label(a.space):11}{cost:>5} ", no_wrap=True)
        return Hanging(head, Text(p.text if p else "", style="dim italic"))
    if isinstance(a, Buy):
        costs = s.rules.bond_costs
        interest = costs.index(a.value) + 1 if a.value in costs else "?"
        price = a.value - (a.returning or 0)
        head = nation_text(a.nation, f" {a.value:>2}M ")
        body = Text(f"interest {interest}")
        if a.returning:
            body.append(f", pays {price}M + the {a.returning}M bond")
        buyer = s.players.index(a.actor)
        n = s.board.codes.index(a.nation)
        new = government_after_buy(s, buyer, n, a.value, a.returning)
        if new != NO and new != s.government[n]:
            body.append(f" {arrow} {s.players[new]} governs {a.nation}", style="bold")
        elif new == NO and (least := claim_shortfall(s, n, a.value)):
            body.append(f" (too small to form a government: {least}M)", style="dim")
        return Hanging(head, body)
    if isinstance(a, Pass):
        aw = session.view.awaiting
        if not aw or aw.kind not in (Decision.INVEST, Decision.BOND_CHOICE):
            return Text("pass")
        if len(actions) == 1:  # the engine offers no bond: say why, one key passes
            cash = s.cash[s.players.index(aw.player)]
            why = "nothing to buy" if cash == 0 else "no bond you can pay for"
            dash = "-" if arrow == "->" else "\u2014"
            return Text(f"you have {cash}M: {why} {dash} Enter passes")
        return Text("buy no bond (pass)")
    if isinstance(a, Produce):
        if a.region == "done":
            return Text("stop here (the other factories stay idle)")
        if a.region == "all":
            spots = [
                f"{unit_at(s, b.region)} {region_name(s, b.region)}"
                for b in actions
                if isinstance(b, Produce) and b.region not in ("all", "done")
            ]
            return Hanging(Text("all: "), Text(", ".join(spots)))
        return Text(f"{unit_at(s, a.region)} in {region_name(s, a.region)}")
    if isinstance(a, Import):
        if a.unit is None:
            return Text("done importing")
        return Text(f"{a.unit} in {region_name(s, a.region)} (1M)")
    if isinstance(a, BuildFactory):
        if a.region is None:
            return Text("build no factory")
        what = "shipyard" if unit_at(s, a.region) == "fleet" else "armaments factory"
        return Text(f"{what} in {region_name(s, a.region)} ({FACTORY_COST}M)")
    if isinstance(a, (Fight, NoFight)):
        return battle_label(s, a)
    if isinstance(a, CanalPassage):
        return canal_label(s, a)
    words = action_words(s, action, arrow)
    return Text(words[:1].upper() + words[1:])


def money_text(session: SessionView) -> str:
    """The money a decision spends: the player's own cash (rondel moves beyond the free
    spaces, bonds) or the nation's treasury (factory, imports); '' when hidden."""
    game = session.view
    aw = game.awaiting
    s = game.state
    if aw is None:
        return ""
    if aw.kind in (Decision.BUILD_FACTORY, Decision.IMPORT) and aw.nation:
        return f"{aw.nation} treasury: {s.treasury[s.board.codes.index(aw.nation)]}M"
    if aw.kind in (
        Decision.RONDEL,
        Decision.INVEST,
        Decision.BOND_CHOICE,
    ) and session.shows_cash_of(aw.player):
        return f"{aw.player}: {game.can_donate(aw.player)}M cash"
    return ""


def treasury_short(session: SessionView) -> str | None:
    """The nation whose treasury is short for the current decision (donations matter)."""
    s = session.view.state
    aw = session.view.awaiting
    if aw is None or aw.nation is None:
        return None
    n = s.board.codes.index(aw.nation)
    if aw.kind == Decision.BUILD_FACTORY and s.treasury[n] < 5:
        return aw.nation
    if aw.kind == Decision.IMPORT and s.treasury[n] < 3:
        return aw.nation
    if aw.kind == Decision.RONDEL and interest_shortfall(s, n) > 0:
        return aw.nation
    return None
