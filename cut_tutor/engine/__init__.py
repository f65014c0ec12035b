"""The rules engine: cards, rules, states, moves, views, codes, storage. Imports nothing else of the package."""

from .cards import JOKER, card_name, parse_card
from .codes import PositionError, deal_code, parse_deal_code, record_of, replay, state_from_deal
from .game import Game, HandResult, cut_for_dealer
from .moves import Move, MoveSyntaxError
from .outcome import Outcome
from .players import GreedyPlayer, Player, RandomPlayer, play_hand
from .rules import PRESETS, Rules, RulesError, load_rules
from .state import IllegalMoveError, State
from .storage import History, SaveError, load_game, read_save, save_game
from .view import View, unseen, view

__all__ = [
    "JOKER", "PRESETS", "Game", "GreedyPlayer", "HandResult", "History", "IllegalMoveError", "Move",
    "MoveSyntaxError", "Outcome", "Player", "PositionError", "RandomPlayer", "Rules", "RulesError", "SaveError",
    "State", "View", "card_name", "cut_for_dealer", "deal_code", "load_game", "load_rules", "parse_card",
    "parse_deal_code", "play_hand", "read_save", "record_of", "replay", "save_game", "state_from_deal",
    "unseen", "view",
]  # fmt: skip
