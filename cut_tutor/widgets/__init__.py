"""The notebook and Voilà front end: the table (anywidget), the tutor app, the game picker and the replayer
(ipywidgets).

The engine and the coach never import this package; it needs the ``widgets`` extra.
"""

from .app import GameApp
from .picker import GamePicker
from .replayer import Replayer
from .table import TableWidget, move_label, table_data

__all__ = ["GameApp", "GamePicker", "Replayer", "TableWidget", "move_label", "table_data"]
