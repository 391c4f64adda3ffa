"""``python -m imperial_tui.cli``: the same as the ``imperial`` command."""

from imperial_tui.cli import main

if __name__ == "__main__":
    main()
