"""The rules engine: cards, rules, states, moves, views, codes. Imports nothing else of the package (saving and the
history live beside it, in :mod:`cut_tutor.storage`)."""

from .cards import JOKER, card_name, parse_card
from .codes import PositionError, deal_code, parse_deal_code, record_of, replay, state_from_deal
from .game import Game, HandResult, cut_for_dealer
from .moves import Move, MoveSyntaxError
from .outcome import Outcome
from .players import GreedyPlayer, Player, RandomPlayer, play_hand
from .rules import PRESETS, Rules, RulesError, load_rules
from .state import IllegalMoveError, State
from .view import View, ViewFields, unseen, view

__all__ = [
    "JOKER", "PRESETS", "Game", "GreedyPlayer", "HandResult", "IllegalMoveError", "Move",
    "MoveSyntaxError", "Outcome", "Player", "PositionError", "RandomPlayer", "Rules", "RulesError",
    "State", "View", "ViewFields", "card_name", "cut_for_dealer", "deal_code", "load_rules", "parse_card",
    "parse_deal_code", "play_hand", "record_of", "replay", "state_from_deal",
    "unseen", "view",
]  # fmt: skip
