"""OpenSpiel both ways (the `openspiel` extra).

- `registration.register()`: the library's games as pyspiel games
  ("boardgames_squatter"), for OpenSpiel's algorithms and checks;
- `loaded.load_game(name)`: an OpenSpiel game as a library game, which
  `get_game("openspiel:tic_tac_toe")` builds.

Neither module is imported until it is used: pyspiel loads only then.
"""
