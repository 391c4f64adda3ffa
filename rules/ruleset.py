"""The rule set: the game, edition, variant and one named option for every rule difference or
ambiguity.

Games and editions are presets of options, never ``if edition == ...`` checks in the engine:
the engine reads only the options (and the board of the game, ``rules.games``). Every option
carries its choices, a one-line explanation, the source of each reading and the games it
applies to, so that the save file, ``docs/RULE_OPTIONS.md``, the command line and the app's
new-game screen all describe the same thing. An option that does not apply to a game (a
border of the other game's map, a rule of the other game) is neither set nor saved for it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from rules.games import GAMES, GameName, game_info

EDITIONS = ("first", "2010")
VARIANTS = ("standard", "experienced", "no-investor-card")
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


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything that decides how a game is played, recorded in every save file.

    The defaults are Imperial's first edition as the seeds read it: where RULES.md recommends
    one reading and the three seed documents another, the seeds decide, two against one where
    they disagree among themselves (see ``docs/RULE_OPTIONS.md``). The options of Imperial
    2030 default to what Imperial does, so a game that is not 2030 never notices them.
    """

    edition: str = "first"
    variant: str = "standard"
    game: str = GameName.IMPERIAL.value
    # -- components -----------------------------------------------------------------------
    thirty_million_bond: bool = False
    flags_per_nation: int = 10
    # -- set-up ---------------------------------------------------------------------------
    partner_bond: int = 4
    start_cash: int = 0
    unassigned_flag_min_bond: int = 4
    setup_bonds_claim_flags: bool = True
    auction_tie: str = "earlier_buyer"
    # -- rondel and investor ----------------------------------------------------------------
    swiss_banks: bool = False
    swiss_bank_ask_order: str = "investor_card"
    swiss_bank_forced_cost: str = "distance"
    invest_after_game_end: bool = False
    interest_shortfall: str = "forbid_investor"
    bond_upgrade: str = "any_higher"
    government_tie_holder_first: bool = True
    last_government_payment: str = "off"
    no_card_free_investing: str = "every_turn"
    no_card_unbonded_nation: bool = False
    factory_without_site: str = "allowed"
    import_fleet_needs_shipyard: bool = False
    bank: str = "unlimited"
    bank_notes_total: int = 380
    # -- maneuver -------------------------------------------------------------------------
    status_change_without_moving: bool = True
    port_fleet_fights_present_army: bool = False
    armies_may_enter_dublin: bool = True
    last_factory_entry: str = "unoccupied"
    convoy_through_foreign_fleets: bool = True
    rail_from_occupied_province: bool = False
    battle_sequence: str = "entering_unit"
    destroy_requires_hostile: bool = True
    flag_transfer_on_departure: bool = True
    returned_flag_placement: str = "immediate"
    black_sea_eastern_mediterranean: bool = True
    # -- scoring --------------------------------------------------------------------------
    tie_break: str = "credit_sum"
    tie_break_equal_power: str = "turn_order"
    # -- Imperial 2030 (RULES_2030.md) -----------------------------------------------------
    rondel_extra_cost: str = "flat"
    taxation: str = "imperial"
    success_bonus: str = "table"
    experienced_cash: str = "imperial"
    canal_refusal: str = "unit"
    canal_same_government: str = "ask"
    canal_ungoverned: str = "free"
    east_africa_near_east: bool = False

    # ---------------------------------------------------------------------------------------
    @classmethod
    def preset(
        cls, edition: str | None = None, variant: str = "standard", game: str = "imperial"
    ) -> RuleSet:
        """The options of a game (imperial | 2030), an edition (first | 2010; by default the
        game's own: first for Imperial, 2010 for Imperial 2030) and a variant."""
        info = game_info(game)
        if edition is None:
            edition = info.editions[0]
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r}; choose one of {', '.join(EDITIONS)}")
        if edition not in info.editions:
            raise ValueError(
                f"{info.title} is played with the {' or '.join(info.editions)} rules; "
                f"the {edition} edition does not apply to it"
            )
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        if edition == "first":
            return cls(edition=edition, variant=variant)
        third = cls(
            edition=edition,
            variant=variant,
            thirty_million_bond=True,
            flags_per_nation=15,
            bank_notes_total=420,
            partner_bond=2,
            start_cash=2,
            unassigned_flag_min_bond=2,
            swiss_banks=True,
            no_card_unbonded_nation=True,
            port_fleet_fights_present_army=True,
        )
        if info.name is GameName.IMPERIAL:
            return third
        # Imperial 2030 (RULES_2030.md): the 2010 rules, 15 flags, 9 bonds up to 30M, Swiss
        # banks, 420M in the box (35x1, 55x2, 25x5, 15x10), and its own rule differences.
        return replace(
            third,
            game=info.name.value,
            rondel_extra_cost="power_factor",
            taxation="2030",
            experienced_cash="2030",
        )

    @property
    def title(self) -> str:
        """The game's name as players say it: ``Imperial`` or ``Imperial 2030``."""
        return game_info(self.game).title

    def applies(self, name: str) -> bool:
        """Whether the option ``name`` is one of this game's."""
        info = OPTIONS.get(name)
        return info is not None and self.game in info.games

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with some options changed; each value is checked against its choices, and
        each option must apply to the game."""
        for key, value in changes.items():
            info = OPTIONS.get(key)
            if info is None:
                raise ValueError(f"unknown rule option {key!r}")
            if self.game not in info.games:
                only = " and ".join(game_info(g).title for g in info.games)
                raise ValueError(f"rule option {key} applies only to {only}, not to {self.title}")
            if value not in info.choices:
                choices = ", ".join(format_value(c) for c in info.choices)
                raise ValueError(
                    f"rule option {key} cannot be {format_value(value)}; choose {choices}"
                )
        return replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """The game's options (not game/edition/variant) as a plain dict, for save files."""
        game = self.game
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name in OPTIONS and game in OPTIONS[f.name].games
        }

    def differences(self) -> dict[str, Any]:
        """The options that differ from the game's and edition's preset."""
        base = RuleSet.preset(self.edition, self.variant, self.game).options()
        return {k: v for k, v in self.options().items() if base[k] != v}

    @classmethod
    def from_dict(
        cls, edition: str, variant: str, options: dict[str, Any], game: str = "imperial"
    ) -> RuleSet:
        """Rebuild a rule set from a save header; unknown options, and options of the other
        game, are an error."""
        return cls.preset(edition, variant, game).with_options(**options)

    # -- derived values used by the engine ---------------------------------------------------
    @property
    def bond_costs(self) -> tuple[int, ...]:
        return _BONDS_WITH_30 if self.thirty_million_bond else _BONDS

    @property
    def uses_investor_card(self) -> bool:
        return self.variant != "no-investor-card"


_BONDS = (2, 4, 6, 9, 12, 16, 20, 25)
_BONDS_WITH_30 = (*_BONDS, 30)


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
            "Armies may land in Dublin (Ireland) by convoy.",
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


def options_markdown() -> str:
    """The text of docs/RULE_OPTIONS.md (a test keeps the file in step with the code)."""
    presets = (
        RuleSet.preset("first"),
        RuleSet.preset("2010"),
        RuleSet.preset(game=GameName.IMPERIAL_2030.value),
    )
    lines = [
        "# Rule options",
        "",
        "Every rule difference between the editions and the games and every point RULES.md "
        "and RULES_2030.md mark UNCERTAIN is a named option. An edition, and Imperial 2030, "
        "is a preset of these options; a game records all of its options in its save file. "
        "Change one with `imperial new --option NAME=VALUE`; `imperial options --game 2030` "
        "lists those of Imperial 2030. A dash: the option does not apply to that game.",
        "",
        "Sources: [HU1] the Hungarian first-edition rulebook (seed 000), "
        "[EN3] the 2010 rulebook, [BSW] the BrettspielWelt help pages (seed 002 in German and "
        "Italian, seed 004 in English), [JS] the open-source implementation, RULES.md section "
        "numbers in brackets. The seeds are the authority for the first edition; where they "
        "disagree, two of the three decide. For Imperial 2030 the sources of RULES_2030.md: "
        "[BSW-D] the BrettspielWelt 2030 differences page, [TB] Thrillberg/imperial, [D30] "
        "druvaciam/Imperial2030 (rulebook pages as it cites them), [AM] "
        "alexander-mol/Imperial2030, RULES_2030.md section numbers in brackets.",
        "",
        "Generated by `rules.ruleset.options_markdown()`; do not edit by hand.",
        "",
        "| option | choices | Imperial first | Imperial 2010 | Imperial 2030 | what it decides "
        "| source of each reading |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, info in OPTIONS.items():
        choices = " / ".join(format_value(c) for c in info.choices)
        values = " | ".join(
            format_value(getattr(p, name)) if p.applies(name) else "—" for p in presets
        )
        lines.append(f"| `{name}` | {choices} | {values} | {info.summary} | {info.source} |")
    lines += ["", *READINGS, "", *READINGS_2030, ""]
    return "\n".join(lines)


READINGS = (
    "## Where the seeds disagree among themselves",
    "",
    "For the first edition the three seed documents are the authority; where they disagree, "
    "the program follows what two of them say.",
    "",
    "- `invest_after_game_end` is **false** in both presets. The seeds disagree: the online "
    "version's help pages [BSW] say in German (seed 002: 'werden Punkt 2 und 3 des "
    "Investorzuges nicht mehr ausgeführt') and in English (seed 004: 'phases 2 and 3 of that "
    "segment won't be played anymore') that after the game-ending Taxation steps 2 and 3 of "
    "Investor are no longer carried out; only the Hungarian rulebook [HU1] says they still "
    "are ('ennek ellenére ... még végre kell hajtani'), a sentence that reads as a dropped "
    "negation. Two seeds against one, as RULES.md recommends; the option keeps the literal "
    "[HU1] reading.",
    "- `last_factory_entry` is **unoccupied** in both presets. The [BSW] help pages say in "
    "English 'If a state has only one factory, which is not occupied by hostile armies, this "
    "region may not be [entered] by hostile armies' (seed 004; the page writes 'hired') and "
    "in Italian 'una sola fabbrica non occupata da nazioni ostili' (seed 002); only [HU1] "
    "counts the single province with a factory. Two seeds against one; with the [HU1] "
    "reading a nation can lose every factory (an occupied last factory no longer protects "
    "the others). The option keeps the [HU1] reading. Factory destruction follows the 'last "
    "unoccupied factory' wording in every source.",
    "",
    "## Where this program reads the rules differently from RULES.md",
    "",
    "- Experienced set-up: [HU1] lets a volunteer choose first; RULES.md draws the first "
    "chooser by lot. The program draws by the game's seed, or takes `--deal NAME`.",
    "- Flags are placed automatically (as [BSW]); [HU1] says the nation *may* place them, "
    "but a flag never hurts its nation. A nation places flags wherever it stands alone at "
    "its flag step, which also covers regions left unmarked while it had no flag to spare. "
    "Out of turn (a battle between others, or units departing) a flag is only *replaced*: "
    "a nation left alone in an unmarked region marks it at its own next flag step.",
    "- After a nation declines to fight an entering unit, the others present are asked in "
    "turn order after the active nation (the rulebook lets the mover choose the order).",
    "- An army that travels on by rail after its step stops only at its final region: "
    "battles are offered there, not in the provinces it passes through.",
    "- Where one nation has hostile and friendly armies in the same foreign province, a "
    "friendly army is the one that moves out, and battles remove hostile armies first; the "
    "active nation loses units that already moved before those that have not.",
    "- A convoy uses only the fleets it needs: a convoy for an army that can get there "
    "without one, or a chain of seas longer than a shorter one that also reaches, is refused "
    "(the outcome is the same; this keeps the moves listed and the moves accepted identical).",
    "- With the strict `last_government_payment` reading, a purchase is refused if it "
    "would take over, at the end-of-Investor check, a last government of a nation at 0 "
    "power points and leave the buyer without the 1M to pay.",
)

READINGS_2030 = (
    "## Imperial 2030: the points RULES_2030.md leaves open",
    "",
    "RULES_2030.md §10 lists nine UNCERTAIN points. Each is an option above, an Imperial "
    "option that applies to 2030 as well, or, where no source offers another reading, a "
    "fixed rule said here.",
    "",
    "1. The canal question (§2.3). A fleet moving between the two seas of a canal, or an "
    "army convoyed across it, is asked about when the move is made, before anything moves: "
    "the government of the nation whose flag stands in the controlling region (Colombia, "
    "North Africa) allows or refuses (decision `canal`, docs/ACTIONS.md). A yes is for that "
    "crossing only. The mover's own flag there, or no flag, means free passage. A convoy "
    "through both canals asks each controller in the order the route crosses them, and a "
    "no from either withdraws it. A flag that changes hands during the Maneuver decides "
    "every crossing asked after it. Options: `canal_refusal` (what a no closes), "
    "`canal_same_government` (one player on both sides), `canal_ungoverned` (a controller "
    "without government).",
    "2. The 2- and 3-player groupings (RU+IN+US against CN+BR+EU; RU+BR, CN+EU, IN+US) come "
    "from one source only ([TB]), but they are Imperial's groupings by turn-order position; "
    "no source offers another, so they are not an option.",
    "3. The nations nobody is dealt with 4 or 5 players follow the 2010 rule through "
    "Imperial's options `unassigned_flag_min_bond` and `setup_bonds_claim_flags` (the "
    "holder of the nation's 2M bond governs it; [TB]: the largest bond, the same player).",
    "4. The experienced players' starting money: `experienced_cash`.",
    "5. The official variant 'bonus by the Imperial rule': `success_bonus`.",
    "6. The variant without investor card is played as in Imperial (`--variant "
    "no-investor-card`, with its options).",
    "7. The tie-break is Imperial's (`tie_break`, `tie_break_equal_power`).",
    "8. India's colour is a matter of display, not a rule: black, as the map file says.",
    "9. The doubtful border East Africa - Near East: `east_africa_near_east` (left out, as "
    "three of four datasets). The seven borders only the weakest dataset lacks are on the "
    "board: three independent datasets have them.",
)
