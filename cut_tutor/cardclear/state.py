"""A game of Card Clear: the board, the stock, swaps and their clears, refills, combos, goals and the result.

A :class:`Puzzle` is dealt from a board code (``12-0``: level 12, deal 0) and replays exactly: every shuffle draws
from a ``random.Random`` seeded by the code and the shuffle's number, never from module-level randomness.

>>> game = Puzzle.from_code("1-0")
>>> game.code, len(game.board), len(game.next_cards), game.moves_left
('1-0', 36, 3, 15)
>>> swap = game.legal_swaps()[0]
>>> Swap.parse(str(swap)) == swap
True
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, NamedTuple

from .cards import card_name, deck, rank_of, suit_of
from .hands import ALL, BASE, FIVE_CARD, best_in_line
from .levels import UNLOCKS, LevelError, PuzzleLevel, level, live_hands, top_rank

SIZE = 6
CELLS = SIZE * SIZE
#: A hole left by a cleared card, until the refill fills it.
HOLE = 0
#: A card the player cannot see yet (the stock beyond the Next cards): it makes no hand (H8).
UNKNOWN = -1
#: How many of the stock's top cards the goal bar shows (K9).
NEXT = 3
#: The stock runs low when a refill leaves it fewer cards than the goal bar shows: then the discard goes under it
#: (K10), so the Next cards are always three.
LOW_STOCK = NEXT
#: Combo multipliers in halves, round by round: ×1, ×1.5, ×2, ×2.5, then ×3 from round five on (K8).
HALVES = (2, 3, 4, 5, 6)
#: Extra moves one swap can earn, combos included (K8).
MAX_EXTRA = 2
#: Points for each move left when the level is cleared (K14).
MOVE_BONUS = 50
#: Every row (top to bottom), then every column (left to right), as cell indices.
LINES: tuple[tuple[int, ...], ...] = tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)) + tuple(
    tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)
)
_CELL = re.compile(r"r([1-6])c([1-6])")


def cell_name(cell: int) -> str:
    """``r1c1`` (top left) to ``r6c6`` (bottom right): rows count from the top, columns from the left."""
    return f"r{cell // SIZE + 1}c{cell % SIZE + 1}"


class SwapError(ValueError):
    """A swap that cannot be made: bad text, cells that do not touch, no hand made, or the level is over."""


class Swap(NamedTuple):
    """Two orthogonally adjacent cells, the upper or left one first, written ``r3c2-r3c3`` (K3)."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"{cell_name(self.a)}-{cell_name(self.b)}"

    @classmethod
    def parse(cls, text: str) -> Swap:
        """Read ``r3c2-r3c3`` (either cell first); raises :class:`SwapError` unless the cells touch."""
        parts = text.strip().lower().split("-")
        matches = [_CELL.fullmatch(part) for part in parts]
        if len(parts) != 2 or not all(matches):
            raise SwapError(f"bad swap {text!r}: write two cells such as r3c2-r3c3")
        a, b = sorted((int(m[1]) - 1) * SIZE + int(m[2]) - 1 for m in matches if m)
        if not (b - a == SIZE or (b - a == 1 and b % SIZE)):
            raise SwapError(f"bad swap {text!r}: the two cards must touch up, down, left or right")
        return cls(a, b)


#: Every swap on the board: 30 across, 30 down.
SWAPS: tuple[Swap, ...] = tuple(
    [Swap(r * SIZE + c, r * SIZE + c + 1) for r in range(SIZE) for c in range(SIZE - 1)]
    + [Swap(r * SIZE + c, (r + 1) * SIZE + c) for r in range(SIZE - 1) for c in range(SIZE)]
)
#: The row and the column through each cell.
_THROUGH = tuple((LINES[cell // SIZE], LINES[SIZE + cell % SIZE]) for cell in range(CELLS))


@lru_cache(maxsize=1 << 17)
def _line_hands(line: tuple[int, ...], live: frozenset[str]) -> tuple[tuple[str, int, int], ...]:
    return tuple(best_in_line(line, live))


def hands_on(board: list[int], live: frozenset[str], lines: tuple[tuple[int, ...], ...] = LINES
             ) -> list[tuple[str, tuple[int, ...]]]:  # fmt: skip
    """Every hand on the board as (kind, cells); a cross or L gives two hands sharing a cell (K7)."""
    found = []
    for line in lines:
        for kind, start, length in _line_hands(tuple(board[i] for i in line), live):
            found.append((kind, line[start : start + length]))
    return found


def makes_hand(board: list[int], swap: Swap, live: frozenset[str]) -> bool:
    """Whether swapping the two cards makes a live hand through either of them (the board was stable)."""
    a, b = swap
    board[a], board[b] = board[b], board[a]
    try:
        lines = {*_THROUGH[a], *_THROUGH[b]}
        return any(_line_hands(tuple(board[i] for i in line), live) for line in lines)
    finally:
        board[a], board[b] = board[b], board[a]


def playable(board: list[int], live: frozenset[str]) -> bool:
    """A board fit to play on: no ready-made hand and at least one legal swap (K12)."""
    return not hands_on(board, live) and any(makes_hand(board, swap, live) for swap in SWAPS)


def combo_points(base: int, round_number: int) -> int:
    """A hand's points in a round of a combo: its base times ×1, ×1.5, ×2, ×2.5, ×3 (round five on), rounded
    down (K8).

    >>> [combo_points(30, r) for r in range(1, 7)], combo_points(25, 2)
    ([30, 45, 60, 75, 90, 90], 37)
    """
    return base * HALVES[min(round_number, len(HALVES)) - 1] // 2


def multiplier(round_number: int) -> float:
    return HALVES[min(round_number, len(HALVES)) - 1] / 2


class Clear(NamedTuple):
    """One hand that broke: its kind, cells and cards, the round of the combo and the points it scored."""

    kind: str
    cells: tuple[int, ...]
    cards: tuple[int, ...]
    round: int
    points: int


class Round(NamedTuple):
    """One round of clears: the hands, the cards cleared (a shared card once) and the cards that fell in."""

    number: int
    hands: tuple[Clear, ...]
    cleared: tuple[int, ...]
    drawn: tuple[int, ...]


@dataclass(frozen=True)
class Turn:
    """What a swap did: every round of clears, points, extra moves earned, and whether the board reshuffled."""

    swap: Swap
    rounds: tuple[Round, ...]
    points: int
    extra_moves: int
    reshuffled: bool

    @property
    def hands(self) -> tuple[Clear, ...]:
        return tuple(hand for rnd in self.rounds for hand in rnd.hands)

    @property
    def sure(self) -> bool:
        """Whether every card that fell in was known: if not, the unknown ones might have chained further (H8)."""
        return UNKNOWN not in (card for rnd in self.rounds for card in rnd.drawn)

    @property
    def combo(self) -> float:
        """The highest multiplier the swap's rounds reached (×1 with no refill clear)."""
        return multiplier(len(self.rounds))


@dataclass
class Puzzle:
    """The whole game: board (row by row from the top), stock (top first), discard, counts and moves."""

    level: int
    deal: int
    board: list[int]
    stock: list[int]
    discard: list[int] = field(default_factory=list)
    shuffles: int = 0
    score: int = 0
    moves_left: int = 0
    swaps: list[Swap] = field(default_factory=list)
    hands_made: dict[str, int] = field(default_factory=dict)
    suits_cleared: list[int] = field(default_factory=lambda: [0] * 4)
    ranks_cleared: list[int] = field(default_factory=lambda: [0] * 14)
    #: A game built from what the player sees (:meth:`seen`): its stock beyond the Next cards is unknown.
    seen_only: bool = False

    # -- dealing ------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, level_number: int, deal: int) -> Puzzle:
        """Deal a level's board: the shuffled deck is dealt again until the board is fit to play (K12)."""
        row = level(level_number)
        rng = random.Random(f"cardclear {level_number}-{deal}")
        cards = deck(top_rank(level_number))
        live = live_hands(level_number)
        while True:
            rng.shuffle(cards)
            if playable(cards[:CELLS], live):
                return cls(level_number, deal, cards[:CELLS], cards[CELLS:], moves_left=row.moves)

    @classmethod
    def from_code(cls, code: str) -> Puzzle:
        """The deal a board code names (``12-0``); any level in the table may be played from its code (K16)."""
        match = re.fullmatch(r"\s*(\d+)-(\d+)\s*", code)
        if not match:
            raise LevelError(f"bad board code {code!r}: write the level and the deal number, such as 12-0")
        return cls.new(int(match[1]), int(match[2]))

    @property
    def code(self) -> str:
        return f"{self.level}-{self.deal}"

    @property
    def row(self) -> PuzzleLevel:
        return level(self.level)

    @property
    def live(self) -> frozenset[str]:
        return live_hands(self.level)

    def copy(self) -> Puzzle:
        """An independent copy, for trying swaps out (the Hint and the solver)."""
        return Puzzle(self.level, self.deal, self.board[:], self.stock[:], self.discard[:], self.shuffles,
                     self.score, self.moves_left, self.swaps[:], dict(self.hands_made), self.suits_cleared[:],
                     self.ranks_cleared[:], self.seen_only)  # fmt: skip

    def seen(self) -> Puzzle:
        """The game as the player sees it, for advice (H8): the board, the counts and the three Next cards, then
        unknown cards that make no hand. A swap clears each known card at most once and every round clears at
        least three, so one swap draws at most the 36 + 3 known cards: the unknown stock never runs low, and the
        discard (never seen again before a shuffle) stays out. A reshuffle is not played out: its order is unseen.
        """
        stock = self.next_cards + [UNKNOWN] * (CELLS + NEXT)
        return replace(self.copy(), stock=stock, discard=[], seen_only=True)

    def _rng(self) -> random.Random:
        """A fresh generator for the next shuffle of this deal, so copies and replays shuffle alike."""
        self.shuffles += 1
        return random.Random(f"cardclear {self.code} shuffle {self.shuffles}")

    # -- what can be seen ---------------------------------------------------------------------------------

    @property
    def next_cards(self) -> list[int]:
        """The top three of the stock: exactly the next three cards to fall in (K9)."""
        return self.stock[:NEXT]

    def amounts(self) -> list[int]:
        """How far each goal has come."""
        return [goal.amount(self.score, self.hands_made, self.suits_cleared, self.ranks_cleared)
                for goal in self.row.goals]  # fmt: skip

    @property
    def passed(self) -> bool:
        """Every goal met (K13); the level ends the moment this happens."""
        return all(have >= goal.target for have, goal in zip(self.amounts(), self.row.goals, strict=True))

    @property
    def over(self) -> bool:
        return self.passed or self.moves_left <= 0

    @property
    def bonus(self) -> int:
        """50 points for each move left once the level is cleared (K14)."""
        return MOVE_BONUS * self.moves_left if self.passed else 0

    @property
    def final_score(self) -> int:
        return self.score + self.bonus

    @property
    def stars(self) -> int:
        """One star for clearing the level, a second and third at the level's star lines (K15)."""
        if not self.passed:
            return 0
        return 1 + (self.final_score >= self.row.two_stars) + (self.final_score >= self.row.three_stars)

    def result(self) -> dict[str, Any]:
        """The result card: score, bonus, stars and, per goal, how far short it is (K15)."""
        goals = [{"goal": str(goal), "have": have, "need": goal.target, "short": max(0, goal.target - have)}
                 for goal, have in zip(self.row.goals, self.amounts(), strict=True)]  # fmt: skip
        return {"code": self.code, "passed": self.passed, "score": self.score, "bonus": self.bonus,
                "final": self.final_score, "stars": self.stars, "moves_left": self.moves_left,
                "goals": goals}  # fmt: skip

    # -- swaps --------------------------------------------------------------------------------------------

    def legal_swaps(self) -> list[Swap]:
        """Every swap that makes at least one live hand, in reading order; none once the level is over."""
        if self.over:
            return []
        live = self.live
        return [swap for swap in SWAPS if makes_hand(self.board, swap, live)]

    def why_illegal(self, swap: Swap) -> str:
        """Why a swap would bounce back, in a sentence; ``""`` if it is legal (K3, K6)."""
        if self.over:
            return f"{swap}: the level is over"
        if makes_hand(self.board, swap, self.live):
            return ""
        # a hand not unlocked yet may already lie on the board; only one through a swapped card is this swap's
        locked = sorted(set(self.hands_through(swap, ALL)) - self.live)
        if locked:
            return f"{swap} makes a {locked[0]}, which is not unlocked until level {UNLOCKS[locked[0]]}"
        a, b = swap
        return f"{swap} makes no hand: {card_name(self.board[a])} and {card_name(self.board[b])} complete no line"

    def hands_through(self, swap: Swap, live: frozenset[str]) -> list[str]:
        """The kinds of the ``live`` hands on the board after ``swap`` that hold one of its two cards: the hands
        it makes at once."""
        a, b = swap
        board = self.board[:]
        board[a], board[b] = board[b], board[a]
        return [kind for kind, cells in hands_on(board, live) if a in cells or b in cells]

    def play(self, swap: Swap | str) -> Turn:
        """Make a swap: it clears, refills and chains until the board is still, and costs one move (K3, K8, K9).

        An illegal swap raises :class:`SwapError` with the reason and leaves the game as it was. A move that
        leaves no legal swap reshuffles the 36 cards for free (K11).
        """
        if isinstance(swap, str):
            swap = Swap.parse(swap)
        reason = self.why_illegal(swap)
        if reason:
            raise SwapError(reason)
        a, b = swap
        board = self.board
        board[a], board[b] = board[b], board[a]
        live = self.live
        rounds: list[Round] = []
        points = extra = 0
        while found := hands_on(board, live):
            number = len(rounds) + 1
            clears = tuple(Clear(kind, cells, tuple(board[i] for i in cells), number,
                                 combo_points(BASE[kind], number)) for kind, cells in found)  # fmt: skip
            cleared = tuple(sorted({cell for clear in clears for cell in clear.cells}))
            for clear in clears:
                points += clear.points
                extra += clear.kind in FIVE_CARD
                self.hands_made[clear.kind] = self.hands_made.get(clear.kind, 0) + 1
            for cell in cleared:
                self.suits_cleared[suit_of(board[cell])] += 1
                self.ranks_cleared[rank_of(board[cell])] += 1
                self.discard.append(board[cell])
                board[cell] = HOLE
            rounds.append(Round(number, clears, cleared, self._refill()))
        extra = min(extra, MAX_EXTRA)
        self.score += points
        self.moves_left += extra - 1
        self.swaps.append(swap)
        reshuffled = not self.over and not any(makes_hand(board, s, live) for s in SWAPS)
        if reshuffled and not self.seen_only:
            self._reshuffle()
        return Turn(swap, tuple(rounds), points, extra, reshuffled)

    def _refill(self) -> tuple[int, ...]:
        """Drop the cards above each hole and fill the top: columns left to right, each bottom up, in stock
        order (K9); then top the stock up from the discard if it runs low (K10)."""
        board, drawn = self.board, []
        for c in range(SIZE):
            column = [board[r * SIZE + c] for r in range(SIZE - 1, -1, -1)]
            kept = [card for card in column if card != HOLE]
            for _ in range(SIZE - len(kept)):
                if not self.stock:
                    self._shuffle_discard_under()
                drawn.append(self.stock.pop(0))
                kept.append(drawn[-1])
            for r, card in zip(range(SIZE - 1, -1, -1), kept, strict=True):
                board[r * SIZE + c] = card
        if len(self.stock) < LOW_STOCK:
            self._shuffle_discard_under()
        return tuple(drawn)

    def _shuffle_discard_under(self) -> None:
        """The discard, shuffled, goes under the stock; the stock's own order never changes (K10)."""
        self._rng().shuffle(self.discard)
        self.stock += self.discard
        self.discard = []

    def _reshuffle(self) -> None:
        """Shuffle the 36 cards on the board until it is fit to play again: no move, points or goals change (K11)."""
        rng, live = self._rng(), self.live
        while True:
            rng.shuffle(self.board)
            if playable(self.board, live):
                return


def board_text(state: Puzzle) -> str:
    """The board as six rows of card names with row and column numbers, and the three Next cards."""
    lines = ["     " + " ".join(f"c{c + 1:<3}" for c in range(SIZE))]
    for r in range(SIZE):
        lines.append(f"r{r + 1}   " + " ".join(f"{card_name(state.board[r * SIZE + c]):<4}" for c in range(SIZE)))
    lines.append("Next: " + " ".join(card_name(c) for c in state.next_cards))
    return "\n".join(line.rstrip() for line in lines)
