"""Measure the app's first frame: time from process start until a marker text appears on the
terminal, in a real pseudo-terminal at 80x24 (what a player sees, not an import timing).

Usage: uv run python scripts/measure_startup.py [--runs 5] [--save FILE]
Without --save it measures the new-game screen; with a save file, the main screen.
Python's byte-code caches matter most: with PYTHONDONTWRITEBYTECODE=1 every start compiles
Textual from source (add PYTHONPYCACHEPREFIX=/tmp/pyc and unset it to measure the normal case).
"""

from __future__ import annotations

import argparse
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


def first_frame(argv: list[str], marker: bytes, size: tuple[int, int], limit: float) -> float:
    """Seconds from fork to the marker on screen (escape sequences stripped)."""
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
                return time.perf_counter() - start
        raise SystemExit(f"marker {marker!r} not seen after {limit}s")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--size", default="80x24")
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        if args.save is None:
            argv = [sys.executable, "-m", "imperial_tui.app", str(Path(tmp) / "new.json")]
            marker = b"NewgameofImperial"
        else:
            argv = [sys.executable, "-m", "imperial_tui.app", str(args.save)]
            marker = b"Decide"
        first_frame(argv, marker, (cols, rows), 20.0)  # warm the byte-code caches
        times = [first_frame(argv, marker, (cols, rows), 20.0) for _ in range(args.runs)]
    print(
        f"first frame at {cols}x{rows}: median {statistics.median(times) * 1000:.0f} ms, "
        f"min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {args.runs} runs"
    )


if __name__ == "__main__":
    main()
