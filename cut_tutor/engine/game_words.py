"""The shape of a game's own words, which each game's module fills in beside its rules (its ``WORDS``), and the
grammar every game's rules and every room build their sentences with.

A game names its cards, its take and its turn's steps in its own way: Clear 4 prints ``1`` and ``PUSH`` on its
cards and calls taking the pile passing (R22). Those words are a :class:`Vocabulary` on the game's module, found
by ``module_of(rules).WORDS``; the shared words of :mod:`cut_tutor.engine.words` read them, so a third game brings
its words with its module.

>>> words = Vocabulary(faces={"A": "1"}, prose={"JK": "Joker"})
>>> words.face(1), words.face("K"), words.word("JK"), count(2, words.word("JK")), pile_number(1)
('1', 'K', 'Joker', '2 Jokers', 'pile 2')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from .cards import card_name

_NONE: Mapping[str, str] = {}
#: The button that adds nothing to the cards just laid, ending the turn; a game's Turn Status may name it.
ADD_NONE = "Add none"


class Vocabulary(NamedTuple):
    """One game's own words.

    ``faces``     card name → the word printed on the card, where the game writes it otherwise than its short name.
    ``prose``     card name → the word a sentence uses, where it differs from the face (CUT's ``JK`` is a Joker).
    ``passes``    the button for taking the pile where the game calls it passing (Clear 4: ``Pass``); empty where
                  a take is named by the card it shows (CUT: ``Take (show K)``, R11).
    ``took``      the legend's word for the 💥 mark of a seat that took the pile (``Bust``, ``Passed``).
    ``clear_play``  a clear play's button, ``{n}`` its count: CUT's ``Play {n}× clear`` (R9), Clear 4's one card.
    ``landed_first``  whether a landed blind card counts as card 1 of every choice of what to add to it (CUT, R13).
    ``phases``    what the Turn Status adds while your turn is in one of the game's steps, by phase.
    ``blurb``     what the game picker says the game is.
    """

    faces: Mapping[str, str] = _NONE
    prose: Mapping[str, str] = _NONE
    passes: str = ""
    took: str = "Bust"
    clear_play: str = "Play {n}× clear"
    landed_first: bool = False
    phases: Mapping[str, str] = _NONE
    blurb: str = ""

    def face(self, card: int | str) -> str:
        """A card as the table shows it: its short name, or the word this game prints on it."""
        name = card if isinstance(card, str) else card_name(card)
        return self.faces.get(name, name)

    def word(self, card: int | str) -> str:
        """A card as a sentence names it: the prose word where the game has one, otherwise its face."""
        name = card if isinstance(card, str) else card_name(card)
        return self.prose.get(name, self.face(name))


def plural(noun: str) -> str:
    """``card`` → ``cards``, ``7`` → ``7s``, ``PUSH`` → ``PUSHes``."""
    return noun + ("es" if noun.lower().endswith(("s", "sh", "ch", "x")) else "s")


def count(n: float, noun: str) -> str:
    """``1 card``, ``2 cards``, ``2.5 points``."""
    return f"{n:g} {noun if n == 1 else plural(noun)}"


def pile_number(k: int) -> str:
    """A player's stack as the buttons and badges name it: ``pile 2`` (``k`` from 0)."""
    return f"pile {k + 1}"
