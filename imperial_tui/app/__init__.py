"""The Textual app: the local app (``ImperialApp``), its screens and widgets, the command
palette and the crash line. The SSH server's app (``imperial_tui.server.app``) shows the same
screens to a remote player."""

from imperial_tui.app.local import ImperialApp, run, run_app

__all__ = ["ImperialApp", "run", "run_app"]
