"""Tests of the simulator, its engines and seeds, and tournaments."""
