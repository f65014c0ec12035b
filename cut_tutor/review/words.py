"""The review's words: the hand review's grades and summary, the belief panel, the drills, tutor mode and
progress over time (the guide's *Hand review* page).

Built from the shared words of :mod:`cut_tutor.engine.words`, so a card, a seat or a move reads as everywhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..coach.words import recommends, verdict_word
from ..engine.words import and_list, count, seat_name

#: Each grade's mark on the move list, as chess reviews write them (the guide's *Hand review* page).
GRADE_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
REVIEW_COLUMNS = ("Turn", "You played", "Coach", "Best", "Loss", "Grade")
NEXT_MISTAKE, PREVIOUS_MISTAKE, FIND_BETTER = "Next mistake ›", "‹ Previous mistake", "Find a better move"
NO_MISTAKES = "No graded mistakes in this hand."
RETRY_ASK = "Find a better move: which would you play here?"
NO_DRILLS = "No drills due: well done. New ones come from your graded mistakes."


def grade_text(grade: str | None) -> str:
    """A grade as the move list shows it: its mark and its name, nothing for an ungraded move.

    >>> grade_text("mistake"), grade_text(None)
    ('? mistake', '')
    """
    return f"{GRADE_MARKS[grade]} {grade}" if grade else ""


def followed_text(coaches: Sequence[str]) -> str:
    """Which coaches' advice the move made was (the review's *Coach* column): nothing when it was none's.

    >>> followed_text(["Madonna"]), followed_text(["Daryl", "Marty"]), followed_text([])
    ('You followed Madonna', 'You followed Daryl and Marty', '')
    """
    return f"You followed {and_list(coaches)}" if coaches else ""


def review_cells(
    turn: int, played: str, coaches: Sequence[str], best: str, loss: float, low: float, high: float, grade: str | None
) -> tuple[str, ...]:
    """One decision's cells under :data:`REVIEW_COLUMNS`, as the review's table and ``cut-tutor review`` show it.

    >>> review_cells(12, "Play 2× 5", ["Madonna"], "Play 1× J", 14.0, 8.0, 20.0, "mistake")
    ('12', 'Play 2× 5', 'You followed Madonna', 'Play 1× J', '14.0 ± 6.0 points', '? mistake')
    """
    return (str(turn), played, followed_text(coaches), best, loss_text(loss, low, high), grade_text(grade))


def loss_text(loss: float, low: float, high: float) -> str:
    """A loss in points with its interval's half-width: ``12.0 ± 3.5 points``; the best move loses nothing; a loss
    whose interval reaches 0 is said to be too close to call first, as the review does not grade it (a measured
    loss can then be below 0: the move did better than the best on the deals that measured it).

    >>> loss_text(12.0, 8.5, 15.5), loss_text(0.0, 0.0, 0.0), loss_text(-1.5, -6.0, 3.0)
    ('12.0 ± 3.5 points', '—', 'too close to call (-1.5 ± 4.5 points)')
    """
    if loss == 0 and low == high == 0:
        return "—"
    measured = f"{loss:.1f} ± {(high - low) / 2:.1f} points"
    return f"{verdict_word('close', 0.0)} ({measured})" if low <= 0 else measured


def review_summary(accuracy: float, lost_to_mistakes: float, luck: float, graded: Mapping[str, int]) -> str:
    """The hand review's summary line: accuracy, points lost to graded moves, luck (positive: it helped) and the
    count of each grade.

    >>> review_summary(81.24, 17.0, -6.5, {"inaccuracy": 1, "mistake": 1, "blunder": 0})
    'Accuracy 81.2% · 17.0 points lost to mistakes · luck: 6.5 points against you · 1 inaccuracy and 1 mistake'
    """
    fortune = f"{abs(luck):.1f} points {'for' if luck >= 0 else 'against'} you"
    kinds = [count(n, name) for name, n in graded.items() if n]
    return " · ".join([f"Accuracy {accuracy:.1f}%", f"{lost_to_mistakes:.1f} points lost to mistakes",
                       f"luck: {fortune}", and_list(kinds) if kinds else "no graded moves"])  # fmt: skip


def luck_parts(average: float, lost: float, deal: float, blind: float, play: float) -> str:
    """Where a hand's points came from (the guide's *Luck and skill*): an average deal's, the points lost, and each
    part of the luck (positive: it helped).

    >>> luck_parts(40.0, 12.5, -3.0, 5.25, 0.0)
    'an average deal 40.0 points · lost 12.5 points · luck: the deal -3.0, blind cards +5.2, other play +0.0'
    """
    return (f"an average deal {average:.1f} points · lost {lost:.1f} points · luck: the deal {deal:+.1f},"
            f" blind cards {blind:+.1f}, other play {play:+.1f}")  # fmt: skip


def retry_verdict(kind: str, loss: float) -> str:
    """What the tutor says of a retried move: ``best``, ``close`` (within noise of the best) or ``worse``.

    >>> retry_verdict("best", 0.0), retry_verdict("close", 1.2), retry_verdict("worse", 8.04)
    ('The best move.', 'Within noise of the best move.', 'Worse than the best move by 8.0 points.')
    """
    if kind == "best":
        return "The best move."
    if kind == "close":
        return "Within noise of the best move."
    return f"Worse than the best move by {loss:.1f} points."


def opponent_line(
    name: str, picked_up: Sequence[str], shown: Sequence[str], hand_count: int, above: str | None = None
) -> str:
    """What the seat knows of another: the cards seen going into its hand, its face-up cards, its hand's size, and
    what a bare take told the table about the rest of its hand (R11).

    >>> opponent_line("Daryl", ["K", "K"], [], 5)
    'Daryl: picked up K K · nothing face up · 5 cards in hand'
    >>> opponent_line("Daryl", ["6"], ["Q"], 4, above="6")
    'Daryl: picked up 6 · shows Q · 4 cards in hand · took the pile bare on 6: the rest are above 6, none clears'
    """
    known = "picked up " + " ".join(picked_up) if picked_up else "no known cards"
    up = "shows " + " ".join(shown) if shown else "nothing face up"
    line = f"{name}: {known} · {up} · {count(hand_count, 'card')} in hand"
    if above and hand_count > len(picked_up):
        line += f" · took the pile bare on {above}: the rest are above {above}, none clears"
    return line


def chance_line(name: str, top: str, chance: float) -> str:
    """The analysis' assumption about the next seat, from deals consistent with the view.

    >>> chance_line("Daryl", "7", 0.425)
    'Chance Daryl can play on a 7: 42%'
    """
    return f"Chance {name} can play on a {top}: {chance:.0%}"


def turn_number(seen: Mapping[str, Any]) -> int:
    """The turn a decision is on, as the rules count turns (R15): the hand's first turn is Turn 1, and a turn of
    several moves (a blind card and the cards sent with it, R12–R13) is one turn. The review, the retry and the
    drills all number a decision by it, from the deciding seat's view.

    >>> turn_number({"turns": 40})
    40
    """
    return int(seen["turns"])


def position_title(seen: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """A spoiler-free title of a decision: the turn, the seat by its name, what it held and the pile's top; never
    the move made or the best one.

    >>> position_title({"seat": 0, "turns": 12, "hand": ["7", "5"], "pile": [{"card": "9", "by": 1}]}, ["You", "Ann"])
    'Turn 12, You: 2 cards in hand, the pile topped by 9'
    """
    pile = seen["pile"]
    top = f"the pile topped by {pile[-1]['card']}" if pile else "an empty pile"
    held = count(len(seen["hand"]), "card")
    return f"Turn {turn_number(seen)}, {seat_name(seen['seat'], names)}: {held} in hand, {top}"


def drill_heading(index: int, total: int, title: str) -> str:
    """A due drill's heading (its title gives nothing away).

    >>> drill_heading(0, 3, "Turn 12, You: 2 cards in hand, the pile topped by 9")
    'Drill 1 of 3 — Turn 12, You: 2 cards in hand, the pile topped by 9'
    """
    return f"Drill {index + 1} of {total} — {title}"


def unseen_line(pool: Mapping[str, int]) -> str:
    """The cards the seat cannot see, by rank.

    >>> unseen_line({"7": 2, "K": 6}), unseen_line({})
    ('Unseen (8 cards): 2× 7, 6× K', 'Unseen: none')
    """
    if not pool:
        return "Unseen: none"
    return f"Unseen ({count(sum(pool.values()), 'card')}): " + ", ".join(f"{n}× {rank}" for rank, n in pool.items())


NEXT_DRILL = "Next drill"
PROGRESS_TITLE = "Your progress: accuracy and points lost, hand after hand"
REVIEW_TITLE, DRILLS_TITLE, BELIEF_TITLE = "Review this hand", "Drills", "What you know"
TUTOR_MODE, TUTOR_THRESHOLD = "Tutor mode", "Ask from (points)"
PLAY_ANYWAY, RETHINK, HINT = "Play anyway", "Rethink", "Hint"
REVIEW_STOPPED = "Review stopped."


def review_status(hand: int, done: bool) -> str:
    """What the review section says while a hand's review runs, and once it is ready.

    >>> review_status(2, False), review_status(2, True)
    ('Reviewing hand 2 in the background…', 'Hand 2 reviewed.')
    """
    return f"Hand {hand} reviewed." if done else f"Reviewing hand {hand} in the background…"


def drills_added(added: int) -> str:
    """What the review adds to the learner's drills.

    >>> drills_added(0), drills_added(2)
    ('No new drills from this hand.', '2 drills added from this hand.')
    """
    return f"{count(added, 'drill')} added from this hand." if added else "No new drills from this hand."


def tutor_question(label: str, loss: float) -> str:
    """Tutor mode's question before a doubtful play of the learner's.

    >>> tutor_question("Play 2× 5", 14.04)
    'Tutor: Play 2× 5 may cost you about 14.0 points. Play it anyway?'
    """
    return f"Tutor: {label} may cost you about {loss:.1f} points. Play it anyway?"


def tutor_hint(source: str, coach: str, label: str) -> str:
    """The tutor's hint: the heuristic coach's pick, or the analysis' once it has measured this position.

    >>> tutor_hint("coach", "Madonna", "Play 1× J"), tutor_hint("analysis", "Madonna", "Play 1× J")
    ('Madonna recommends: Play 1× J', 'The analysis prefers: Play 1× J')
    """
    return recommends(coach, label) if source == "coach" else f"The analysis prefers: {label}"


#: What each kind of mistake says to the learner (the review's kinds, the guide's *Hand review* page).
MISTAKE_KINDS = {
    "took": "took the pile when a play was better",
    "missed_take": "played on when taking the pile was better",
    "spent_clear": "spent a clear card when another move was better",
    "held_clear": "kept a clear card back when clearing was better",
    "blind": "turned a blind card when a move you could see was better",
    "held_blind": "held back a blind card that was better turned",
    "turned_up": "spent the turn turning a card face up when a play was better",
    "missed_turn_up": "played when turning a card face up was better",
    "push": "played a PUSH when another move (or another seat) was better",
    "held_push": "kept a PUSH back when pushing the pile was better",
    "adding": "added a different number of matching cards than was best",
    "split": "split a group: played fewer of a rank than was best",
    "too_many": "laid more cards than needed",
    "higher": "played higher than needed",
    "lower": "played lower than was best",
    "board": "played other Board cards than the best play",
    "other": "another move was better",
}
PROGRESS_SECTION = "Progress"
PROGRESS_DOWNLOAD = "Download your progress (CSV)"
PROGRESS_HANDS = "Your reviewed hands"
NO_PROGRESS = "No hand reviewed yet: your progress starts with your first reviewed hand."


def kinds_line(counts: Mapping[str, int], most: int = 3) -> str:
    """The most frequent kinds of mistake, most first (ties in the kinds' order).

    >>> kinds_line({"took": 1, "split": 3, "higher": 0}), kinds_line({})
    ('split a group: played fewer of a rank than was best ×3, took the pile when a play was better ×1', 'none')
    """
    ranked = sorted((name for name in counts if counts[name] > 0), key=lambda name: -counts[name])[:most]
    return ", ".join(f"{MISTAKE_KINDS[name]} ×{counts[name]}" for name in ranked) or "none"


def progress_alt(hands: int, accuracy: float | None, lost: float | None) -> str:
    """The progress plot's text alternative: what it shows, in figures.

    >>> progress_alt(3, 72.04, 8.5)
    'Accuracy and points lost over 3 reviewed hands: mean accuracy 72.0%, 8.5 points lost to mistakes per hand.'
    """
    if not hands or accuracy is None or lost is None:
        return NO_PROGRESS
    return (f"Accuracy and points lost over {count(hands, 'reviewed hand')}: mean accuracy {accuracy:.1f}%, "
            f"{lost:.1f} points lost to mistakes per hand.")  # fmt: skip


#: Under the tutor's question while the analysis of the learner's position runs.
TUTOR_CHECKING = "Checking with the analysis…"


def tutor_measured(label: str, loss: float, low: float, high: float) -> str:
    """Tutor mode's question once the analysis confirms the coach: its loss with its 95% interval.

    >>> tutor_measured("Play 2× 5", 14.04, 8.1, 19.96)
    'Tutor: the analysis puts Play 2× 5 at about 14.0 points lost (95%: 8.1 to 20.0). Play it anyway?'
    """
    figures = f"about {loss:.1f} points lost (95%: {low:.1f} to {high:.1f})"
    return f"Tutor: the analysis puts {label} at {figures}. Play it anyway?"


def tutor_cleared(label: str, loss: float, low: float, high: float, threshold: float) -> str:
    """What the tutor says when the analysis does not back the coach's warning: the play waits for the learner's
    word all the same (the guide's *Tutor mode*).

    >>> tutor_cleared("Play 2× 5", 0.0, 0.0, 0.0, 12)
    'The analysis finds Play 2× 5 the best move here. Play it?'
    >>> tutor_cleared("Play 2× 5", 3.0, -2.0, 8.0, 12)
    'Too close to call: the analysis cannot tell Play 2× 5 from the best (about 3.0 points, 95%: -2.0 to 8.0). Play it?'
    >>> tutor_cleared("Play 2× 5", 3.0, 1.0, 5.0, 12)
    'The analysis puts Play 2× 5 at about 3.0 points lost (95%: 1.0 to 5.0), under your 12.0. Play it?'
    """
    if loss == 0 and low == high == 0:
        return f"The analysis finds {label} the best move here. Play it?"
    if low <= 0:
        figures = f"about {loss:.1f} points, 95%: {low:.1f} to {high:.1f}"
        return f"Too close to call: the analysis cannot tell {label} from the best ({figures}). Play it?"
    figures = f"about {loss:.1f} points lost (95%: {low:.1f} to {high:.1f})"
    return f"The analysis puts {label} at {figures}, under your {threshold:.1f}. Play it?"
