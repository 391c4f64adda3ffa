"""Fold a map's side-file picture into its map file: ``uv run python scripts/fold_layout.py
world2030`` writes each region's ``label`` (after its ``name``) and the ``map_layout`` object
from ``maps/world2030_layout.json`` into ``maps/world2030.json``, checks that the folded file
loads and draws the same picture, and deletes the side file.

A picture may be drawn apart from the board data (``maps.layout.with_side_layout`` reads the
side file meanwhile); once both are on one branch, this makes them one file again. The map
file is written as the project's map files are: one-space indent, non-ASCII kept.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from maps.board import MAP_DIR, board_from_data
from maps.errors import MapError
from maps.layout import with_side_layout


def folded(raw: dict[str, Any], side_raw: dict[str, Any]) -> dict[str, Any]:
    """The map data with the side file's labels and picture, keys in the map file's order
    (a region's label after its name; the picture after the borders and their marks)."""
    labels = side_raw["labels"]
    regions = []
    for rd in raw["regions"]:
        out: dict[str, Any] = {}
        for key, value in rd.items():
            out[key] = value
            if key == "name" and rd["id"] in labels:
                out["label"] = labels[rd["id"]]
        regions.append(out)
    after = [k for k in ("adjacency", "canals", "wrap_edges") if k in raw][-1]
    result: dict[str, Any] = {}
    for key, value in raw.items():
        result[key] = regions if key == "regions" else value
        if key == after:
            result["map_layout"] = side_raw["map_layout"]
    return result


def main(name: str) -> int:
    path = MAP_DIR / f"{name}.json"
    side = MAP_DIR / f"{name}_layout.json"
    if not path.exists() or not side.exists():
        print(f"need both {path.name} and {side.name} in {MAP_DIR}")
        return 1
    raw = json.loads(path.read_text(encoding="utf-8"))
    side_raw = json.loads(side.read_text(encoding="utf-8"))
    try:
        before = board_from_data(name, with_side_layout(raw, side)).layout
        result = folded(raw, side_raw)
        after = board_from_data(name, result).layout
    except MapError as exc:
        print(f"not folded: {exc}")
        return 1
    if before != after:
        print("not folded: the folded file draws another picture")
        return 1
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    side.unlink()
    print(f"folded {side.name} into {path.name} and deleted it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "world2030"))
