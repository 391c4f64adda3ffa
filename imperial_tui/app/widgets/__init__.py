"""One widget per panel of the main screen; each repaints only when its own figures change."""
