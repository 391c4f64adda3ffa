"""The start-up budget of the ``imperial`` command (issue 26): what each command may import,
checked in a fresh interpreter running the console script's entry point, and the quick
answers of ``state`` and ``moves`` (``imperial_tui.cli.quick``) giving exactly what the Typer
commands give for every form of their command line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rules.game
from imperial_tui.cli import app
from rules import Game, RuleSet
from rules.savefile import save_game

# Modules no quick answer may load: the command-line and terminal libraries, the app, the
# server, the text rendering, and any computer player beyond the list of level names (a
# save's seats name levels; `rules.bots.levels` is that list).
LIBRARIES = {"typer", "click", "rich", "textual"}
FRONT_ENDS = ("imperial_tui.app", "imperial_tui.server", "imperial_tui.render")
BOTS_ALLOWED = {"rules.bots", "rules.bots.base", "rules.bots.levels"}
# What only writing a save (its digest, its date), a new deal or the app needs: 2-3 ms of a
# quick answer's start-up for the hashing library alone.
ONLY_ELSEWHERE = {"hashlib", "datetime", "random", "threading", "tempfile"}


def imported_by(args: list[str], tmp_path: Path) -> list[str]:
    """The modules loaded by ``imperial ARGS`` (the console script's ``main``) in a fresh
    interpreter, listed when it has answered (before the exit hooks: the background compiler's
    start, ``imperial_tui.cli.bytecode``, loads its own)."""
    out = tmp_path / "modules.json"
    script = (
        "import json, sys\n"
        f"sys.argv = ['imperial', *{args!r}]\n"
        "from imperial_tui.cli import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        f"    open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules)))\n"
    )
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    assert "Traceback" not in done.stderr, done.stderr
    return list(json.loads(out.read_text()))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A save of 300 random actions of a 4-player game (maneuvers and battles included)."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], RuleSet(), seed=5)
    rng = random.Random(5)
    while len(game.history) < 300 and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path_factory.mktemp("budget") / "played.json"
    save_game(game, path)
    return path


@pytest.mark.parametrize(
    "form",
    [
        ["state", "{f}", "--json"],
        ["state", "{f}"],
        ["moves", "{f}"],
        ["moves", "{f}", "--json"],
        ["state", "{f}", "--at", "40", "--json"],
        ["moves", "--at=-3", "{f}"],
    ],
    ids=lambda form: " ".join(form),
)
def test_state_and_moves_load_no_terminal_library_nor_bots(
    form: list[str], played: Path, tmp_path: Path
) -> None:
    """Nor what only writing a save, dealing a new game or the app needs (ONLY_ELSEWHERE)."""
    modules = imported_by([w.format(f=played) for w in form], tmp_path)
    loaded = [m for m in modules if m.split(".")[0] in LIBRARIES or m.startswith(FRONT_ENDS)]
    loaded += [m for m in modules if m.startswith("rules.bots") and m not in BOTS_ALLOWED]
    loaded += sorted(ONLY_ELSEWHERE.intersection(modules))
    assert loaded == [], f"`imperial {' '.join(form)}` loaded {loaded[:8]}"
    assert "rules.game" in modules  # (the check itself saw the command run)


@pytest.mark.parametrize(
    "form",
    [
        ["--help"],
        ["show", "{f}"],
        ["show", "{f}", "--map"],
        ["explain", "{f}", "AH rondel import"],
        ["log", "{f}"],
        ["state", "{f}", "--json", "--json"],  # (not a quick form: through Typer)
        ["serve", "--help"],
    ],
    ids=lambda form: " ".join(form),
)
def test_headless_commands_never_load_textual_nor_search_bots(
    form: list[str], played: Path, tmp_path: Path
) -> None:
    modules = imported_by([w.format(f=played) for w in form], tmp_path)
    assert "typer" in modules  # (these go through the Typer app)
    heavy = [m for m in modules if m.split(".")[0] == "textual" or m == "imperial_tui.app"]
    heavy += [m for m in modules if m.startswith("rules.bots") and m not in BOTS_ALLOWED]
    assert heavy == [], f"`imperial {' '.join(form)}` loaded {heavy[:8]}"


# Not loaded by `imperial play FILE` before its first frame: the command-line libraries, the
# server, any computer player beyond the list of levels, importlib.metadata (a save names the
# program's version: rules.program_version.installed_version), the screens and dialogs not shown.
PLAY_NEVER = (
    "typer",
    "click",
    "asyncssh",
    "importlib.metadata",
    "imperial_tui.server",
    "imperial_tui.app.screens.dialogs",
    "imperial_tui.app.screens.new_game",
    "imperial_tui.app.screens.help",
    "imperial_tui.app.screens.history",
)


def test_play_shows_its_first_frame_with_only_what_it_needs(played: Path, tmp_path: Path) -> None:
    """`imperial play FILE` up to its first frame (headless, 80x24): none of PLAY_NEVER, and
    the garbage collector paused while the screen is built and running again once it is shown
    (imperial_tui.startup: about 30 ms of the first frame)."""
    out = tmp_path / "first-frame.json"
    save = tmp_path / "game.json"
    save.write_bytes(played.read_bytes())
    script = (
        "import gc, json, sys\n"
        "from imperial_tui.app.local import ImperialApp\n"
        "from imperial_tui.app.screens.game import GameScreen\n"
        "seen = {}\n"
        "mounted = GameScreen.on_mount\n"
        "def on_mount(screen):\n"
        "    seen['collector while built'] = gc.isenabled()\n"
        "    mounted(screen)\n"
        "GameScreen.on_mount = on_mount\n"
        "async def first_frame(pilot):\n"
        "    await pilot.pause()\n"
        "    seen['collector once shown'] = gc.isenabled()\n"
        "    seen['modules'] = sorted(sys.modules)\n"
        "    pilot.app.exit()\n"
        "run = ImperialApp.run\n"
        "ImperialApp.run = lambda app: run(app, headless=True, size=(80, 24), "
        "auto_pilot=first_frame)\n"
        f"sys.argv = ['imperial', 'play', {str(save)!r}]\n"
        "from imperial_tui.cli import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        f"    open({str(out)!r}, 'w').write(json.dumps(seen))\n"
    )
    env = {**os.environ, "NO_COLOR": "1", "XDG_DATA_HOME": str(tmp_path)}
    env["XDG_STATE_HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert "Traceback" not in done.stderr, done.stderr
    seen = json.loads(out.read_text())
    modules = seen["modules"]
    loaded = [m for m in modules if m.startswith(PLAY_NEVER)]
    loaded += [m for m in modules if m.startswith("rules.bots") and m not in BOTS_ALLOWED]
    assert loaded == [], f"`imperial play FILE` loaded {loaded[:8]} before its first frame"
    assert "imperial_tui.app.screens.game" in modules  # (the check saw the game screen)
    assert seen["collector while built"] is False
    assert seen["collector once shown"] is True


def test_the_collector_runs_again_when_a_command_hands_over_or_ends() -> None:
    """The start-up pause of the garbage collector (imperial_tui.startup) ends with the
    quick answer and before a Typer command runs (the server runs for days); a program that
    turned the collector off itself keeps it off."""
    script = (
        "import gc, sys\n"
        "import imperial_tui.cli.commands as commands\n"
        "commands.app = lambda: print('typer', gc.isenabled())\n"
        "from imperial_tui.cli import main\n"
        "forms = ((['--help'], True), (['state', 'none.json'], True), (['--help'], False))\n"
        "for argv, collector in forms:\n"
        "    (gc.enable if collector else gc.disable)()\n"
        "    sys.argv = ['imperial', *argv]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "    print('after', gc.isenabled())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    expected = "typer True after True after True typer False after False"
    assert done.stdout.split() == expected.split(), done.stdout + done.stderr


def test_importing_the_command_package_loads_no_library() -> None:
    """The console script imports ``imperial_tui.cli`` before anything else: it must cost
    nothing, so that the quick answers pay only for the engine."""
    script = (
        "import sys\nimport imperial_tui.cli\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(LIBRARIES | {'rules'})}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


# --------------------------------------------------------------------------- same answers

runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})


@pytest.mark.parametrize(
    "form",
    [
        ["state", "{f}"],
        ["state", "{f}", "--json"],
        ["state", "--json", "{f}"],
        ["state", "{f}", "--at", "0"],
        ["state", "{f}", "--at=17", "--json"],
        ["state", "{f}", "--at", "-1"],
        ["state", "{f}", "--at", "+2"],
        ["moves", "{f}"],
        ["moves", "{f}", "--json"],
        ["moves", "{f}", "--at", "120"],
        ["moves", "{f}", "--json", "--at", "-300"],
        # refused: the same one line and exit code as through Typer
        ["state", "{f}", "--at", "301"],
        ["moves", "{f}", "--at", "-301"],
        ["state", "{missing}"],
        ["moves", "{junk}", "--json"],
    ],
    ids=lambda form: " ".join(form),
)
def test_quick_answer_is_the_typer_commands_answer(
    form: list[str], played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from imperial_tui.cli import quick

    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "imperial-save/1", "actions": [')
    words = [w.format(f=played, missing=tmp_path / "none.json", junk=junk) for w in form]
    code = quick.answer(words)
    assert code is not None, "a plain form must be answered quickly"
    quick_out = capsys.readouterr()
    typer_run = runner.invoke(app, words)
    assert (code, quick_out.out) == (typer_run.exit_code, typer_run.stdout)
    assert quick_out.err == typer_run.stderr
    if code:
        assert quick_out.err.startswith("imperial: ") and quick_out.err.count("\n") == 1


@pytest.mark.parametrize(
    "words",
    [
        ["state"],
        ["state", "--help"],
        ["state", "{f}", "-h"],
        ["state", "{f}", "--jsn"],
        ["state", "{f}", "--json", "--json"],
        ["state", "{f}", "--at"],
        ["state", "{f}", "--at", "x"],
        ["state", "{f}", "--at="],
        ["state", "{f}", "{f}"],
        ["state", "{f}", ""],
        ["state", "-", "--json"],
        ["show", "{f}"],
        ["--ascii", "state", "{f}"],
        ["play", "{f}", "--headless"],
        ["play", "--ascii", "{f}"],
        ["play"],
    ],
    ids=lambda words: " ".join(words) or "(nothing)",
)
def test_anything_else_goes_through_typer(words: list[str], played: Path) -> None:
    from imperial_tui.cli import quick

    assert quick.answer([w.format(f=played) for w in words]) is None


# --------------------------------------------------------------------------- bytecode


def test_bytecode_of_what_a_command_loaded_is_compiled_for_the_next_start(
    played: Path, tmp_path: Path
) -> None:
    """Where Python may not write bytecode (PYTHONDONTWRITEBYTECODE), the command leaves it
    compiled anyway, in the background after it ends: the program's modules it loaded and
    none of the standard library's (not ours to write)."""
    prefix = tmp_path / "pycache"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(prefix)}
    done = subprocess.run(
        [sys.executable, "-m", "imperial_tui.cli", "state", str(played)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    game_py = Path(rules.game.__file__ or "")  # with a prefix: no __pycache__ folders
    tag = sys.implementation.cache_tag
    compiled = prefix / game_py.parent.relative_to(game_py.anchor) / f"game.{tag}.pyc"
    for _ in range(300):  # (a detached process: up to 30 s on a loaded machine)
        if compiled.exists():
            break
        time.sleep(0.1)
    assert compiled.exists(), f"no bytecode at {compiled}"
    stdlib_json = Path(json.__file__).parent
    assert not (prefix / stdlib_json.relative_to(stdlib_json.anchor)).exists()


def test_one_compiler_at_a_time_for_commands_ending_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commands that end together (a test suite's first minute) start one compiler, not one
    each; a claim left by a compiler that died is taken over after CLAIM_SECONDS."""
    from imperial_tui.cli import bytecode

    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    first = bytecode._claim()
    assert first is not None and Path(first).exists()
    assert bytecode._claim() is None  # (held: the second command starts no compiler)
    old = time.time() - bytecode.CLAIM_SECONDS - 1
    os.utime(first, (old, old))
    assert bytecode._claim() == first  # (a dead compiler's claim)
    os.unlink(first)


@pytest.mark.parametrize(("switch", "compiles"), [(None, True), ("0", True), ("1", False)])
def test_the_background_compiler_can_be_switched_off(
    switch: str | None, compiles: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IMPERIAL_NO_BACKGROUND_COMPILE=1 starts no compiler at exit: measurements of starts
    without bytecode (benchmarks/bench.py) remove each run's bytecode folder right after it,
    and a compiler still writing there made that fail (issue 26)."""
    from imperial_tui.cli import bytecode

    registered: list[object] = []
    monkeypatch.setattr(bytecode.atexit, "register", registered.append)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    if switch is None:
        monkeypatch.delenv(bytecode.SWITCH_OFF, raising=False)
    else:
        monkeypatch.setenv(bytecode.SWITCH_OFF, switch)
    bytecode.keep_after_exit.__wrapped__()  # (not the cached one: once per process)
    assert registered == ([bytecode.compile_in_background] if compiles else [])


def test_play_stops_before_the_app_when_the_save_cannot_be_written(
    played: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`imperial play FILE` saves the seats before the app starts if they changed, and checks
    that the save can be written if not, in a thread while the app loads
    (quick.open_in_app): a save that cannot be written still ends the command with its one
    line and exit code 1, and no app, and is left as it was."""
    import imperial_tui.app
    from imperial_tui.cli import quick

    save = tmp_path / "game.json"
    save.write_bytes(played.read_bytes())
    save.chmod(0o444)  # (never overwritten: rules.safe_file)
    monkeypatch.setattr(imperial_tui.app, "run_app", lambda app: pytest.fail("the app started"))
    assert quick.answer(["play", str(save)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"imperial: {save}: ") and err.count("\n") == 1, err
    assert "read-only" in err
    assert save.read_bytes() == played.read_bytes()
