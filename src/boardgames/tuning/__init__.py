"""Tuning an AI's parameters (`selection`: natural selection by round robins)."""
