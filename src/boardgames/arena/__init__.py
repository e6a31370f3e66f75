"""The arena: games between players, their records, and the engine protocol.

from boardgames.arena import play_game, play_match, GameRecord
"""

from .match import MatchSummary, play_game, play_match
from .records import GameRecord

__all__ = ["GameRecord", "MatchSummary", "play_game", "play_match"]
