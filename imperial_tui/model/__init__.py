"""The app's model, without Textual: the game being played and everything around it that is
not a rule (seats, save file, undo limits, hidden cash, computer players' pace and reasons),
the "since your last turn" recap and the history browser's past positions. Tested without a
terminal; the app, the command line and the server build on it."""
