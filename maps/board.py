"""The board as an immutable value, loaded from a map data file and validated on load.

The rules engine never names a region: it asks the board which regions are home provinces,
which seas a fleet may enter, where a nation's rail runs. Everything here is computed once at
load time so that the hot paths of the engine (legal moves, taxation) are plain lookups.
Regions are addressed by a small integer index (their position in the file, impassable regions
excluded) because the engine stores units in lists indexed by region.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from maps.errors import MapError
from maps.layout import MapLayout, parse_layout, with_side_layout

MAP_DIR = Path(__file__).parent

KINDS = ("province", "land", "sea", "impassable")
FACTORY_TYPES = ("armaments", "shipyard")
NATION_FIELDS = ("name", "color", "turn_order", "armies", "fleets", "start_factories")


@dataclass(frozen=True, slots=True)
class Region:
    """One area of the board."""

    index: int
    id: str
    name: str
    kind: str  # "province" (a nation's home province), "land" (neutral) or "sea"
    nation: str | None = None  # owner of a home province
    factory_type: str | None = None  # "armaments" | "shipyard" for provinces
    harbor: str | None = None  # sea id of the port of a shipyard city
    starting_factory: bool = False
    rail: bool = True  # False for a province outside its nation's rail network (Dublin)

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_land(self) -> bool:
        return self.kind != "sea"


@dataclass(frozen=True, slots=True)
class NationInfo:
    """A nation as the map describes it: unit limits and starting factories."""

    code: str
    name: str
    color: str
    turn_order: int
    armies: int
    fleets: int
    start_factories: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Canal:
    """A canal: two seas that border each other only through it, and the land region whose
    flag decides who may use it (Imperial 2030: Panama from Colombia, Suez from North
    Africa). The two seas are also an ordinary border of the board; the rules ask the
    controlling nation before a foreign unit crosses (``rules.canals``)."""

    id: str  # the word the notation uses ("panama")
    name: str
    seas: tuple[int, int]  # region indices
    controller: int  # region index of the land region whose flag controls it


@dataclass(frozen=True)
class Board:
    """An immutable board with precomputed lookups (all by region index)."""

    name: str
    regions: tuple[Region, ...]
    nations: tuple[NationInfo, ...]  # in turn order
    codes: tuple[str, ...]  # the nations' codes in turn order (a nation's index is its place)
    impassable: tuple[str, ...]  # ids of regions no unit may enter (display only)
    index: dict[str, int] = field(repr=False)
    land_neighbours: tuple[frozenset[int], ...] = field(repr=False)
    sea_neighbours: tuple[frozenset[int], ...] = field(repr=False)  # seas adjacent to a region
    home: tuple[tuple[int, ...], ...] = field(repr=False)  # per nation (turn order)
    rail_links: tuple[frozenset[int], ...] = field(repr=False)  # same-nation rail neighbours
    harbour_sea: tuple[int, ...] = field(repr=False)  # port sea of a shipyard city, else -1
    owner: tuple[int, ...] = field(repr=False)  # nation index of a home province, else -1
    sea_indices: tuple[int, ...] = field(default=(), repr=False)
    # doubtful borders the map includes but a rule option may leave out: (option, a, b)
    optional_borders: tuple[tuple[str, str, str], ...] = ()
    removed_edges: tuple[tuple[str, str], ...] = ()
    # doubtful borders the map leaves out but a rule option may add: (option, a, b)
    optional_extra_borders: tuple[tuple[str, str, str], ...] = ()
    added_edges: tuple[tuple[str, str], ...] = ()
    canals: tuple[Canal, ...] = ()
    # borders that cross the left/right edge of a world map: ordinary borders for the rules,
    # split at the edge by a drawing (each pair of ids sorted)
    wrap_edges: frozenset[tuple[str, str]] = frozenset()
    # how the app draws the board (None for a map file without a picture)
    layout: MapLayout | None = field(default=None, repr=False, compare=False)

    # -- convenience -------------------------------------------------------------------
    def __getitem__(self, region_id: str) -> Region:
        return self.regions[self.index[region_id]]

    def id(self, i: int) -> str:
        return self.regions[i].id

    def seas(self) -> tuple[int, ...]:
        return self.sea_indices

    def neutral_lands(self) -> tuple[int, ...]:
        return tuple(r.index for r in self.regions if r.kind == "land")

    def borders(self, a: str, b: str) -> bool:
        """Whether two regions (by id) border each other on this board; an impassable region
        borders nothing, and an edge a rule option removed is no border."""
        ia, ib = self.index.get(a), self.index.get(b)
        if ia is None or ib is None:
            return False
        return ib in self.land_neighbours[ia] or ib in self.sea_neighbours[ia]

    def nation_index(self, code: str) -> int:
        for i, n in enumerate(self.nations):
            if n.code == code:
                return i
        raise KeyError(code)

    def canal_between(self, a: int, b: int) -> Canal | None:
        """The canal through which two seas (region indices) border each other, or None."""
        for canal in self.canals:
            if canal.seas == (a, b) or canal.seas == (b, a):
                return canal
        return None

    def wraps(self, a: str, b: str) -> bool:
        """Whether the border of two regions (by id) crosses the edge of a world map."""
        return (min(a, b), max(a, b)) in self.wrap_edges

    def without_edge(self, a: str, b: str) -> Board:
        """The same board with one adjacency removed (for a rule option on a doubtful edge)."""
        removed = tuple(sorted({(a, b), *self.removed_edges}))
        return _variant(self.name, removed, self.added_edges)

    def with_edge(self, a: str, b: str) -> Board:
        """The same board with a doubtful adjacency the map leaves out added (for a rule
        option that includes it)."""
        added = tuple(sorted({(a, b), *self.added_edges}))
        return _variant(self.name, self.removed_edges, added)


_Edges = tuple[tuple[str, str], ...]
_RAW_CACHE: dict[str, dict[str, Any]] = {}
_VARIANTS: dict[tuple[str, _Edges, _Edges], Board] = {}


def _variant(name: str, removed: _Edges, added: _Edges) -> Board:
    key = (name, removed, added)
    if key not in _VARIANTS:
        _VARIANTS[key] = _build(name, _RAW_CACHE[name], removed=removed, added=added)
    return _VARIANTS[key]


@cache
def load_board(name: str = "europe") -> Board:
    """Load and validate ``maps/<name>.json``. Raises MapError on a malformed file."""
    path = MAP_DIR / f"{name}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise MapError(f"no map named {name!r} ({path})") from exc
    except json.JSONDecodeError as exc:
        raise MapError(f"{path.name}: not valid JSON: {exc}") from exc
    raw = with_side_layout(raw, MAP_DIR / f"{name}_layout.json")  # a picture drawn apart
    _RAW_CACHE[name] = raw
    return _build(name, raw, removed=())


def board_from_data(name: str, raw: dict[str, Any]) -> Board:
    """Validate and build a board from already parsed map data (used by tests)."""
    _RAW_CACHE[name] = raw
    return _build(name, raw, removed=())


def _req(obj: dict[str, Any], key: str, typ: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise MapError(f"{where}: missing field {key!r}")
    val = obj[key]
    if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
        raise MapError(f"{where}: field {key!r} has the wrong type ({type(val).__name__})")
    return val


def _optional_borders(
    raw: dict[str, Any], index: dict[str, int], decision: str = "included"
) -> tuple[tuple[str, str, str], ...]:
    """Doubtful borders that name a rule option: with ``decision`` "included" the map has
    them and the option may leave them out, with "excluded" the option may add them."""
    out = []
    for pos, entry in enumerate(raw.get("doubtful", [])):
        pair = entry.get("pair") if isinstance(entry, dict) else None
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in index for p in pair)):
            raise MapError(f"doubtful #{pos + 1}: field 'pair' must name two regions")
        option = entry.get("option")
        if option is not None and entry.get("decision") == decision:
            if not isinstance(option, str):
                raise MapError(f"doubtful #{pos + 1}: field 'option' must be an option name")
            out.append((option, pair[0], pair[1]))
    return tuple(out)


def _build(name: str, raw: dict[str, Any], removed: _Edges, added: _Edges = ()) -> Board:
    if not isinstance(raw, dict):
        raise MapError(f"map {name!r}: the top level must be an object")
    nations_raw = _req(raw, "nations", dict, f"map {name!r}")
    regions_raw = _req(raw, "regions", list, f"map {name!r}")
    adjacency = _req(raw, "adjacency", list, f"map {name!r}")

    nations: list[NationInfo] = []
    for code, nd in nations_raw.items():
        where = f"nation {code}"
        if not isinstance(nd, dict):
            raise MapError(f"{where}: must be an object")
        nations.append(
            NationInfo(
                code=code,
                name=_req(nd, "name", str, where),
                color=_req(nd, "color", str, where),
                turn_order=_req(nd, "turn_order", int, where),
                armies=_req(nd, "armies", int, where),
                fleets=_req(nd, "fleets", int, where),
                start_factories=tuple(_req(nd, "start_factories", list, where)),
            )
        )
    nations.sort(key=lambda n: n.turn_order)
    if [n.turn_order for n in nations] != list(range(1, len(nations) + 1)):
        raise MapError("nations: turn_order must run 1, 2, 3, ... without gaps")
    codes = [n.code for n in nations]

    regions: list[Region] = []
    impassable: list[str] = []
    seen: set[str] = set()
    for pos, rd in enumerate(regions_raw):
        if not isinstance(rd, dict):
            raise MapError(f"region #{pos + 1}: must be an object")
        rid = _req(rd, "id", str, f"region #{pos + 1}")
        where = f"region {rid!r}"
        if rid in seen:
            raise MapError(f"{where}: duplicate id")
        seen.add(rid)
        kind = _req(rd, "kind", str, where)
        if kind not in KINDS:
            raise MapError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
        rname = _req(rd, "name", str, where)
        if kind == "impassable":
            impassable.append(rid)
            continue
        nation = factory_type = harbor = None
        starting = False
        rail = True
        if kind == "province":
            nation = _req(rd, "nation", str, where)
            if nation not in codes:
                raise MapError(f"{where}: field 'nation' names an unknown nation {nation!r}")
            factory_type = _req(rd, "factory_type", str, where)
            if factory_type not in FACTORY_TYPES:
                raise MapError(f"{where}: field 'factory_type' must be armaments or shipyard")
            if factory_type == "shipyard":
                harbor = _req(rd, "harbor", str, where)
            elif "harbor" in rd:
                raise MapError(f"{where}: field 'harbor' is only allowed for shipyard cities")
            starting = bool(rd.get("starting_factory", False))
            rail = rd.get("rail", True)
            if not isinstance(rail, bool):
                raise MapError(f"{where}: field 'rail' must be true or false")
        else:
            for key in ("nation", "factory_type", "harbor"):
                if key in rd:
                    raise MapError(f"{where}: field {key!r} is only allowed for provinces")
        regions.append(
            Region(
                index=len(regions),
                id=rid,
                name=rname,
                kind=kind,
                nation=nation,
                factory_type=factory_type,
                harbor=harbor,
                starting_factory=starting,
                rail=rail,
            )
        )

    index = {r.id: r.index for r in regions}
    for r in regions:
        if r.harbor is not None and (r.harbor not in index or regions[index[r.harbor]].is_land):
            raise MapError(f"region {r.id!r}: field 'harbor' must name a sea, not {r.harbor!r}")

    for n in nations:
        homes = [r for r in regions if r.nation == n.code]
        if not homes:
            raise MapError(f"nation {n.code}: has no home provinces")
        for f in n.start_factories:
            if f not in index or regions[index[f]].nation != n.code:
                raise MapError(f"nation {n.code}: start factory {f!r} is not one of its provinces")
            if not regions[index[f]].starting_factory:
                raise MapError(f"region {f!r}: field 'starting_factory' should be true")
        for r in homes:
            if r.starting_factory and r.id not in n.start_factories:
                raise MapError(
                    f"region {r.id!r}: field 'starting_factory' is true but nation "
                    f"{n.code} does not list it in start_factories"
                )
        if n.armies < 0 or n.fleets < 0:
            raise MapError(f"nation {n.code}: unit limits must not be negative")

    removed_set = {frozenset(p) for p in removed}
    land_nb: list[set[int]] = [set() for _ in regions]
    sea_nb: list[set[int]] = [set() for _ in regions]
    seen_pairs: set[frozenset[str]] = set()
    for pos, pair in enumerate(adjacency):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        ):
            raise MapError(f"adjacency #{pos + 1}: must be a pair of region ids")
        a, b = pair
        for p in (a, b):
            if p in impassable:
                raise MapError(f"adjacency {a}-{b}: region {p!r} is impassable and has no borders")
            if p not in index:
                raise MapError(f"adjacency {a}-{b}: unknown region {p!r}")
        if a == b:
            raise MapError(f"adjacency {a}-{b}: a region cannot border itself")
        key = frozenset(pair)
        if key in seen_pairs:
            raise MapError(f"adjacency {a}-{b}: listed twice")
        seen_pairs.add(key)
        if key in removed_set:
            continue
        _link(regions, index, land_nb, sea_nb, a, b)
    for a, b in added:
        if frozenset((a, b)) in seen_pairs:
            raise MapError(f"adjacency {a}-{b}: already a border; it cannot be added")
        _link(regions, index, land_nb, sea_nb, a, b)

    for r in regions:
        if r.harbor is not None and index[r.harbor] not in sea_nb[r.index]:
            raise MapError(
                f"region {r.id!r}: field 'harbor' names {r.harbor!r}, which it does not border"
            )
        if not land_nb[r.index] and not sea_nb[r.index]:
            raise MapError(f"region {r.id!r}: has no neighbours")

    _check_connected(regions, land_nb, sea_nb)
    borders = {frozenset(p) for p in adjacency}
    canals = _canals(raw, regions, index, borders, sea_nb)
    layout = None
    if "map_layout" in raw:
        layout = parse_layout(raw["map_layout"], regions_raw, borders)

    home = tuple(tuple(r.index for r in regions if r.nation == n.code) for n in nations)
    rail_links = tuple(
        frozenset(
            j
            for j in land_nb[r.index]
            if r.kind == "province" and r.rail and regions[j].nation == r.nation and regions[j].rail
        )
        for r in regions
    )
    harbour_sea = tuple(index[r.harbor] if r.harbor else -1 for r in regions)
    owner = tuple(codes.index(r.nation) if r.nation else -1 for r in regions)
    return Board(
        name=name,
        regions=tuple(regions),
        nations=tuple(nations),
        codes=tuple(codes),
        impassable=tuple(impassable),
        index=index,
        land_neighbours=tuple(frozenset(s) for s in land_nb),
        sea_neighbours=tuple(frozenset(s) for s in sea_nb),
        home=home,
        rail_links=rail_links,
        harbour_sea=harbour_sea,
        owner=owner,
        sea_indices=tuple(r.index for r in regions if r.kind == "sea"),
        optional_borders=_optional_borders(raw, index, "included"),
        removed_edges=removed,
        optional_extra_borders=_optional_borders(raw, index, "excluded"),
        added_edges=added,
        canals=canals,
        wrap_edges=_wrap_edges(raw, borders),
        layout=layout,
    )


def _link(
    regions: list[Region],
    index: dict[str, int],
    land_nb: list[set[int]],
    sea_nb: list[set[int]],
    a: str,
    b: str,
) -> None:
    """Record the border of ``a`` and ``b`` in both regions' neighbour sets."""
    ia, ib = index[a], index[b]
    if regions[ia].is_sea:
        sea_nb[ib].add(ia)
    else:
        land_nb[ib].add(ia)
    if regions[ib].is_sea:
        sea_nb[ia].add(ib)
    else:
        land_nb[ia].add(ib)


def _check_connected(
    regions: list[Region], land_nb: list[set[int]], sea_nb: list[set[int]]
) -> None:
    """Every region can be reached from every other (an island by sea): a board in two
    pieces is a mistake in the adjacency list."""
    seen = {0}
    stack = [0]
    while stack:
        r = stack.pop()
        for x in (*land_nb[r], *sea_nb[r]):
            if x not in seen:
                seen.add(x)
                stack.append(x)
    if len(seen) != len(regions):
        cut = next(r for r in regions if r.index not in seen)
        raise MapError(f"region {cut.id!r}: cannot be reached from {regions[0].id!r}")


def _canals(
    raw: dict[str, Any],
    regions: list[Region],
    index: dict[str, int],
    borders: set[frozenset[str]],
    sea_nb: list[set[int]],
) -> tuple[Canal, ...]:
    """The canals table: each joins two seas the adjacency lists as a border, and names the
    neutral land region bordering both whose flag controls it."""
    canals = raw.get("canals", [])
    if not isinstance(canals, list):
        raise MapError("canals: must be a list")
    out: list[Canal] = []
    for pos, entry in enumerate(canals):
        if not isinstance(entry, dict):
            raise MapError(f"canal #{pos + 1}: must be an object")
        cid = _req(entry, "id", str, f"canal #{pos + 1}")
        where = f"canal {cid!r}"
        if any(c.id == cid for c in out):
            raise MapError(f"{where}: duplicate id")
        seas = _req(entry, "seas", list, where)
        if len(seas) != 2 or not all(isinstance(x, str) for x in seas) or seas[0] == seas[1]:
            raise MapError(f"{where}: field 'seas' must name two seas")
        for sea in seas:
            if sea not in index or not regions[index[sea]].is_sea:
                raise MapError(f"{where}: field 'seas' names {sea!r}, which is not a sea")
        if frozenset(seas) not in borders:
            raise MapError(f"{where}: its seas must also be listed as a border (adjacency)")
        controller = _req(entry, "controller", str, where)
        if controller not in index or regions[index[controller]].kind != "land":
            raise MapError(
                f"{where}: field 'controller' must name a neutral land region, not {controller!r}"
            )
        a, b, c = index[seas[0]], index[seas[1]], index[controller]
        if a not in sea_nb[c] or b not in sea_nb[c]:
            raise MapError(f"{where}: its controller {controller!r} must border both seas")
        out.append(Canal(cid, _req(entry, "name", str, where), (a, b), c))
    return tuple(out)


def _wrap_edges(raw: dict[str, Any], borders: set[frozenset[str]]) -> frozenset[tuple[str, str]]:
    """Borders across the left/right edge of the map (each must be a border)."""
    wraps = raw.get("wrap_edges", [])
    if not isinstance(wraps, list):
        raise MapError("wrap_edges: must be a list of pairs of region ids")
    out = set()
    for pos, pair in enumerate(wraps):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        ):
            raise MapError(f"wrap_edges #{pos + 1}: must be a pair of region ids")
        if frozenset(pair) not in borders:
            raise MapError(f"wrap_edges {pair[0]}-{pair[1]}: not a border of the map")
        out.add((min(pair), max(pair)))
    return frozenset(out)
