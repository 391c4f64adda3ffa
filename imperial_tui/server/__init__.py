"""``imperial serve``: friends play one game together over SSH, each from their own terminal.

One process runs an asyncssh server (``ssh.py``); every connection gets its own Textual app
(``app.py``) drawn through a driver that writes to the SSH channel (``driver.py``). All apps
share one ``Hub`` (``hub.py``) of ``Table``s (``table.py``): a table owns one game, checks who
may act, applies actions through ``rules.Game``, runs computer players off the event loop,
persists every action in the ``Store`` (``store.py``, SQLite) and tells every watching app.
"""
