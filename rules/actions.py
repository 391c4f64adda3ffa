"""Actions: small frozen values with a text notation that is printed and parsed back.

The notation is the one language shared by the command line, the save file, the log and the
tests, as SAN is for chess. An action names its actor: a nation code (``AH`` .. ``RU``, in
Imperial 2030 ``RU`` .. ``EU``) for a government's decision taken for a nation, a player
name for a player's own decision. Parsing needs no game: region ids, nation codes (of either
game) and player names are all in the text; a game refuses a code that is not one of its
nations.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from typing import Any, ClassVar, TypeVar

from rules.decisions import Decision
from rules.games import ALL_NATION_CODES

NATION_CODES = ("AH", "IT", "FR", "GB", "GE", "RU")  # Imperial's; a game's are its board's
RONDEL_SPACES = (
    "factory",
    "production1",
    "maneuver1",
    "investor",
    "import",
    "production2",
    "maneuver2",
    "taxation",
)
INVESTOR_SPACE = RONDEL_SPACES.index("investor")


class NotationError(ValueError):
    """Text that is not an action in the notation; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Action(ABC):
    """Base of all actions. ``kind`` names the action family for front ends and JSON."""

    kind: ClassVar[str] = "action"

    @property
    @abstractmethod
    def actor(self) -> str:
        """The nation code (a government's decision) or the player name."""

    @abstractmethod
    def notation(self) -> str:
        """The action in the notation of docs/ACTIONS.md (parsed back by parse_action)."""

    def __str__(self) -> str:
        return self.notation()


# --------------------------------------------------------------------------- nation actions


@dataclass(frozen=True, slots=True)
class ChooseRondel(Action):
    """The government moves the nation's marker to a rondel space."""

    kind: ClassVar[str] = Decision.RONDEL  # the decision it answers
    nation: str
    space: str

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} rondel {self.space}"


@dataclass(frozen=True, slots=True)
class BuildFactory(Action):
    """Build a factory in a city (``region``), or none (``region`` is None)."""

    kind: ClassVar[str] = Decision.BUILD_FACTORY  # the decision it answers
    nation: str
    region: str | None

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        if self.region is None:
            return f"{self.nation} build no factory"
        return f"{self.nation} build factory {self.region}"


@dataclass(frozen=True, slots=True)
class Produce(Action):
    """Produce at one factory (a region id), at ``all`` remaining factories, or ``done``."""

    kind: ClassVar[str] = Decision.PRODUCE  # the decision it answers
    nation: str
    region: str  # region id, "all" or "done"

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} produce {self.region}"


@dataclass(frozen=True, slots=True)
class Import(Action):
    """Import one unit (``army``/``fleet``) into a province, or finish importing (``done``)."""

    kind: ClassVar[str] = Decision.IMPORT  # the decision it answers
    nation: str
    unit: str | None  # "army" | "fleet" | None for done
    region: str | None = None

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        if self.unit is None:
            return f"{self.nation} import done"
        return f"{self.nation} import {self.unit} {self.region}"


@dataclass(frozen=True, slots=True)
class MoveFleet(Action):
    """Move one fleet to an adjacent sea (from a port only into its harbour sea)."""

    kind: ClassVar[str] = "move_fleet"
    nation: str
    origin: str
    dest: str

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} move fleet {self.origin} -> {self.dest}"


@dataclass(frozen=True, slots=True)
class MoveArmy(Action):
    """Move one army: optional rail, one land step or a convoy (``convoy`` lists the seas whose
    fleets carry it, in order), optional rail after landing; ``status`` is ``hostile`` or
    ``friendly`` when it ends in another nation's home province, else None."""

    kind: ClassVar[str] = "move_army"
    nation: str
    origin: str
    dest: str
    convoy: tuple[str, ...] = ()
    status: str | None = None

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        text = f"{self.nation} move army {self.origin} -> {self.dest}"
        if self.convoy:
            text += " convoy " + ",".join(self.convoy)
        if self.status:
            text += f" {self.status}"
        return text


@dataclass(frozen=True, slots=True)
class ChangeStatus(Action):
    """Switch one army in a foreign home province to hostile or friendly without moving it."""

    kind: ClassVar[str] = "change_status"
    nation: str
    region: str
    status: str  # "hostile" | "friendly"

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} make army {self.region} {self.status}"


@dataclass(frozen=True, slots=True)
class Fight(Action):
    """A battle: one ``unit`` of ``nation`` and one ``target_unit`` of ``target`` in ``region``
    are removed (1:1). Used by the active nation and by nations asked after an entry."""

    kind: ClassVar[str] = Decision.BATTLE  # the decision it answers
    nation: str
    region: str
    unit: str  # "army" | "fleet"
    target: str
    target_unit: str

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} {self.unit} fights {self.target} {self.target_unit} in {self.region}"


@dataclass(frozen=True, slots=True)
class NoFight(Action):
    """Decline a battle offered after a unit entered a region."""

    kind: ClassVar[str] = "no_battle"
    nation: str

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} does not fight"


@dataclass(frozen=True, slots=True)
class DestroyFactory(Action):
    """Three armies destroy a foreign factory; the factory and the three armies are removed."""

    kind: ClassVar[str] = "destroy_factory"
    nation: str
    region: str

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} destroys factory {self.region}"


@dataclass(frozen=True, slots=True)
class EndManeuver(Action):
    """Finish the Maneuver: all remaining units stay where they are."""

    kind: ClassVar[str] = "end_maneuver"
    nation: str

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        return f"{self.nation} end maneuver"


@dataclass(frozen=True, slots=True)
class CanalPassage(Action):
    """Imperial 2030: the government of the nation whose flag controls a canal lets a unit of
    the moving nation (``mover``) through it, or refuses (``allow`` false)."""

    kind: ClassVar[str] = Decision.CANAL  # the decision it answers
    nation: str  # the controlling nation, whose government answers
    mover: str
    canal: str  # the canal's id ("panama", "suez")
    allow: bool

    @property
    def actor(self) -> str:
        return self.nation

    def notation(self) -> str:
        verb = "allows" if self.allow else "refuses"
        return f"{self.nation} {verb} {self.mover} through {self.canal}"


# --------------------------------------------------------------------------- player actions


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Buy a bond (``value`` = its cost), optionally returning a lower bond of the same nation
    and paying only the difference (an upgrade)."""

    kind: ClassVar[str] = "buy"
    player: str
    nation: str
    value: int
    returning: int | None = None

    @property
    def actor(self) -> str:
        return self.player

    def notation(self) -> str:
        text = f"{self.player} buys {self.nation} {self.value}"
        if self.returning is not None:
            text += f" returning {self.nation} {self.returning}"
        return text


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline an investment or a bond choice."""

    kind: ClassVar[str] = "pass"
    player: str

    @property
    def actor(self) -> str:
        return self.player

    def notation(self) -> str:
        return f"{self.player} passes"


@dataclass(frozen=True, slots=True)
class SwissBankForce(Action):
    """A Swiss bank holder forces a nation passing Investor to stop on it (or lets it pass)."""

    kind: ClassVar[str] = Decision.SWISS_BANK  # the decision it answers
    player: str
    nation: str
    force: bool

    @property
    def actor(self) -> str:
        return self.player

    def notation(self) -> str:
        if self.force:
            return f"{self.player} forces {self.nation} to investor"
        return f"{self.player} lets {self.nation} pass"


@dataclass(frozen=True, slots=True)
class Donate(Action):
    """A player gives cash to a treasury; allowed at any time, never listed as a decision."""

    kind: ClassVar[str] = "donate"
    player: str
    nation: str
    amount: int

    @property
    def actor(self) -> str:
        return self.player

    def notation(self) -> str:
        return f"{self.player} donates {self.amount} to {self.nation}"


# --------------------------------------------------------------------------- move lists

A = TypeVar("A", bound=Action)
# The action objects the move lists hand out, one per value: a list is rebuilt for every
# position, and most of its actions are the same as in the last one (building a frozen
# dataclass costs more than looking it up). Bounded: cleared when full.
_MADE: dict[tuple[Any, ...], Any] = {}  # (each value is an instance of its key's class)
MADE_SIZE = 20000


def made(cls: type[A], *values: Any) -> A:
    """The action ``cls(*values)``, shared with every list that holds the same action (actions
    are immutable values, so sharing them changes nothing a caller can see)."""
    key = (cls, *values)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= MADE_SIZE:
            _MADE.clear()
        found = _MADE[key] = cls(*values)
    return found


# --------------------------------------------------------------------------- checking

# The field types an action may hold, by annotation (the dataclasses use these few only).
_TYPE_CHECKS: dict[str, tuple[str, Any]] = {
    "str": ("text", lambda v: isinstance(v, str)),
    "str | None": ("text or None", lambda v: v is None or isinstance(v, str)),
    "int": ("a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "int | None": (
        "a whole number or None",
        lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    ),
    "bool": ("True or False", lambda v: isinstance(v, bool)),
    "tuple[str, ...]": (
        "a tuple of texts",
        lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
    ),
}
MAX_AMOUNT_DIGITS = 9  # money in notation: far beyond any game, far below int-parsing limits


def action_problem(action: object) -> str | None:
    """Why ``action`` is not a well-formed action, or None when it is.

    An action built by hand (a script, a bot, a network peer) may carry a wrong type or a value
    the notation cannot write; the engine must refuse it with a reason instead of failing
    inside a rule or recording a line that no save could replay. A well-formed action is one
    whose every field has its declared type and whose notation reads back as the same action.
    """
    if not isinstance(action, Action):
        return f"{action!r:.60} is not an action"
    for name, expected, ok in _field_checks(type(action)):
        value = getattr(action, name)
        if not ok(value):
            return (
                f"{type(action).__name__}.{name} must be {expected}, "
                f"not {type(value).__name__} {value!r:.40}"
            )
    return _notation_problem(action)


@cache
def _field_checks(cls: type) -> tuple[tuple[str, str, Any], ...]:
    out = []
    for f in fields(cls):
        expected, ok = _TYPE_CHECKS.get(str(f.type), ("anything", lambda v: True))
        out.append((f.name, expected, ok))
    return tuple(out)


@lru_cache(maxsize=4096)
def _notation_problem(action: Action) -> str | None:
    """Cached: the engine checks every action it applies, bots apply the same ones often."""
    try:
        text = action.notation()
        back = parse_action(text)
    except (NotationError, ValueError, TypeError) as exc:
        return f"{type(action).__name__} has no notation: {exc}"
    if back != action:
        return f"'{text}' does not read back as the same action; write it as '{back}'"
    return None


# --------------------------------------------------------------------------- parsing

_ID = r"[a-z][a-z0-9_]*"
_CODES = "|".join(ALL_NATION_CODES)
_NAT = rf"({_CODES})"
_PLAYER = r"(?P<player>[^\s]+)"
_SOURCES: tuple[tuple[str, str], ...] = (
    (rf"^{_NAT} rondel (?P<space>{_ID})$", "rondel"),
    (rf"^{_NAT} build no factory$", "no_factory"),
    (rf"^{_NAT} build factory (?P<region>{_ID})$", "factory"),
    (rf"^{_NAT} produce (?P<region>{_ID})$", "produce"),
    (rf"^{_NAT} import done$", "import_done"),
    (rf"^{_NAT} import (?P<unit>army|fleet) (?P<region>{_ID})$", "import"),
    (rf"^{_NAT} move fleet (?P<origin>{_ID}) -> (?P<dest>{_ID})$", "move_fleet"),
    (
        rf"^{_NAT} move army (?P<origin>{_ID}) -> (?P<dest>{_ID})"
        rf"(?: convoy (?P<convoy>{_ID}(?:,{_ID})*))?(?: (?P<status>hostile|friendly))?$",
        "move_army",
    ),
    (rf"^{_NAT} make army (?P<region>{_ID}) (?P<status>hostile|friendly)$", "status"),
    (
        rf"^{_NAT} (?P<unit>army|fleet) fights (?P<target>{_CODES}) "
        rf"(?P<tunit>army|fleet) in (?P<region>{_ID})$",
        "fight",
    ),
    (rf"^{_NAT} does not fight$", "no_fight"),
    (rf"^{_NAT} destroys factory (?P<region>{_ID})$", "destroy"),
    (rf"^{_NAT} end maneuver$", "end_maneuver"),
    (
        rf"^{_NAT} (?P<verb>allows|refuses) (?P<mover>{_CODES}) through (?P<canal>{_ID})$",
        "canal",
    ),
    (
        rf"^{_PLAYER} buys {_NAT} (?P<value>\d+)(?: returning (?P<rnat>{_CODES}) "
        rf"(?P<returning>\d+))?$",
        "buy",
    ),
    (rf"^{_PLAYER} passes$", "pass"),
    (rf"^{_PLAYER} forces {_NAT} to investor$", "force"),
    (rf"^{_PLAYER} lets {_NAT} pass$", "let_pass"),
    (rf"^{_PLAYER} donates (?P<amount>\d+) to {_NAT}$", "donate"),
)


# The word after the nation or the player names the kind of action: only the patterns of
# that kind are tried, each compiled when first needed (all 19 at once cost 1.7 ms of every
# command's start-up, and trying them in turn a tenth of replaying a save).
def _words_of(source: str) -> list[str]:
    """The words a pattern takes after the nation or player: "rondel", or both of
    "(?P<unit>army|fleet)"."""
    token = source.split(" ")[1].rstrip("$")
    if token.startswith("(?P<"):
        token = token.split(">", 1)[1].rstrip(")")
    return token.split("|")


def _kinds_by_word() -> dict[str, tuple[str, ...]]:
    """Each word's kinds of action, in the sources' order ("build no factory" first)."""
    kinds: dict[str, tuple[str, ...]] = {}
    for source, name in _SOURCES:
        for word in _words_of(source):
            kinds[word] = (*kinds.get(word, ()), name)
    return kinds


_KINDS_BY_WORD = _kinds_by_word()
_SOURCE_OF = {name: source for source, name in _SOURCES}


@cache
def _pattern(name: str) -> re.Pattern[str]:
    """Case is ignored for ASCII letters only: notation is ASCII (but for players' names, which
    ``_PLAYER`` takes as written), and folding all of Unicode into the ranges made compiling
    2.3 times slower."""
    return re.compile(_SOURCE_OF[name], re.IGNORECASE | re.ASCII)


def parse_action(text: str) -> Action:
    """Read an action in notation. Raises NotationError with a hint when it is not one."""
    if not isinstance(text, str):
        raise NotationError(f"an action in notation is text, not {type(text).__name__}")
    clean = " ".join(text.replace("→", "->").split())
    words = clean.split(" ", 2)
    # (str.lower folds more than ASCII: a word that only looks like one matches no pattern)
    for name in _KINDS_BY_WORD.get(words[1].lower(), ()) if len(words) > 1 else ():
        m = _pattern(name).match(clean)
        if m:
            return _build(name, m)
    shown = repr(text) if len(text) <= 60 else repr(text[:57]) + "..."
    raise NotationError(
        f"{shown} is not an action; try e.g. 'AH rondel import', 'AH import army vienna', "
        "'Anna buys IT 12 returning IT 4' (see `imperial moves` for what is legal now)"
    )


def _amount(text: str) -> int:
    """A sum of money in notation; more digits than any game needs is refused here, before
    ``int()`` (which refuses beyond 4300 digits with an error no player should see)."""
    if len(text.lstrip("0")) > MAX_AMOUNT_DIGITS:
        raise NotationError(f"{text[:12]}... is not a sum of money in this game (too many digits)")
    return int(text)


def _build(name: str, m: re.Match[str]) -> Action:
    g = m.groupdict()
    nat = m.group(1).upper() if name not in {"buy", "pass", "force", "let_pass", "donate"} else ""
    if name == "rondel":
        return ChooseRondel(nat, g["space"].lower())
    if name == "no_factory":
        return BuildFactory(nat, None)
    if name == "factory":
        return BuildFactory(nat, g["region"].lower())
    if name == "produce":
        return Produce(nat, g["region"].lower())
    if name == "import_done":
        return Import(nat, None)
    if name == "import":
        return Import(nat, g["unit"].lower(), g["region"].lower())
    if name == "move_fleet":
        return MoveFleet(nat, g["origin"].lower(), g["dest"].lower())
    if name == "move_army":
        convoy = tuple(s.lower() for s in g["convoy"].split(",")) if g["convoy"] else ()
        status = g["status"].lower() if g["status"] else None
        return MoveArmy(nat, g["origin"].lower(), g["dest"].lower(), convoy, status)
    if name == "status":
        return ChangeStatus(nat, g["region"].lower(), g["status"].lower())
    if name == "fight":
        return Fight(
            nat, g["region"].lower(), g["unit"].lower(), g["target"].upper(), g["tunit"].lower()
        )
    if name == "no_fight":
        return NoFight(nat)
    if name == "destroy":
        return DestroyFactory(nat, g["region"].lower())
    if name == "end_maneuver":
        return EndManeuver(nat)
    if name == "canal":
        allow = g["verb"].lower() == "allows"
        return CanalPassage(nat, g["mover"].upper(), g["canal"].lower(), allow)
    player = g["player"]
    if name == "buy":
        bond_nation = m.group(2).upper()
        returning = None
        if g["returning"] is not None:
            if g["rnat"].upper() != bond_nation:
                raise NotationError(
                    "a bond can only be returned for a bond of the same nation "
                    f"({bond_nation}, not {g['rnat'].upper()})"
                )
            returning = _amount(g["returning"])
        return Buy(player, bond_nation, _amount(g["value"]), returning)
    if name == "pass":
        return Pass(player)
    if name == "force":
        return SwissBankForce(player, m.group(2).upper(), True)
    if name == "let_pass":
        return SwissBankForce(player, m.group(2).upper(), False)
    return Donate(player, m.group(3).upper(), _amount(g["amount"]))
