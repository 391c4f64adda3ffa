"""Text rendering shared by the command line, the app and the SSH server: actions and events in
plain words, the board as text (the map, a region's neighbours), the standings and the rules
pages, with the colours and ASCII fallbacks of ``style``. Rich at most, never Textual; it reads
the engine (``rules``) and nothing of the app."""
