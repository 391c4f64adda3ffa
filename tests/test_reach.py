"""Who can reach a region next turn and which rules apply there (rules.reach): the same
answers the engine gives when the Maneuver is played."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from maneuver_helpers import new_game, place, set_factories, start_maneuver

from rules import Game
from rules.bots import GreedyBot
from rules.reach import reach, rules_here


def reached(g: Game, region: str, nation: str | None = None) -> dict[tuple[str, str], str]:
    s = g.state
    return {
        (r.unit, r.origin): r.how
        for r in reach(s, s.board.index[region])
        if nation is None or r.nation == nation
    }


def test_rail_then_one_step_army_budapest_reaches_genoa():
    """The move that surprises players: rail through the nation's own provinces, then one
    step out (RULES.md §5.4: Budapest -> Vienna by rail, then Vienna -> Genoa)."""
    g = new_game()
    place(g, "AH", "army", "budapest")
    assert reached(g, "genoa", "AH") == {("army", "budapest"): "rail"}
    assert reached(g, "vienna", "AH") == {("army", "budapest"): "step"}


def test_convoy_example_trieste_army_to_algeria_via_ionian_and_western_mediterranean():
    """The rulebook's convoy example: an army in Trieste carried by fleets in the Ionian Sea
    and the Western Mediterranean lands in Algeria or Tunis."""
    g = new_game()
    place(g, "AH", "army", "trieste")
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "AH", "fleet", "western_mediterranean")
    found = [r for r in reach(g.state, g.state.board.index["algeria"]) if r.nation == "AH"]
    assert [(r.origin, r.how, set(r.convoy)) for r in found] == [
        ("trieste", "convoy", {"ionian_sea", "western_mediterranean"})
    ]
    tunis = [r for r in reach(g.state, g.state.board.index["tunis"]) if r.unit == "army"]
    assert [(r.how, r.convoy) for r in tunis] == [("convoy", ("ionian_sea",))]


def test_fleets_reach_neighbouring_seas_and_a_port_only_its_harbour():
    g = new_game()
    place(g, "GE", "fleet", "hamburg")
    place(g, "GB", "fleet", "english_channel")
    assert reached(g, "north_sea") == {
        ("fleet", "hamburg"): "sail",
        ("fleet", "english_channel"): "sail",
    }
    assert reached(g, "baltic_sea") == {}  # Hamburg's harbour is the North Sea only


def test_the_last_factory_is_reached_only_as_friendly():
    g = new_game()
    set_factories(g, "IT", ["rome"])
    place(g, "FR", "army", "marseille")
    place(g, "FR", "army", "genoa")  # Genoa borders Florence, not Rome
    found = {r.origin: r for r in reach(g.state, g.state.board.index["genoa"]) if r.nation == "FR"}
    assert not found["marseille"].friendly_only  # Genoa has no factory
    florence = [r for r in reach(g.state, g.state.board.index["florence"]) if r.nation == "FR"]
    assert florence and not florence[0].friendly_only
    place(g, "FR", "army", "venice")
    rome = [r for r in reach(g.state, g.state.board.index["rome"]) if r.nation == "FR"]
    assert rome and all(r.friendly_only for r in rome)


def positions() -> list[Game]:
    out = []
    for seed in (2, 5):
        g = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=seed)
        bot = GreedyBot(seed)
        for _ in range(110):
            if g.awaiting is None:
                break
            g.apply(bot.choose(g))
        out.append(g)
    return out


POSITIONS = positions()


@settings(max_examples=25, deadline=None)
@given(
    pos=st.integers(0, len(POSITIONS) - 1),
    nation=st.sampled_from(["AH", "IT", "FR", "GB", "GE", "RU"]),
    region=st.integers(0, 53),
)
def test_reach_is_what_the_nation_may_legally_do_when_its_maneuver_begins(pos, nation, region):
    """Property: the units reach() names are exactly those with a legal move to the region
    once that nation's Maneuver is really started through the rondel."""
    g = POSITIONS[pos].copy()
    board = g.state.board
    rid = board.id(region)
    expected = {(u, o) for (u, o) in reached(g, rid, nation)}
    start_maneuver(g, nation)
    legal = {
        ("army" if a.kind == "move_army" else "fleet", a.origin)  # type: ignore[attr-defined]
        for a in g.legal_actions()
        if a.kind in ("move_army", "move_fleet") and a.dest == rid  # type: ignore[attr-defined]
    }
    assert expected == legal


def test_rules_here_come_from_the_engine_predicates():
    g = new_game()
    s = g.state
    berlin = s.board.index["berlin"]
    assert any("Factory: armaments" in line for line in rules_here(s, berlin))
    assert not any("Occupied" in line for line in rules_here(s, berlin))
    place(g, "RU", "army", "berlin")
    assert s.occupied(berlin)
    text = " ".join(rules_here(s, berlin))
    assert "Occupied by hostile RU armies: the factory produces nothing" in text
    # the last-factory rule: a nation with one factory left protects it, in either reading
    set_factories(g, "IT", ["rome"])
    rome = " ".join(rules_here(s, s.board.index["rome"]))
    assert "IT's last unoccupied factory: foreign armies may enter only as friendly" in rome
    other = new_game(last_factory_entry="any_factory")
    set_factories(other, "IT", ["rome"])
    rome = " ".join(rules_here(other.state, other.state.board.index["rome"]))
    assert "IT's only factory: foreign armies may enter only as friendly" in rome
    dublin = " ".join(rules_here(s, s.board.index["dublin"]))
    assert "Not on GB's rail network" in dublin
    closed = new_game(armies_may_enter_dublin=False)
    dublin = " ".join(rules_here(closed.state, closed.state.board.index["dublin"]))
    assert "Armies cannot enter it at all" in dublin
    sea = " ".join(rules_here(s, s.board.index["north_sea"]))
    assert "Harbour of Edinburgh and Hamburg" in sea
