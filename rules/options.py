"""The catalogue of rule options: for each, its choices, a one-line explanation, the source
of each reading and the games it applies to. ``rules.ruleset.RuleSet`` has one field per
option and its presets choose among these choices; the save file, ``docs/RULE_OPTIONS.md``,
the command line and the app's new-game screen read their descriptions from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.games import GAMES, GameName

BOTH = GAMES
IMPERIAL_ONLY = (GameName.IMPERIAL.value,)
ONLY_2030 = (GameName.IMPERIAL_2030.value,)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """Documentation of one option: its choices, explanation and sources."""

    name: str
    choices: tuple[Any, ...]
    summary: str
    source: str
    games: tuple[str, ...] = BOTH  # the games it applies to


def parse_option_value(name: str, text: str) -> Any:
    """Turn ``--option NAME=VALUE`` text into the option's typed value."""
    info = OPTIONS.get(name)
    if info is None:
        raise ValueError(f"unknown rule option {name!r} (see `imperial rules options`)")
    for choice in info.choices:
        if format_value(choice) == text.strip().lower():
            return choice
    choices = ", ".join(format_value(c) for c in info.choices)
    raise ValueError(f"rule option {name} cannot be {text!r}; choose {choices}")


def format_value(value: Any) -> str:
    """An option value as typed and shown: ``true``/``false`` for booleans."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_O = OptionInfo
OPTIONS: dict[str, OptionInfo] = {
    o.name: o
    for o in (
        _O(
            "thirty_million_bond",
            (False, True),
            "Each nation also has a 30M bond (interest 9).",
            "first: 8 bonds per nation [HU1]; 2010: 9 bonds [EN3] (RULES.md §1.4)",
        ),
        _O(
            "flags_per_nation",
            (10, 15),
            "How many tax markers (flags) each nation has.",
            "first: 10 tax chips [HU1]; 2010: 15 flags [EN3] (§1.2)",
        ),
        _O(
            "partner_bond",
            (4, 2),
            "Value of the partner-nation bond on the back of each flag card (own bond is 9M).",
            "first: 9M + 4M, UNCERTAIN #1, best reading; 2010: 9M + 2M [EN3] (§2.2)",
        ),
        _O(
            "start_cash",
            (0, 2),
            "Cash each player keeps after buying the flag cards' bonds (standard set-up).",
            "first: all starting money goes into bonds [HU1]; 2010: 2M cash [EN3] (§2.2)",
        ),
        _O(
            "unassigned_flag_min_bond",
            (4, 2),
            "With 4-5 players an undealt flag goes to the first player granting a bond of at "
            "least this value (2 = any bond).",
            "first: at least 4M [HU1]; 2010 and [BSW]: any bond / the 2M bond (§2.3, §11 #3)",
        ),
        _O(
            "setup_bonds_claim_flags",
            (True, False),
            "Bonds bought through the flag cards at set-up count for claiming an undealt flag.",
            "UNCERTAIN #2; recommended: they count (§2.3)",
        ),
        _O(
            "auction_tie",
            ("earlier_buyer", "later_buyer"),
            "Experienced set-up: on equal credit the earlier buyer keeps the flag.",
            "UNCERTAIN (§2.5 item 7); recommended as [JS]: the earlier buyer keeps it",
        ),
        _O(
            "swiss_banks",
            (False, True),
            "Players without a government hold a Swiss bank: they invest and may force a nation "
            "passing Investor to stop on it.",
            "2010 only [EN3] (§3.5, §5.5.3)",
        ),
        _O(
            "swiss_bank_ask_order",
            ("investor_card", "government"),
            "Order in which Swiss bank holders are asked whether they force a stop on Investor: "
            "clockwise from the investor card holder, or from the government's left.",
            "UNCERTAIN #4; recommended: from the investor card holder, as [JS] (§3.5)",
        ),
        _O(
            "swiss_bank_forced_cost",
            ("distance", "free"),
            "Cost of a forced stop on Investor: the rondel cost of the distance actually moved, "
            "or nothing.",
            "UNCERTAIN #4; recommended: the distance cost; [JS] charges nothing (§3.5)",
        ),
        _O(
            "invest_after_game_end",
            (False, True),
            "When the game-ending Taxation passed Investor, steps 2 and 3 of Investor are still "
            "carried out.",
            "UNCERTAIN #3. false: the online version's help pages [BSW] in German and English "
            "(seeds 002, 004) and 2010 [EN3]; true: only the Hungarian rulebook [HU1], a "
            "sentence that reads as a dropped negation (§5.6)",
        ),
        _O(
            "interest_shortfall",
            ("forbid_investor", "pay_what_possible"),
            "If the treasury plus the government's cash cannot pay all interest: Investor may "
            "not be chosen, or the government pays what it can and stops at 0.",
            "UNCERTAIN #14; recommended: forbid, as the seeds [BSW]; [JS] pays what it can",
        ),
        _O(
            "bond_upgrade",
            ("any_higher", "next_higher"),
            "An upgrade may take any higher bond of the nation, or only the next higher one.",
            "UNCERTAIN #15; recommended: any higher bond (wording and [JS]) (§5.5.2)",
        ),
        _O(
            "government_tie_holder_first",
            (True, False),
            "In a tie between challengers the investor card holder counts first when going "
            "clockwise from the holder.",
            "UNCERTAIN #16; recommended: yes (§5.5.5)",
        ),
        _O(
            "last_government_payment",
            ("off", "strict", "lenient"),
            "Second-edition rule: taking over a player's last government while the nation has 0 "
            "power points costs the new government 1M paid to the old one (strict: a bond purchase "
            "that cannot pay it is not allowed; lenient: it is paid only if the new government "
            "can).",
            "Not in [HU1]; abolished in [EN3]; [BSW] 002 strict, 004 lenient (§11 #1, "
            "UNCERTAIN #19); default off",
        ),
        _O(
            "no_card_free_investing",
            ("every_turn", "once_per_round"),
            "Variant without investor card: players without a government may invest in any "
            "nation after every nation's turn, or once per round.",
            "UNCERTAIN #17; recommended: after every nation's turn (§6)",
        ),
        _O(
            "no_card_unbonded_nation",
            (False, True),
            "Variant without investor card: a nation with no bonds can be invested in after the "
            "previous nation's turn.",
            "2010 addition [EN3] (§6)",
        ),
        _O(
            "factory_without_site",
            ("allowed", "forbidden"),
            "The Factory space may be chosen when no factory can be built (no site or no money).",
            "UNCERTAIN #7; recommended: allowed, with no effect, as [JS] (§5.1)",
        ),
        _O(
            "import_fleet_needs_shipyard",
            (False, True),
            "Imported fleets need a built shipyard (otherwise any unoccupied light-blue city).",
            "UNCERTAIN #8; recommended: no shipyard needed (§5.3)",
        ),
        _O(
            "bank",
            ("unlimited", "limited"),
            "The bank never runs out, or pays only what its notes hold.",
            "UNCERTAIN #21; recommended: unlimited, as the 2030 FAQ (§1.5)",
        ),
        _O(
            "bank_notes_total",
            (380, 420),
            "Money in the bank at the start (it matters only with bank=limited).",
            "first: 50x1, 40x2, 30x5, 10x10 = 380M [HU1]; 2010: 420M [EN3] (§1.5)",
        ),
        _O(
            "status_change_without_moving",
            (True, False),
            "An army may switch hostile/friendly in a later Maneuver without moving.",
            "2010 [EN3]; first UNCERTAIN #5, recommended: allowed (§4.2)",
        ),
        _O(
            "port_fleet_fights_present_army",
            (False, True),
            "A fleet in port may call a battle against an army already in its province "
            "(not only one that enters).",
            "first [HU1] FAQ: only when a foreign army steps into the province, so not when an "
            "army there turns hostile without moving (a status switch is no entry; [BSW] seed "
            "002: on a switch the other armies may demand a battle); 2010 [EN3]: also when "
            "already there",
        ),
        _O(
            "armies_may_enter_dublin",
            (True, False),
            "Armies may land in Dublin (Ireland) by convoy (either way GB may import an army "
            "there: placing a unit is not entering).",
            "[EN3] FAQ yes; [HU1] FAQ 'no islands'; RULES.md: treat Dublin as a province (§4.1)",
            IMPERIAL_ONLY,
        ),
        _O(
            "last_factory_entry",
            ("unoccupied", "any_factory"),
            "Which province counts as a nation's last factory province for the no-hostile-entry "
            "rule: its last factory not occupied by hostile armies, or its only factory at all.",
            "UNCERTAIN #6. unoccupied: the [BSW] help pages in English and Italian (seeds 004, "
            "002), 2010 [EN3] and RULES.md §4.3; any_factory: the Hungarian rulebook [HU1] "
            "('only one province with a factory')",
        ),
        _O(
            "convoy_through_foreign_fleets",
            (True, False),
            "A convoy may pass through seas where foreign fleets also lie.",
            "UNCERTAIN #9; recommended: allowed (§5.4.2)",
        ),
        _O(
            "rail_from_occupied_province",
            (False, True),
            "An army standing in its own occupied province may take the rail out of it.",
            "UNCERTAIN #10; recommended: no (§5.4.2)",
        ),
        _O(
            "battle_sequence",
            ("entering_unit", "until_declined"),
            "Battles after a unit enters a region: one chance to fight that unit (the mover "
            "first, then the others), or battles go on with any units there until all decline.",
            "UNCERTAIN #11; recommended: one chance per entering unit, as [JS] (§5.4.4)",
        ),
        _O(
            "destroy_requires_hostile",
            (True, False),
            "Only hostile armies may destroy a factory.",
            "UNCERTAIN #12; recommended: yes, as [JS] (§5.4.5)",
        ),
        _O(
            "flag_transfer_on_departure",
            (True, False),
            "When a nation's units leave a region where another nation stays alone, the flag "
            "passes to the nation that stayed at the end of the move.",
            "UNCERTAIN #13; recommended: yes, as [JS] (§5.4.6)",
        ),
        _O(
            "returned_flag_placement",
            ("immediate", "next_maneuver"),
            "A flag returned to a nation that had none left is placed at once in a region it "
            "holds alone, or only at its next flag step.",
            "UNCERTAIN #13; [HU1] 'immediately' (§5.4.6)",
        ),
        _O(
            "black_sea_eastern_mediterranean",
            (True, False),
            "The Black Sea and the Eastern Mediterranean are adjacent.",
            "UNCERTAIN #20; map: included (europe_map.json 'doubtful')",
            IMPERIAL_ONLY,
        ),
        _O(
            "tie_break",
            ("credit_sum", "highest_bond"),
            "Final tie-break: credit sum in the strongest nation, or the highest bond there.",
            "rulebooks: credit sum; [BSW]: highest bond (§7, §11 #8)",
        ),
        _O(
            "tie_break_equal_power",
            ("turn_order", "together"),
            "Nations with equal power points in the tie-break: compared one by one in turn "
            "order, or their credit added together.",
            "UNCERTAIN #18; recommended: turn order (§7)",
        ),
        # -- Imperial 2030 (RULES_2030.md; [2030] its sources, section numbers there) -------
        _O(
            "rondel_extra_cost",
            ("power_factor", "flat"),
            "Each rondel space beyond the third costs 1M plus the nation's power factor "
            "(power_factor), or 2M as in Imperial (flat).",
            "2030 rule [BSW-D], [TB], [D30] p.6, [AM] (§3); flat is Imperial's",
            ONLY_2030,
        ),
        _O(
            "taxation",
            ("2030", "imperial"),
            "2030: revenue into the treasury, then 1M per unit out of it (it stops at 0), "
            "power points by the 2030 table, at most 23M revenue; imperial: Imperial's tax "
            "chart, soldiers paid out of the revenue only.",
            "2030 rule [TB], [D30] p.12, [AM] (§4); imperial is Imperial's §5.6",
            ONLY_2030,
        ),
        _O(
            "success_bonus",
            ("table", "imperial"),
            "With 2030 taxation, the government's success bonus: the fixed amount of the 2030 "
            "table, paid from the treasury after soldiers' pay and cut to what is left "
            "(table), or the official variant 'bonus by the Imperial rule': 1M per tax-chart "
            "space gained, from the bank (imperial).",
            "table: [BSW-D], [TB], [D30] (§4 step 3); imperial: the variant of [BSW-D], "
            "UNCERTAIN #5, best reading Imperial's §5.6 step 2 ([D30] pays it from the "
            "treasury by power-point steps) (§9)",
            ONLY_2030,
        ),
        _O(
            "experienced_cash",
            ("2030", "imperial"),
            "Experienced set-up: each player's starting money, 37/25/19/15/13M for 2-6 "
            "players (2030), or Imperial's 40/28/22/18/15M (imperial).",
            "UNCERTAIN #4: 2030 from [TB] #543 and its set-up code only (§7.3)",
            ONLY_2030,
        ),
        _O(
            "canal_refusal",
            ("unit", "maneuver"),
            "After a government refuses a unit passage through a canal: only that unit may "
            "not ask again this Maneuver (unit), or the canal stays closed to the moving "
            "nation for the rest of its Maneuver while the same nation controls it (maneuver).",
            "UNCERTAIN #1, best reading: a no removes that crossing only; [TB] withdraws the "
            "one move (§2.3)",
            ONLY_2030,
        ),
        _O(
            "canal_same_government",
            ("ask", "allow"),
            "When one player governs both the moving and the controlling nation: the canal "
            "question is still asked (ask), or answered yes at once (allow).",
            "UNCERTAIN #1, best reading: still ask (§2.3)",
            ONLY_2030,
        ),
        _O(
            "canal_ungoverned",
            ("free", "closed"),
            "A canal controlled by a nation without a government (nobody holds its bonds): "
            "free passage (free), or closed to every other nation (closed).",
            "UNCERTAIN #1, no source; best reading: nobody can refuse, so it is free (§2.3)",
            ONLY_2030,
        ),
        _O(
            "east_africa_near_east",
            (False, True),
            "East Africa and the Near East border each other.",
            "UNCERTAIN #9; map: excluded, as three of four datasets (world2030_map.json "
            "'doubtful')",
            ONLY_2030,
        ),
    )
}
