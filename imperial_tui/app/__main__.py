"""``python -m imperial_tui.app [FILE]``: the app on a save file (or the new-game screen)."""

import sys

from imperial_tui.app.local import run

run(sys.argv[1] if len(sys.argv) > 1 else None)
