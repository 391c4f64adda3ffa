"""The tab strip over the right-hand panels at 80 columns: one widget, drawn as Textual's.

Textual's ``TabbedContent`` builds a tab strip of eleven widgets (a scrolling container, two
rows, a ``Tab`` per label and the underline) and a ``TabPane`` per panel, every one styled,
laid out and drawn on its own: a sixth of the app's first frame (issue 26: 128 M of 2,044 M
instructions at 80x24, ``benchmarks/first_frame_cost.py``), and a share of every repaint of
a screen that switches panels by keys (1-5) anyway. This widget draws the same two lines, the
labels and the bar under them with the active label's part lit, in the same colours (its
component classes take the rules of Textual's ``Tab`` and ``Underline``), and the panels sit
in a ``ContentSwitcher`` beside it. A click on a label chooses that panel, as a click on a
tab did; the label under the mouse brightens, as a tab did.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.renderables.bar import Bar
from textual.widget import Widget


class PanelTabs(Widget):
    """Two lines: the panels' labels (one space between two, none before the first), and
    under them the bar, lit under the active one (in ASCII mode the active label in reverse
    and no bar, as app.tcss had Textual's tabs)."""

    DEFAULT_CSS = """
    PanelTabs {
        width: 1fr;
        height: 2;
        dock: top;
        & > .panel-tabs--tab { color: $foreground 50%; }
        & > .panel-tabs--hover { color: $foreground; }
        & > .panel-tabs--active { color: $foreground; }
        & > .panel-tabs--bar {
            color: $block-cursor-background;
            background: $foreground 10%;
        }
        &:ansi {
            & > .panel-tabs--tab { text-style: dim; }
            & > .panel-tabs--hover { text-style: dim; }
            & > .panel-tabs--active { text-style: not dim bold; }
            & > .panel-tabs--bar { background: $border-blurred; }
        }
    }
    """
    COMPONENT_CLASSES = {  # noqa: RUF012
        "panel-tabs--tab",
        "panel-tabs--hover",
        "panel-tabs--active",
        "panel-tabs--bar",
    }

    # (a change of either repaints the strip: Textual's reactives do)
    active: reactive[str] = reactive("")
    hovered: reactive[str] = reactive("")

    class Chosen(Message):
        """A label was clicked: show its panel."""

        def __init__(self, name: str) -> None:
            self.name = name
            super().__init__()

    def __init__(self, labels: dict[str, str], active: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels = labels  # panel id -> label
        self.set_reactive(PanelTabs.active, active)
        spans: dict[str, tuple[int, int]] = {}
        x = 0
        for name, label in labels.items():
            x += 1 if spans else 0  # one space between two labels
            spans[name] = (x, x + cell_len(label))
            x = spans[name][1]
        self.spans = spans  # panel id -> (first column, column after the last) of its label

    @property
    def ascii_only(self) -> bool:
        """The app's mode (the palette switches it: ``GameApp.action_toggle_ascii`` then
        repaints this strip)."""
        return bool(getattr(self.app, "ascii_only", False))

    def render(self) -> RenderableType:
        labels = self._labels()
        if self.ascii_only:
            return labels
        bar_style = self.get_component_rich_style("panel-tabs--bar")
        bar = Bar(  # (Textual's Underline draws this bar)
            highlight_range=self.spans.get(self.active, (0, 0)),
            highlight_style=Style.from_color(bar_style.color),
            background_style=Style.from_color(bar_style.bgcolor),
        )
        return Group(labels, bar)

    def _labels(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        for name, label in self.labels.items():
            if len(text):
                text.append(" ")
            text.append(label, self._label_style(name))
        return text

    def _label_style(self, name: str) -> Style:
        if name == self.active:
            style = self.get_component_rich_style("panel-tabs--active")
            return style + Style(bold=True, reverse=True) if self.ascii_only else style
        kind = "panel-tabs--hover" if name == self.hovered else "panel-tabs--tab"
        return self.get_component_rich_style(kind)

    def _name_at(self, x: int) -> str:
        for name, (start, end) in self.spans.items():
            if start <= x < end:
                return name
        return ""

    def on_click(self, event: events.Click) -> None:
        name = self._name_at(event.x)
        if name:
            event.stop()
            self.post_message(self.Chosen(name))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._name_at(event.x) if event.y == 0 else ""

    def on_leave(self) -> None:
        self.hovered = ""
