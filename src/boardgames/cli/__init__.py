"""The `boardgames` command: a thin click layer over the library.

Each module below owns a few commands and lists them in COMMANDS.  The
group knows every command's name and one-line help up front (`LAZY`) and
imports a command's module only when that command runs, so `boardgames
--help` imports no command module and `boardgames list` only the games
(tests/cli/test_startup.py checks that LAZY matches the modules).
"""

from __future__ import annotations

import click

from .common import LazyGroup

#: Command name -> ("module:attribute", the first line of its help).
LAZY: dict[str, tuple[str, str]] = {
    "play": (
        "boardgames.cli.play:play",
        "Play GAME against the computer (or watch two AIs with --ai2).",
    ),
    "match": ("boardgames.cli.play:match", "N games between two AIs, colours alternating."),
    "list": ("boardgames.cli.tools:list_games", "The games, their options, AIs and evaluators."),
    "analyse": (
        "boardgames.cli.tools:analyse",
        "Print the game's report on the position in FILE (or its Part A answer).",
    ),
    "bestmove": (
        "boardgames.cli.tools:bestmove",
        "The AI's move in FILE: score, PV, depth, speed.",
    ),
    "perft": (
        "boardgames.cli.tools:perft_command",
        "Count move sequences of length DEPTH (tests move generation).",
    ),
    "bench": ("boardgames.cli.tools:bench", "Search and perft speed on benchmark positions."),
    "solve": (
        "boardgames.cli.tools:solve",
        "Solve GAME exactly (small boards): winner, value, best moves.",
    ),
    "engine": ("boardgames.cli.engine:engine", "Speak the engine protocol on stdin/stdout."),
    "tune": (
        "boardgames.cli.tune:tune",
        "Tune the weights of GAME's evaluator.",
    ),
    "connect": (
        "boardgames.cli.net:connect",
        "Play one game of GAME as a client of the tournament server at HOST PORT.",
    ),
    "serve": (
        "boardgames.cli.net:serve",
        "Run a GAME tournament server: each game is played by the next two clients to connect.",
    ),
    "tournament": (
        "boardgames.cli.tournament:tournament",
        "A round robin between AIs at GAME: every pair plays N games.",
    ),
    "ladder": (
        "boardgames.cli.ladder:ladder",
        "Every named AI of GAME in a standing round robin, rated with alphabeta = 0.",
    ),
    "web": (
        "boardgames.cli.web:web",
        "Play, watch and analyse every game in the browser (a local web server).",
    ),
}

#: The modules that define the commands (each lists its own in COMMANDS).
MODULES = tuple(sorted({where.partition(":")[0] for where, _ in LAZY.values()}))


@click.group(
    cls=LazyGroup, lazy=LAZY, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(package_name="boardgames-ai")
def main() -> None:
    """Adversarial game search: play, analyse, solve and benchmark board games."""
