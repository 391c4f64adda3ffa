"""Small modal dialogs: yes/no confirmation, one-line input, a choice among a few options, a
page of text (a region's details), and the hot-seat hand-over."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.app.screens.guard import DismissFromTop, GuardedDialog
from rules.common import counted
from rules.decisions import Decision


class ConfirmScreen(DismissFromTop, GuardedDialog, ModalScreen[bool]):
    """Ask before anything that loses work (undo, quit, a new game)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "no", id="confirm.no"),
    ]

    def __init__(self, question: str, while_too_small: bool = False) -> None:
        """``while_too_small``: the quit question, answered even in a window too small for
        the game (guard.py); every other question waits until the window grows."""
        super().__init__()
        self.question = question
        self.WHILE_TOO_SMALL = while_too_small

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Static("[b]y[/b]/enter yes   [b]n[/b]/escape no", classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PromptScreen(DismissFromTop, GuardedDialog, ModalScreen[str | None]):
    """Ask for one line of text (a file name, an amount).

    ``check`` (the text -> why it will not do, or None) keeps the box open on a text that
    will not do, its reason shown under the line, so that the player types again: closing
    it would hand the next Enter to the decision list behind, which plays a move."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="prompt.cancel")
    ]

    def __init__(
        self, question: str, value: str = "", check: Callable[[str], str | None] | None = None
    ) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Input(self.value, id="prompt-input")
            yield Static("", id="prompt-problem", classes="problem")
            yield Static("enter accept   escape cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        problem = self.check(text) if self.check is not None and text else None
        if problem is not None:
            shown = self.query_one("#prompt-problem", Static)
            shown.update(Text(problem))
            shown.display = True
            return
        self.dismiss(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_one("#prompt-problem", Static).display = False

    def action_cancel(self) -> None:
        self.dismiss(None)


T = TypeVar("T")  # what the options stand for


class ChoiceScreen(DismissFromTop, GuardedDialog, ModalScreen[T | None]):
    """Pick one of a few options by keys (what to do in a region chosen on the map, which
    of two moves to the same place); escape picks nothing (None)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="choice.cancel")
    ]

    def __init__(self, question: str, options: Sequence[tuple[RenderableType, T]]) -> None:
        super().__init__()
        self.question = question
        self.values = [value for _, value in options]
        self.labels = [label for label, _ in options]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield OptionList(
                *[Option(label, id=str(i)) for i, label in enumerate(self.labels)],
                id="choice-options",
            )
            yield Static("up/down, enter choose   escape cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.values[int(event.option.id or 0)])

    def action_cancel(self) -> None:
        self.dismiss(None)


class InfoScreen(DismissFromTop, GuardedDialog, ModalScreen[None]):
    """A page of text over the game (a region's details); page up/down scroll it. Its keys
    stay on its last line while the text scrolls under them (docked: at 80x24 a region's
    details are taller than the window, and the keys at their end were out of view)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,i,q", "close", "close", id="info.close")
    ]

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog info"):
            yield Static(self.body, id="info-text")
            yield Static("escape close   up/down scroll", id="info-hint", classes="hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class HandoverScreen(DismissFromTop, Screen[bool]):
    """Hot-seat with hidden cash: a blank screen between two humans' private views. It names
    who decides next, for which nation and what; the previous player may still take back
    their decision here (ctrl+z), before the keyboard changes hands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go", "I am ready", id="handover.go"),
        Binding("ctrl+z", "undo", "undo", id="handover.undo", show=False),
    ]

    def __init__(
        self,
        player: str,
        nation: str | None = None,
        kind: Decision | None = None,
        previous: str | None = None,
        computer_moves: int = 0,
    ) -> None:
        """``computer_moves``: the computers' decisions since ``previous``'s, which the undo
        takes back with it (said: the hand-over's undo asks nothing more)."""
        super().__init__()
        self.player = player
        self.nation = nation
        self.kind = kind
        self.previous = previous
        self.computer_moves = computer_moves

    def compose(self) -> ComposeResult:
        from rules.engine import DECISION_WORDS

        what = DECISION_WORDS.get(self.kind, self.kind) if self.kind is not None else ""
        for_nation = f" for {self.nation}" if self.nation else ""
        with Vertical(classes="dialog"):
            yield Static(f"Next: [b]{self.player}[/b]{for_nation}, to {what}.", classes="question")
            yield Static(f"Pass the keyboard to {self.player}, then press Enter.", classes="hint")
            if self.previous and self.previous != self.player:
                after = ""
                if self.computer_moves:
                    moves = counted(self.computer_moves, "computer move", "computer moves")
                    after = f" and the {moves} after it"
                yield Static(
                    f"{self.previous}: ctrl+z takes back your last decision{after} first.",
                    classes="hint",
                )

    def action_go(self) -> None:
        self.dismiss(False)

    def action_undo(self) -> None:
        self.dismiss(True)
