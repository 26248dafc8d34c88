"""The table wing: the game master and what it stands on (the record of a table, open seats,
rematches, the chat, the clock, the bots, the lobby, the announcements). No web framework and
no transport here: a test checks it."""

__all__: list[str] = []
