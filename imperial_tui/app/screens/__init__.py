"""The app's screens: new game, main game, help, confirm, hand-over, game over."""
