"""The rules pages shown by F1 in the app and printed by ``imperial rules [TOPIC]``.

One text for both, written for players; edition differences are marked [first] / [2010].
No Textual import, so the shell command stays fast.
"""

from __future__ import annotations

from rules.options import OPTIONS, format_value
from rules.ruleset import EDITIONS, RuleSet

PAGES: dict[str, tuple[str, str]] = {
    "overview": (
        "What the game is about",
        """\
Imperial is a game of investors, not of nations. Six nations (AH Austria-Hungary, IT Italy,
FR France, GB Great Britain, GE German Empire, RU Russia) act in that order, each turn run by
its government: the player who holds the most bond credit in it. You win with the most
victory points at the end: for every bond you hold, its interest times its nation's power
factor, plus your cash.

The game ends as soon as a nation reaches 25 power points (during its Taxation).

A turn: the government moves the nation's marker clockwise on the rondel and carries out the
space's action (Factory, Production, Maneuver, Investor, Import, Taxation).

Money: a player may give cash to any nation's treasury at any time (a donation), for example
so that it can pay for a factory or an import. Loans and gifts between players are not
allowed.""",
    ),
    "rondel": (
        "The rondel",
        """\
Spaces clockwise: Factory, Production, Maneuver, Investor, Import, Production, Maneuver,
Taxation. A nation's first placement is free and may be on any space. Later it moves 1 to 6
spaces clockwise: 1-3 spaces are free, each further space costs 2M (4 = 2M, 5 = 4M, 6 = 6M),
paid by the government player from their own cash. Staying put is not allowed.

Passing Investor (without stopping there): after the landing action the investor card pays
out and players invest, but no interest is paid.
[2010] A Swiss bank holder may force a nation passing Investor to stop on it, if its treasury
can pay all interest.""",
    ),
    "factory": (
        "Factory and production",
        """\
Factory: the nation pays 5M from its treasury to build a factory in one of its own cities
without one (not in an occupied province). Brown cities get armaments (armies), blue ones
shipyards (fleets).
Production: every unoccupied factory produces one unit (armaments: an army, shipyard: a
fleet), free of charge, while the nation has units in its supply.""",
    ),
    "import": (
        "Import",
        """\
The nation buys up to 3 units at 1M each from its treasury and places them in its own
unoccupied home provinces: armies anywhere at home, fleets only in port cities. Choose them
one at a time, then 'done'. A player may donate cash to a short treasury at any time.""",
    ),
    "maneuver": (
        "Maneuver",
        """\
Fleets first: each fleet may sail into one adjacent sea or stay. A fleet in port may only sail
into its city's harbour sea (London: English Channel, Dublin: North Atlantic); once at sea it
never returns to port or land.

Then armies: each army makes one step, either into an adjacent land region or home province
(never Switzerland), or by convoy: across one or more adjacent seas that each hold a fleet of
its own nation, landing on the coast of the last sea. Each fleet carries one army per turn; a
fleet that moved this turn may still carry, a fleet in port may not. Before and after its
step an army may travel freely by rail through its own nation's home provinces, but not
into or through a province occupied by hostile armies, and never to or from Dublin.
Bulgaria-Turkey is a land border; Sweden-Denmark and Spain-Morocco need a convoy.

Battles: when a unit enters a region with foreign units, the mover first decides whether it
fights (and which nation's unit); if not, each other nation present may call a battle
against it. A battle removes one unit of each side. Armies fight armies and fleets fight
fleets; an army and a fleet fight only while the fleet is still in its port. The nation
maneuvering may also attack with units that did not move.

Another nation's home province: an entering army is hostile (it occupies the province: no
production, import, factory building or factory tax there, and its rail is cut) or friendly
(no effect). In a later Maneuver an army may switch hostile/friendly without moving; a
switch to hostile lets the other nations there call a battle. A nation's last factory
province, its only factory not occupied by hostile armies, can only be entered as friendly.
[2010] A fleet in port may also fight an army already in its province.

Three hostile armies in a foreign province with a factory and no defending unit may destroy
the factory; the factory and the three armies are removed (never the nation's last
unoccupied factory).

Flags: at the end the nation places a flag (tax marker) in every neutral land region and sea
it holds alone, replacing another nation's flag there; never in a home province. A flag
stays while a region is empty or shared. When a nation's units leave a region in which
another nation then stands alone, that nation's flag replaces the old one at the end of the
move (rule option flag_transfer_on_departure, on by default; off: flags change only at the
flag step of a Maneuver). A nation whose flags have run out places a returned one at once in a
region it holds alone (returned_flag_placement). [first] 10 flags per nation. [2010] 15.""",
    ),
    "setup": (
        "Set-up",
        """\
Flag cards: with 4-6 players each player draws one nation's flag card; with 3 players the
AH, IT and FR cards are dealt and their holders also take GB, RU and GE; with 2 players AH
and IT are dealt, with FR+GE and GB+RU. Each card buys its own nation's 9M bond and a bond of
a partner nation (AH: GE, IT: GB, FR: AH, GB: RU, GE: IT, RU: FR); the money goes into the
treasuries.
[first] Partner bond 4M; all starting money goes into bonds (13M per card), no cash.
[2010] Partner bond 2M and 2M cash per player.
With 4-5 players the undealt flags stay in the bank: [first] the first player who grants
the nation a bond of at least 4M takes its flag; [2010] the holder of its 2M bond does. A
nation without a government is skipped.
The investor card starts left of AH's government.""",
    ),
    "variants": (
        "Variants",
        """\
Experienced players: no flag cards. Each player receives 15M (6 players), 18M (5), 22M (4),
28M (3) or 40M (2). Nation by nation from AH to RU, each player may buy one bond of that
nation, the first chooser moving one seat clockwise each time; the highest credit governs.
[2010] Players without a government then receive a Swiss bank.

Without investor card: after each nation's turn its government, then every other player
clockwise, may buy or upgrade one bond of that nation; players without a government may
also invest in any nation. The Investor space only pays interest.""",
    ),
    "investor": (
        "Investor and bonds",
        """\
Landing on Investor: the nation pays each bond holder their interest from its treasury; if it
is short, the governing player's own interest goes unpaid first, then that player pays the
rest of the others' interest from their own cash.
Then (also when passing Investor) the investor card holder receives 2M and may buy one bond
or upgrade one (return a lower bond of the same nation and pay the difference). Players
without a government may invest too ([2010] they hold a Swiss bank). Then governments change
hands where someone now holds more credit, and the card moves one seat clockwise.
Bonds: 2 4 6 9 12 16 20 25 [2010: also 30], interest 1 to 8 [2010: 9].""",
    ),
    "taxation": (
        "Taxation",
        """\
Tax = 2M per unoccupied factory + 1M per flag on the board. The tax marker moves to the tax
(between 5 and 15); every space gained pays the government a 1M success bonus. The treasury
receives the tax minus 1M per unit the nation has on the board (never less than 0). The
nation gains tax - 5 power points (0 to 10). At 25 power points the game ends; if that
Taxation passed Investor, the investor card no longer pays out and nobody invests.""",
    ),
    "scoring": (
        "End of game and scoring",
        """\
Score = for each bond, interest x power factor of its nation, plus cash. Power factor:
0-4 points 0, 5-9: 1, 10-14: 2, 15-19: 3, 20-24: 4, 25: 5. Treasuries are worth nothing.
Tie: the tied players' credit in the nation with the most power points decides, then the
next nation, and so on (rule options tie_break and tie_break_equal_power).""",
    ),
    "map": (
        "Reading the map",
        """\
Every region is a box with its label (BER Berlin, NTH North Sea). Two regions that share a thin
wall border each other: an army steps across it, a fleet sails across it between two seas, a
land region on a sea's wall is on its coast. A heavy wall means the two regions touch on the
picture but do not border (around Switzerland, which no unit enters). Seas are filled with
waves.

In a box: the label, the factory (■ armaments, ▲ shipyard; hollow □ △ while hostile armies
occupy the province) and the owner of a home province (BER■ GE) or, reversed, the nation whose
flag is on neutral land or a sea (NOR GE). Below, the units: GE2 is two German armies on land
or two fleets at sea, GE1f a fleet in its port, RU2! hostile and RU1= friendly armies in a
foreign home province. A + means more units than fit: the region's details list them all.

Straits are marked ≈ on the walls: armies cross from Bulgaria to Turkey, and the Black Sea meets
the Eastern Mediterranean through Turkey's straits. Armies do not cross from Denmark to Sweden
nor from Spain to Morocco (× at Gibraltar): only by convoy. Dublin has no rail.

In a Maneuver the unit being moved is shown yellow, its destinations green (blue-italic when
only a convoy reaches them), the seas its convoys need with ≈ waves, and the provinces its rail
reaches underlined. Choose from the decision list or on the map: arrows move the cursor (▶ ◀),
Enter on a unit opens its moves, Enter on a destination moves it. i shows a region's details
(neighbours by land and sea, who can reach it next turn, the rules that apply there), g goes to
a region by its label, z widens the map to the whole screen on a small terminal, escape goes
back.""",
    ),
    "keys": (
        "Keys",
        """\
up/down, enter  move in a list, choose
1 2 3 4         rondel, bonds, regions, log panels;
                the same key again (or tab) to scroll
                it, escape back to the decision
5               the map (arrows move its cursor,
                enter chooses there, i details, g go
                to a region, z whole width, escape
                back to the decision)
w               since your last turn: what changed
v               standings: points if it ended now,
                the power track, points by round
h               history: the game turn by turn
                (left/right turn, , and . action,
                b plays a new game from there)
p               computer players pause: never,
                after each nation turn or decision
ctrl+n          new game (seats filled in)
ctrl+o          load: saved games, continue last
f               filter the regions by nation (a code
                such as GE; empty for all)
d               donate cash to a short treasury
+ / -           computer players faster / slower
ctrl+z          undo the last decision (asks first)
ctrl+s          save (also saved after every move)
ctrl+p          command palette
F1              this help (page up/down scrolls it,
                escape closes)
ctrl+q, ctrl+c  quit (asks first)
escape          close a dialog; in a Maneuver, back
                to the list of units

Maneuver: pick a unit (fleet or army by where it
stands; fleets first: an army's move ends fleet
movement), then its destination, in the list or on
the map (it comes up by itself; in the list right
arrow opens a unit and typed letters jump to a
region); "End maneuver" places the flags.
Production: enter produces at every factory; right
arrow on the space picks factories one by one.
Battles: the player asked (the title says who, the
line below which unit entered where) fights one unit
or declines; with hidden cash the keyboard is handed
over first.
Canals (Imperial 2030): the government of the nation
whose flag controls the canal is asked ("let US
through Panama?"): allow or refuse in the list; the
map marks the move and the controlling region.
At 120x40 and larger: 1-4 show every panel at once,
5 the whole map beside the decision (the world map
of 2030 needs the width of the treasuries panel,
which steps aside while the map is on show).

Nations panel: gov governor, tr treasury, pp×f
power points × power factor, tax the nation's space
on the tax chart (5: a tax of 5M or less; each
space gained pays the government 1M; Imperial 2030,
which has no chart: the tax a Taxation would bring
now), A/F armies/fleets on the board, flg flags,
fac factories.""",
    ),
}


# The rule options each rules page depends on (every option is on at least one page; a test
# keeps it so): the page then says what the defaults do and what this game plays with.
PAGE_OPTIONS: dict[str, tuple[str, ...]] = {
    "rondel": (
        "swiss_banks",
        "swiss_bank_ask_order",
        "swiss_bank_forced_cost",
        "factory_without_site",
        "interest_shortfall",
    ),
    "factory": ("factory_without_site", "bank", "bank_notes_total"),
    "import": ("import_fleet_needs_shipyard",),
    "maneuver": (
        "flag_transfer_on_departure",
        "returned_flag_placement",
        "flags_per_nation",
        "battle_sequence",
        "port_fleet_fights_present_army",
        "status_change_without_moving",
        "last_factory_entry",
        "destroy_requires_hostile",
        "convoy_through_foreign_fleets",
        "rail_from_occupied_province",
        "armies_may_enter_dublin",
        "black_sea_eastern_mediterranean",
    ),
    "setup": (
        "partner_bond",
        "start_cash",
        "unassigned_flag_min_bond",
        "setup_bonds_claim_flags",
    ),
    "variants": ("auction_tie", "no_card_free_investing", "no_card_unbonded_nation"),
    "investor": (
        "thirty_million_bond",
        "interest_shortfall",
        "bond_upgrade",
        "government_tie_holder_first",
        "last_government_payment",
        "invest_after_game_end",
        "swiss_banks",
    ),
    "taxation": ("invest_after_game_end", "bank", "bank_notes_total"),
    "scoring": ("tie_break", "tie_break_equal_power"),
    "2030": (
        "rondel_extra_cost",
        "taxation",
        "success_bonus",
        "experienced_cash",
        "canal_refusal",
        "canal_same_government",
        "canal_ungoverned",
        "east_africa_near_east",
    ),
}


def page_options(topic: str, rules: RuleSet | None = None) -> str:
    """The options of a rules page: each with its edition defaults (and the value of the game
    at hand, when given) and what it does; '' for a page without options."""
    names = PAGE_OPTIONS.get(topic, ())
    if rules is not None and rules.game == "2030" and topic != "2030":
        from imperial_tui.render.rules_text_2030 import PAGE_OPTIONS as OPTIONS_2030

        # only the options of this game: Dublin is no concern of the world map's
        names = (*(n for n in names if rules.applies(n)), *OPTIONS_2030.get(topic, ()))
    if not names:
        return ""
    presets = {e: RuleSet.preset(e).options() for e in EDITIONS}
    presets["2030"] = RuleSet.preset(game="2030").options()
    head = "Rule options on this page (default in each edition"
    head += "; this game in brackets):" if rules is not None else "):"
    lines = [head]
    for name in names:
        info = OPTIONS[name]
        # Imperial's editions, or Imperial 2030 for an option of 2030 only
        shown = [e for e in EDITIONS if name in presets[e]] or ["2030"]
        defaults = " / ".join(f"{e} {format_value(presets[e][name])}" for e in shown)
        here = ""
        if rules is not None and rules.applies(name):
            here = f" [{format_value(getattr(rules, name))}]"
        lines.append(f"- {name}: {defaults}{here}. {info.summary}")
    return "\n".join(lines)


def reflow(text: str) -> str:
    """Join the source lines of each paragraph so the terminal or the panel wraps them to its
    own width; a line starting with [edition] starts a new paragraph."""
    out: list[str] = []
    for para in text.split("\n\n"):
        lines: list[str] = []
        for line in para.splitlines():
            if lines and not line.startswith("["):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line.strip())
        out.append("\n".join(lines))
    return "\n\n".join(out)


def options_page() -> str:
    """Every rule option with its choices and its one-line summary."""
    lines = []
    for info in OPTIONS.values():
        choices = " | ".join(str(c).lower() for c in info.choices)
        lines.append(f"{info.name} ({choices})\n  {info.summary}")
    return "\n".join(lines)


def editions_page() -> str:
    """The differences between the editions, generated from the presets of the rule set, so the
    page can never call something an edition difference that the presets do not make one."""
    presets = [RuleSet.preset(e) for e in EDITIONS]
    lines = [
        "The editions differ only in these rule options; each is a preset of the new-game "
        "screen and can be changed there or with imperial new --option NAME=VALUE.",
        "",
    ]
    for name, info in OPTIONS.items():
        values = [getattr(p, name) for p in presets]
        if len(set(values)) > 1:
            each = ", ".join(
                f"{e} {format_value(v)}" for e, v in zip(EDITIONS, values, strict=True)
            )
            lines.append(f"- {name} ({each}): {info.summary}")
    lines += ["", "Everything else is the same in both; imperial options lists every option."]
    return "\n".join(lines)


def topics() -> list[str]:
    rules_pages = [t for t in PAGES if t != "keys"]
    return [*rules_pages, "editions", "2030", "keys", "options"]


def page(topic: str, rules: RuleSet | None = None) -> tuple[str, str]:
    """(title, text) of a topic, ending with its rule options (with ``rules``: also the
    values of that game); raises KeyError with the list of topics."""
    if topic == "options":
        return "Rule options", options_page()
    if topic == "editions":
        return "Editions", editions_page()
    if topic == "2030":
        from imperial_tui.render.rules_text_2030 import TITLE, page_text

        return TITLE, reflow(page_text()) + "\n\n" + page_options(topic, rules)
    if topic not in PAGES:
        raise KeyError(f"no rules topic {topic!r}; topics: {', '.join(topics())}")
    title, text = PAGES[topic]
    if topic == "keys":
        return title, text
    options = page_options(topic, rules)
    body = reflow(text) + (f"\n\n{options}" if options else "")
    if rules is not None and rules.game == "2030":
        from imperial_tui.render.rules_text_2030 import differences

        changed = differences(topic)
        if changed:  # (this game's rules first; Imperial's page under them)
            body = (
                f"IMPERIAL 2030, this game: {changed}\n\n"
                f"Imperial's rules, which the above changes:\n\n{body}"
            )
    return title, body


def all_pages() -> str:
    return "\n\n".join(f"{page(t)[0].upper()}\n{page(t)[1]}" for t in topics())
