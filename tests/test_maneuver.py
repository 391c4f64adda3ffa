"""Maneuver rules (RULES.md §4, §5.4), each pinned by the rulebook's wording or example."""

from __future__ import annotations

import pytest
from maneuver_helpers import (
    army_dests,
    flag,
    friendly,
    legal,
    new_game,
    place,
    set_factories,
    set_flag,
    start_maneuver,
    units,
)

from rules import IllegalAction
from rules.actions import NATION_CODES

# ------------------------------------------------------------------------------- fleets


def test_fleet_in_english_channel_may_sail_to_north_atlantic_bay_of_biscay_or_north_sea():
    g = new_game()
    place(g, "GB", "fleet", "english_channel")
    start_maneuver(g, "GB")
    moves = {a for a in legal(g) if a.startswith("GB move fleet english_channel")}
    assert moves == {
        "GB move fleet english_channel -> north_atlantic",
        "GB move fleet english_channel -> bay_of_biscay",
        "GB move fleet english_channel -> north_sea",
    }


@pytest.mark.parametrize(
    ("nation", "port", "sea"),
    [
        ("GB", "london", "english_channel"),
        ("GB", "dublin", "north_atlantic"),
        ("GE", "hamburg", "north_sea"),
    ],
)
def test_fleet_in_port_may_only_sail_into_its_harbour_sea(nation, port, sea):
    g = new_game()
    place(g, nation, "fleet", port)
    start_maneuver(g, nation)
    moves = {a for a in legal(g) if a.startswith(f"{nation} move fleet {port}")}
    assert moves == {f"{nation} move fleet {port} -> {sea}"}


def test_fleet_never_returns_to_port_or_land():
    g = new_game()
    place(g, "GB", "fleet", "english_channel")
    start_maneuver(g, "GB")
    with pytest.raises(IllegalAction, match="never go on land"):
        g.apply("GB move fleet english_channel -> london")


def test_fleet_moves_at_most_once_per_maneuver():
    g = new_game()
    place(g, "GB", "fleet", "english_channel")
    start_maneuver(g, "GB")
    g.apply("GB move fleet english_channel -> north_sea")
    with pytest.raises(IllegalAction, match="already moved"):
        g.apply("GB move fleet north_sea -> baltic_sea")


def test_fleet_may_stay_in_port_and_maneuver_ends_explicitly():
    g = new_game()
    place(g, "GB", "fleet", "london")
    start_maneuver(g, "GB")
    assert "GB end maneuver" in legal(g)
    g.apply("GB end maneuver")
    assert units(g, "GB", "fleet", "london") == 1
    assert g.awaiting is not None and g.awaiting.kind == "rondel"


def test_all_fleets_move_before_the_armies():
    g = new_game()
    place(g, "GB", "fleet", "english_channel")
    place(g, "GB", "army", "london")
    start_maneuver(g, "GB")
    g.apply("GB move army london -> liverpool")
    assert not any(a.startswith("GB move fleet") for a in legal(g))
    with pytest.raises(IllegalAction, match="before the armies"):
        g.apply("GB move fleet english_channel -> north_sea")


# ------------------------------------------------------------------------------- battles


def test_ionian_sea_example_mover_chooses_which_foreign_fleet_to_fight():
    g = new_game()
    place(g, "IT", "fleet", "ionian_sea")
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    assert g.awaiting.kind == "battle" and g.awaiting.player == "Fay"
    assert legal(g) == {
        "RU fleet fights AH fleet in ionian_sea",
        "RU fleet fights IT fleet in ionian_sea",
        "RU does not fight",
    }
    g.apply("RU fleet fights IT fleet in ionian_sea")
    assert units(g, "RU", "fleet", "ionian_sea") == 0
    assert units(g, "IT", "fleet", "ionian_sea") == 0
    assert units(g, "AH", "fleet", "ionian_sea") == 1
    assert g.awaiting.kind == "maneuver" and g.awaiting.nation == "RU"


def test_ionian_sea_example_if_mover_declines_the_others_are_asked_then_all_stay():
    g = new_game()
    place(g, "IT", "fleet", "ionian_sea")
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    g.apply("RU does not fight")
    # the decision moves to Austria's government, then to Italy's
    assert (g.awaiting.player, g.awaiting.kind, g.awaiting.nation) == ("Anna", "battle", "AH")
    assert legal(g) == {"AH fleet fights RU fleet in ionian_sea", "AH does not fight"}
    g.apply("AH does not fight")
    assert (g.awaiting.player, g.awaiting.nation) == ("Ben", "IT")
    g.apply("IT does not fight")
    assert g.awaiting.kind == "maneuver" and g.awaiting.player == "Fay"
    for nation in ("RU", "IT", "AH"):
        assert units(g, nation, "fleet", "ionian_sea") == 1


def test_inactive_nation_may_call_a_battle_against_an_entering_unit():
    g = new_game()
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    g.apply("RU does not fight")
    g.apply("AH fleet fights RU fleet in ionian_sea")
    assert units(g, "AH", "fleet", "ionian_sea") == 0
    assert units(g, "RU", "fleet", "ionian_sea") == 0


def test_only_the_asked_nation_may_answer_a_battle_chance():
    g = new_game()
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    with pytest.raises(IllegalAction):
        g.apply("AH does not fight")


def test_active_nation_may_attack_with_units_that_did_not_move():
    g = new_game()
    place(g, "FR", "fleet", "bay_of_biscay", 2)
    place(g, "GB", "fleet", "bay_of_biscay")
    start_maneuver(g, "FR")
    assert "FR fleet fights GB fleet in bay_of_biscay" in legal(g)
    g.apply("FR fleet fights GB fleet in bay_of_biscay")
    assert units(g, "FR", "fleet", "bay_of_biscay") == 1
    assert units(g, "GB", "fleet", "bay_of_biscay") == 0


def test_fleets_at_sea_never_fight_armies_and_battles_remove_one_unit_each():
    g = new_game()
    place(g, "FR", "army", "spain")
    place(g, "IT", "army", "spain", 2)
    place(g, "IT", "fleet", "western_mediterranean")
    start_maneuver(g, "FR")
    fights = {a for a in legal(g) if "fights" in a}
    assert fights == {"FR army fights IT army in spain"}
    g.apply("FR army fights IT army in spain")
    assert units(g, "FR", "army", "spain") == 0
    assert units(g, "IT", "army", "spain") == 1


def test_army_entering_a_port_may_attack_the_fleet_in_harbour():
    g = new_game()
    place(g, "AH", "army", "vienna")
    place(g, "IT", "fleet", "venice")
    start_maneuver(g, "AH")
    g.apply("AH move army vienna -> venice hostile")
    assert "AH army fights IT fleet in venice" in legal(g)


def test_fleet_in_port_may_fight_an_army_entering_its_province():
    g = new_game()
    place(g, "AH", "army", "vienna")
    place(g, "IT", "fleet", "venice")
    start_maneuver(g, "AH")
    g.apply("AH move army vienna -> venice hostile")
    g.apply("AH does not fight")
    assert g.awaiting.nation == "IT"
    assert "IT fleet fights AH army in venice" in legal(g)
    g.apply("IT fleet fights AH army in venice")
    assert units(g, "AH", "army", "venice") == 0
    assert units(g, "IT", "fleet", "venice") == 0


@pytest.mark.parametrize(("edition", "allowed"), [("first", False), ("2010", True)])
def test_port_fleet_against_army_already_present_depends_on_edition(edition, allowed):
    g = new_game(edition)
    place(g, "AH", "army", "venice")  # already there, hostile
    place(g, "IT", "fleet", "venice")
    start_maneuver(g, "IT")
    assert ("IT fleet fights AH army in venice" in legal(g)) is allowed


@pytest.mark.parametrize(("edition", "present"), [("first", True), ("2010", False)])
def test_port_fleet_fights_present_army_option_overrides_the_preset(edition, present):
    g = new_game(edition, port_fleet_fights_present_army=present)
    place(g, "AH", "army", "venice")
    place(g, "IT", "fleet", "venice")
    start_maneuver(g, "IT")
    assert ("IT fleet fights AH army in venice" in legal(g)) is present
    if not present:
        before = g.summary()
        with pytest.raises(IllegalAction, match="only while the fleet is in its port"):
            g.apply("IT fleet fights AH army in venice")
        assert g.summary() == before


def test_several_nations_in_one_region_are_asked_in_turn_order_after_the_mover():
    g = new_game()
    place(g, "GE", "army", "munich")
    place(g, "FR", "army", "belgium")
    place(g, "GB", "army", "belgium")
    place(g, "AH", "army", "belgium")
    start_maneuver(g, "GE")
    g.apply("GE move army munich -> belgium")
    g.apply("GE does not fight")
    asked = []
    while g.awaiting.kind == "battle":
        asked.append(g.awaiting.nation)
        g.apply(f"{g.awaiting.nation} does not fight")
    assert asked == ["AH", "FR", "GB"]


# ------------------------------------------------------------------------------- armies


def test_trieste_convoy_each_fleet_carries_one_army_per_turn():
    g = new_game()
    place(g, "AH", "army", "trieste", 2)
    place(g, "AH", "fleet", "ionian_sea", 2)
    place(g, "AH", "fleet", "western_mediterranean")
    start_maneuver(g, "AH")
    g.apply("AH move army trieste -> algeria convoy ionian_sea,western_mediterranean")
    assert units(g, "AH", "army", "algeria") == 1
    # the second army can still land in Tunis (second Ionian fleet), not in Algeria
    dests = army_dests(g, "AH", "trieste")
    assert "tunis" in dests
    assert "algeria" not in dests
    with pytest.raises(
        IllegalAction,
        match="fleet in the Western Mediterranean Sea has already carried an army this turn",
    ):
        g.apply("AH move army trieste -> algeria convoy ionian_sea,western_mediterranean")
    g.apply("AH move army trieste -> tunis convoy ionian_sea")
    assert units(g, "AH", "army", "tunis") == 1


def test_a_fleet_that_moved_may_still_carry_an_army():
    g = new_game()
    place(g, "AH", "army", "trieste")
    place(g, "AH", "fleet", "trieste")
    start_maneuver(g, "AH")
    g.apply("AH move fleet trieste -> ionian_sea")
    g.apply("AH move army trieste -> greece convoy ionian_sea")
    assert units(g, "AH", "army", "greece") == 1


def test_a_fleet_lost_in_battle_after_convoying_is_the_one_that_carried():
    # Each fleet carries one army per turn; when one of two fleets in a sea is lost in a later
    # battle, the fleet that already carried goes, so the other may still carry.
    g = new_game()
    place(g, "IT", "army", "rome", 3)
    place(g, "IT", "fleet", "western_mediterranean", 2)
    place(g, "FR", "fleet", "western_mediterranean")
    start_maneuver(g, "IT")
    g.apply("IT move army rome -> algeria convoy western_mediterranean")
    g.apply("IT fleet fights FR fleet in western_mediterranean")
    assert units(g, "IT", "fleet", "western_mediterranean") == 1
    assert "IT move army rome -> spain convoy western_mediterranean" in legal(g)
    g.apply("IT move army rome -> spain convoy western_mediterranean")
    assert units(g, "IT", "army", "spain") == 1
    with pytest.raises(IllegalAction, match="already carried an army"):
        g.apply("IT move army rome -> algeria convoy western_mediterranean")


def test_fleets_in_port_cannot_convoy():
    g = new_game()
    place(g, "AH", "army", "trieste")
    place(g, "AH", "fleet", "trieste")
    start_maneuver(g, "AH")
    assert "greece" not in army_dests(g, "AH", "trieste")
    with pytest.raises(IllegalAction, match="no fleet in the Ionian Sea"):
        g.apply("AH move army trieste -> greece convoy ionian_sea")


def test_convoy_route_names_the_fleets_that_carry():
    g = new_game()
    place(g, "IT", "army", "rome", 2)
    place(g, "IT", "fleet", "western_mediterranean")
    place(g, "IT", "fleet", "ionian_sea")
    start_maneuver(g, "IT")
    # Rome and Tunis both lie on the two seas: either fleet can carry, the player says which
    assert {
        "IT move army rome -> tunis convoy western_mediterranean",
        "IT move army rome -> tunis convoy ionian_sea",
    } <= legal(g)
    g.apply("IT move army rome -> tunis convoy ionian_sea")
    # the Western Mediterranean fleet is still free for the second army
    assert "IT move army rome -> algeria convoy western_mediterranean" in legal(g)
    assert "greece" not in army_dests(g, "IT", "rome")


def test_dutch_army_steps_into_hamburg_and_rails_but_cannot_leave_germany_or_use_baltic():
    g = new_game()
    place(g, "GE", "army", "holland")
    place(g, "GE", "fleet", "baltic_sea")
    start_maneuver(g, "GE")
    dests = army_dests(g, "GE", "holland")
    assert {"hamburg", "berlin", "cologne", "munich", "danzig"} <= dests
    assert not {"denmark", "norway", "sweden"} & dests


def test_cologne_army_rails_to_hamburg_then_steps_or_convoys_via_baltic():
    g = new_game()
    place(g, "GE", "army", "cologne")
    place(g, "GE", "fleet", "baltic_sea")
    start_maneuver(g, "GE")
    dests = army_dests(g, "GE", "cologne")
    assert {"denmark", "norway", "sweden"} <= dests
    assert "GE move army cologne -> denmark" in legal(g)
    assert "GE move army cologne -> norway convoy baltic_sea" in legal(g)
    g.apply("GE move army cologne -> sweden convoy baltic_sea")
    assert units(g, "GE", "army", "sweden") == 1


def test_hostile_army_in_berlin_cuts_the_rail_to_danzig():
    g = new_game()
    place(g, "RU", "army", "berlin")  # hostile
    place(g, "FR", "army", "munich", friendly=True)
    place(g, "GE", "army", "hamburg")
    place(g, "GE", "army", "cologne")
    start_maneuver(g, "GE")
    assert "danzig" not in army_dests(g, "GE", "hamburg")
    assert "danzig" not in army_dests(g, "GE", "cologne")
    # the friendly French army in Munich does not block: Cologne rails through Munich
    assert "vienna" in army_dests(g, "GE", "cologne")
    # the occupier is attacked by a normal step into Berlin
    assert "berlin" in army_dests(g, "GE", "hamburg")


def test_army_in_occupied_own_province_cannot_take_the_rail_out():
    g = new_game()
    place(g, "RU", "army", "berlin")
    place(g, "GE", "army", "berlin")
    start_maneuver(g, "GE")
    dests = army_dests(g, "GE", "berlin")
    assert "hamburg" in dests  # a normal step
    assert "holland" not in dests  # would need rail to Hamburg first


def test_option_rail_from_occupied_province():
    g = new_game(rail_from_occupied_province=True)
    place(g, "RU", "army", "berlin")
    place(g, "GE", "army", "berlin")
    start_maneuver(g, "GE")
    assert "holland" in army_dests(g, "GE", "berlin")


def test_army_makes_one_step_only_no_step_then_convoy():
    g = new_game()
    place(g, "GE", "army", "holland")
    place(g, "GE", "fleet", "north_sea")
    start_maneuver(g, "GE")
    # Holland borders the North Sea: a convoy from Holland is one step
    assert "norway" in army_dests(g, "GE", "holland")
    assert "GE move army holland -> norway convoy north_sea" in legal(g)
    # but Belgium -> (step) Holland -> (convoy) is two steps
    g2 = new_game()
    place(g2, "GE", "army", "belgium")
    start_maneuver(g2, "GE")
    assert "norway" not in army_dests(g2, "GE", "belgium")


def test_bulgaria_turkey_is_a_land_border():
    g = new_game()
    place(g, "RU", "army", "bulgaria")
    start_maneuver(g, "RU")
    assert "RU move army bulgaria -> turkey" in legal(g)


@pytest.mark.parametrize(
    ("nation", "origin", "dest", "sea"),
    [("GE", "denmark", "sweden", "baltic_sea"), ("FR", "spain", "morocco", "bay_of_biscay")],
)
def test_sweden_denmark_and_spain_morocco_only_by_convoy(nation, origin, dest, sea):
    g = new_game()
    place(g, nation, "army", origin)
    start_maneuver(g, nation)
    assert dest not in army_dests(g, nation, origin)
    g2 = new_game()
    place(g2, nation, "army", origin)
    place(g2, nation, "fleet", sea)
    start_maneuver(g2, nation)
    assert f"{nation} move army {origin} -> {dest} convoy {sea}" in legal(g2)


def test_no_army_ever_enters_switzerland():
    g = new_game()
    place(g, "FR", "army", "dijon")
    start_maneuver(g, "FR")
    assert "switzerland" not in army_dests(g, "FR", "dijon")
    with pytest.raises(IllegalAction, match="impassable"):
        g.apply("FR move army dijon -> switzerland")


def test_dublin_has_no_rail_and_is_reached_only_by_convoy():
    g = new_game()
    place(g, "GB", "army", "liverpool")
    place(g, "GB", "army", "dublin")
    start_maneuver(g, "GB")
    assert "dublin" not in army_dests(g, "GB", "liverpool")
    assert army_dests(g, "GB", "dublin") == set()
    g2 = new_game()
    place(g2, "GB", "army", "liverpool")
    place(g2, "GB", "fleet", "north_atlantic")
    start_maneuver(g2, "GB")
    assert "GB move army liverpool -> dublin convoy north_atlantic" in legal(g2)


def test_option_armies_may_not_enter_dublin():
    g = new_game(armies_may_enter_dublin=False)
    place(g, "GB", "army", "liverpool")
    place(g, "GB", "fleet", "north_atlantic")
    start_maneuver(g, "GB")
    assert "dublin" not in army_dests(g, "GB", "liverpool")


def test_armies_never_stand_at_sea():
    g = new_game()
    place(g, "GB", "army", "london")
    start_maneuver(g, "GB")
    with pytest.raises(IllegalAction, match="never end at sea"):
        g.apply("GB move army london -> english_channel")


def test_convoy_through_foreign_fleet_option():
    for allowed in (True, False):
        g = new_game(convoy_through_foreign_fleets=allowed)
        place(g, "FR", "army", "brest")
        place(g, "FR", "fleet", "bay_of_biscay")
        place(g, "GB", "fleet", "bay_of_biscay")
        start_maneuver(g, "FR")
        assert ("portugal" in army_dests(g, "FR", "brest")) is allowed


# ------------------------------------------------------------------------------- foreign provinces


def test_entering_a_foreign_home_province_needs_hostile_or_friendly():
    g = new_game()
    place(g, "GE", "army", "munich")
    start_maneuver(g, "GE")
    assert {"GE move army munich -> vienna hostile", "GE move army munich -> vienna friendly"} <= (
        legal(g)
    )
    with pytest.raises(IllegalAction, match="hostile' or 'friendly"):
        g.apply("GE move army munich -> vienna")
    g.apply("GE move army munich -> vienna friendly")
    assert friendly(g, "GE", "vienna") == 1
    assert not g.state.occupied(g.state.board.index["vienna"])


def test_hostile_army_occupies_a_province():
    g = new_game()
    place(g, "GE", "army", "munich")
    start_maneuver(g, "GE")
    g.apply("GE move army munich -> vienna hostile")
    assert g.state.occupied(g.state.board.index["vienna"])


def test_last_unoccupied_factory_province_can_only_be_entered_as_friendly():
    # [EN3] wording (the 2010 preset): "only one factory not occupied by hostile armies"
    g = new_game("2010")
    set_factories(g, "AH", ["vienna", "budapest"])
    place(g, "RU", "army", "budapest")  # hostile: Vienna is AH's last unoccupied factory
    place(g, "GE", "army", "munich")
    start_maneuver(g, "GE")
    assert "GE move army munich -> vienna friendly" in legal(g)
    assert "GE move army munich -> vienna hostile" not in legal(g)
    with pytest.raises(IllegalAction, match="last unoccupied factory"):
        g.apply("GE move army munich -> vienna hostile")


def test_last_factory_entry_presets_follow_two_seeds_of_three():
    # [BSW] English (seed 004) "only one factory, which is not occupied by hostile armies" and
    # Italian (seed 002) "una sola fabbrica non occupata da nazioni ostili" against [HU1]
    assert new_game().rules.last_factory_entry == "unoccupied"
    assert new_game("2010").rules.last_factory_entry == "unoccupied"  # [EN3]


def test_last_factory_first_edition_a_nation_never_loses_every_factory():
    # The two-player game: AH occupies Berlin, then may not occupy Hamburg, GE's last
    # factory not occupied by hostile armies (with the [HU1] reading it could, and GE would
    # produce and tax nothing).
    g = new_game()
    set_factories(g, "GE", ["berlin", "hamburg"])
    place(g, "AH", "army", "berlin", count=2)
    start_maneuver(g, "AH")
    assert "AH move army berlin -> hamburg hostile" not in legal(g)
    with pytest.raises(IllegalAction, match="last unoccupied factory"):
        g.apply("AH move army berlin -> hamburg hostile")
    g = new_game(last_factory_entry="any_factory")
    set_factories(g, "GE", ["berlin", "hamburg"])
    place(g, "AH", "army", "berlin", count=2)
    start_maneuver(g, "AH")
    g.apply("AH move army berlin -> hamburg hostile")
    assert all(g.state.occupied(r) for r in g.state.factories_of(NATION_CODES.index("GE")))


def test_last_factory_any_factory_option_only_factory_province_entered_only_as_friendly():
    # [HU1]: "if a nation has only one province with a factory, a foreign power may not enter
    # it as hostile; armies entering it are laid down (friendly)"
    g = new_game(last_factory_entry="any_factory")
    set_factories(g, "AH", ["vienna"])
    place(g, "GE", "army", "munich")
    start_maneuver(g, "GE")
    assert "GE move army munich -> vienna friendly" in legal(g)
    assert "GE move army munich -> vienna hostile" not in legal(g)
    before = g.summary()
    with pytest.raises(IllegalAction, match="Austria-Hungary's only factory"):
        g.apply("GE move army munich -> vienna hostile")
    assert g.summary() == before
    g.apply("GE move army munich -> vienna friendly")
    assert friendly(g, "GE", "vienna") == 1
    assert not g.state.occupied(g.state.board.index["vienna"])


def test_last_factory_entry_option_any_factory():
    # Two factories, one occupied: by the EN3 wording Vienna is protected; by the literal
    # first-edition wording ("only one province with a factory") it is not.
    g = new_game(last_factory_entry="any_factory")
    set_factories(g, "AH", ["vienna", "budapest"])
    place(g, "RU", "army", "budapest")
    place(g, "GE", "army", "munich")
    start_maneuver(g, "GE")
    assert "GE move army munich -> vienna hostile" in legal(g)


def test_status_change_without_moving_lets_others_call_a_battle():
    g = new_game()
    place(g, "GE", "army", "vienna", friendly=True)
    place(g, "AH", "army", "vienna")
    start_maneuver(g, "GE")
    g.apply("GE make army vienna hostile")
    assert g.state.occupied(g.state.board.index["vienna"])
    assert g.awaiting.kind == "battle" and g.awaiting.nation == "AH"
    g.apply("AH army fights GE army in vienna")
    assert units(g, "GE", "army", "vienna") == 0


def test_status_change_to_friendly_gives_the_others_no_battle_chance():
    # RULES.md §5.4.4 item 2 / FAQ: inactive nations may demand a battle when an army
    # switches from friendly to hostile, not the other way round
    g = new_game()
    place(g, "GE", "army", "vienna")  # hostile
    place(g, "AH", "army", "vienna")
    start_maneuver(g, "GE")
    g.apply("GE make army vienna friendly")
    assert friendly(g, "GE", "vienna") == 1
    assert not g.state.occupied(g.state.board.index["vienna"])
    assert g.awaiting.kind == "maneuver" and g.awaiting.nation == "GE"
    # the active nation itself may still attack at any time
    assert "GE army fights AH army in vienna" in legal(g)


@pytest.mark.parametrize("edition", ["first", "2010"])
def test_status_change_to_hostile_refused_in_the_last_factory_province(edition):
    g = new_game(edition)
    set_factories(g, "AH", ["vienna"])
    place(g, "GE", "army", "vienna", friendly=True)
    start_maneuver(g, "GE")
    assert "GE make army vienna hostile" not in legal(g)
    before = g.summary()
    with pytest.raises(IllegalAction, match="can only be friendly"):
        g.apply("GE make army vienna hostile")
    assert g.summary() == before


def test_status_change_option_off():
    g = new_game(status_change_without_moving=False)
    place(g, "GE", "army", "vienna", friendly=True)
    start_maneuver(g, "GE")
    assert not any("make army" in a for a in legal(g))
    with pytest.raises(IllegalAction, match="status_change_without_moving"):
        g.apply("GE make army vienna hostile")


# ------------------------------------------------------------------------------- destruction


def test_venice_factory_destruction_example():
    g = new_game()
    set_factories(g, "IT", ["rome", "naples", "venice"])
    place(g, "IT", "fleet", "venice")
    place(g, "AH", "army", "vienna", 2)
    place(g, "AH", "army", "budapest", 2)
    start_maneuver(g, "AH")
    supply_before = g.state.armies_in_supply(0)
    g.apply("AH move army vienna -> venice hostile")
    g.apply("AH army fights IT fleet in venice")
    assert units(g, "IT", "fleet", "venice") == 0
    g.apply("AH move army budapest -> venice hostile")  # rail to Vienna, then the step
    g.apply("AH move army budapest -> venice hostile")
    g.apply("AH move army vienna -> venice hostile")
    assert units(g, "AH", "army", "venice") == 3
    assert "AH destroys factory venice" in legal(g)
    g.apply("AH destroys factory venice")
    s = g.state
    assert not s.factory[s.board.index["venice"]]
    assert units(g, "AH", "army", "venice") == 0
    assert s.armies_in_supply(0) == supply_before + 1 + 3  # battle loss + the three armies


def test_factory_cannot_be_destroyed_while_defenders_remain():
    g = new_game()
    set_factories(g, "IT", ["rome", "naples", "venice"])
    place(g, "IT", "army", "venice")
    place(g, "AH", "army", "venice", 3)
    start_maneuver(g, "AH")
    with pytest.raises(IllegalAction, match="still has units"):
        g.apply("AH destroys factory venice")


def test_last_unoccupied_factory_cannot_be_destroyed_by_friendly_armies():
    g = new_game(destroy_requires_hostile=False)
    set_factories(g, "IT", ["rome", "venice"])
    place(g, "FR", "army", "rome")  # Rome occupied: Venice is the last unoccupied factory
    place(g, "AH", "army", "venice", 3, friendly=True)
    start_maneuver(g, "AH")
    assert "AH destroys factory venice" not in legal(g)
    with pytest.raises(IllegalAction, match="last unoccupied factory"):
        g.apply("AH destroys factory venice")


@pytest.mark.parametrize(("requires_hostile", "allowed"), [(True, False), (False, True)])
def test_destruction_by_friendly_armies_option(requires_hostile, allowed):
    g = new_game(destroy_requires_hostile=requires_hostile)
    set_factories(g, "IT", ["rome", "naples", "venice"])
    place(g, "AH", "army", "venice", 3, friendly=True)
    start_maneuver(g, "AH")
    assert ("AH destroys factory venice" in legal(g)) is allowed


def test_fleets_never_destroy_factories():
    g = new_game()
    set_factories(g, "IT", ["rome", "naples", "venice"])
    place(g, "AH", "fleet", "ionian_sea", 3)
    start_maneuver(g, "AH")
    assert not any("destroys" in a for a in legal(g))


# ------------------------------------------------------------------------------- flags


def test_flag_placed_where_the_nation_stands_alone_after_maneuver():
    g = new_game()
    place(g, "GE", "army", "hamburg")
    start_maneuver(g, "GE")
    g.apply("GE move army hamburg -> denmark")
    g.apply("GE end maneuver")
    assert flag(g, "denmark") == "GE"
    assert g.state.flags_in_supply(4) == 9


def test_no_flag_in_a_home_province():
    g = new_game()
    place(g, "GE", "army", "munich")
    start_maneuver(g, "GE")
    g.apply("GE move army munich -> vienna hostile")
    g.apply("GE end maneuver")
    assert flag(g, "vienna") is None


def test_flag_stays_while_region_is_shared_or_empty():
    g = new_game()
    set_flag(g, "belgium", "FR")
    place(g, "GE", "army", "cologne")
    place(g, "FR", "army", "belgium")
    start_maneuver(g, "GE")
    g.apply("GE move army cologne -> belgium")
    g.apply("GE does not fight")
    g.apply("FR does not fight")
    g.apply("GE end maneuver")
    assert flag(g, "belgium") == "FR"


def test_flag_replaced_when_another_nation_occupies_region_alone():
    g = new_game()
    set_flag(g, "belgium", "FR")
    place(g, "GE", "army", "cologne")
    start_maneuver(g, "GE")
    g.apply("GE move army cologne -> belgium")
    g.apply("GE end maneuver")
    assert flag(g, "belgium") == "GE"
    assert g.state.flags_in_supply(2) == 10


def test_battle_between_others_gives_the_flag_to_the_inactive_survivor():
    g = new_game()
    set_flag(g, "north_sea", "GB")
    place(g, "GB", "fleet", "north_sea")
    place(g, "IT", "fleet", "north_sea")
    place(g, "FR", "fleet", "english_channel")
    start_maneuver(g, "FR")
    g.apply("FR move fleet english_channel -> north_sea")
    g.apply("FR fleet fights GB fleet in north_sea")
    assert flag(g, "north_sea") == "IT"


@pytest.mark.parametrize(("transfer", "expected"), [(True, "IT"), (False, "GB")])
def test_flag_when_units_depart_option(transfer, expected):
    g = new_game(flag_transfer_on_departure=transfer)
    set_flag(g, "north_sea", "GB")
    place(g, "GB", "fleet", "north_sea")
    place(g, "IT", "fleet", "north_sea")
    start_maneuver(g, "GB")
    g.apply("GB move fleet north_sea -> english_channel")
    g.apply("GB end maneuver")
    assert flag(g, "north_sea") == expected


def test_unmarked_region_gets_no_flag_out_of_turn_only_at_the_nations_own_flag_step():
    # A flag is *replaced* at once when another nation is left alone (battle or departure);
    # an unmarked region is marked only in step 3 of the occupant's own Maneuver.
    g = new_game()
    place(g, "GB", "fleet", "north_sea")
    place(g, "IT", "fleet", "north_sea")
    place(g, "GB", "fleet", "north_atlantic")
    place(g, "GE", "fleet", "bay_of_biscay")
    place(g, "FR", "fleet", "bay_of_biscay")
    start_maneuver(g, "GB")
    g.apply("GB move fleet north_sea -> english_channel")  # Italy stays alone
    g.apply("GB move fleet north_atlantic -> bay_of_biscay")
    g.apply("GB fleet fights GE fleet in bay_of_biscay")  # France is left alone
    g.apply("GB end maneuver")
    assert flag(g, "north_sea") is None
    assert flag(g, "bay_of_biscay") is None
    start_maneuver(g, "IT")
    g.apply("IT end maneuver")
    assert flag(g, "north_sea") == "IT"


def test_without_flags_in_supply_the_old_flag_is_removed_and_region_stays_unmarked():
    g = new_game()
    seas = [
        "north_atlantic",
        "english_channel",
        "bay_of_biscay",
        "western_mediterranean",
        "ionian_sea",
        "eastern_mediterranean",
        "black_sea",
        "baltic_sea",
    ]
    lands = ["norway", "sweden"]
    for r in seas + lands:
        set_flag(g, r, "GE")  # all 10 German flags on the board
    set_flag(g, "belgium", "FR")
    place(g, "GE", "army", "cologne")
    start_maneuver(g, "GE")
    g.apply("GE move army cologne -> belgium")
    g.apply("GE end maneuver")
    assert flag(g, "belgium") is None
    assert g.state.flags_in_supply(2) == 10


def germany_takes_belgium_from_france_with_all_french_flags_out(g) -> None:
    """All ten French flags are on the board (Belgium's among them) and Spain is French-held
    but unmarked; a German army takes Belgium, so one French flag comes back."""
    french = [
        "north_atlantic",
        "english_channel",
        "bay_of_biscay",
        "western_mediterranean",
        "ionian_sea",
        "eastern_mediterranean",
        "black_sea",
        "baltic_sea",
        "norway",
        "belgium",
    ]
    for r in french:
        set_flag(g, r, "FR")
    place(g, "FR", "army", "spain")
    place(g, "GE", "army", "cologne")
    start_maneuver(g, "GE")
    g.apply("GE move army cologne -> belgium")
    g.apply("GE end maneuver")


def test_returned_flag_is_placed_at_once_in_a_region_held_alone():
    g = new_game()
    germany_takes_belgium_from_france_with_all_french_flags_out(g)
    assert flag(g, "belgium") == "GE"
    assert flag(g, "spain") == "FR"


def test_returned_flag_of_a_nation_with_flags_left_waits_for_its_own_flag_step():
    """RULES.md §5.4.6: only "a nation whose markers are all on the board" places a returned
    marker at once. France, with flags left, is left alone in the Western Mediterranean by a
    battle in Italy's turn (unmarked: no flag out of turn); the flag that Italy's fleet then
    takes from France in the Ionian Sea goes back to France's supply, not onto that sea."""
    g = new_game()
    set_flag(g, "ionian_sea", "FR")
    place(g, "FR", "fleet", "western_mediterranean", 2)
    place(g, "IT", "fleet", "western_mediterranean")
    place(g, "IT", "fleet", "eastern_mediterranean")
    start_maneuver(g, "IT")
    g.apply("IT fleet fights FR fleet in western_mediterranean")
    assert flag(g, "western_mediterranean") is None
    supply = g.state.flags_in_supply(2)
    g.apply("IT move fleet eastern_mediterranean -> ionian_sea")
    g.apply("IT end maneuver")
    assert flag(g, "ionian_sea") == "IT"
    assert flag(g, "western_mediterranean") is None
    assert g.state.flags_in_supply(2) == supply + 1


# ------------------------------------------------------------------------------- supply


def test_destroyed_units_return_to_supply():
    g = new_game()
    place(g, "FR", "fleet", "bay_of_biscay")
    place(g, "GB", "fleet", "bay_of_biscay")
    start_maneuver(g, "FR")
    fr, gb = g.state.fleets_in_supply(2), g.state.fleets_in_supply(3)
    g.apply("FR fleet fights GB fleet in bay_of_biscay")
    assert g.state.fleets_in_supply(2) == fr + 1
    assert g.state.fleets_in_supply(3) == gb + 1


# ------------------------------------------------------------------------------- more options


@pytest.mark.parametrize("sequence", ["entering_unit", "until_declined"])
def test_battle_sequence_option(sequence):
    g = new_game(battle_sequence=sequence)
    place(g, "GE", "army", "belgium")  # already there
    place(g, "GE", "army", "cologne")
    place(g, "FR", "army", "belgium", 2)
    start_maneuver(g, "GE")
    g.apply("GE move army cologne -> belgium")
    g.apply("GE army fights FR army in belgium")
    if sequence == "entering_unit":
        # one battle chance per entering unit: back to Germany's maneuver
        assert g.awaiting.kind == "maneuver"
    else:
        # battles go on: Germany may fight again, then France is asked
        assert g.awaiting.kind == "battle" and g.awaiting.nation == "GE"
        g.apply("GE does not fight")
        assert g.awaiting.nation == "FR"
        g.apply("FR army fights GE army in belgium")
        assert units(g, "GE", "army", "belgium") == 0
        assert units(g, "FR", "army", "belgium") == 0
        assert g.awaiting.kind == "maneuver"


def test_returned_flag_waits_for_the_next_maneuver_with_option():
    g = new_game(returned_flag_placement="next_maneuver")
    germany_takes_belgium_from_france_with_all_french_flags_out(g)
    assert flag(g, "spain") is None
    start_maneuver(g, "FR")
    g.apply("FR end maneuver")
    assert flag(g, "spain") == "FR"


@pytest.mark.parametrize("adjacent", [True, False])
def test_black_sea_eastern_mediterranean_option(adjacent):
    g = new_game(black_sea_eastern_mediterranean=adjacent)
    place(g, "RU", "fleet", "black_sea")
    start_maneuver(g, "RU")
    assert ("RU move fleet black_sea -> eastern_mediterranean" in legal(g)) is adjacent


def test_convoy_is_refused_when_the_army_needs_no_fleet_or_fewer_fleets():
    g = new_game()
    place(g, "IT", "army", "rome")
    place(g, "IT", "fleet", "ionian_sea")
    start_maneuver(g, "IT")
    # Rome rails to Venice, which borders Trieste: no fleet is needed
    assert "IT move army rome -> trieste friendly" in legal(g)
    with pytest.raises(IllegalAction, match="without a fleet"):
        g.apply("IT move army rome -> trieste convoy ionian_sea friendly")
    g2 = new_game()
    place(g2, "FR", "army", "marseille")
    place(g2, "FR", "fleet", "western_mediterranean")
    place(g2, "FR", "fleet", "ionian_sea")
    start_maneuver(g2, "FR")
    assert "FR move army marseille -> tunis convoy western_mediterranean" in legal(g2)
    with pytest.raises(IllegalAction, match="fewer fleets"):
        g2.apply("FR move army marseille -> tunis convoy western_mediterranean,ionian_sea")
