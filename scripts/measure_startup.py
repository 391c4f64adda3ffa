"""Measure the app's first frame: time from process start until a marker text appears on the
terminal, in a real pseudo-terminal at 80x24 (what a player sees, not an import timing).

Usage: uv run python scripts/measure_startup.py [--runs 5] [--save FILE] [--cold]
                                                 [--against OTHER/.venv/bin/imperial]
It runs the command players run, the environment's ``imperial`` script: ``imperial play FILE``
with a save file (the main screen), else ``imperial`` (the new-game screen). A first, warm-up
run leaves the bytecode compiled (``imperial_tui.cli.bytecode``) and the parsed style sheets
kept (``imperial_tui.app.css_cache``, in a cache folder of the script's own); ``--cold``
measures every run without either (an empty PYTHONPYCACHEPREFIX and cache folder per run, and
no background compiling after it: ``IMPERIAL_NO_BACKGROUND_COMPILE``).

``--against`` times another checkout's ``imperial`` (a worktree of the code before a change,
with its own environment) in the same sitting, the two alternating run by run (ABBA order, so
that a drift of the shared machine's load falls on both): it prints both medians and the
median of the paired differences, a change of a few milliseconds being far below the spread
of separate sittings.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user + system, Linux's /proc; 0 elsewhere):
    on a shared machine a steadier figure than the wall clock."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_frame(
    argv: list[str], marker: bytes, size: tuple[int, int], limit: float, quit_keys: bool = False
) -> tuple[float, float]:
    """(wall seconds from fork to the marker on screen, escape sequences stripped; the CPU
    seconds the process had used by then). ``quit_keys``: then quit as a player does (ctrl+q,
    Enter to confirm), so that the app ends normally and leaves its bytecode compiled."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.execvp(argv[0], argv)
    cols, rows = size
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    seen = b""
    try:
        while time.perf_counter() - start < limit:
            ready, _, _ = select.select([fd], [], [], 0.01)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen += chunk
            if marker in ANSI.sub(b"", seen).replace(b" ", b""):
                took = time.perf_counter() - start, cpu_seconds(pid)
                if quit_keys:
                    _quit(pid, fd)
                return took
        raise SystemExit(f"marker {marker!r} not seen after {limit}s")
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)


def _quit(pid: int, fd: int) -> None:
    """ctrl+q, then Enter on the question, and wait (up to 10 s) for the app to end."""
    os.write(fd, b"\x11")
    time.sleep(1.0)
    os.write(fd, b"\r")
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            with contextlib.suppress(OSError):
                os.read(fd, 65536)
        if os.waitpid(pid, os.WNOHANG) != (0, 0):
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--cold", action="store_true", help="no compiled bytecode")
    parser.add_argument("--against", type=Path, default=None, help="another imperial script")
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = os.environ["XDG_STATE_HOME"] = tmp  # (no "continue")
        os.environ["XDG_CACHE_HOME"] = tmp  # the parsed style sheets (app/css_cache.py)
        scripts = [str(Path(sys.executable).with_name("imperial"))]
        if args.against is not None:
            scripts.append(str(args.against.absolute()))
        runs = [_command(script, args.save) for script in scripts]
        # warm up, quitting normally: the bytecode of what the app loaded is then compiled
        for argv, marker in runs:
            first_frame(argv, marker, (cols, rows), 20.0, quit_keys=True)
        time.sleep(5)  # (in the background, after the app has ended)
        times: list[list[float]] = [[] for _ in runs]
        cpu: list[list[float]] = [[] for _ in runs]
        for run in range(args.runs):
            order = range(len(runs)) if run % 2 == 0 else reversed(range(len(runs)))
            for which in order:
                if args.cold:  # (and no compiler left running after the run: bytecode.py)
                    os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / f"cold{run}-{which}")
                    os.environ["IMPERIAL_NO_BACKGROUND_COMPILE"] = "1"
                    os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / f"cold{run}-{which}")
                argv, marker = runs[which]
                wall, used = first_frame(argv, marker, (cols, rows), 20.0)
                times[which].append(wall)
                cpu[which].append(used)
    load = os.getloadavg()[0]
    for (argv, _), walls, used in zip(runs, times, cpu, strict=True):
        print(
            f"first frame of `{' '.join(Path(a).name for a in argv)}` at {cols}x{rows}"
            f"{' without bytecode' if args.cold else ''}: median "
            f"{statistics.median(walls) * 1000:.0f} ms, min {min(walls) * 1000:.0f} ms, max "
            f"{max(walls) * 1000:.0f} ms over {args.runs} runs; CPU time used by then: median "
            f"{statistics.median(used) * 1000:.0f} ms (load average {load:.2f})"
            + (f"  [{argv[0]}]" if len(runs) > 1 else "")
        )
    if len(runs) > 1:
        wall_gain = [b - a for a, b in zip(times[0], times[1], strict=True)]
        cpu_gain = [b - a for a, b in zip(cpu[0], cpu[1], strict=True)]
        print(
            f"this environment is faster by a median of {statistics.median(wall_gain) * 1000:.1f}"
            f" ms wall, {statistics.median(cpu_gain) * 1000:.1f} ms CPU per paired run "
            f"(quartiles of the wall difference: "
            + ", ".join(f"{q * 1000:.1f}" for q in statistics.quantiles(wall_gain, n=4))
            + " ms)"
        )


def _command(imperial: str, save: Path | None) -> tuple[list[str], bytes]:
    """The command line to time and the text that marks its first frame."""
    if save is None:
        return [imperial], b"NewgameofImperial"
    return [imperial, "play", str(save)], b"Decide"


if __name__ == "__main__":
    main()
