"""The rule set: the game, edition, variant and one named option for every rule difference or
ambiguity.

Games and editions are presets of options, never ``if edition == ...`` checks in the engine:
the engine reads only the options (and the board of the game, ``rules.games``). Every option
carries its choices, a one-line explanation, the source of each reading and the games it
applies to (``rules.options``), so that the save file, ``docs/RULE_OPTIONS.md``
(``rules.options_doc``), the command line and the app's new-game screen all describe the same
thing. An option that does not apply to a game (a border of the other game's map, a rule of
the other game) is neither set nor saved for it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from rules.games import GameName, game_info
from rules.options import OPTIONS, format_value

EDITIONS = ("first", "2010")
VARIANTS = ("standard", "experienced", "no-investor-card")


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
