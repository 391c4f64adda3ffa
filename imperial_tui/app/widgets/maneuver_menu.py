"""The Maneuver's two-level menu for the decision panel: first the units (fleets, which must
move first, then armies; battles, status changes and factory destruction as one entry each),
then one unit's destinations grouped by how the army gets there (one step, by rail, by convoy)
and sorted by name, so a typed letter finds a region.

Labels only: which moves exist is the engine's ``legal_actions()``; the grouping reads the
board (is the destination next to the origin?) and the action (does it name a convoy?).

Imperial 2030's canals: a move that must ask a canal's controller says so in its label
("asks BR: Panama Canal", from ``rules.canals``, the code the engine asks by), and the canal
decision that follows has its title, its line (which unit, from where to where) and its two
answers in words, with what a no means under the game's ``canal_refusal`` option.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.widgets.option_list import Option

from imperial_tui.app.widgets.base import Hanging, nation_text
from imperial_tui.render.mapmarks import UnitMove, convoy_of
from imperial_tui.render.style import Glyphs
from imperial_tui.render.words import action_words, region_name, short_name
from rules import Action, Game
from rules.actions import CanalPassage, Fight, MoveArmy, MoveFleet, NoFight
from rules.canals import CanalRequest, crossed, gates
from rules.state import NO, GameState

# Menu order: fleets move before armies; the explicit done step comes last.
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
ROUTES = ("one step", "by rail", "by convoy")


def status_question(s: GameState, rid: str, verb: str = "Into") -> str:
    """The question over "hostile or friendly?" ('Into Marseille, a home province of FR: ...'),
    with what the choice means (RULES.md §4.2), for a newcomer who met two lines that differ
    by one word (a playtest)."""
    name = region_name(s, rid)
    r = s.board.index.get(rid)
    owner = s.board.regions[r].nation if r is not None else None
    if owner is None:
        return f"{verb} {name}:"
    return (
        f"{verb} {name}, a home province of {owner}. Hostile: {owner} can no longer produce, "
        "import, build or collect factory tax there, nor rail through it. Friendly: no effect."
    )


def foreign_units(s: GameState, rid: str, nation: str) -> str:
    """Other nations' units in a region, e.g. 'IT army, FR fleet x2' (a battle may follow)."""
    r = s.board.index.get(rid)
    if r is None:
        return ""
    out = []
    for m, code in enumerate(s.board.codes):
        if code == nation:
            continue
        for word, counts in (("army", s.armies), ("fleet", s.fleets)):
            k = counts[m][r]
            if k:
                out.append(f"{code} {word}" + (f" x{k}" if k > 1 else ""))
    return ", ".join(out)


def group_key(action: Action) -> str:
    """Maneuver actions are grouped by unit and origin, the rest by kind."""
    if isinstance(action, UnitMove):
        return f"{action.kind}:{action.origin}"
    return action.kind


def unmoved(s: GameState, kind: str, nation: str, rid: str) -> int:
    """How many of the nation's units of ``kind`` at ``rid`` have not acted in this Maneuver
    (the engine counts only, units of one nation in one region are interchangeable)."""
    n = s.board.codes.index(nation)
    r = s.board.index[rid]
    ctx = s.turn_ctx
    if kind == "move_fleet":
        moved = getattr(ctx, "moved_fleets", {}).get(r, 0)
        return s.fleets[n][r] - moved
    moved_armies = getattr(ctx, "moved_armies", {})
    return s.armies[n][r] - moved_armies.get((r, True), 0) - moved_armies.get((r, False), 0)


def route_kind(s: GameState, action: UnitMove) -> str:
    """How an army gets there: 'by convoy' (the action names seas), 'one step' (the
    destination borders the origin) or 'by rail' (home rail before or after its step)."""
    if convoy_of(action):
        return "by convoy"
    board = s.board
    origin, dest = board.index.get(action.origin), board.index.get(action.dest)
    if origin is not None and dest is not None and dest in board.land_neighbours[origin]:
        return "one step"
    return "by rail"


def move_label(s: GameState, action: UnitMove, arrow: str) -> Text:
    """'-> Ionian Sea hostile via Adriatic Sea  [IT fleet]' for one unit move."""
    dest = action.dest
    label = Text(f"{arrow} {region_name(s, dest)}")
    status = action.status if isinstance(action, MoveArmy) else None
    if status:
        label.append(f" {status}", style="bold" if status == "hostile" else "")
    convoy = convoy_of(action)
    if convoy:
        label.append(" via " + ", ".join(region_name(s, c) for c in convoy), style="dim")
    others = foreign_units(s, dest, action.actor)
    if others:
        label.append(f"  [{others}]", style="italic")
    asks = canal_note(s, action)
    if asks:
        label.append(f"  {asks}", style="bold")
    return label


def hung(head: Text, label: Text, arrow: str) -> Hanging:
    """A move's line in the list: ``head`` (a unit's name, or nothing), then the move, whose
    words wrap under the destination's name ("-> Bay of" / "   Biscay"), not back at the
    margin."""
    cut = len(arrow) + 1  # (move_label begins with the arrow and a space)
    return Hanging(head + label[:cut], label[cut:])


def canal_note(s: GameState, action: UnitMove) -> str:
    """'asks BR: Panama Canal' for a move whose canal crossing needs the controller's leave
    (Imperial 2030; the same gates the engine asks at), else ''."""
    board = s.board
    if not board.canals or s.turn == NO:
        return ""
    route = action.convoy if isinstance(action, MoveArmy) else (action.origin, action.dest)
    if not route or any(r not in board.index for r in route):
        return ""
    asked = [g for g in crossed(gates(s, s.turn), [board.index[r] for r in route]) if g.asks != NO]
    return "; ".join(f"asks {board.codes[g.asks]}: {board.canals[g.canal].name}" for g in asked)


def canal_request(s: GameState) -> CanalRequest | None:
    """The move waiting for a canal controller's answer, if the game is asking one."""
    ctx = s.ctx
    return ctx if isinstance(ctx, CanalRequest) else None


def canal_title(s: GameState) -> str:
    """The canal decision's title after the player: 'let US through Panama?'."""
    request = canal_request(s)
    if request is None:
        return "canal"
    canal = s.board.canals[request.asking[0][0]]
    return f"let {request.move.actor} through {canal.name.removesuffix(' Canal')}?"


def canal_text(game: Game, arrow: str = "->") -> Text:
    """Which unit asks, from where to where: 'US fleet Caribbean Sea -> North Pacific through
    the Panama Canal', and who is asked after this answer ('; then IN: Suez Canal')."""
    s = game.state
    request = canal_request(s)
    if request is None:
        return Text("")
    board = s.board
    move = request.move
    canal = board.canals[request.asking[0][0]]
    unit = "army" if isinstance(move, MoveArmy) else "fleet"
    text = nation_text(move.actor, f" {unit} ")
    text.append(f"{region_name(s, move.origin)} {arrow} {region_name(s, move.dest)}")
    if unit == "army":
        text.append(" by convoy")
    text.append(f" through the {canal.name}")
    for later, who in request.asking[1:]:
        text.append(f"; then {board.codes[who]}: {board.canals[later].name}")
    return text


def canal_label(s: GameState, action: CanalPassage) -> Text:
    """An answer in words with what it does: the unit goes through (or the next canal is
    asked), or nothing moves and what the refusal closes (rule option canal_refusal)."""
    a = action
    request = canal_request(s)
    if request is None:
        return Text(action_words(s, action))
    unit = "army" if isinstance(request.move, MoveArmy) else "fleet"
    canal = s.board.canals[request.asking[0][0]]
    if a.allow:
        label = Text("allow: ", style="bold")
        if len(request.asking) > 1:
            later, who = request.asking[1]
            label.append(f"then {s.board.codes[who]} is asked for the {s.board.canals[later].name}")
        else:
            label.append(f"the {a.mover} {unit} goes through the {canal.name}")
        return label
    label = Text("refuse: ", style="bold")
    if s.rules.canal_refusal == "maneuver":
        label.append(f"nothing moves; the {canal.name} stays closed to {a.mover} this Maneuver")
    else:
        label.append(f"nothing moves; this {unit} may not ask again this Maneuver")
    return label


def battle_label(s: GameState, action: Fight | NoFight) -> Text:
    """A battle option in words: which unit fights which, one of each is removed."""
    if isinstance(action, NoFight):
        return Text("do not fight")
    a = action
    label = Text("fight: our " + a.unit + " against ")
    label.append_text(nation_text(a.target, " " + a.target_unit))
    label.append(f" in {region_name(s, a.region)}", style="dim")
    return label


def other_label(s: GameState, action: Action, arrow: str) -> Text:
    """Battles, status changes, factory destruction and the end, in words."""
    if isinstance(action, (Fight, NoFight)):
        return battle_label(s, action)
    words = action_words(s, action, arrow)
    return Text(words[:1].upper() + words[1:])


def battle_text(game: Game) -> Text:
    """Who is asked about which unit: 'RU fleet entered Ionian Sea (AH fleet there). Asked:
    RU, then AH.' Read from the battle context the engine keeps while it asks."""
    s = game.state
    ctx = s.ctx
    region = getattr(ctx, "region", None)
    if region is None:
        return Text("")
    rid = s.board.id(region)
    mover = s.board.codes[s.turn]
    text = Text()
    text.append_text(nation_text(mover, f" {getattr(ctx, 'unit', 'unit')}"))
    verb = "entered" if not getattr(ctx, "any_unit", False) else "is in"
    text.append(f" {verb} {region_name(s, rid)}")
    others = foreign_units(s, rid, mover)
    if others:
        text.append(f" ({others} there)")
    asking = [s.board.codes[m] for m in getattr(ctx, "asking", ())]
    if asking:
        text.append(". Asked now: ")
        text.append_text(nation_text(asking[0]))
        if len(asking) > 1:
            text.append(", then " + ", ".join(asking[1:]))
    return text


def header(text: str) -> Option:
    """A section heading inside the list: never highlighted, never chosen."""
    return Option(Text(text, style="bold"), disabled=True)


def fleets_left(s: GameState, actions: list[Action]) -> int:
    """Fleets that may still move: once an army moves, they lose their move."""
    origins = {a.origin for a in actions if isinstance(a, MoveFleet)}
    nation = next((a.actor for a in actions if isinstance(a, MoveFleet)), None)
    if nation is None:
        return 0
    return sum(unmoved(s, "move_fleet", nation, o) for o in origins)


def forfeit_warning(left: int) -> str:
    return f"moving an army ends fleet movement: {left} fleet{'s' if left != 1 else ''} not moved"


def unit_options(s: GameState, actions: list[Action], g: Glyphs) -> list[Option]:
    """One line per unit (fleet/army by origin) or per kind of other action, under the
    headings "Fleets (move these first)" and "Armies" (with the warning that an army's move
    ends fleet movement); a group of one action is that action itself."""
    groups: dict[str, list[int]] = {}
    for i, a in enumerate(actions):
        groups.setdefault(group_key(a), []).append(i)
    order = sorted(groups, key=lambda k: (GROUP_ORDER.get(k.split(":")[0], 9), groups[k][0]))
    left = fleets_left(s, actions)
    out: list[Option] = []
    headed: set[str] = set()
    for k in order:
        members = groups[k]
        first = actions[members[0]]
        kind, _, origin = k.partition(":")
        if kind == "move_fleet" and kind not in headed:
            headed.add(kind)
            out.append(header("Fleets (move these first)"))
        if kind == "move_army" and kind not in headed:
            headed.add(kind)
            out.append(header(f"Armies ({forfeit_warning(left)})" if left else "Armies"))
        if kind == "end_maneuver":
            label = Text("End maneuver (flags are placed)", style="bold")
            out.append(Option(label, id=str(members[0])))
            continue
        if kind in ("move_fleet", "move_army"):
            word = "Fleet" if kind == "move_fleet" else "Army "
            label = Text(f"{word} {short_name(region_name(s, origin), 16):16}", no_wrap=True)
            count = unmoved(s, kind, first.actor, origin)
            label.append(f" x{count}" if count > 1 else "   ")
            if len(members) == 1 and isinstance(first, UnitMove):
                line = hung(label + " ", move_label(s, first, g.arrow), g.arrow)
                out.append(Option(line, id=str(members[0])))
                continue
            # (counted as the map counts them: one per destination, however reached)
            places = len({getattr(actions[i], "dest", i) for i in members})
            label.append(f" {places:2} moves {g.pointer}", style="dim")
        elif len(members) == 1:
            label = other_label(s, first, g.arrow)
        else:
            label = Text(GROUP_TITLES.get(kind, kind))
            label.append(f" ({len(members)}) {g.pointer}", style="dim")
        oid = str(members[0]) if len(members) == 1 else f"g:{k}"
        out.append(Option(label, id=oid))
    return out


def jump_name(s: GameState, action: Action) -> str:
    """The name a typed letter finds: the destination of a move, the region otherwise."""
    where = action.dest if isinstance(action, UnitMove) else getattr(action, "region", None)
    return region_name(s, where)


def status_pairs(s: GameState, found: list[tuple[int, UnitMove]], g: Glyphs) -> list[Option]:
    """One line per destination and route: a move that may end hostile or friendly (into
    a foreign home province) is one line, 'Munich (hostile or friendly)', whose Enter asks
    which (id ``d:3,4``); a long list stays one line per region."""
    lines: dict[tuple[str, tuple[str, ...]], list[tuple[int, UnitMove]]] = {}
    for i, a in found:
        lines.setdefault((a.dest, convoy_of(a)), []).append((i, a))
    out = []
    for members in lines.values():
        first = members[0][1]
        if len(members) == 1:
            out.append(
                Option(hung(Text(), move_label(s, first, g.arrow), g.arrow), id=str(members[0][0]))
            )
            continue
        # (several moves to one place by one route differ in their status: an army's)
        plain = replace(first, status=None) if isinstance(first, MoveArmy) else first
        label = move_label(s, plain, g.arrow)
        label.append(" (hostile or friendly)", style="dim")
        oid = "d:" + ",".join(str(i) for i, _ in members)
        out.append(Option(hung(Text(), label, g.arrow), id=oid))
    return out


def move_options(s: GameState, actions: list[Action], key: str, g: Glyphs) -> list[Option]:
    """The open group's actions after a line that leads back: a unit's destinations (armies
    grouped one step / by rail / by convoy, each sorted by name), or the battles, status
    changes, factories."""
    kind, _, origin = key.partition(":")
    head = (
        f"{'fleet' if kind == 'move_fleet' else 'army'} in {region_name(s, origin)}"
        if origin
        else GROUP_TITLES.get(kind, kind).lower()
    )
    out = [Option(Text(f"{g.marker} back (esc) - {head}", style="dim"), id="back")]
    members = [(i, a) for i, a in enumerate(actions) if group_key(a) == key]
    # a unit's group holds its moves only (group_key)
    moves = [(i, a) for i, a in members if isinstance(a, UnitMove)]
    if kind == "move_army":
        left = fleets_left(s, actions)
        if left:
            out.append(header(forfeit_warning(left)))
        by_route: dict[str, list[tuple[int, UnitMove]]] = {r: [] for r in ROUTES}
        for i, a in moves:
            by_route[route_kind(s, a)].append((i, a))
        several = sum(1 for r in ROUTES if by_route[r]) > 1
        for route in ROUTES:
            found = sorted(by_route[route], key=lambda m: (jump_name(s, m[1]), str(m[1])))
            if found and several:
                out.append(header(route))
            out += status_pairs(s, found, g)
        return out
    if kind == "move_fleet":
        moves.sort(key=lambda m: jump_name(s, m[1]))
        return out + [
            Option(hung(Text(), move_label(s, a, g.arrow), g.arrow), id=str(i)) for i, a in moves
        ]
    return out + [Option(other_label(s, a, g.arrow), id=str(i)) for i, a in members]
