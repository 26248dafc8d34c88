"""Hardening: stateful properties, hostile input, hidden information and determinism, per game."""
