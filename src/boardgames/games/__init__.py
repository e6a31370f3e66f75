"""The games that ship with the library: one package per game, each with the
same modules (rules, notation, experts, render and, where there is one, the
solver), and `grid.py`, the cell naming the grid games share.

A game is used through the registry (`boardgames.get_game("squatter",
size=7)`) rather than by importing its package.
"""
