"""Reading and replacing save files safely: what ``rules.savefile`` builds on.

A save file is bad input like any other. Reading refuses anything but a regular file before
reading a byte (a FIFO would block, ``/dev/zero`` would never end) and caps the size. Writing
goes to a temporary file that replaces the target in one step, through a symbolic link to the
file it points to (the link stays a link), never over a read-only file or something that is
not a regular file. Two programs changing one save take turns: ``LockedFile`` holds an
exclusive ``flock`` on the file while it is read, changed and replaced; a process that waited
for the lock notices that the file was replaced meanwhile and locks the new one. Temporary
files left behind by a killed writer are removed by the next writer.

Every problem is a ``FileProblem`` whose message says what is wrong without the file name
(``rules.savefile`` puts the name in front).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from pathlib import Path
from types import TracebackType

try:  # POSIX; elsewhere saves are still atomic, only not locked against each other
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # a module or None: the locks check which

MAX_BYTES = 8 * 1024 * 1024  # a long game's save is ~100 kB
LOCK_TIMEOUT = 20.0  # seconds to wait for another program's change to the same file
STALE_TEMP_AGE = 60.0  # seconds after which an unlocked temporary file is surely abandoned


class FileProblem(Exception):
    """A file cannot be read or written as a save; the message is for a player."""


def digest(data: bytes) -> str:
    """What a save's content is known by: two reads with the same digest read the same game.
    The hashing library is loaded here, when first needed (its OpenSSL part costs a quick
    command 2-3 ms of start-up)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def check_name(path: str | os.PathLike[str]) -> None:
    """Refuse a file name no system call takes: a NUL character ends a name in C, so Python
    refuses it with a ValueError that no caller expects from a file."""
    if "\0" in os.fspath(path):
        raise FileProblem("the file name holds a NUL character (\\x00); no file name can")


def target_of(path: Path) -> Path:
    """The file a path names, following symbolic links (to write the file, not the link)."""
    check_name(path)
    return Path(os.path.realpath(path))


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory, not a save file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a save file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a save file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a save file"
    return "is not a regular file"


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """Open for reading without ever blocking (O_NONBLOCK: a FIFO opens at once) and refuse
    anything that is not a regular file or is too big."""
    check_name(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileProblem("no such file") from None
    except IsADirectoryError:
        raise FileProblem("is a directory, not a save file") from None
    except OSError as exc:
        raise FileProblem(f"cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(_kind(st.st_mode))
        if st.st_size > MAX_BYTES:
            raise FileProblem(
                f"is {st.st_size} bytes, too big for a save file (at most {MAX_BYTES})"
            )
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def _read_fd(fd: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        try:
            chunk = os.pread(fd, 65536, total)
        except OSError as exc:
            raise FileProblem(f"cannot read: {exc.strerror or exc}") from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > MAX_BYTES:  # it grew while being read
            raise FileProblem(f"is too big for a save file (more than {MAX_BYTES} bytes)")


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES; never blocks on a pipe or device."""
    fd, _st = _open_regular(path)
    try:
        return _read_fd(fd)
    finally:
        os.close(fd)


class LockedFile:
    """An exclusive lock on an existing file for one read-change-replace.

    ``with LockedFile(path) as f: data = f.read(); ...; f.replace(text)``. The lock is an
    ``flock`` on the file itself: ``replace`` puts a new file in its place, so a process that
    was waiting finds, once it holds the lock, that the path names another file, and starts
    over on that one. Nothing is created next to the save.
    """

    def __init__(self, path: str | os.PathLike[str], timeout: float = LOCK_TIMEOUT) -> None:
        self.path = Path(path)
        self.target = target_of(self.path)
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> LockedFile:
        deadline = time.monotonic() + self.timeout
        while True:
            fd, st = _open_regular(self.target)
            try:
                self._lock(fd, deadline)
                try:
                    now = os.stat(self.target)
                except FileNotFoundError:
                    now = None
                if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                    self._fd = fd
                    return self
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # replaced while we waited: lock the file that is there now
            if now is None:
                raise FileProblem("was removed by another program")

    def _lock(self, fd: int, deadline: float) -> None:
        if fcntl is None:  # pragma: no cover - no locks on this platform
            return
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    return  # a file system without locks: go on unlocked, as before
                if time.monotonic() > deadline:
                    raise FileProblem(
                        "is being changed by another program (still locked after "
                        f"{self.timeout:.0f} s); try again"
                    ) from None
                time.sleep(0.01)

    def read(self) -> bytes:
        assert self._fd is not None, "read() inside the with block"
        return _read_fd(self._fd)

    def replace(self, text: str) -> None:
        """Write ``text`` in place of the locked file (atomically, through symlinks)."""
        assert self._fd is not None, "replace() inside the with block"
        write_atomically(self.path, text, locked=True)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None


def check_writable(target: Path) -> None:
    """Refuse to replace anything but a writable regular file (a missing file is fine)."""
    check_name(target)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise FileProblem(f"cannot save: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem(f"{_kind(st.st_mode)}; not overwritten")
    # the mode bits, not only access(): root may write anything, but a file made read-only
    # says "keep me as I am"
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise FileProblem("is read-only; not overwritten (make it writable or save elsewhere)")


def write_atomically(path: Path, text: str, locked: bool = False) -> None:
    """Replace the file ``path`` names by ``text`` all at once, keeping its permissions.

    The text goes to a temporary file in the target's directory, is flushed and fsynced, and
    then replaces the target in one step (``os.replace``): a crash, a full disk or a killed
    process leaves either the old file or the new one, never half a file. ``locked`` says the
    caller holds the file's lock, so every temporary file of an earlier writer is abandoned.
    """
    target = target_of(path)
    check_writable(target)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise FileProblem(f"cannot save: the text is not valid UTF-8 ({exc.reason})") from None
    directory = target.parent
    remove_stale_temps(target, all_of_them=locked)
    tmp_name: str | None = None
    import tempfile  # (here: loading a save, the common case, never needs it)

    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp_name, _mode_for(target))
        os.replace(tmp_name, target)
        tmp_name = None
        _fsync_dir(directory)
    except OSError as exc:
        raise FileProblem(f"cannot save: {exc.strerror or exc}") from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def temp_files(target: Path) -> list[Path]:
    """Temporary files of writes to ``target`` (``.NAME.<random>.tmp`` beside it)."""
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    prefix = f".{target.name}."
    return [target.parent / n for n in names if n.startswith(prefix) and n.endswith(".tmp")]


def remove_stale_temps(target: Path, all_of_them: bool = False) -> None:
    """Remove what an interrupted write left behind: with the file's lock held every
    temporary file of it is abandoned; without, only old ones are surely so."""
    now = time.time()
    for tmp in temp_files(target):
        with contextlib.suppress(OSError):
            if all_of_them or now - tmp.lstat().st_mtime > STALE_TEMP_AGE:
                tmp.unlink()


def _mode_for(path: Path) -> int:
    """The old file's mode, or what a plain ``open()`` would give (mkstemp makes 0600)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX only)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
