"""Bytes the app writes to the terminal (what an SSH session carries) for the first frame and
after single keys, at 80x24 in a pseudo-terminal. Run by hand:

    uv run imperial new --players Anna,Ben,Cleo,Dan --seed 4 --save /tmp/s.json
    uv run python scripts/measure_traffic.py /tmp/s.json

With ``--map`` (on a save where a human maneuvers): switching to the map, moving its cursor,
and widening it with z.
"""

import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def drain(fd: int, seconds: float) -> int:
    """Read everything the app writes for ``seconds``; return the byte count."""
    total = 0
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                total += len(os.read(fd, 65536))
            except OSError:
                break
    return total


def main() -> None:
    save = sys.argv[1]
    on_map = "--map" in sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["IMPERIAL_PACE"] = "0"
        os.execv(sys.executable, [sys.executable, "-m", "imperial_tui.cli", "play", save])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    print(f"first frame: {drain(fd, 3.0)} bytes")
    keys = [
        ("down", b"\x1b[B"),
        ("down", b"\x1b[B"),
        ("enter", b"\r"),
        ("enter", b"\r"),
        ("enter", b"\r"),
        ("3 (regions)", b"3"),
        ("4 (log)", b"4"),
    ]
    if on_map:
        keys = [
            ("1 (rondel)", b"1"),
            ("5 (map)", b"5"),
            ("map right", b"\x1b[C"),
            ("map down", b"\x1b[B"),
            ("map left", b"\x1b[D"),
            ("map up", b"\x1b[A"),
            ("z (widen)", b"z"),
            ("map down", b"\x1b[B"),
        ]
    for name, key in keys:
        os.write(fd, key)
        print(f"{name:12} {drain(fd, 1.0)} bytes")
    os.write(fd, b"\x11")
    time.sleep(0.3)
    os.write(fd, b"y")
    drain(fd, 1.0)
    os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
