"""Small modal dialogs: yes/no confirmation, one-line input, and the hot-seat hand-over."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from imperial_tui.screens.guard import DismissFromTop


class ConfirmScreen(DismissFromTop, ModalScreen[bool]):
    """Ask before anything that loses work (undo, quit, a new game)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "no", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Static("[b]y[/b]/enter yes   [b]n[/b]/escape no", classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PromptScreen(DismissFromTop, ModalScreen[str | None]):
    """Ask for one line of text (a file name, an amount)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="prompt.cancel")
    ]

    def __init__(self, question: str, value: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Input(self.value, id="prompt-input")
            yield Static("enter accept   escape cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class HandoverScreen(DismissFromTop, Screen[None]):
    """Hot-seat with hidden cash: a blank screen between two humans' private views."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "go", "I am ready", id="handover.go")]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"[b]{self.player}[/b] decides next.", classes="question")
            yield Static(f"Pass the keyboard to {self.player}, then press Enter.", classes="hint")

    def action_go(self) -> None:
        self.dismiss(None)
