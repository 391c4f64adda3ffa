"""F1: the rules pages (same text as `imperial rules [TOPIC]`) and the key reference."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.app.screens.guard import DismissFromTop
from imperial_tui.app.widgets.footer import KeysFooter
from imperial_tui.render.rules_text import page, topics
from imperial_tui.render.style import to_ascii
from rules import RuleSet


class HelpScreen(DismissFromTop, ModalScreen[None]):
    WHILE_TOO_SMALL = True  # keys work here in a window too small for the game (guard.py)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "close", "close", id="help.close"),
        # the topics list keeps the focus (up/down: topic), so the page scrolls from anywhere
        Binding("pagedown,space", "scroll(1)", "scroll", id="help.down", priority=True),
        Binding("pageup", "scroll(-1)", "scroll up", id="help.up", show=False, priority=True),
    ]

    def __init__(self, topic: str = "keys", rules: RuleSet | None = None) -> None:
        """``rules``: the game on show, whose option values each page then lists."""
        super().__init__()
        self.topic = topic if topic in topics() else "keys"
        self.rules = rules

    def compose(self) -> ComposeResult:
        with Horizontal(id="help"):
            yield OptionList(*[Option(t, id=t) for t in topics()], id="help-topics")
            with VerticalScroll(id="help-body"):
                yield Static(id="help-text")
        yield KeysFooter()

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        ol.highlighted = topics().index(self.topic)
        self.show_topic(self.topic)
        ol.focus()

    def show_topic(self, topic: str) -> None:
        """The page from its top (the keys are a topic of their own, at the end of the
        list); in ASCII mode in plain characters."""
        plain = to_ascii if getattr(self.app, "ascii_only", False) else str
        title, text = page(topic, self.rules)
        body = Text(plain(title), style="bold")
        body.append("\n\n" + plain(text))
        if topic != "keys":
            body.append("\n\nThe keys: the last topic, keys.", style="dim")
        self.query_one("#help-text", Static).update(body)
        self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.show_topic(event.option.id)

    def action_scroll(self, pages: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        if pages > 0:
            body.scroll_page_down()
        else:
            body.scroll_page_up()

    def action_close(self) -> None:
        self.dismiss(None)
