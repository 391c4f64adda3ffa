"""Documentation that is generated from the code stays in step with it."""

from pathlib import Path

from rules.options import OPTIONS
from rules.options_doc import options_markdown
from rules.ruleset import RuleSet

ROOT = Path(__file__).resolve().parent.parent


def test_rule_options_doc_lists_every_option_with_its_defaults():
    text = (ROOT / "docs" / "RULE_OPTIONS.md").read_text(encoding="utf-8")
    assert text == options_markdown(), "regenerate docs/RULE_OPTIONS.md"
    for name in OPTIONS:
        assert f"`{name}`" in text


def test_every_option_is_a_field_of_the_rule_set_with_a_valid_default():
    first = RuleSet.preset("first")
    third = RuleSet.preset("2010")
    world = RuleSet.preset(game="2030")
    for name, info in OPTIONS.items():
        assert getattr(first, name) in info.choices
        assert getattr(third, name) in info.choices
        assert getattr(world, name) in info.choices
    assert set(OPTIONS) == set(first.options()) | set(world.options())


def test_bots_doc_describes_every_level():
    from rules.bots import LEVELS

    text = (ROOT / "docs" / "BOTS.md").read_text(encoding="utf-8")
    for name, level in LEVELS.items():
        assert f"| `{name}` |" in text and level.description in text, name
        assert f"## {name}" in text or name in ("warmonger", "banker", "normal", "strong")
