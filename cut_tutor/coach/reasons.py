"""Why the coach recommends a move (C1, C5), as a table: each reason's name, whether it holds, and its words.

A reason reads the facts the scorers recorded where they set the numbers (:class:`~.scoring.Fact`), never thresholds
of its own that restate them; where a reason compares moves, it holds only when it sets the move apart from every
other legal move (:func:`apart`). What only one game has (Clear 4's PUSH, CUT's clear plays, which ranks are high) is
worded by that game's own table, :class:`GameWords`, which its scorer module supplies. The first reason that holds,
in :data:`REASONS` order, is said.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from ..engine.words import card_word, count, number, percent, pile_number, plural, pts, who
from .knowledge import Knowledge
from .scoring import (
    BUST,
    CLEARS,
    COMPONENTS,
    FINISHES,
    HINDERS,
    HOLDS,
    OUT,
    SPARE_LOW,
    Candidate,
)

#: Two values closer than this are equal: they differ by rounding only.
TIE = 1e-6
#: The low floor's ranks, A–3: the cards that follow almost any pile (unless they are the clear rank).
LOW = range(1, 4)
#: A pile worth fewer points than this "costs only" its points to take.
CHEAP_PILE = 10
#: Said when no single part sets the move apart from every other play: the parts only add up to the most.
ON_BALANCE = "taken together, its parts add up to the most of any play"
#: What each component says when it set the move apart from the next best.
DECIDING = {
    "go out": "it brings you closest to going out",
    "shed": "it sheds more cards than any other play",
    "assets": "it keeps your better cards for later",
    "control": "it leaves the next seat the hardest pile",
    "risk": "it carries the least risk",
    "line": "the cards it keeps play best over your next turns",
}
#: In what :func:`kept` finds: clear cards, any of them (no card has the code 0).
CLEAR_CARDS = 0
#: Moves that lay nothing from the hand: a take, a blind card, a card turned up.
BLIND_OR_TAKE = (TAKE, FLIP, GAMBLE, TURNUP)


@dataclass
class Case:
    """One move to explain, beside every other legal move, in the seat's view and its game's words."""

    cand: Candidate
    others: Sequence[Candidate]
    view: Mapping[str, Any]
    known: Knowledge
    names: Sequence[str] | None
    game: str
    words: GameWords

    @property
    def move(self) -> Move:
        return self.cand.move

    @cached_property
    def runner(self) -> Candidate | None:
        """The next best move."""
        return max(self.others, key=lambda c: c.total) if self.others else None

    @cached_property
    def keeping(self) -> list[int]:
        """What the move keeps that the moves it is set against spend (:func:`keeping`)."""
        return keeping(self)

    @property
    def high(self) -> bool:
        """A lay of a rank the game calls high (CUT's J, Q, K)."""
        return self.move.rank >= self.words.high


class GameWords(NamedTuple):
    """One game's words for what only it has: the reasons of its own moves, by move kind, the lowest rank it calls
    high (above every rank when it calls none high), and the cards a move lays as the advice names them."""

    moves: Mapping[str, Callable[[Case], str]]
    high: int
    wild: int  # the card a move's ``jokers`` are
    cards: Callable[[Move], list[tuple[int, str]]]  # each card the move lays, with how many: (2, "7"), (1, "Joker")


def apart(case: Case, value: Callable[[Candidate], float]) -> bool:
    """The one rule of every comparing reason: the move is worth more by ``value`` than every other legal move."""
    mine = value(case.cand)
    return all(mine > value(c) + TIE for c in case.others)


def sheds(move: Move) -> int:
    """The cards a move gets rid of: a take's shown card goes back to the hand with the pile (R11)."""
    return 0 if move.kind == TAKE else move.size


def highest(case: Case) -> bool:
    """Whether the move lays the highest rank the pile allows where the next best lays a lower one (the guide's
    "play the highest card the pile allows")."""
    move, runner = case.move, case.runner
    if move.kind != PLAY or runner is None or runner.move.kind != PLAY or runner.move.rank >= move.rank:
        return False
    return all(c.move.rank <= move.rank for c in case.others if c.move.kind == PLAY)


def held(case: Case, cand: Candidate) -> list[int]:
    """What the seat holds after a move: the hand its scorer left (:data:`~.scoring.HOLDS`) and the face-up stack
    tops the move does not play, which play like hand cards (R7); a take keeps every one (R11)."""
    after = list(cand.facts[HOLDS].cards)
    played = () if cand.move.kind == TAKE else cand.move.stacks
    for k, card in case.known.tops:
        if k not in played:
            after[card] += 1
    return after


def lays(case: Case, move: Move) -> list[int]:
    """The cards a move lays: from the hand, its jokers, its face-up stack tops; a take lays none (R11)."""
    if move.kind == TAKE:
        return []
    tops = [card for k in move.stacks if (card := case.known.stacks[k][-1]) is not None]
    return [move.rank] * move.n + [case.words.wild] * move.jokers + tops


def kept(case: Case, cand: Candidate, other: Candidate) -> list[int]:
    """What of its low floor (A–3) and clear cards (:data:`CLEAR_CARDS`) ``cand`` keeps that ``other`` would give up
    (empty when nothing): keeping what the other move keeps as well sets nothing apart. Both as their scorers
    recorded them."""
    if other.move.kind not in (PLAY, ADD, CLEAR):
        return []
    is_clear = case.known.is_clear
    given, after, laid = lays(case, other.move), held(case, cand), lays(case, cand.move)
    # a rank both lay as many of sets nothing apart
    ranks = [
        r for r in sorted(set(given)) if r in LOW and not is_clear[r] and after[r] and given.count(r) > laid.count(r)
    ]
    if any(is_clear[card] for card in given) and any(n for r, n in enumerate(after) if is_clear[r]):
        ranks.append(CLEAR_CARDS)
    return ranks


def kept_words(case: Case, ranks: Sequence[int]) -> str:
    """The cards :func:`kept` found, in words: "your other A" beside a play of an A (2×A), "clears" for clear cards."""
    after, laid = held(case, case.cand), lays(case, case.move)
    words = []
    for rank in ranks:
        if rank == CLEAR_CARDS:
            words.append("clears")
            continue
        word = card_word(rank, case.game) if after[rank] == 1 else plural(card_word(rank, case.game))
        words.append(f"other {word}" if rank in laid else word)
    return " and ".join(words)


def deciding(case: Case) -> str | None:
    """The part by which the move leads the next best the most, among the parts where it also leads every other
    move (a lead over the runner-up alone says nothing of the rest); ``None`` when no part does."""
    cand, runner = case.cand, case.runner
    assert runner is not None
    for part in sorted(COMPONENTS, key=lambda name: runner.components[name] - cand.components[name]):
        if cand.components[part] - runner.components[part] <= TIE:
            break
        if _sets_apart(case, part):
            return part
    return None


def _sets_apart(case: Case, part: str) -> bool:
    """Whether a part sets the move apart from every other move; a lead in shed only by more cards or the highest
    rank, and one in control only when the next seat faces a harder pile, not when the others only cost more."""
    leads = apart(case, lambda c: c.components[part])
    if part == "shed":
        return case.move.size > max(sheds(c.move) for c in case.others) or (highest(case) and leads)
    if part == "control" and case.cand.components[part] <= 0:
        return False
    return leads


def _deciding_words(case: Case) -> str:
    part = deciding(case)
    if part is None:
        return ON_BALANCE
    n = case.move.size
    if part == "shed" and n <= max(sheds(c.move) for c in case.others):
        return (
            f"it plays the highest {'card' if n == 1 else 'cards'} the pile allows, before a lower top "
            f"strands {'it' if n == 1 else 'them'}"
        )
    return DECIDING[part]


def _game_move(case: Case) -> str:
    return case.words.moves[case.move.kind](case)


def _blind(case: Case) -> str:
    """A blind card's reason: what the pile costs against the chance it busts, as the numbers have it."""
    bust = case.cand.fact(BUST)
    if not case.view["pile"]:
        return "the pile is empty, so a blind card always lands"
    odds = f"bust chance {percent(bust)}"
    cost = pts(case.view["pile_points"])
    if all(m.kind == case.move.kind for m in case.known.legal):
        return f"a blind card is all you can play ({odds})"
    if case.known.cards_left == 1:
        return f"your last card goes out unless it busts ({odds})"
    shown = round(100 * bust)  # as the words show it: an even chance favours nothing
    if shown < 50:
        return f"the pile costs {cost} to take and the odds favour the {case.move.kind} ({odds})"
    even = "the odds are even" if shown == 50 else "the odds are against it"
    only = " only" if case.view["pile_points"] < CHEAP_PILE else ""
    return f"{even} ({odds}), but the pile costs{only} {cost} to take and the other moves cost more"


def _clears(case: Case) -> str:
    value = case.cand.facts[CLEARS].cards[0]
    four = f"four {plural(card_word(value, case.game))}" if value else "four of a kind"
    return f"completes {four}: the pile clears and you go again"


def _turn_up(case: Case) -> str:
    """R18's two reasons: caution now, and a known card to play on purpose later."""
    odds = f"bust chance {percent(case.cand.fact(BUST))}"
    if len(case.view["pile"]) >= 3:
        cost = pts(case.view["pile_points"])
        caution = f"seeing the card first is cheaper than a blind card on this pile ({cost}, {odds})"
    else:
        caution = f"seeing the card first costs only this turn, and a blind card could bust ({odds})"
    return f"{caution}; then it stays on your pile as a known card, to play when it fits"


def _take(case: Case) -> str:
    """Why take the pile: what it keeps that the best play would spend; else, when nothing in the hand plays, what
    the blind cards and turn-ups it turns down would risk. Showing a card takes as a bare take does (R11)."""
    others = case.others
    lays = [c for c in others if c.move.kind not in BLIND_OR_TAKE]
    if lays:
        ranks = _take_keeps(case)
        return (
            f"it keeps your {kept_words(case, ranks)}, and every other move costs more"
            if ranks
            else ("every other move costs more")
        )
    blind = [c for c in others if c.move.kind in (FLIP, GAMBLE)]
    turn = any(c.move.kind == TURNUP for c in others)
    if blind:
        chance = percent(max(blind, key=lambda c: c.total).fact(BUST))
        if turn:
            return (
                f"nothing in your hand plays, and neither a blind card (bust chance {chance}) nor turning one up is "
                "worth it here"
            )
        return f"nothing in your hand plays, and a blind card is not worth its risk here (bust chance {chance})"
    if turn:
        return "nothing in your hand plays, and turning a card up is not worth a turn here"
    move = case.move
    if move.stacks:  # a Board card shown joins the hand with the pile (R11)
        shown = card_word(move.rank, case.game)
        return f"nothing you hold plays, and your {shown} from {pile_number(move.stacks[0])} joins the cards you take"
    return "nothing you hold plays"


def _hinders(case: Case) -> bool:
    """The move leaves a seat about to go out a lower top than any other move does: the hardest pile to match."""
    fact = case.cand.facts.get(HINDERS)
    return fact is not None and fact.value > 0 and apart(case, lambda c: c.components["control"])


def _plays_low(case: Case) -> str:
    nxt = case.view["seats"][(case.view["seat"] + 1) % case.view["players"]]
    left = count(nxt["cards_left"], "card")
    cards = "card" if case.move.size == 1 else "cards"
    low = f"plays the lowest {cards} it can" if case.high else "plays low"  # a J is not low, only the lowest here
    return f"{low} so {who(nxt['seat'], case.names)}, down to {left}, must match or take the pile"


def _both_high(case: Case) -> bool:
    """Beside a next best that lays high as well: what sets this one apart is more cards, or the higher rank."""
    runner = case.runner
    return case.high and runner is not None and runner.move.kind == PLAY and runner.move.rank >= case.words.high


def _highest_words(case: Case) -> str:
    return ", the highest you can lay" if _both_high(case) and highest(case) else ""


def _leads_high(case: Case) -> str:
    n, runner = case.move.size, case.runner
    more = f", {number(n)} cards at once" if _both_high(case) and runner and n > runner.move.size else ""
    return f"leads high on an empty pile{more or _highest_words(case)}"


def _keeps_back(case: Case) -> bool:
    """A bigger lay of the same rank would have won without its charge for the low cards past the first."""
    cand, move = case.cand, case.move
    if move.kind != PLAY or not held(case, cand)[move.rank]:
        return False
    same = [c for c in case.others if c.move.kind == PLAY and c.move.rank == move.rank]
    return any(c.total + c.fact(SPARE_LOW) - cand.fact(SPARE_LOW) > cand.total for c in same)


def _kept_back(case: Case) -> str:
    move = case.move
    held_back = held(case, case.cand)[move.rank]
    word = card_word(move.rank, case.game)
    spare = word if held_back == 1 else f"{number(held_back)} {plural(word)}"
    return f"the next seat faces the same {word} either way, so it keeps your other {spare} as a way out"


def _at_once(case: Case) -> bool:
    n, runner = case.move.size, case.runner
    return n > 1 and runner is not None and n >= max(sheds(c.move) for c in case.others) and n > sheds(runner.move)


def _take_keeps(case: Case) -> list[int]:
    """What a take keeps that the best lay would spend."""
    lays = [c for c in case.others if c.move.kind not in BLIND_OR_TAKE]
    return kept(case, case.cand, max(lays, key=lambda c: c.total)) if lays else []


def keeping(case: Case) -> list[int]:
    """What the move keeps that the next best spends; or, when it sheds more than the next best, what it keeps
    that every play shedding more would spend."""
    runner = case.runner
    assert runner is not None
    n = case.move.size
    ranks = kept(case, case.cand, runner)
    bigger = [c for c in case.others if sheds(c.move) > n]
    if not ranks and bigger and sheds(runner.move) < n:
        common = set.intersection(*[set(kept(case, case.cand, other)) for other in bigger])
        ranks = [rank for rank in kept(case, case.cand, bigger[0]) if rank in common]
    return ranks


def _sheds_keeping(case: Case) -> str:
    n = case.move.size
    return f"sheds {'a card' if n == 1 else f'{number(n)} cards'} while keeping your {kept_words(case, case.keeping)}"


def _saves_take(case: Case) -> str:
    pile = count(len(case.view["pile"]), "card")
    return f"it keeps you from taking the pile ({pile}, {pts(case.view['pile_points'])})"


class Reason(NamedTuple):
    """A reason: its name, whether it holds of the move, its words, and the cards it names as kept (:func:`kept`)."""

    name: str
    holds: Callable[[Case], bool]
    words: Callable[[Case], str]
    kept: Callable[[Case], Sequence[int]] = lambda case: ()


def _kind(*kinds: str) -> Callable[[Case], bool]:
    return lambda case: case.move.kind in kinds


def _fact(name: str) -> Callable[[Case], bool]:
    return lambda case: name in case.cand.facts


#: Every reason, in the order they are tried: the first that holds is said.
REASONS = (
    Reason("out", _fact(OUT), lambda case: "it empties your cards and wins the hand"),
    Reason("push", _kind(PUSH), _game_move),
    Reason("blind", _kind(FLIP, GAMBLE), _blind),
    Reason("finishes", _fact(FINISHES), lambda case: "it clears, and your go-again finishes your cards"),
    Reason("clear", _kind(CLEAR), _game_move),
    Reason("clears", _fact(CLEARS), _clears),
    Reason("turn up", _kind(TURNUP), _turn_up),
    Reason("take", _kind(TAKE), _take, _take_keeps),
    Reason("done", _kind(DONE), lambda case: "another blind card is not worth the pile it could cost you"),
    Reason(
        "adds nothing",
        lambda case: case.move.kind == ADD and not case.move.size,
        lambda case: "keeping those cards is worth more than adding them",
    ),
    Reason("hinders", _hinders, _plays_low),
    Reason("only move", lambda case: not case.others, lambda case: "it is your only move"),
    Reason(
        "saves a take",
        lambda case: all(c.move.kind == TAKE for c in case.others),
        _saves_take,
    ),
    Reason("leads high", lambda case: not case.view["pile"] and case.high, _leads_high),
    Reason("keeps back", _keeps_back, _kept_back),
    Reason(
        "sheds high",
        lambda case: case.high,
        lambda case: (
            f"sheds {number(case.move.size)} high {'card' if case.move.size == 1 else 'cards'} while the pile allows "
            f"it{_highest_words(case)}"
        ),
    ),
    Reason("at once", _at_once, lambda case: f"sheds {number(case.move.size)} cards at once"),
    Reason("keeping", lambda case: bool(case.keeping), _sheds_keeping, lambda case: case.keeping),
    Reason("deciding", lambda case: True, _deciding_words),
)


class Said(NamedTuple):
    """A reason as said: its name (for the deciding part, the part's; for none, ``on balance``), its words, and the
    cards it names as kept (:func:`kept`), so that a check can hold the words to the numbers."""

    name: str
    words: str
    kept: tuple[int, ...] = ()


def reason(case: Case) -> Said:
    """The first reason in :data:`REASONS` that holds of the move."""
    found = next(r for r in REASONS if r.holds(case))
    name = deciding(case) or "on balance" if found.name == "deciding" else found.name
    return Said(name, found.words(case), tuple(found.kept(case)))
