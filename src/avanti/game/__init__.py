"""Avanti (Zoch), the flagship game: board, deck, options, state, commands, events and rules."""
