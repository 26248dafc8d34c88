"""Tests of the RL adapters (PettingZoo, OpenSpiel), the scripted draws and mare's encoding."""
