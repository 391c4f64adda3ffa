"""The style sheets Textual parsed are kept between starts (imperial_tui/app/css_cache.py):
the next start reads them instead of parsing, looks the same, and treats the file as bad
input (another user's, writable by others, damaged, forged: ignored, never run)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from textual.css import stylesheet as textual_stylesheet

from imperial_tui.app import ImperialApp
from imperial_tui.app.css_cache import (
    FORMAT,
    CachingStylesheet,
    ParsedCss,
    default_path,
    textual_stamp,
)
from imperial_tui.model.session import Session
from rules import Game
from tests.pilot import drive

CSS = """
#status { height: 1; background: $panel; }
Horizontal > .box { border: round $accent; padding: 0 1; }
"""
WHERE = ("test.tcss", "")


def rules_css(sheet: CachingStylesheet) -> list[str]:
    return [rule.css for rule in sheet._parse_rules(CSS, WHERE)]


def fresh_sheet(path: Path) -> CachingStylesheet:
    return CachingStylesheet(variables={"panel": "#202020", "accent": "red"}, store=ParsedCss(path))


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(textual_stylesheet, "parse", refuse)


def test_a_parse_kept_is_read_back_instead_of_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "css.pickle"
    first = fresh_sheet(path)
    parsed = rules_css(first)
    first.store.save()
    assert path.exists() and path.stat().st_mode & 0o077 == 0  # the user's alone
    no_parsing(monkeypatch)
    assert rules_css(fresh_sheet(path)) == parsed


def test_another_theme_is_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "css.pickle"
    first = fresh_sheet(path)
    rules_css(first)
    first.store.save()
    other = CachingStylesheet(
        variables={"panel": "#ffffff", "accent": "blue"}, store=ParsedCss(path)
    )
    parsed = other._parse_rules(CSS, WHERE)
    assert "#ffffff" in parsed[0].css.lower()


def test_nothing_new_parsed_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "css.pickle"
    first = fresh_sheet(path)
    rules_css(first)
    first.store.save()
    before = path.stat().st_mtime_ns
    again = fresh_sheet(path)
    rules_css(again)
    again.store.save()
    assert path.stat().st_mtime_ns == before


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    sheet = fresh_sheet(blocker / "imperial" / "css.pickle")
    parsed = rules_css(sheet)
    sheet.store.save()  # nothing written, nothing raised
    assert parsed


def written(tmp_path: Path) -> Path:
    path = tmp_path / "css.pickle"
    sheet = fresh_sheet(path)
    rules_css(sheet)
    sheet.store.save()
    return path


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not a pickle at all",
        pickle.dumps((FORMAT + 1, textual_stamp(), {})),
        pickle.dumps(["a list", "not the format"]),
        pickle.dumps((FORMAT, textual_stamp(), {"key": "not bytes"})),
    ],
    ids=["empty", "garbage", "another-format", "wrong-shape", "wrong-entries"],
)
def test_a_damaged_file_is_ignored_and_replaced(tmp_path: Path, damage: bytes) -> None:
    path = written(tmp_path)
    path.write_bytes(damage)
    sheet = fresh_sheet(path)
    assert rules_css(sheet)  # parsed as if there were no file
    sheet.store.save()
    assert ParsedCss(path)._loaded()  # and a good file written over it


def test_a_file_written_with_another_textual_is_ignored(tmp_path: Path) -> None:
    path = written(tmp_path)
    fmt, stamp, entries = pickle.loads(path.read_bytes())
    path.write_bytes(pickle.dumps((fmt, tuple(x + 1 for x in stamp), entries)))
    os.chmod(path, 0o600)
    assert ParsedCss(path)._loaded() == {}


def test_a_truncated_entry_is_parsed_again(tmp_path: Path) -> None:
    path = written(tmp_path)
    fmt, stamp, entries = pickle.loads(path.read_bytes())
    truncated = {key: blob[:-20] for key, blob in entries.items()}
    path.write_bytes(pickle.dumps((fmt, stamp, truncated)))
    os.chmod(path, 0o600)
    assert rules_css(fresh_sheet(path))


def test_a_forged_file_cannot_run_code(tmp_path: Path) -> None:
    """A pickle may name any function to call: the reader refuses all but the parts of a
    parsed style sheet (here: os.system, and getattr reaching beyond a dict's own two methods)."""
    path = written(tmp_path)
    mark = tmp_path / "ran"

    class RunsCode:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {mark}",))

    class ReachesOut:  # a dict's class, its methods, their globals... step by step to os
        def __reduce__(self) -> tuple[object, tuple[object, str]]:
            return (getattr, ({}, "__class__"))

    fmt, stamp, entries = pickle.loads(path.read_bytes())
    for forged in (RunsCode(), ReachesOut(), [RunsCode()]):
        key = next(iter(entries))
        path.write_bytes(pickle.dumps((fmt, stamp, {key: pickle.dumps(forged)})))
        os.chmod(path, 0o600)
        assert rules_css(fresh_sheet(path))
        path.write_bytes(pickle.dumps(forged))
        os.chmod(path, 0o600)
        assert rules_css(fresh_sheet(path))
    assert not mark.exists()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX file modes")
def test_a_file_others_may_write_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = written(tmp_path)
    os.chmod(path, 0o666)
    assert ParsedCss(path)._loaded() == {}
    os.chmod(path, 0o600)
    assert ParsedCss(path)._loaded()
    monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)  # another user's
    assert ParsedCss(path)._loaded() == {}


def test_a_link_is_not_followed(tmp_path: Path) -> None:
    path = written(tmp_path)
    link = tmp_path / "link.pickle"
    link.symlink_to(path)
    assert ParsedCss(link)._loaded() == {}


async def test_the_app_looks_the_same_when_it_reads_the_kept_style_sheets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first start parses and keeps; the second reads them all (Textual's parser is not
    called) and draws the same screen, at 80x24 and 120x40."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=4)
    screens: list[str] = []
    for run in range(2):
        if run == 1:
            assert default_path().exists()
            no_parsing(monkeypatch)
        for size in ((80, 24), (120, 40)):
            session = Session(game, dict.fromkeys(game.players, "human"), None)
            app = ImperialApp(session=session, pace=0.0, ascii_only=False)
            async with drive(app, size, opened=True) as pilot:
                await pilot.pause()
                screens.append(app.export_screenshot())
            app.parsed_css.save()
    assert screens[:2] == screens[2:]
