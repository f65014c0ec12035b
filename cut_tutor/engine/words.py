"""The player's words that the engine and every room share: card faces, counts, seat names and move labels.

One word per thing, as the guide's buttons write it. *The pile* is the cards in the middle; each of a player's
four stacks (a Board card over its Risk card) is named by the number on its badge, as the buttons name it:
``pile 2``. Buttons read like the guide's: ``Play 2× 9``, ``Play 3× A — clear``, ``Play 4× clear``,
``Take (show K)``, ``Flip pile 2``, ``Play 2× 9 + Risk pile 2``. Each audience's own words live beside it, built
from these: the coach's phrases and the analysis table's in :mod:`cut_tutor.coach.words`, the Play Bar's and the
table's in :mod:`cut_tutor.widgets.words`, the review's in :mod:`cut_tutor.review.words`; a word is in one of them
only, so the same thing never has two names. Each game's own words (Clear 4's faces, its *Pass*) are on its game
module, ``WORDS``, read here by the game's name (:func:`words_of`).

>>> move_label(Move.parse("3×A"), clears=True), move_label(Move.parse("gamble 2"))
('Play 3× A — clear', 'Risk pile 2')
>>> count(1, "card"), count(2, "card"), acts("You", "deal"), acts("Ann", "deal")
('1 card', '2 cards', 'You deal', 'Ann deals')
>>> face("A", "Clear 4"), card_word("JK")
('1', 'Joker')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .cards import JOKER, WILD
from .game_words import ADD_NONE, Vocabulary
from .game_words import count as count
from .game_words import pile_number as pile_number
from .game_words import plural as plural
from .games import GAME_MODULES
from .moves import ADD, CLEAR, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from .rules import CUT

#: The name the seat at the keyboard goes by: it takes "you deal", not "you deals".
YOU = "You"
#: The seats' names in a new setup: you, then AI opponents named apart from the three coaches (Daryl, Madonna and
#: Marty give advice; they do not sit at the table).
SEAT_NAMES = ("You", "Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gia")

_NUMBERS = ("no", "one", "two", "three", "four", "five")
_IRREGULAR = {"be": "is", "do": "does", "go": "goes", "have": "has"}
#: The verb a button puts before a stack it acts on (``Flip pile 2``), which the advice's phrases use too.
STACK_VERBS = {FLIP: "Flip", GAMBLE: "Risk", TURNUP: "Turn up"}


def game_of(view: Mapping[str, Any]) -> str:
    """The game a view is of (its rules name Clear 4; CUT's leave the game out)."""
    return str(view["rules"].get("game", CUT))


def words_of(game: str) -> Vocabulary:
    """A game's own words, kept on its module beside its rules (``module_of(rules).WORDS``), by the game's name."""
    return GAME_MODULES[game].WORDS


def face(card: int | str, game: str = CUT) -> str:
    """A card as the table shows it: its short name, or the word this game prints on it."""
    return words_of(game).face(card)


def card_word(card: int | str, game: str = CUT) -> str:
    """A card as a sentence names it: ``Joker`` for CUT's ``JK``, otherwise its face."""
    return words_of(game).word(card)


def cards_text(cards: Iterable[int], game: str = CUT) -> str:
    """Some cards' faces in a row (``Q 4``), or ``nothing``."""
    return " ".join(face(card, game) for card in cards) or "nothing"


def pts(n: int) -> str:
    """Card points, short: ``1 pt``, ``25 pts``."""
    return f"{n} pt" if n == 1 else f"{n} pts"


def percent(p: float) -> str:
    """A chance in whole per cent: ``62%``."""
    return f"{p:.0%}"


def number(n: int) -> str:
    """A small count in words (``two``), larger ones in figures."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat as the table names it: the player's name when there are names, else ``seat 2``."""
    return names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """Every seat's name as the table writes it: the game's names when they cover the seats, else the names a new
    setup gives (:data:`SEAT_NAMES`: the record's seat 0 is *You*), so a seat never has a second name."""
    return list((names if names and len(names) >= players else SEAT_NAMES)[:players])


def who(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat inside a sentence: as :func:`seat_name`, with *You* written ``you``."""
    name = seat_name(seat, names)
    return "you" if name == YOU else name


def and_list(items: Sequence[str]) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cleo``."""
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def acts(subject: str | Sequence[str], verb: str) -> str:
    """A subject and its verb agreeing: ``You deal``, ``Ann deals``, ``Ann and Ben win``, ``Marty goes out``."""
    names = [subject] if isinstance(subject, str) else list(subject)
    if len(names) == 1 and names[0].lower() != "you":
        first, _, rest = verb.partition(" ")
        verb = " ".join([_IRREGULAR.get(first, plural(first)), rest]).strip()
    return f"{and_list(names)} {verb}"


def move_label(
    move: Move, *, game: str = CUT, clears: bool = False, names: Sequence[str] | None = None, landed: int = 0
) -> str:
    """A move's button text on its own (:func:`move_labels` keeps a seat's moves apart).

    ``clears`` marks a play that completes four of its rank (R10, R22), the option easiest to miss; ``names``
    name the seat a PUSH sends the pile to. In CUT the card a blind play landed (``landed``, its rank) is card 1
    of every choice of what to add to it (R13): ``Play 1× 5`` sends it alone, ``Play 2× 5`` adds one more.

    >>> [move_label(Move.parse(t)) for t in ("take K s2", "2×9 s1", "clear 10+JK", "add 1×5", "done")]
    ['Take (show K from pile 2)', 'Play 2× 9 (pile 1)', 'Play 2× clear', 'Play 2× 5', 'Done']
    >>> move_label(Move.parse("add 0"), landed=5), move_label(Move.parse("add 1×5 s3"), landed=5)
    ('Play 1× 5', 'Play 2× 5 (pile 3)')
    >>> [move_label(Move.parse(t), game="Clear 4", names=["You", "Daryl"]) for t in ("take", "2×A+J*", "push → 1")]
    ['Pass', 'Play 2× 1 + 1× JOKER', 'Push to Daryl']
    """
    return _label(move, game, clears, names, detail=False, landed=landed)


def move_labels(
    moves: Iterable[Move],
    *,
    game: str = CUT,
    clears: Collection[Move] = (),
    names: Sequence[str] | None = None,
    landed: int = 0,
) -> dict[Move, str]:
    """Each of a seat's moves with its button text, no two alike (``landed``: as for :func:`move_label`).

    A clear play is labelled by its size (``Play 1× clear``), so a 10 and a Joker would read the same: where two
    labels meet, each names its cards (``Play 1× clear (10)``, ``Play 1× clear (JK)``).

    >>> sorted(move_labels([Move.parse("clear 10"), Move.parse("clear JK"), Move.parse("clear 10+JK")]).values())
    ['Play 1× clear (10)', 'Play 1× clear (JK)', 'Play 2× clear']
    """
    plain = {move: _label(move, game, move in clears, names, detail=False, landed=landed) for move in moves}
    seen = Counter(plain.values())
    return {
        move: _label(move, game, move in clears, names, detail=True, landed=landed) if seen[text] > 1 else text
        for move, text in plain.items()
    }


def combo_label(move: Move, stack: int, play: str) -> str:
    """Risk Play's one button for a play (labelled ``play``) and the gamble on a stack it uncovers (R17, ``stack``
    from 0). A play from that pile alone is named by the gamble, as the guide's button is.

    >>> combo_label(Move.parse("2×9 s1"), 0, "Play 2× 9 (pile 1)")
    'Play 2× 9 + Risk pile 1'
    >>> combo_label(Move.parse("3×9 s1 s2"), 1, "Play 3× 9 (piles 1, 2)")
    'Play 3× 9 (piles 1, 2) + Risk pile 2'
    """
    if move.stacks == (stack,):
        play = _label(move, CUT, False, None, detail=False, place=False)
    return f"{play} + {move_label(Move(GAMBLE, stacks=(stack,)))}"


class _Asked(NamedTuple):
    """What a button's text is asked for: the move, the game, whether it clears, the seats' names, whether to name a
    clear play's cards (``detail``) and the piles a play draws on (``place``), and the card a blind play landed."""

    move: Move
    game: str
    clears: bool
    names: Sequence[str] | None
    detail: bool
    place: bool
    landed: int


def _played(asked: _Asked) -> str:
    """A play, or the cards added to a landed blind card (R13; Clear 4's JOKERs joining, R22)."""
    move, game, kind = asked.move, asked.game, asked.move.kind
    where = _where(move) if asked.place else ""
    clear = " — clear" if asked.clears else ""
    if kind == ADD and words_of(game).landed_first:  # R13: the landed card is card 1, and each choice counts it
        rank = move.rank or asked.landed
        return f"Play {move.size + 1}× {face(rank, game) if rank else 'turned card'}{where}{clear}"
    if kind == ADD and not move.size:
        return ADD_NONE
    jokers = f" + {move.jokers}× {face(WILD, game)}" if move.jokers else ""  # Clear 4's JOKERs joining (R22)
    return f"{kind.capitalize()} {move.size - move.jokers}× {face(move.rank, game)}{jokers}{where}{clear}"


def _pushed(asked: _Asked) -> str:
    """Clear 4's PUSH card, sending the pile to a seat (R22)."""
    return f"Push to {seat_name(asked.move.to, asked.names)}{_where(asked.move)}"


def _cleared(asked: _Asked) -> str:
    """A clear play, as the game words it: CUT's 10s and Jokers (R9), or Clear 4's one CLEAR card (R22); where two
    buttons would read alike, each names its cards from the hand."""
    move, words = asked.move, words_of(asked.game)
    hand = [words.face(move.rank)] * move.n + [words.face(JOKER)] * move.jokers if asked.detail else []
    return f"{words.clear_play.format(n=move.size)}{_where(move, hand)}"


def _taken(asked: _Asked) -> str:
    """A take (R11), shown card and all; a game that calls it passing names it so (Clear 4, R22)."""
    move, passes = asked.move, words_of(asked.game).passes
    if passes:
        return passes
    if not move.rank:
        return "Take the pile"
    where = f" from {pile_number(move.stacks[0])}" if move.stacks else ""
    return f"Take (show {face(move.rank, asked.game)}{where})"


def _stacked(asked: _Asked) -> str:
    """A card turned on one of the seat's stacks: flip, Risk or turn up."""
    return f"{STACK_VERBS[asked.move.kind]} {pile_number(asked.move.stacks[0])}"


#: Each move kind's button text; DONE, the last kind, ending a run of gambles (R17), reads "Done".
_WORDED = {PLAY: _played, ADD: _played, PUSH: _pushed, CLEAR: _cleared, TAKE: _taken,
           **dict.fromkeys(STACK_VERBS, _stacked)}  # fmt: skip


def _label(
    move: Move, game: str, clears: bool, names: Sequence[str] | None, detail: bool, place: bool = True, landed: int = 0
) -> str:
    """The button text; ``place`` names the piles a play draws on, ``detail`` the cards of a clear play."""
    worded = _WORDED.get(move.kind)
    return "Done" if worded is None else worded(_Asked(move, game, clears, names, detail, place, landed))


def _where(move: Move, cards: Sequence[str] = ()) -> str:
    """`` (piles 1, 3)``: the stacks a move plays from, after any cards named."""
    word = "piles " if len(move.stacks) > 1 else "pile "
    stacks = [word + ", ".join(str(k + 1) for k in move.stacks)] if move.stacks else []
    parts = [*cards, *stacks]
    return f" ({', '.join(parts)})" if parts else ""


def busts_mark(busts: int) -> str:
    """A seat's busts as one mark with a count, however many: ``💥×8``."""
    return f"💥×{busts}" if busts else ""


def hand_over_title(winner: str | None) -> str:
    """The round-over panel's heading: who went out, or the stalemate."""
    return f"{winner} went out — hand over" if winner is not None else "Stalemate — hand over"


def drawn_status(
    turns: int, turn: int, names: Sequence[str], winner: int | None = None, stalemate: bool = False
) -> str:
    """The last line of a position drawn in a notebook: who went out, the stalemate, or the turn (numbered as the
    rules count turns, R15) and whose it is, the seats named as the table names them.

    >>> drawn_status(12, 0, SEAT_NAMES), drawn_status(12, 2, SEAT_NAMES), drawn_status(40, 1, SEAT_NAMES, winner=1)
    ('Turn 12: your turn', 'Turn 12: Ben to play', 'Ann went out — hand over')
    """
    if winner is not None or stalemate:
        return hand_over_title(None if winner is None else seat_name(winner, names))
    name = seat_name(turn, names)
    return f"Turn {turns}: " + ("your turn" if name == YOU else f"{name} to play")


def aligned(table: Sequence[Sequence[str]]) -> list[str]:
    """A table as plain text for the command line: its rows' cells in columns two spaces apart.

    >>> aligned([("Turn", "You played"), ("12", "Play 2× 5")])
    ['Turn  You played', '12    Play 2× 5']
    """
    widths = [max(len(row[k]) for row in table) for k in range(len(table[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in table]
