"""The layers of docs/ARCHITECTURE.md, checked from every module's imports: the game knows
nothing of the front ends, and the app's model and text rendering know nothing of Textual."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# package -> module prefixes it must never import
FORBIDDEN = {
    "rules": ("imperial_tui", "textual", "rich", "typer", "asyncssh"),
    "maps": ("imperial_tui", "textual", "rich", "typer", "asyncssh"),
    "imperial_tui/render": (
        "textual",
        "imperial_tui.app",
        "imperial_tui.server",
        "imperial_tui.model",
    ),
    "imperial_tui/model": (
        "textual",
        "imperial_tui.app",
        "imperial_tui.server",
        "imperial_tui.cli",
    ),
}


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, wherever the import statement stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_never_imports_the_layers_above_it(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for name in imports_of(path):
            if any(name == p or name.startswith(p + ".") for p in FORBIDDEN[package]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)
