"""A learner's files beside the engine: saves resumed exactly, one game per tab, and the SQLite history of finished
games. The engine never imports it; the app, the teacher's view, the review and the puzzle's progress do."""

from .files import SaveError, load_game, read_save, save_game
from .history import History
from .saves import Saves

__all__ = ["History", "SaveError", "Saves", "load_game", "read_save", "save_game"]
