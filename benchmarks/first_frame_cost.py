"""What the app's first frame costs, counted in machine instructions (run by hand, never a
test; needs valgrind):

    uv run python benchmarks/first_frame_cost.py [--save FILE] [--against OTHER/.venv/bin/python]

The wall clock of a start-up on the shared 2-core machine spreads by a third from one sitting
to the next (issue 26: a bare Textual app measured 224 ms at one hour and 265 ms at the next),
so a change of 10 ms is lost in it. The instructions a process executes do not depend on the
machine's load: valgrind's cachegrind counts them, the same to 0.5% from run to run. This
script counts them, in a pseudo-terminal at 80x24, from the start of the interpreter to the
moment the first frame is written (Textual's driver writes the marker text, then the process
ends), for four workloads:

- ``interpreter``: Python starting this script, which then ends (every count includes that);
- ``bare Textual``: an app of a Header, a Static showing the marker and a Footer, the least
  any Textual app costs (its ``textual`` import is most of it);
- ``bare Textual + the save``: the same after ``rules.savefile.load_game(FILE)``: the floor
  of any app that shows this save (importing ``rules``, reading and replaying the file);
- ``imperial play FILE``: the command players run (``imperial_tui.cli.main``).

Then it times the bare Textual app by the wall clock (``--wall-runs``, median) and converts
every count into milliseconds at that app's pace (instructions per millisecond): a budget in
the unit a player waits in, that holds as long as the machine stays as it is during the
wall-clock runs. ``--against`` counts another checkout's ``imperial play FILE`` (its
environment's Python) in the same run: a change measured to the percent. ``--stages`` counts
this checkout's steps one by one (``STAGES``): importing the command line and ``rules``,
loading the save, importing the app's modules, and the first frame.

Before counting, each workload runs once with bytecode writing on (the machine may set
PYTHONDONTWRITEBYTECODE), the app quitting as a player does so that it keeps its parsed style
sheets (``imperial_tui.app.css_cache``, in a cache folder of this run's own): the counts are
of a start that finds everything compiled and cached, as every start after the first does.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "Decide"  # on the game screen's decision panel, and on the bare app's Static
ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
WORKLOADS = ("interpreter", "bare Textual", "bare Textual + the save", "imperial play FILE")
# ``--stages``: the steps of ``imperial play FILE`` (those of imperial_tui.cli.quick's
# open_in_app), each counted by a run that ends once it is done
STAGES = (
    "the command line and rules imported",
    "the save loaded (read and replayed)",
    "the app's modules imported (Textual's too)",
    "composed, styled, drawn: the first frame",
)


# --------------------------------------------------------------------------- the child


def _exit_at_first_frame() -> None:
    """End the process the moment Textual's driver has written the marker to the terminal
    (valgrind writes its counts as the process ends)."""
    from textual.drivers.linux_driver import LinuxDriver

    write = LinuxDriver.write
    seen: list[str] = []

    def write_then_check(self: LinuxDriver, data: str) -> None:
        write(self, data)
        seen.append(data)
        if MARKER in ANSI.sub("", "".join(seen)).replace(" ", ""):
            sys.stdout.flush()
            os._exit(0)

    LinuxDriver.write = write_then_check  # type: ignore[method-assign]


def _bare_app() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header, Static

    class Bare(App[None]):
        BINDINGS = [("ctrl+q", "quit", "Quit")]  # noqa: RUF012

        def compose(self) -> ComposeResult:
            yield Header()
            yield Static(MARKER)
            yield Footer()

    Bare().run()


def staged(save: str, stop: int) -> None:
    """``imperial play FILE`` step by step, ending after step ``stop`` (``STAGES``)."""
    from imperial_tui import startup

    startup.pause()
    from imperial_tui.cli import quick

    if stop == 0:
        os._exit(0)
    session = quick.load_session(Path(save))
    if stop == 1:
        os._exit(0)
    from imperial_tui.app import ImperialApp, run_app

    if stop == 2:
        os._exit(0)
    _exit_at_first_frame()  # (only now: it imports Textual's driver)
    run_app(ImperialApp(session=session))


def child(workload: str, save: str, stay: bool) -> None:
    """Run one workload (in the pseudo-terminal, under valgrind or the clock); ``stay``: run
    until the player quits instead of ending at the first frame (the warm-up)."""
    if workload == "interpreter":
        return
    if workload.startswith("stage "):
        staged(save, int(workload.split()[1]))
        return
    if not stay:
        _exit_at_first_frame()
    if workload == "imperial play FILE":
        from imperial_tui.cli import main

        sys.argv = ["imperial", "play", save]
        main()
        return
    if workload == "bare Textual + the save":
        from rules.savefile import load_game

        load_game(Path(save))
    _bare_app()


# --------------------------------------------------------------------------- the parent


def _in_terminal(argv: list[str], env: dict[str, str], quit_after: bool) -> float:
    """Run ``argv`` in a pseudo-terminal at 80x24 until it ends (the first frame) or, with
    ``quit_after``, until its marker shows and it has been quit with ctrl+q and Enter.
    Returns the wall seconds to the end (the first frame, for the clocked runs)."""
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    from measure_startup import first_frame  # type: ignore[import-not-found]

    old = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)
    try:
        if quit_after:
            return first_frame(argv, MARKER.encode(), (80, 24), 120.0, quit_keys=True)[0]
        return _until_exit(argv)
    finally:
        os.environ.clear()
        os.environ.update(old)


def _until_exit(argv: list[str]) -> float:
    import fcntl
    import pty
    import select
    import struct
    import termios

    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        while True:
            if select.select([fd], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(fd, 65536)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                took = time.perf_counter() - start
                if os.waitstatus_to_exitcode(status) != 0:
                    raise SystemExit(f"{' '.join(argv)} failed (exit status {status})")
                return took
            if time.perf_counter() - start > 300:
                os.kill(pid, 9)
                raise SystemExit(f"{' '.join(argv)} showed no first frame in 300 s")
    finally:
        os.close(fd)


def count(python: str, workload: str, save: Path, env: dict[str, str], folder: Path) -> int:
    """The instructions ``workload`` executes up to its first frame (valgrind's count)."""
    out = folder / "cachegrind.out"
    log = folder / "valgrind.log"
    argv = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        f"--cachegrind-out-file={out}",
        f"--log-file={log}",
        *_child_argv(python, workload, save),
    ]
    _in_terminal(argv, env, quit_after=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text())
    if found is None:
        raise SystemExit(f"valgrind counted nothing for {workload}: see {log}")
    return int(found.group(1).replace(",", ""))


def _child_argv(python: str, workload: str, save: Path, stay: bool = False) -> list[str]:
    """Every workload runs in this script (its own imports, some 50 M, in every count, the
    interpreter's too: the steps of ``--stages`` start from the same point)."""
    return [python, __file__, "--child", workload, "--save", str(save)] + (
        ["--stay"] if stay else []
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--save", type=Path, default=None, help="a save (default: 700 actions)")
    parser.add_argument("--against", default=None, help="another checkout's Python")
    parser.add_argument("--wall-runs", type=int, default=7)
    parser.add_argument("--stages", action="store_true", help="where this checkout's go")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--stay", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, str(args.save), args.stay)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("first_frame_cost: valgrind is not installed (it counts instructions)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        save = args.save
        if save is None:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from bench import make_save

            save = folder / "s700.imperial"
            make_save(700, save)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
            env[name] = str(folder / name)  # the style sheets kept; no "continue" touched
        runs = [(sys.executable, w) for w in WORKLOADS]
        if args.against:
            runs.append((args.against, "imperial play FILE"))
        for python, workload in runs:  # warm-up: bytecode written, style sheets kept
            if workload != "interpreter":
                _in_terminal(_child_argv(python, workload, save, stay=True), env, True)
        time.sleep(2)
        counts = [count(python, w, save, env, folder) for python, w in runs]
        stages = [
            count(sys.executable, f"stage {i}", save, env, folder)
            for i in (range(len(STAGES)) if args.stages else ())
        ]
        walls = [
            _in_terminal(_child_argv(sys.executable, "bare Textual", save), env, False)
            for _ in range(args.wall_runs)
        ]
    per_ms = counts[1] / (statistics.median(walls) * 1000)
    print(
        f"first frame at 80x24, {save.name}; the bare Textual app took a median "
        f"{statistics.median(walls) * 1000:.0f} ms by the wall clock over {args.wall_runs} "
        f"runs (load average {os.getloadavg()[0]:.2f}): {per_ms / 1e6:.2f} M instructions/ms"
    )
    for (python, workload), n in zip(runs, counts, strict=True):
        where = f" [{python}]" if args.against else ""
        print(
            f"  {workload:<26} {n / 1e6:7.0f} M instructions  {n / counts[1]:5.2f}x the bare "
            f"app  ~{n / per_ms:4.0f} ms{where}"
        )
    if stages:
        print("  where this checkout's `imperial play FILE` goes, step by step:")
        before = counts[0]
        for name, n in zip(STAGES, stages, strict=True):
            print(f"    {name:<44} {n / 1e6:7.0f} M  (+{(n - before) / 1e6:.0f} M)")
            before = n
    if args.against:
        ours, theirs = counts[3], counts[-1]
        print(
            f"this checkout's first frame: {ours / theirs - 1:+.1%} instructions against the"
            " other's"
        )


if __name__ == "__main__":
    main()
