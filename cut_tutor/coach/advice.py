"""Advice for one seat (C1, C5): the recommended move, every candidate ranked, and why in plain English.

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> advice = advise(view(state, 0), coach="Madonna", level="Expert")
>>> print(advice.text)  # doctest: +NORMALIZE_WHITESPACE
Play your J — it sheds less right now, but it saves your J from being stranded, and it sets up your next
turns: your 2 7s, then your 2 5s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.cards import JACK, JOKER, WILD
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from ..engine.rules import CLEAR4
from ..engine.words import (
    acts,
    card_word,
    count,
    game_of,
    move_labels,
    move_phrase,
    number,
    percent,
    pile_number,
    plural,
    pts,
    who,
)
from ..engine.words import plan as plan_phrase
from .knowledge import Knowledge
from .scoring import COMPONENTS, Candidate
from .styles import COACH_STYLE, Level, Style, level_of, style_of
from .values import GAMES, evaluate, evaluate_knowledge

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Advice:
    """A coach's word on one position: the move, why, the plan, and every candidate behind it."""

    coach: str
    level: str
    move: Move
    text: str
    plan: str | None
    candidates: list[Candidate]
    #: Every candidate's button text, as the table words it (:func:`~cut_tutor.engine.words.move_labels`).
    labels: dict[Move, str]

    @property
    def label(self) -> str:
        """The play as the table's buttons name it (``Play 2× Q``)."""
        return self.labels[self.move]

    def to_frame(self) -> pd.DataFrame:
        """One row per legal move: its components, total, and which one is recommended."""
        import pandas as pd

        rows = [
            {"move": str(c.move), **c.components, "total": c.total, "recommended": c.move == self.move}
            for c in self.candidates
        ]
        return pd.DataFrame(rows, columns=["move", *COMPONENTS, "total", "recommended"])


def choose(candidates: list[Candidate], level: Level) -> tuple[Candidate, Candidate]:
    """The recommendation and the best move for this turn alone (without the line).

    A move that goes out always wins; a move that completes a clear keeps its own advice when it is
    the best play for this turn: lookahead never overrules a sure thing (C5).
    """
    by_turn = max(candidates, key=lambda c: c.turn_value)
    out = [c for c in candidates if c.goes_out]
    if out:
        return max(out, key=lambda c: c.total), by_turn
    if by_turn.clears or level.depth == 0:
        return by_turn, by_turn
    return candidates[0], by_turn


def explain(
    best: Candidate,
    by_turn: Candidate,
    view: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    style: Style,
    level: Level,
    candidates: Sequence[Candidate] = (),
    coach: str | None = None,
) -> tuple[str, str | None]:
    """A sentence naming the deciding reason and the cards; the plan when the line decided (C5).

    ``style`` and ``level`` are the scorer's, so a reason fires at the thresholds the numbers used;
    ``candidates`` (every scored move) let the reason name what set the move apart from the next best, and
    ``coach`` the principle (C3) when it, not the numbers, decided.
    """
    game = game_of(view)
    head = move_phrase(best.move, game, names)
    seat = Knowledge.from_view(view)
    others = [c for c in candidates if c is not best]
    # A plan of nothing but the rank just played names no plan: it only splits a group.
    own = best.move.rank if best.move.kind in (PLAY, ADD) else -1
    steps = best.steps if any(rank != own for rank, _ in best.steps) else []
    plan = plan_phrase(steps, game) if steps else None
    principle = _principle(best, others, seat, coach)
    reason = principle or _reason(best, view, seat, others, names, style, level)
    # The line overrode this turn's best only if that one is worth more this turn than rounding can tell.
    overridden = best is not by_turn and by_turn.turn_value - best.turn_value > TIE
    if overridden and plan and not principle:
        why = _why_line(best, by_turn, seat, game)
        if best.move.kind == TAKE:
            lead = "it takes the pile now"
        elif best.move.size < by_turn.move.size:
            lead = "it sheds less right now"  # fewer cards: the guide's own words
        elif best.components["shed"] < by_turn.components["shed"]:
            lead = "it is worth less this turn"
        elif reason == _DECIDING["line"]:
            return f"{head} — the cards it keeps play best over your next turns: {plan}.", plan
        else:
            return f"{head} — {reason}, and it sets up your next turns: {plan}.", plan
        but = f"but {why}, and it" if why else "but it"
        return f"{head} — {lead}, {but} sets up your next turns: {plan}.", plan
    return f"{head} — {reason}.", plan


def _principle(best: Candidate, others: Sequence[Candidate], seat: Knowledge, coach: str | None) -> str | None:
    """The coach's principle when it decided (C3): a blind play it would not make, or one it made for it."""
    if coach is None:
        return None
    if any(c.principle < 0 and c.total - c.principle > best.total for c in others):
        return f"{coach} flips only into an empty pile, unless nothing else plays or the card would go out"
    runner = max((c.total for c in others), default=None)
    if best.principle > 0 and runner is not None and best.total - best.principle < runner:
        return f"{coach} flips on a high pile, where most blind cards land (bust chance {percent(best.bust)})"
    return None


def _why_line(best: Candidate, by_turn: Candidate, seat: Knowledge, game: str) -> str | None:
    """Why the line beats shedding the most now (C5): a high card the other play strands, or a low floor kept."""
    stranded = [card for card in by_turn.stranded if card not in best.stranded]
    if stranded:
        return f"it saves your {card_word(stranded[-1], game)} from being stranded"
    rank = by_turn.move.rank
    if by_turn.move.kind == PLAY and 0 < rank <= 3 and best.move.rank != rank:
        word = card_word(rank, game)
        return f"it keeps your {word if _held(seat, rank) == 1 else plural(word)} as a low floor"
    return None


def _held(seat: Knowledge, rank: int) -> int:
    """The cards of a rank the seat can play from: its hand and its face-up stack tops (R7)."""
    return seat.hand[rank] + sum(1 for stack in seat.stacks if stack and stack[-1] == rank)


#: What each component says when it set the move apart from the next best.
_DECIDING = {
    "go out": "it brings you closest to going out",
    "shed": "it sheds more cards than any other play",
    "assets": "it keeps your better cards for later",
    "control": "it leaves the next seat the hardest pile",
    "risk": "it carries the least risk",
    "line": "the cards it keeps play best over your next turns",
}


#: Said when no single part sets the move apart from every other play: the parts only add up to the most.
ON_BALANCE = "taken together, its parts add up to the most of any play"
#: The low floor's ranks, A–3: the cards that follow almost any pile (unless they are the clear rank).
LOW = range(1, 4)
#: Two values closer than this are equal: they differ by rounding only.
TIE = 1e-6
#: A pile worth fewer points than this "costs only" its points to take.
CHEAP_PILE = 10


def _deciding(cand: Candidate, others: Sequence[Candidate]) -> str:
    """The part by which ``cand`` leads the next best move the most, in words, among the parts where it also leads
    every other move (a lead over the runner-up alone says nothing of the rest)."""
    if not others:
        return "it is your only move"
    runner = max(others, key=lambda c: c.total)
    for part in sorted(COMPONENTS, key=lambda name: runner.components[name] - cand.components[name]):
        if cand.components[part] - runner.components[part] <= TIE:
            break
        if part == "shed":
            if cand.move.size > max(_sheds(c.move) for c in others):
                return _DECIDING[part]
            if _highest(cand, runner, others) and all(cand.components[part] > c.components[part] + TIE for c in others):
                n = cand.move.size
                return (
                    f"it plays the highest {'card' if n == 1 else 'cards'} the pile allows, before a lower top "
                    f"strands {'it' if n == 1 else 'them'}"
                )
            continue
        if part == "control" and cand.components[part] <= 0:
            continue  # only the others' costs: the next seat faces nothing harder
        if all(cand.components[part] > c.components[part] + TIE for c in others):
            return _DECIDING[part]
    return ON_BALANCE


def _reason(
    cand: Candidate,
    view: dict[str, Any],
    seat: Knowledge,
    others: Sequence[Candidate],
    names: Sequence[str] | None,
    style: Style,
    level: Level,
) -> str:
    move, parts = cand.move, cand.components
    pile = view["pile"]
    seats = view["seats"]
    me = view["seat"]
    nxt = seats[(me + 1) % view["players"]]
    game = game_of(view)
    if cand.goes_out:
        return "it empties your cards and wins the hand"
    if move.kind == PUSH:
        return _push_reason(move, view, names)
    if move.kind == CLEAR and game == CLEAR4:
        return f"sweeps a pile of {count(len(pile), 'card')} and you go again" if pile else "sheds it and you go again"
    if move.kind in (FLIP, GAMBLE):
        return _blind_reason(cand, view, seat)
    if parts["go out"] >= 50:
        return "it clears, and your go-again finishes your cards"
    if move.kind == CLEAR:
        near = [s for s in seats if s["seat"] != me and s["cards_left"] <= style.dump_clears_at]
        if near:
            value = view["rules"]["clear_value"] * move.size
            closest = min(near, key=lambda s: s["cards_left"])["seat"]
            dumped = "a clear card" if move.size == 1 else f"{number(move.size)} clear cards"
            return f"dumps {dumped} worth {value} points before {acts(who(closest, names), 'go out')}"
        if not pile:
            return f"sheds {'it' if move.size == 1 else 'them'} and you go again"
        return f"sweeps a pile of {count(len(pile), 'card')} ({pts(view['pile_points'])}) and you go again"
    if cand.clears:
        value = view.get("pile_value") if move.rank == WILD else move.rank  # Clear 4's JOKERs take the value (R22)
        four = f"four {plural(card_word(value, game))}" if value else "four of a kind"
        return f"completes {four}: the pile clears and you go again"
    if move.kind == TURNUP:  # R18's two reasons: caution now, and a known card to play on purpose later
        odds = f"bust chance {percent(cand.bust)}"
        if len(pile) >= 3:
            cost = pts(view["pile_points"])
            caution = f"seeing the card first is cheaper than a blind card on this pile ({cost}, {odds})"
        else:
            caution = f"seeing the card first costs only this turn, and a blind card could bust ({odds})"
        return f"{caution}; then it stays on your pile as a known card, to play when it fits"
    if move.kind == TAKE:
        return _take_reason(move, seat, others, game)
    if move.kind == DONE:
        return "another blind card is not worth the pile it could cost you"
    if move.kind == ADD and not move.size:
        return "keeping those cards is worth more than adding them"
    if (
        nxt["cards_left"] <= GAMES[seat.rules.game].hinder_at(level)
        and parts["control"] > 2
        and all(parts["control"] > c.components["control"] for c in others)
    ):
        left = count(nxt["cards_left"], "card")
        return f"plays low so {who(nxt['seat'], names)}, down to {left}, must match or take the pile"
    if not others:
        return _deciding(cand, others)
    runner = max(others, key=lambda c: c.total)
    if all(c.move.kind == TAKE for c in others):
        return f"it keeps you from taking the pile ({count(len(pile), 'card')}, {pts(view['pile_points'])})"
    n = move.size
    high = game != CLEAR4 and move.rank >= JACK  # J, Q, K: Clear 4's top value is 10, its specials are not high
    # Against a next best that lays high as well, say what sets this one apart: more cards, or the higher rank.
    both = high and runner.move.kind == PLAY and runner.move.rank >= JACK
    highest = ", the highest you can lay" if both and _highest(cand, runner, others) else ""
    if not pile and high:
        more = f", {number(n)} cards at once" if both and n > runner.move.size else ""
        return f"leads high on an empty pile{more or highest}"
    kept_back = _kept_back(cand, seat, others, game)
    if kept_back:
        return kept_back
    if high:
        return f"sheds {number(n)} high {'card' if n == 1 else 'cards'} while the pile allows it{highest}"
    if n > 1 and n >= max(_sheds(c.move) for c in others) and n > _sheds(runner.move):
        return f"sheds {number(n)} cards at once"
    kept = _kept(seat, move, runner.move, game)
    bigger = [c.move for c in others if _sheds(c.move) > n]
    if not kept and bigger and _sheds(runner.move) < n:
        # it sheds more than the next best, and keeps what every play that sheds more would spend
        common = set.intersection(*[set(_kept(seat, move, other, game)) for other in bigger])
        kept = [word for word in _kept(seat, move, bigger[0], game) if word in common]
    if kept:
        return f"sheds {'a card' if n == 1 else f'{number(n)} cards'} while keeping your {' and '.join(kept)}"
    return _deciding(cand, others)


def _take_reason(move: Move, seat: Knowledge, others: Sequence[Candidate], game: str) -> str:
    """Why take the pile: what it keeps that the best play would spend; else, when nothing in the hand plays, what
    the blind cards and turn-ups it turns down would risk. Showing a card takes as a bare take does (R11)."""
    lays = [c for c in others if c.move.kind not in (TAKE, FLIP, GAMBLE, TURNUP)]
    if lays:
        kept = _kept(seat, Move(TAKE), max(lays, key=lambda c: c.total).move, game)
        return (
            f"it keeps your {' and '.join(kept)}, and every other move costs more"
            if kept
            else "every other move costs more"
        )
    blind = [c for c in others if c.move.kind in (FLIP, GAMBLE)]
    turn = any(c.move.kind == TURNUP for c in others)
    if blind:
        chance = percent(max(blind, key=lambda c: c.total).bust)
        if turn:
            return (
                f"nothing in your hand plays, and neither a blind card (bust chance {chance}) nor turning one up is "
                "worth it here"
            )
        return f"nothing in your hand plays, and a blind card is not worth its risk here (bust chance {chance})"
    if turn:
        return "nothing in your hand plays, and turning a card up is not worth a turn here"
    if move.stacks:  # a Board card shown joins the hand with the pile (R11)
        shown = card_word(move.rank, game)
        return f"nothing you hold plays, and your {shown} from {pile_number(move.stacks[0])} joins the cards you take"
    return "nothing you hold plays"


def _sheds(move: Move) -> int:
    """The cards a move gets rid of: a take's shown card goes back to the hand with the pile (R11)."""
    return 0 if move.kind == TAKE else move.size


def _kept_back(cand: Candidate, seat: Knowledge, others: Sequence[Candidate], game: str) -> str | None:
    """Why a lay onto a pile holds some of its low cards back, when that decided: a bigger lay of the same rank
    would have won without its charge for the low cards past the first (the next seat faces the same top)."""
    move = cand.move
    kept = seat.hand[move.rank] - move.n
    if move.kind != PLAY or not kept:
        return None
    same = [c for c in others if c.move.kind == PLAY and c.move.rank == move.rank]
    if not any(c.total + c.spare_low - cand.spare_low > cand.total for c in same):
        return None
    word = card_word(move.rank, game)
    held = word if kept == 1 else f"{number(kept)} {plural(word)}"
    return f"the next seat faces the same {word} either way, so it keeps your other {held} as a way out"


def _kept(seat: Knowledge, move: Move, other: Move, game: str) -> list[str]:
    """What of its low floor (A–3) and clear cards ``move`` keeps that ``other`` would give up, in words (empty when
    nothing): keeping what the other move keeps as well sets nothing apart."""
    if other.kind not in (PLAY, ADD, CLEAR):
        return []
    wild = WILD if seat.rules.game == CLEAR4 else JOKER
    given, laid = _laid(seat, other, wild), _laid(seat, move, wild)
    after = list(seat.hand)
    after[move.rank] -= move.n
    after[wild] -= move.jokers
    for k, stack in enumerate(seat.stacks):
        if stack and stack[-1] is not None and k not in move.stacks:
            after[stack[-1]] += 1  # a face-up stack top still held (R7)
    words = []
    for rank in sorted({card for card in given if card is not None and card in LOW and not seat.is_clear[card]}):
        if after[rank] and given.count(rank) > laid.count(rank):  # a rank both lay as many of sets nothing apart
            word = card_word(rank, game) if after[rank] == 1 else plural(card_word(rank, game))
            words.append(f"other {word}" if rank in laid else word)  # "keeping your other A" beside 2×A
    clears = [r for r in range(len(after)) if seat.is_clear[r]]
    if any(card is not None and seat.is_clear[card] for card in given) and any(after[r] for r in clears):
        words.append("clears")
    return words


def _laid(seat: Knowledge, move: Move, wild: int) -> list[int | None]:
    """The cards a move lays: from the hand, its jokers, and its stacks' tops (``None`` for a face-down one)."""
    return [move.rank] * move.n + [wild] * move.jokers + [seat.stacks[k][-1] for k in move.stacks]


def _highest(cand: Candidate, runner: Candidate, others: Sequence[Candidate]) -> bool:
    """Whether the move lays the highest rank the pile allows where the next best lays a lower one (the guide's
    "play the highest card the pile allows")."""
    move = cand.move
    if move.kind != PLAY or runner.move.kind != PLAY or runner.move.rank >= move.rank:
        return False
    return all(c.move.rank <= move.rank for c in others if c.move.kind == PLAY)


def _blind_reason(cand: Candidate, view: dict[str, Any], seat: Knowledge) -> str:
    """A blind card's reason: what the pile costs against the chance it busts, as the numbers have it."""
    pile = view["pile"]
    if not pile:
        return "the pile is empty, so a blind card always lands"
    odds = f"bust chance {percent(cand.bust)}"
    cost = pts(view["pile_points"])
    if all(m.kind == cand.move.kind for m in seat.legal):
        return f"a blind card is all you can play ({odds})"
    if seat.cards_left == 1:
        return f"your last card goes out unless it busts ({odds})"
    shown = int(percent(cand.bust).rstrip("%"))  # as the words show it: an even chance favours nothing
    if shown < 50:
        return f"the pile costs {cost} to take and the odds favour the {cand.move.kind} ({odds})"
    even = "the odds are even" if shown == 50 else "the odds are against it"
    only = " only" if view["pile_points"] < CHEAP_PILE else ""
    return f"{even} ({odds}), but the pile costs{only} {cost} to take and the other moves cost more"


def _push_reason(move: Move, view: dict[str, Any], names: Sequence[str] | None) -> str:
    """Clear 4: whom the pile goes to, and why that seat (R22, C6)."""
    pile, seats = view["pile"], view["seats"]
    if not pile:
        return "sheds your PUSH while the pile is empty"
    left = seats[move.to]["cards_left"]
    others = [s["cards_left"] for s in seats if s["seat"] != view["seat"]]
    closest = ", the closest to going out" if left == min(others) else ""
    return f"sends {count(len(pile), 'card')} to {who(move.to, names)}{closest} ({count(left, 'card')} left)"


def advise(
    view: dict[str, Any], coach: str = "Madonna", level: str = "Expert", names: Sequence[str] | None = None
) -> Advice:
    """The coach's advice for the seat to move in ``view`` (C1–C6). Needs only the view (C2)."""
    if not view.get("legal"):
        raise ValueError(f"seat {view.get('seat')} has no move to advise: it is not its turn or the hand is over")
    style = style_of(coach)
    lvl = level_of(level)
    candidates = evaluate(view, style, lvl)
    best, by_turn = choose(candidates, lvl)
    name = coach if coach in COACH_STYLE else style.name
    text, plan = explain(best, by_turn, view, names, style=style, level=lvl, candidates=candidates, coach=name)
    clears = {c.move for c in candidates if c.clears}
    labels = move_labels([c.move for c in candidates], game=game_of(view), clears=clears, names=names)
    return Advice(name, lvl.name, best.move, text, plan, candidates, labels)


def compare(view: dict[str, Any], level: str = "Expert", names: Sequence[str] | None = None) -> pd.DataFrame:
    """All three coaches on one position: each one's move, total and reason, and whether they disagree."""
    import pandas as pd

    rows = []
    for coach in COACH_STYLE:
        advice = advise(view, coach, level, names)
        rows.append({"coach": coach, "move": str(advice.move), "total": advice.candidates[0].total,
                     "advice": advice.text})  # fmt: skip
    frame = pd.DataFrame(rows)
    frame["agrees"] = frame["move"] == frame["move"].mode().iloc[0]
    return frame


#: Turns after which a hand is taken to be looping, and the extra noise AI seats then play with (R15).
LONG_HAND, LOOP_NOISE = 300, 6.0


class AIPlayer:
    """An AI seat: a Level and a Style, choosing from its view only; noise comes from its own seeded RNG."""

    def __init__(self, level: str = "Experienced", style: str = "Balanced", seed: int = 0) -> None:
        self.level: Level = level_of(level)
        self.style: Style = style_of(style)
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"AIPlayer({self.level.name}:{self.style.name})"

    def choose_view(self, view: dict[str, Any]) -> Move:
        """The move this seat plays, from its JSON view."""
        return self.choose(Knowledge.from_view(view))

    def choose(self, seat: Knowledge) -> Move:
        """The move this seat plays: the engine's values plus the Level's noise (C4).

        Simulations pass knowledge built from the view's own :func:`~cut_tutor.engine.view.sight`, which skips
        the JSON but shows the seat exactly what its view would.
        """
        # A hand that drags on is usually a loop of the same plays and takes: vary the play to end it (R15).
        noise = self.level.noise + (LOOP_NOISE if seat.turns > LONG_HAND else 0.0)
        if len(seat.legal) == 1:  # forced (a take, often): nothing to score, but the noise draw keeps the seed's stream
            if noise:
                self.rng.gauss(0.0, noise)
            return seat.legal[0]
        candidates = evaluate_knowledge(seat, self.style, self.level)
        if noise:
            for cand in candidates:
                cand.total += self.rng.gauss(0.0, noise)
            candidates.sort(key=lambda c: -c.total)
        best, _ = choose(candidates, self.level)
        return best.move
