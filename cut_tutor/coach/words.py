"""The coach's words: the phrases its advice is made of, and the analysis table's headings, verdicts and status.

Built from the shared words of :mod:`cut_tutor.engine.words`, so a card or a move reads as the table writes it.

>>> from cut_tutor.engine.moves import Move
>>> cards_phrase(Move.parse("clear JK")), recommends("Daryl", "Take")
('your Joker', 'Daryl recommends: Take')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.moves import ADD, CLEAR, PLAY, PUSH, TAKE, Move
from ..engine.rules import CUT
from ..engine.words import (
    SEAT_NAMES,
    STACK_VERBS,
    YOU,
    card_word,
    count,
    move_label,
    plural,
    seat_name,
    who,
    words_of,
)
from .values import SCORERS


def cards_phrase(move: Move, game: str = CUT) -> str:
    """The cards a move lays, as the advice names them in the game's own words: ``your 2 7s``, ``your 10 and a
    Joker``, ``your JOKER``."""
    named = [(n, word) for n, word in SCORERS[game].words.cards(move) if n]
    return "your " + " and ".join(_some(n, word, article=i > 0) for i, (n, word) in enumerate(named))


def _some(n: int, word: str, article: bool = False) -> str:
    """``7``, ``a 7`` (after another card), ``2 7s``: n of a card."""
    return f"{n} {plural(word)}" if n > 1 else f"a {word}" if article else word


def plan(steps: Iterable[tuple[int, int]], game: str = CUT) -> str:
    """The coach's line in words (C5): each step a card and a count, a count of 0 a clear card spent to clear.

    >>> from cut_tutor.engine.cards import JOKER
    >>> plan([(7, 2), (5, 1), (JOKER, 0)])
    'your 2 7s, then your 5, then your Joker to clear'
    """
    return ", then ".join(f"your {_some(n, card_word(card, game))}" if n else f"your {card_word(card, game)} to clear"
                          for card, n in steps)  # fmt: skip


def move_phrase(move: Move, game: str = CUT, names: Sequence[str] | None = None) -> str:
    """A move at the head of the coach's sentence: ``Play your 2 7s``, ``Clear with your Joker``."""
    kind = move.kind
    if kind == PLAY:
        return f"Play {cards_phrase(move, game)}"
    if kind == CLEAR:
        return f"Clear with {cards_phrase(move, game)}"
    if kind == ADD:
        return f"Add {cards_phrase(move, game)}" if move.size else "Add nothing"
    if kind == TAKE:
        if words_of(game).passes:  # a game that calls taking the pile passing (Clear 4, R22)
            return words_of(game).passes
        return f"Take the pile, showing your {card_word(move.rank, game)}" if move.rank else "Take the pile"
    if kind == PUSH:
        return f"Push the pile to {who(move.to, names)}"
    if kind in STACK_VERBS:
        return move_label(move, game=game)
    return "Stop here (Done)"


def recommends(coach: str, label: str) -> str:
    """The coach's pick for a move, named by its button: ``Madonna recommends: Play 3× J``."""
    return f"{coach} recommends: {label}"


#: Each part of a move's value as the coach's guide explains it (the analysis table's hover text).
COMPONENT_HELP: dict[str, str] = {
    "go out": "the move empties your cards, or clears and leaves a play that does",
    "shed": "how many cards you get rid of and what they are worth; negative for cards you take",
    "assets": "keeping low cards and clear cards; getting rid of high cards",
    "control": "what the next player faces, going again after a clear, hindering a player about to go out",
    "risk": "a blind card that may miss: the chance it misses times what the pile costs",
    "line": "how well the cards you keep play over your next turns",
}
#: The analysis table's other columns: the coach's total and gap, and the Monte-Carlo figures.
COLUMN_HELP: dict[str, str] = {
    "total": "the coach's value of the move: the sum of its parts, higher is better",
    "behind": "how far the move's total is below the coach's best",
    "expected": "your average points for the hand after this move, with its 95% interval (lower is better)",
    "gap": "how many points worse than the best move, on the same deals, with its own 95% interval",
    "rollouts": "how many deals this move was played out on",
    "verdict": "best, too close to call (the gap's interval reaches 0), or worse by the gap",
}
#: The analysis table's button that shows or hides each move's value by part.
PARTS_SHOW, PARTS_HIDE = "Show each move's parts", "Hide each move's parts"


def take_choice(shown: str | None, others: Sequence[str]) -> str:
    """The detail of one *Take the pile* row standing for every take that differs only by the card shown (R11):
    the card its figures are for, and the others that could be shown.

    >>> take_choice("K", ["9", "Q"]), take_choice(None, ["9"]), take_choice("9", [])
    ('showing K (or 9, Q)', 'bare (or showing 9)', 'showing 9')
    """
    said = f"showing {shown}" if shown else "bare"
    if not others:
        return said
    return f"{said} (or {'' if shown else 'showing '}{', '.join(others)})"


def verdict_word(verdict: str, gap: float) -> str:
    """The Monte-Carlo verdict in words: ``best``, ``too close to call`` or ``worse by 3.2 points``."""
    if verdict == "best":
        return "best"
    if verdict == "close":
        return "too close to call"
    return f"worse by {count(round(gap, 1), 'point')}"


#: The coach panel's button that continues a finished analysis of the position.
ANALYSE_LONGER = "Analyse longer"
#: The coach panel's second move button, beside *Coach: Play*, when the analysis' best is another move.
PLAY_BEST = "Play the analysis' best"
#: Each seat Style in a word, as the guide's *Coach styles* names the coaches: Daryl plays it safe, Madonna
#: balanced, Marty the risk.
STYLE_WORDS = {"Rock": "safe", "Balanced": "balanced", "Gambler": "risky"}


def verdict_line(verdict: str, label: str, best: str, gap: float, low: float, high: float) -> str:
    """The coach panel's verdict line: what the position's evaluation says of the coach's move ``label`` (its
    ``verdict``, its ``gap`` to the analysis' ``best`` with that gap's 95% interval).

    >>> verdict_line("best", "Play 2× 5", "Play 2× 5", 0.0, 0.0, 0.0)
    'The analysis agrees.'
    >>> verdict_line("close", "Play 2× 5", "Play 1× 6", 1.2, -0.8, 3.2)
    'Too close to call: the analysis cannot tell Play 2× 5 from its best, Play 1× 6.'
    >>> verdict_line("worse", "Play 2× 5", "Play 2× 2", 4.06, 2.3, 5.94)
    'The analysis prefers Play 2× 2 by 4.1 points (2.3 to 5.9).'
    """
    if verdict == "best":
        return "The analysis agrees."
    if verdict == "close":
        return f"Too close to call: the analysis cannot tell {label} from its best, {best}."
    return f"The analysis prefers {best} by {gap:.1f} points ({low:.1f} to {high:.1f})."


def style_cost(coach: str, style: str, cost: float) -> str:
    """Under a verdict line that finds the coach's move worse than the best beyond noise: the move is the coach's
    Style at work, not a mistake of the analysis, and this is what the Style costs here.

    >>> style_cost("Daryl", "Rock", 3.24)
    "Daryl's choice: a safe style, not the winning one here — it costs about 3.2 points."
    """
    return (f"{coach}'s choice: a {STYLE_WORDS[style]} style, not the winning one here — "
            f"it costs about {cost:.1f} points.")  # fmt: skip


#: Under the coach's advice once you have seen every card the other players hold: the open endgame, where the coach's
#: tables make most of their clear mistakes and the analysis can read the hand out (the guide's *Reading out the
#: endgame*).
OPEN_ENDGAME = (
    "You know every card the other players hold: in such endgames the coach slips most often, and the analysis"
    " can read the hand out."
)


def analysis_status(
    rollouts: int,
    seconds: float,
    stopped: str,
    settled: int,
    others: int,
    precision: float,
    more: float | None = None,
    aim: str = "gaps",
    priced: bool = False,
) -> str:
    """How a Monte-Carlo analysis ended (``stopped``: ``"apart"``, ``"chosen"`` or ``"budget"``, as its rounds
    say, after rounds whose ``aim`` was ``"verdicts"`` or ``"gaps"``) and how much of it is known: the gaps known to
    ``precision`` points or too close to call, of the ``others`` moves that are not the best; with ``more``, about
    how many seconds more would settle the rest. Rounds that stop on their verdicts say so in the stopping rule's
    words (the guide's *Analysis*), ``priced`` when a move the learner chose, not the best, was priced too.

    >>> analysis_status(812, 2.0, "budget", 2, 4, 2.0)
    '812 rollouts in 2.0 s (the budget was spent): 2 of 4 gaps known to ±2 points or too close to call.'
    >>> analysis_status(812, 2.0, "budget", 2, 4, 2.0, more=23.4).split(". ")[-1]
    'About 25 s more would settle the rest.'
    >>> [_about(seconds) for seconds in (3.2, 23.4, 130.0)]
    ['3 s', '25 s', '2 min']
    >>> analysis_status(90, 0.3, "apart", 1, 1, 2.0)
    '90 rollouts in 0.3 s: every gap known to ±2 points or too close to call.'
    >>> analysis_status(3440, 1.6, "apart", 1, 1, 1.0)
    '3440 rollouts in 1.6 s: every gap known to ±1 point or too close to call.'
    >>> print(analysis_status(128, 0.4, "apart", 1, 3, 2.0, aim="verdicts", priced=True))
    ... # doctest: +NORMALIZE_WHITESPACE
    128 rollouts in 0.4 s: the verdict is in. Every other move is worse than the best or too close to call, and your
    move's gap to the best is known to ±2 points. 1 of 3 gaps known to ±2 points or too close to call.
    >>> analysis_status(96, 0.3, "apart", 2, 2, 2.0, aim="verdicts").split(". ")[-1]
    'Every gap known to ±2 points or too close to call.'
    >>> analysis_status(16, 0.0, "apart", 0, 0, 2.0)
    '16 rollouts in 0.0 s: the only legal move.'
    >>> analysis_status(80, 0.1, "chosen", 0, 1, 2.0)
    '80 rollouts in 0.1 s (every other move was eliminated): 0 of 1 gaps known to ±2 points or too close to call.'
    """
    head = f"{rollouts} rollouts in {seconds:.1f} s"
    within = f"known to ±{count(precision, 'point')}"
    if not others:
        return f"{head}: the only legal move."
    known = "Every gap" if settled == others else f"{settled} of {others} gaps"
    if stopped == "apart" and aim == "verdicts":
        yours = f", and your move's gap to the best is {within}" if priced else ""
        said = (f"{head}: the verdict is in. Every other move is worse than the best or too close to call{yours}."
                f" {known} {within} or too close to call.")  # fmt: skip
    elif stopped == "apart":
        return f"{head}: every gap {within} or too close to call."
    else:
        said = f"{head} ({_STOPPED[stopped]}): {known.lower()} {within} or too close to call."
    if more is None or settled == others:
        return said
    return f"{said} About {_about(more)} more would settle the rest."


def _about(seconds: float) -> str:
    """A rough duration: whole seconds under 10, fives of seconds under a minute and a half, then minutes."""
    if seconds < 10:
        return f"{max(1, round(seconds))} s"
    if seconds < 90:
        return f"{5 * round(seconds / 5)} s"
    return f"{round(seconds / 60)} min"


_STOPPED = {
    "chosen": "every other move was eliminated",
    "budget": "the budget was spent",
}


def differs_from(coach: str) -> str:
    """A Compare-all-three mark: this coach would play otherwise than the one you chose."""
    return f"differs from {coach}"


def analysis_caption(seat: int, policy: str, status: str) -> str:
    """An analysis table's caption in a notebook: whose move, who plays the hands out, and its status line.

    >>> analysis_caption(0, "Expert:Balanced", "90 rollouts in 0.3 s: the only legal move.")
    'Your move, played out by Expert Balanced seats. 90 rollouts in 0.3 s: the only legal move.'
    >>> analysis_caption(2, "Average:Gambler", "…")
    "Ben's move, played out by Average Gambler seats. …"
    """
    name = seat_name(seat, SEAT_NAMES)
    whose = "Your" if name == YOU else f"{name}'s"
    return f"{whose} move, played out by {policy.replace(':', ' ')} seats. {status}"
