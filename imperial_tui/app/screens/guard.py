"""Screens that stay sane whatever the keys and the window do.

``GuardedScreen``: full screens refuse to be squeezed below a usable size.

Below its minimum a screen hides its panels and says how big the window must be, instead of
squeezing the decision list to nothing (where Textual's widgets break on a page key); keys
other than the app's own quit then do nothing, and the screen comes back as it was, focus
included, when the window grows again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, ScreenStackError
from textual.await_complete import AwaitComplete
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from imperial_tui.app.widgets.base import set_content

MIN_WIDTH = 64
MIN_HEIGHT = 20
# what still answers while a screen is too small: quitting and the help (keys and screens)
KEYS_WHILE_TOO_SMALL = frozenset({"ctrl+q", "ctrl+c", "f1"})


class TooSmall(Static):
    """The message shown instead of a screen's panels."""


class GuardedScreen(Screen[None]):
    """A screen with a minimum size (``MIN_SIZE``: columns, rows)."""

    MIN_SIZE: ClassVar[tuple[int, int]] = (MIN_WIDTH, MIN_HEIGHT)
    # a Resize to the size the screen was laid out at, with its classes, lays nothing out
    # again (``on_resize``): measured on the board only, where it saves a layout and a
    # drawing; the new-game screen's first frame came 45 ms later with it
    SAME_SIZE_RESIZE_SKIPPED: ClassVar[bool] = False

    def __init__(
        self, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name, id, classes)
        self._focus_before: Widget | None = None
        self._just_styled = False  # mounted, not yet shown (``on_screen_resume``)

    @property
    def too_small(self) -> bool:
        return self.has_class("-too-small")

    def on_mount(self) -> None:
        self._just_styled = True
        self.guard_size(self.app.size)

    def on_resize(self, event: events.Resize) -> None:
        """Only the terminal's size counts. A screen laid out again posts itself a Resize of
        its new size, and Textual's own handler (``Screen._on_resize``, after this one) lays
        out this screen and the ones beneath the top one at the event's size: a Resize of a
        size the window had a moment ago, passed on like that, can set two screens sending
        each other the old and the new size without end (a monkey run: a history browser
        over the board, laid out at 10x4 and 20x5 by turns in a 20x5 window, for good). Such
        a Resize lays this screen out at the terminal's size instead, and goes no further."""
        size = self.app.size
        if event.size != size:
            event.prevent_default()  # not Textual's handler, with the old size
            self._screen_resized(size)
        elif (
            self.SAME_SIZE_RESIZE_SKIPPED
            and self._compositor.size == size
            and self._has_breakpoint_classes(size)
        ):
            # laid out at this size already, with its classes: the Resize a screen posts
            # itself once it is first laid out. Textual's handler would lay it out and draw
            # it again, the same (a tenth of the work before the board's first frame, #26)
            event.prevent_default()
        self.guard_size(size)

    def breakpoint_classes(self, size: Size) -> dict[str, bool]:
        """The classes Textual's breakpoints give the screen at ``size`` (what
        ``Screen._on_resize`` sets): in each direction, the class of the largest breakpoint
        reached is on, the others off."""
        app = self.app
        across = self.HORIZONTAL_BREAKPOINTS
        down = self.VERTICAL_BREAKPOINTS
        classes: dict[str, bool] = {}
        for reach, points in (
            (size.width, app.HORIZONTAL_BREAKPOINTS if across is None else across),
            (size.height, app.VERTICAL_BREAKPOINTS if down is None else down),
        ):
            reached = [p for p in points or [] if reach >= p[0]]
            for point in points or []:
                classes[point[1]] = bool(reached) and point == max(reached)
        return classes

    def _has_breakpoint_classes(self, size: Size) -> bool:
        return all(self.has_class(name) == on for name, on in self.breakpoint_classes(size).items())

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown. The first time, right after it was mounted, its widgets have just been
        styled, each as it was mounted: Textual would style every one again (a sixth of the
        work before the app's first frame). Later, back on top of the stack, they are styled
        again as before (the styles may have changed meanwhile: ASCII mode, say). This
        handler runs before Textual's (``Screen._on_screen_resume``)."""
        if self._just_styled:
            self._just_styled = False
            event.refresh_styles = False
        self.guard_size(self.app.size)

    def guard_size(self, size: Size) -> None:
        width, height = self.MIN_SIZE
        small = size.width < width or size.height < height
        if small:
            # set only when the words change: an update lays the screen out again
            set_content(_message(self), too_small_words(size, self.MIN_SIZE))
        if small == self.too_small:
            return
        if small:
            self._focus_before = self.focused
            self.set_focus(None)
            self.add_class("-too-small")
        else:
            self.remove_class("-too-small")
            focus, self._focus_before = self._focus_before, None
            if focus is not None and focus.is_attached:
                self.set_focus(focus)
        self.refresh_bindings()  # ``check_action`` answers otherwise now: the footer's keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While too small, the screen's own keys do nothing (the panels are hidden)."""
        if self.too_small:
            return False
        return super().check_action(action, parameters)


def too_small_words(size: Size, least: tuple[int, int]) -> str:
    return (
        f"The window is {size.width}x{size.height}. Make it at least {least[0]}x{least[1]} "
        "to go on (ctrl+q quits, F1 help); nothing is lost meanwhile."
    )


def _message(screen: Screen[Any]) -> TooSmall:
    """The screen's too-small notice, mounted the first time it is needed."""
    found = screen.query(TooSmall)
    if found:
        return found.first()
    message = TooSmall(id="too-small")
    screen.mount(message)
    return message


def window_too_small(app: App[None]) -> bool:
    """Whether a guarded screen of the app (the board, the new-game screen...) is below its
    minimum size now: judged by the terminal's size, not by the screen's class, since a
    screen under a dialog is laid out again only when it is back on top."""
    return _least_size(app) is not None


def _least_size(app: App[None]) -> tuple[int, int] | None:
    """The size the guarded screens of the app need, when the window is smaller (None:
    it is large enough)."""
    size = app.size
    needs = [
        screen.MIN_SIZE
        for screen in app.screen_stack
        if isinstance(screen, GuardedScreen)
        and (size.width < screen.MIN_SIZE[0] or size.height < screen.MIN_SIZE[1])
    ]
    if not needs:
        return None
    return max(width for width, _ in needs), max(height for _, height in needs)


def input_allowed(app: App[None], event: events.Event) -> bool:
    """Whether a key or a mouse event may act while the window is too small: only the keys
    that quit or open the help, and anything on the screens they open (the quit question,
    the help: ``WHILE_TOO_SMALL``). Everything else would act on a game nobody can see: a
    dialog still open under the message, or the decision list behind it (two Enters played
    two moves)."""
    if not isinstance(event, events.Key | events.MouseEvent) or not window_too_small(app):
        return True
    if isinstance(event, events.Key) and event.key in KEYS_WHILE_TOO_SMALL:
        return True
    return bool(app.screen_stack) and bool(getattr(app.screen, "WHILE_TOO_SMALL", False))


if TYPE_CHECKING:
    # a mixin of screens of any result: checked as one (the result is the screen's own)
    _Screen = Screen[Any]
else:
    _Screen = object


class DismissFromTop(_Screen):
    """A screen that closes itself only while it is the top screen.

    Two quick Enters queue two "submitted"/"selected" messages in a dialog (or in Textual's
    command palette); the first closes it and Textual's ``dismiss`` would then pop whatever
    screen lies beneath for the second: the game itself. Mix in before the screen class."""

    def dismiss(self, result: object = None) -> AwaitComplete:
        try:
            on_top = self.app.screen is self
        except ScreenStackError:
            on_top = False
        if not on_top:
            return AwaitComplete.nothing()
        return super().dismiss(result)


class GuardedDialog(_Screen):
    """A dialog over the board (or another guarded screen) that hides itself too while the
    window is too small for that screen, saying so as the screen does. Drawn in such a
    window it was cut off, its question half gone, over the notice (its keys wait anyway:
    ``input_allowed``); it comes back as it was when the window grows. A dialog that
    answers in a small window (``WHILE_TOO_SMALL``: the quit question, the help) stays as
    it is. Mix in before the screen class: Textual calls these handlers as well as the
    screen's own."""

    def on_mount(self) -> None:
        self._guard_dialog()

    def on_resize(self, event: events.Resize) -> None:
        self._guard_dialog()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self._guard_dialog()

    _focus_kept: Widget | None = None  # what had the keys before the dialog hid

    def _guard_dialog(self) -> None:
        if getattr(self, "WHILE_TOO_SMALL", False):
            return
        least = _least_size(self.app)
        small = least is not None
        if least is not None:
            set_content(_message(self), too_small_words(self.app.size, least))
        if small == self.has_class("-too-small"):
            return
        if small:
            self._focus_kept = self.focused
            self.set_focus(None)
        self.set_class(small, "-too-small")
        if not small:
            focus, self._focus_kept = self._focus_kept, None
            if focus is not None and focus.is_attached:
                self.set_focus(focus)
