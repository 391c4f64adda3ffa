"""Send a remote terminal only the cells of a frame that it does not show already.

Textual repaints a whole widget when its content changes: after an opponent's move, a watcher
would get the whole nations table, the whole rondel and the status lines again (7-10 KB at
80x24), although a treasury figure and a marker changed. Textual writes each line of a region
as an absolute cursor move followed by styled text (SGR sequences and characters). ``ScreenDiff``
keeps the cells the terminal shows (character and style) and, for each frame, writes only the
runs of cells that differ, each with its own cursor move and style.

Output it does not fully understand (another escape sequence, a control character) passes
through unchanged and makes it forget what the terminal shows (so the next frame is sent in
full): the worst case is Textual's own output, never a wrong screen.
"""

from __future__ import annotations

import re

from rich.cells import get_character_cell_size

_TOKEN = re.compile(
    r"\x1b\[(\d+);(\d+)H|\x1b\[([0-9;]*)m|\x1b\[\?2026[hl]|\x07|\n|([^\x00-\x1f\x7f]+)"
)
_RESET = "\x1b[0m"
GAP = 4  # unchanged cells between two changed runs that are re-sent rather than jumped

Cell = tuple[str, str]  # character ("" for the right half of a wide one), SGR sequence


class ScreenDiff:
    """What the terminal shows, row by row (a list of cells per row, indexed by column), so
    that a run of text that did not change is recognised by one slice comparison: most of a
    frame after a move is cells the terminal shows already."""

    def __init__(self, height: int = 24) -> None:
        self.height = height  # a line feed on the last row would scroll: not understood
        self.shown: dict[int, list[Cell | None]] = {}  # row -> cells by column (None: unknown)
        self.dropped = 0

    def forget(self) -> None:
        self.shown.clear()

    def filter(self, text: str) -> str:
        """What to send so that the terminal shows what ``text`` would make it show."""
        frame: dict[int, list[Cell | None]] = {}  # row -> this frame's cells by column
        dirty: dict[int, list[tuple[int, int]]] = {}  # row -> column spans that may differ
        passthrough: list[str] = []  # sync marks and bells, in order, around the cells
        shown = self.shown
        pos = 0
        row = col = -1
        sgr = ""
        for m in _TOKEN.finditer(text):
            if m.start() != pos:
                return self._give_up(text)
            pos = m.end()
            if m.group(1) is not None:
                row, col = int(m.group(1)), int(m.group(2))
            elif m.group(3) is not None:
                sgr = "" if m.group(3) in ("", "0") else sgr + m.group(0)
            elif m.group(4) is not None:
                if row < 0:
                    return self._give_up(text)
                run = m.group(4)
                if run.isascii():  # one cell per character
                    cells: list[Cell | None] = [(ch, sgr) for ch in run]
                else:
                    cells = []
                    for ch in run:
                        width = get_character_cell_size(ch)
                        if width == 0:
                            return self._give_up(text)
                        cells.append((ch, sgr))
                        if width == 2:
                            cells.append(("", sgr))
                end = col + len(cells)
                line = frame.get(row)
                if line is None:
                    line = frame[row] = []
                if len(line) < end:
                    line.extend([None] * (end - len(line)))
                line[col:end] = cells
                old = shown.get(row)
                if old is None or old[col:end] != cells:
                    dirty.setdefault(row, []).append((col, end))
                col = end
            elif m.group(0) == "\n":
                if row >= self.height:
                    return self._give_up(text)
            else:
                passthrough.append(m.group(0))
        if pos != len(text):
            return self._give_up(text)
        head = [p for p in passthrough if p == "\x1b[?2026h"]
        tail = [p for p in passthrough if p != "\x1b[?2026h"]
        body = self._changes(frame, dirty)
        self.dropped += max(0, len(text) - len(body))
        return "".join(head) + body + "".join(tail) if body or passthrough else ""

    def _give_up(self, text: str) -> str:
        self.forget()
        return text

    def _changes(
        self, frame: dict[int, list[Cell | None]], dirty: dict[int, list[tuple[int, int]]]
    ) -> str:
        shown = self.shown
        out: list[str] = []
        style: str | None = None  # the terminal's style now (None: unknown)
        for row in sorted(dirty):
            line = frame[row]
            old = shown.get(row)
            if old is None:
                old = shown[row] = []
            if len(old) < len(line):
                old.extend([None] * (len(line) - len(old)))
            olen = len(old)
            changed = sorted(
                {
                    c
                    for start, end in dirty[row]
                    for c in range(start, end)
                    if line[c] is not None and (c >= olen or old[c] != line[c])
                }
            )
            i = 0
            while i < len(changed):
                start = end = changed[i]
                # extend the run over nearby changes on the same row (through known cells)
                while i + 1 < len(changed):
                    nxt = changed[i + 1]
                    if nxt - end - 1 > GAP or any(line[c] is None for c in range(end + 1, nxt)):
                        break
                    end = nxt
                    i += 1
                i += 1
                while start > 0 and (line[start] or ("x", ""))[0] == "":
                    start -= 1  # never start on the right half of a wide character
                after = line[end + 1] if end + 1 < len(line) else None
                if after is not None and after[0] == "":
                    end += 1
                out.append(f"\x1b[{row};{start}H")  # a cursor move keeps the style: runs share it
                for c in range(start, end + 1):
                    cell = line[c]
                    if cell is None:  # (never: a run holds known cells only)
                        continue
                    ch, sgr = cell
                    if sgr != style:
                        out.append(_RESET + sgr)
                        style = sgr
                    out.append(ch)
                    old[c] = cell
        if style:
            out.append(_RESET)
        return "".join(out)
