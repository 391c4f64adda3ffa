"""Positions and history commands under hostile input (issue #24, items 15-19), each driven as
a user would: the ``imperial`` command in a subprocess. Every case is one line on stderr, the
documented exit code, bounded memory, and nothing written."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from rules.safe_file import MAX_BYTES
from rules.savefile import SaveError, load_game, typed_save_path

ROOT = Path(__file__).resolve().parent.parent
MEMORY = 512 * 1024 * 1024  # bytes of address space each command may use; it needs ~100 MB
MAX_LINE = 500  # characters of an error line, however long the input

COLOGNE = """
players = ["Anna", "Ben"]
to_move = "GE maneuver"
[Anna]
bonds = ["GE 9"]
[Ben]
bonds = ["GB 9"]
[GE]
armies = { cologne = 2, holland = 1 }
[GB]
fleets = { north_sea = 1 }
"""


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def imperial(
    *args: str, cwd: Path, stdin: bytes | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it, in its own process with bounded memory."""
    done = subprocess.run(
        [sys.executable, "-m", "imperial_tui.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=timeout,
        preexec_fn=_bounded_memory,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "HOME": str(cwd)},
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def one_error_line(done: subprocess.CompletedProcess[str], code: int = 1) -> str:
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert len(done.stderr) <= MAX_LINE, len(done.stderr)
    return done.stderr.strip()


def new_from(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return imperial("new", "--position", name, "--save", "g.json", cwd=tmp_path)


# --------------------------------------------------------------------------- 15 TOML limits


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("arrays nested 1,000 deep", "a = " + "[" * 1000 + "]" * 1000, "nested more than 40"),
        (
            "inline tables nested 1,000 deep",
            "a = " + "{ b = " * 1000 + "1" + " }" * 1000,
            "nested more than 40",
        ),
        ("an integer of 5,000 digits", 'players = ["A", "B"]\nround = ' + "9" * 5000, "digits"),
        ("50,000 dotted-key levels", ".".join(["a"] * 50_000) + " = 1", "dotted key"),
        ("a table header 50,000 deep", "[" + ".".join(["a"] * 50_000) + "]", "dotted key"),
        ("JSON nested 100,000 deep", '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
    ],
)
def test_a_toml_position_nested_too_deep_or_with_a_huge_number_is_one_line_in_bounded_memory(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    err = one_error_line(new_from(tmp_path, "q.toml", text))
    assert err.startswith("imperial: q.toml: ") and words in err, err
    assert not (tmp_path / "g.json").exists()


def test_strings_and_comments_full_of_brackets_and_dots_are_no_nesting(tmp_path: Path) -> None:
    """The limits count only the TOML itself: brackets and dots inside strings and comments
    are text (a scan that miscounted them would refuse a good position)."""
    noise = "[{" * 60 + "." * 60
    text = COLOGNE.replace(
        "[Anna]",
        f"# {noise}\n[Anna]  # {noise}\n",
    ).replace('bonds = ["GE 9"]', f"bonds = [\"GE 9\"]\ncash = 0 # \"{noise}'''")
    text = f"round = 1 # {noise}\n" + text
    done = new_from(tmp_path, "q.toml", text)
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- 16 JSON nations


def _summary(tmp_path: Path) -> dict:
    assert new_from(tmp_path, "q.toml", COLOGNE).returncode == 0
    done = imperial("state", "g.json", "--json", cwd=tmp_path)
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("nations"), None),
        (lambda d: d.__setitem__("nations", []), "nations: must be an object"),
        (lambda d: d.__setitem__("nations", None), "nations: must be an object"),
        (lambda d: d["nations"].__setitem__("AH", None), "nations.AH: must be an object"),
        (lambda d: d["nations"].__setitem__("AH", 3), "nations.AH: must be an object"),
        (lambda d: d["nations"].__setitem__("AH", True), "nations.AH: must be an object"),
    ],
    ids=["missing", "[]", "null", "entry null", "entry number", "entry true"],
)
def test_a_json_position_with_nations_missing_or_of_the_wrong_type_is_the_readers_one_line(
    tmp_path: Path, change, words: str | None
) -> None:
    doc = _summary(tmp_path)
    change(doc)
    (tmp_path / "pos.json").write_text(json.dumps(doc))
    done = imperial("new", "--position", "pos.json", "--save", "h.json", cwd=tmp_path)
    if words is None:  # left out: every nation as on an empty board, as the reader documents
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr
        if done.returncode:
            one_error_line(done)
        return
    err = one_error_line(done)
    assert err.startswith("imperial: pos.json: ") and words in err, err


def test_a_json_key_written_twice_is_refused_not_silently_dropped(tmp_path: Path) -> None:
    doc = _summary(tmp_path)
    text = json.dumps(doc).replace('"edition": "first"', '"edition": "first", "edition": "2010"')
    (tmp_path / "pos.json").write_text(text)
    done = imperial("new", "--position", "pos.json", "--save", "h.json", cwd=tmp_path)
    assert '"edition" appears twice' in one_error_line(done)


# --------------------------------------------------------------------------- 17 duplicates


def test_units_listed_twice_in_the_list_form_count_as_two_units(tmp_path: Path) -> None:
    text = COLOGNE.replace(
        "armies = { cologne = 2, holland = 1 }", 'armies = ["cologne", "cologne", "holland"]'
    )
    assert new_from(tmp_path, "q.toml", text).returncode == 0
    regions = load_game(tmp_path / "g.json").game.summary()["regions"]
    army = {"nation": "GE", "kind": "army", "hostile": None}
    assert regions["cologne"]["units"] == [{**army, "count": 2}]
    assert regions["holland"]["units"] == [{**army, "count": 1}]


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            "armies = { cologne = 2, holland = 1 }",
            "armies = [" + ", ".join(['"cologne"'] * 1000) + "]",
            "GE.armies.cologne: must be a whole number from 1 to 255, not 1000",
        ),
        (
            "armies = { cologne = 2, holland = 1 }",
            'armies = ["cologne", "cologne", "berlin", "munich", "danzig", "hamburg", "holland",'
            ' "belgium", "denmark"]',
            "GE.armies: 9 GE armies on the board; GE has only 8",
        ),
        (
            "armies = { cologne = 2, holland = 1 }",
            'factories = ["berlin", "berlin"]',
            'GE.factories[1]: "berlin" is listed twice; a city holds one factory',
        ),
        (
            "armies = { cologne = 2, holland = 1 }",
            'flags = ["holland", "holland"]',
            'GE.flags[1]: "holland" is listed twice; a region holds one flag',
        ),
    ],
    ids=["1000 entries", "over the limit", "factory twice", "flag twice"],
)
def test_what_was_written_is_what_is_loaded_or_refused_with_one_line(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    err = one_error_line(new_from(tmp_path, "q.toml", COLOGNE.replace(old, new)))
    assert err == f"imperial: q.toml: {words}", err
    assert not (tmp_path / "g.json").exists()


def test_two_nations_flags_in_one_region_are_refused_not_one_dropped(tmp_path: Path) -> None:
    text = COLOGNE + '\n[FR]\nflags = ["holland"]\n'
    text = text.replace("armies = { cologne = 2, holland = 1 }", 'flags = ["holland"]')
    err = one_error_line(new_from(tmp_path, "q.toml", text))
    assert err == (
        'imperial: q.toml: GE.flags[0]: "holland" already holds FR\'s flag (FR.flags); a region '
        "holds one flag"
    )


# --------------------------------------------------------------------------- 18 stdin size


def test_a_position_on_standard_input_over_8_mb_is_refused_like_a_file_too_big(
    tmp_path: Path,
) -> None:
    padding = MAX_BYTES - len(COLOGNE.encode())
    fits = (COLOGNE + "#" * (padding - 1) + "\n").encode()
    assert len(fits) == MAX_BYTES
    done = imperial("new", "--position", "-", "--save", "g.json", cwd=tmp_path, stdin=fits)
    assert done.returncode == 0, done.stderr
    over = fits + b"\n[GE]\ntreasury = 9\n"  # would be dropped if the reader cut the text
    done = imperial("new", "--position", "-", "--save", "h.json", cwd=tmp_path, stdin=over)
    err = one_error_line(done)
    assert err == (
        f"imperial: standard input: is more than {MAX_BYTES} bytes, too big for a position "
        f"(at most {MAX_BYTES})"
    )
    assert not (tmp_path / "h.json").exists()


# --------------------------------------------------------------------------- 19 the rest


@pytest.fixture(scope="module")
def made_game(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A save made by the commands (a new game, one rondel move), once per test process:
    each test gets its own copy (``game``), so none sees another's changes."""
    folder = tmp_path_factory.mktemp("made")
    done = imperial("new", "-p", "Anna,Ben,Cleo", "--seed", "3", "-s", "g.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert imperial("apply", "g.json", "AH rondel factory", cwd=folder).returncode == 0
    return (folder / "g.json").read_bytes()


@pytest.fixture
def game(tmp_path: Path, made_game: bytes) -> Path:
    path = tmp_path / "g.json"
    path.write_bytes(made_game)
    return path


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["undo", "g.json", ""], "an empty argument ('') after 'g.json'"),
        (["new", "-p", "A,B,C", "--edition", "", "-s", "e.json"], "--edition is given an empty"),
        (["new", "-p", "A,B,C", "--edition=", "-s", "e.json"], "--edition is given an empty"),
        (["new", "-p", "A,B,C", "--variant", "", "-s", "e.json"], "--variant is given an empty"),
        (["new", "--position", "", "-s", "e.json"], "--position is given an empty"),
        (["show", ""], "an empty argument ('') after 'show'"),
    ],
)
def test_empty_values_are_refused_not_taken_as_the_default(
    game: Path, args: list[str], words: str
) -> None:
    before = game.read_bytes()
    err = one_error_line(imperial(*args, cwd=game.parent), code=2)
    assert words in err, err
    assert game.read_bytes() == before  # `undo g.json ""` undid nothing
    assert not (game.parent / "e.json").exists()


HUGE = "x" * 5000
DIGITS = "9" * 5000


@pytest.mark.parametrize(
    "args",
    [
        ["new", "-p", "A,B,C", "--edition", HUGE, "-s", "e.json"],
        ["new", "-p", "A,B,C", "--option", HUGE],
        ["new", "-p", "A,B,C", "--option", f"bank={HUGE}"],
        ["new", "-p", "A,B,C", "--deal", f"A={HUGE}"],
        ["new", "-p", "A,B,C", "--bot", f"A={HUGE}"],
        ["new", "-p", "A,B,C", "--seed", DIGITS],
        ["new", "-p", "A,B,C", "-s", f"nowhere/{HUGE}"],
        ["show", HUGE],
        ["show", "g.json", "--region", HUGE],
        ["show", "g.json", "--at", DIGITS],
        ["undo", "g.json", DIGITS],
        ["apply", "g.json", f"AH build factory {HUGE}"],
        ["apply", "g.json", f"{HUGE} buys AH 9"],
        ["rules", HUGE],
        [HUGE],
    ],
    ids=lambda args: " ".join(a if len(a) < 20 else a[:8] + "..." for a in args),
)
def test_huge_inputs_are_cut_in_error_messages(game: Path, args: list[str]) -> None:
    done = imperial(*args, cwd=game.parent)
    assert done.returncode in (1, 2)
    err = one_error_line(done, done.returncode)
    assert " ... " in err or "..." in err, err


def test_explain_of_a_huge_action_is_cut(game: Path) -> None:
    done = imperial("explain", "g.json", f"AH build factory {HUGE}", cwd=game.parent)
    assert done.returncode == 1
    assert all(len(line) <= MAX_LINE for line in done.stdout.splitlines()), done.stdout


@pytest.mark.parametrize("form", ["toml", "json"])
def test_play_of_a_position_says_it_is_a_position_and_names_new_position(
    tmp_path: Path, form: str
) -> None:
    if form == "toml":
        (tmp_path / "pos.toml").write_text(COLOGNE)
    else:
        (tmp_path / "pos.json").write_text(json.dumps(_summary(tmp_path)))
    name = f"pos.{form}"
    for command in ("play", "show"):
        err = one_error_line(imperial(command, name, cwd=tmp_path))
        assert err == (
            f"imperial: {name}: this is a position, not a saved game: start a game from it "
            f"with `imperial new --position {name} --save GAME.json` (docs/POSITIONS.md)"
        )


def test_a_nul_byte_in_a_save_as_path_is_refused_in_one_line() -> None:
    """The app's Save as prompt reads its path with ``typed_save_path``: a NUL character is
    a SaveError (which the prompt shows as a message), never the ValueError that ended the
    app."""
    with pytest.raises(SaveError) as info:
        typed_save_path("games/a\0b.json")
    assert str(info.value) == (
        "games/a\\x00b.json: the file name holds a NUL character (\\x00); no file name can"
    )
    with pytest.raises(SaveError, match="give a file name"):
        typed_save_path("  ")
    assert typed_save_path("~/g.json") == Path.home() / "g.json"


def test_a_nul_byte_typed_in_the_save_as_prompt_is_a_message_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """Driven as a player would: ctrl+p, "Save as", the path with a NUL (pasted: no key types
    one), Enter. The prompt shows why and nothing is written; the app keeps running."""
    import asyncio

    from textual.widgets import Input

    from imperial_tui.app import ImperialApp
    from imperial_tui.model.session import Session
    from rules import Game

    session = Session(Game.new(["Anna", "Ben"], seed=4), {}, tmp_path / "g.json")

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+p", *"Save as", "enter")
            await pilot.pause()
            prompt = app.screen.query_one(Input)
            prompt.value = ""
            prompt.insert_text_at_cursor(str(tmp_path / "a\0b.json"))
            await pilot.press("enter")
            await pilot.pause()
            notes = [n.message for n in app._notifications]
            assert any("NUL character" in m for m in notes), notes
            assert app.is_running and app.session is session
        assert list(tmp_path.iterdir()) == []

    asyncio.run(run())
