"""Keep the compiled bytecode of what a command loaded, for the next start.

Python reads a module's compiled bytecode (``__pycache__/*.pyc``) instead of compiling the
source when the file is there and fresh. Where ``PYTHONDONTWRITEBYTECODE`` is set (as on many
containers and CI machines) Python never writes it, so every start compiles every module it
imports: about 0.1 s more for ``imperial state`` and 0.4 s more for the app's first frame. uv
can compile at install (its ``compile-bytecode`` setting), but it then compiles all ~1,900
files of the environment again on every ``uv run`` (0.15-0.3 s each time, more than it saves).

So when a command ends, the modules it imported without fresh bytecode are compiled by a
detached background process (``py_compile`` writes whatever that setting says), once: the
command is not slowed, and the next start finds them compiled. Only files of this program and
of its environment are compiled, never the system's. Where Python writes bytecode itself
(the usual setting), nothing happens here.

``IMPERIAL_NO_BACKGROUND_COMPILE=1`` turns it off: for measurements of starts without
bytecode (``benchmarks/bench.py``, ``scripts/measure_startup.py --cold``), where a compiler
left running after each run would take the CPU from the next run and write into the run's
bytecode folder while it is being removed.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import time
from functools import cache
from importlib.util import cache_from_source

# the child: compiles each path it is given (errors, a read-only folder say, are ignored),
# then frees the claim (its first argument) for the next command that finds stale bytecode
_COMPILER = (
    "import os, py_compile, sys\n"
    "try:\n"
    "    for path in sys.argv[2:]:\n"
    "        py_compile.compile(path, doraise=False, quiet=2)\n"
    "finally:\n"
    "    os.unlink(sys.argv[1])\n"
)
CLAIM_SECONDS = 120  # a claim older than this is left over from a compiler that died
SWITCH_OFF = "IMPERIAL_NO_BACKGROUND_COMPILE"  # set (not "" nor "0"): compile nothing


@cache
def keep_after_exit() -> None:
    """Compile what this process imported without fresh bytecode when it exits (once per
    process, however often ``imperial_tui.cli.main`` runs in it), unless ``SWITCH_OFF`` is
    set."""
    if sys.dont_write_bytecode and os.environ.get(SWITCH_OFF, "") in ("", "0"):
        atexit.register(compile_in_background)


def roots() -> tuple[str, ...]:
    """The folders whose modules are compiled: the environment (its site-packages) and the
    folder holding this program's packages (an editable install is not in site-packages)."""
    program = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return (os.path.join(os.path.abspath(sys.prefix), ""), os.path.join(program, ""))


def stale_sources() -> list[str]:
    """The source files of loaded modules under ``roots()`` whose bytecode is missing or
    older than the source."""
    where = roots()
    stale = []
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None)
        if not isinstance(origin, str) or not origin.endswith(".py"):
            continue
        if not origin.startswith(where):
            continue
        try:
            source = os.stat(origin).st_mtime
            cached = os.stat(cache_from_source(origin)).st_mtime
        except FileNotFoundError:
            cached = -1.0
        except (OSError, ValueError, NotImplementedError):
            continue
        if cached < source:
            stale.append(origin)
    return stale


def compile_in_background() -> None:
    """Start a detached process compiling ``stale_sources()``; never waits for it, never
    fails the command (a read-only installation just stays uncompiled)."""
    paths = stale_sources()
    if not paths or (claim := _claim()) is None:
        return
    quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    try:  # posix_spawn: no Popen object left to warn that its child still runs
        os.posix_spawn(
            sys.executable,
            [sys.executable, "-c", _COMPILER, claim, *paths],
            os.environ,
            file_actions=quiet,
            setsid=True,  # a Ctrl-C at the terminal does not reach it
        )
    except (OSError, NotImplementedError, AttributeError):  # (no posix_spawn/setsid here)
        with contextlib.suppress(OSError):
            os.unlink(claim)


def _claim() -> str | None:
    """A claim file (in the temporary folder, one per environment and bytecode folder) while
    one compiler runs, or None when another holds it: commands ending together (a test
    suite's first minute) start one compiler, not one each."""
    import hashlib
    import tempfile

    where = (*roots(), str(sys.pycache_prefix))
    key = hashlib.sha256("|".join(where).encode()).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f"imperial-bytecode-{key}.claim")
    for _ in range(2):
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            return path
        except FileExistsError:
            try:
                if time.time() - os.stat(path).st_mtime < CLAIM_SECONDS:
                    return None
                os.unlink(path)  # (a compiler that died: claim it anew)
            except OSError:
                return None
        except OSError:
            return None
    return None
