"""The app's command palette (ctrl+p): ours, which closes only once however fast Enter is
pressed (``imperial_tui.app.commands.Palette``), also for the lists Textual opens from it (the
theme list). Part of ``GameApp``, kept apart from the game loop."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.command import CommandListItem
    from textual.screen import Screen

    _App = App[None]
else:
    _App = object


class PaletteActions(_App):
    ascii_only: bool

    def action_command_palette(self) -> None:
        """ctrl+p: the command palette (ours closes only once, see ``Palette``)."""
        from textual.command import CommandPalette

        from imperial_tui.app.commands import Palette

        # not twice, even when another screen (a recap, a hand-over) came over the first
        buried = any(isinstance(screen, CommandPalette) for screen in self.screen_stack)
        if self.use_command_palette and not CommandPalette.is_open(self) and not buried:
            prompt = "Search for commands" + ("..." if self.ascii_only else "…")
            self.push_screen(Palette(id="--command-palette", placeholder=prompt))

    def search_themes(self) -> None:
        """The palette's "Theme" command: Textual's theme list in our palette, which closes
        only once (two quick Enters in Textual's own closed the game screen beneath)."""
        from textual.theme import ThemeProvider

        from imperial_tui.app.commands import Palette

        prompt = "Search for themes" + ("..." if self.ascii_only else "…")
        self.push_screen(Palette(providers=[ThemeProvider], placeholder=prompt))

    def search_commands(
        self, commands: list[CommandListItem], placeholder: str = "Search for commands…"
    ) -> Any:
        """A list of commands in our palette (see ``search_themes``)."""
        from textual.command import SimpleProvider

        from imperial_tui.app.commands import Palette

        screen: Screen[Any] = self.screen
        return self.push_screen(
            Palette(providers=[SimpleProvider(screen, commands)], placeholder=placeholder)
        )
