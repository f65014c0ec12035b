"""Why a CUT move is illegal (R7–R18): a plain-English reason, citing the rule, for a move the generator does not
list; :mod:`~cut_tutor.engine.cut` hands its refusals here."""

from __future__ import annotations

from .cards import JOKER, RANK_MASK, STACKS, UP, card_name
from .core import PHASE_ADD, PHASE_GAMBLE, Core
from .cut_limits import play_cap, stacks_free
from .game_words import Vocabulary, count, pile_number
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, TAKE, TURNUP, Move


def why_illegal(state: Core, move: Move, words: Vocabulary) -> str:
    """A plain-English reason, citing the rule, for a move :func:`generate` does not list; ``words`` are CUT's."""
    seat = state.turn
    kind = move.kind
    top = state.top
    if state.phase == PHASE_ADD:
        if kind != ADD:
            return (
                f"your blind {card_name(top)} has landed: first choose which matching cards to add"
                " ('add 0' adds none) (R13)"
            )
        if move.size and move.rank != top:
            return f"only cards of your landed blind card's rank ({card_name(top)}) can be added (R13)"
        refused = _why_cards(state, seat, move, words) or _why_cap(state, move, words)
        return refused or "that addition is not allowed here (R13)"
    if state.phase == PHASE_GAMBLE:
        if kind == GAMBLE:
            return f"{pile_number(move.stacks[0])} has no exposed Risk card to gamble this turn (R17)"
        return "choose a Risk card to gamble or 'done' (R17)"
    if kind in (ADD, GAMBLE, DONE):
        return {
            ADD: "cards are added only after a blind card lands (R13)",
            GAMBLE: "a gamble follows only a play that spent a Board card, with Risk Play on (R17)",
            DONE: "'done' only ends a run of Risk gambles (R17)",
        }[kind]
    if kind == TAKE:
        return _why_take(state, seat, move, words)
    if kind in (FLIP, TURNUP):
        return _why_blind(state, seat, move)
    return _why_cards(state, seat, move, words) or _why_play(state, move, words)


def _why_take(state: Core, seat: int, move: Move, words: Vocabulary) -> str:
    if not state.pile:
        return "there is nothing to take from an empty pile (R11)"
    if not move.rank:
        return "you have a legal play, so to take the pile you must show a card above the top (R11)"
    if state.rules.is_clear[move.rank]:
        return "a clear card is never higher: it cannot be shown to take the pile (R11)"
    if move.rank <= state.top:
        return f"the card shown to take must be above the top ({card_name(state.top)}) (R11)"
    return _why_cards(state, seat, move, words) or "you can only show a card you may play from (R7, R11)"


def _why_blind(state: Core, seat: int, move: Move) -> str:
    k = move.stacks[0]
    if k >= STACKS or not state.stacks[seat][k]:
        return f"{pile_number(k)} is empty"
    if state.stacks[seat][k][-1] & UP:
        return f"{pile_number(k)}'s top card is face-up: play it as a card (R7)"
    if move.kind == TURNUP and not state.rules.pile_card_flip:
        return "turning a card up needs the Pile Card Flip rule (R18)"
    if state.hand_count[seat]:
        return "a face-down card is played blind only once your hand is empty (R7)"
    return "a face-down card is played blind only when no face-up stack card remains (R7)"


def _why_cards(state: Core, seat: int, move: Move, words: Vocabulary) -> str | None:
    """Reasons about the cards themselves: held, on which stacks, and how many."""
    return _why_stacks(state, seat, move) or _why_held(state, seat, move, words) or _why_count(state, seat, move)


def _why_stacks(state: Core, seat: int, move: Move) -> str | None:
    """The stacks a move names: there, not empty, their top face-up and of the rank played (R7, R12)."""
    if any(k >= STACKS for k in move.stacks):
        return f"there are only {STACKS} stacks"
    for k in move.stacks:
        stack = state.stacks[seat][k]
        if not stack:
            return f"{pile_number(k)} is empty"
        if not stack[-1] & UP:
            return f"{pile_number(k)}'s top card is face-down: it is played blind with 'flip {k + 1}' (R7, R12)"
        want = move.rank if move.kind != CLEAR else -1
        got = stack[-1] & RANK_MASK
        if want >= 0 and got != want:
            return f"{pile_number(k)}'s top card is {card_name(got)}, not {card_name(want)}"
        if want < 0 and not state.rules.is_clear[got]:
            return f"{pile_number(k)}'s top card {card_name(got)} is not a clear card"
    return None


def _why_held(state: Core, seat: int, move: Move, words: Vocabulary) -> str | None:
    """The hand cards a move names: clear cards that clear (R2), and held."""
    hand, rules = state.hands[seat], state.rules
    if move.kind == CLEAR:
        if move.n and move.rank != rules.clear_rank:
            what = card_name(rules.clear_rank) + "s and Jokers" if rules.clear_rank else "Jokers"
            return f"{card_name(move.rank)} is not a clear card: only {what} clear (R2)"
        if hand[move.rank] < move.n or hand[JOKER] < move.jokers:
            return "you do not hold those clear cards"
    elif move.n and hand[move.rank] < move.n:
        return f"you hold {count(hand[move.rank], words.word(move.rank))} in your hand, not {move.n}"
    return None


def _why_count(state: Core, seat: int, move: Move) -> str | None:
    """How many cards a move plays, and from where: stack cards join only a play that empties the hand (R7)."""
    if move.stacks and not stacks_free(state, seat):
        used = move.n + move.jokers
        if used != state.hand_count[seat]:
            return "face-up stack cards join a play only when that play empties your hand (R7)"
    if move.kind != TAKE and move.n + move.jokers == 0 and not move.stacks:
        return "a play needs at least one card"
    if move.n and not move.stacks and state.hand_count[seat] == 0:
        return "your hand is empty"
    return None


def _why_play(state: Core, move: Move, words: Vocabulary) -> str:
    if move.kind == CLEAR:
        return "that clear play is not allowed here (R9)"
    if state.rules.is_clear[move.rank]:
        return f"{card_name(move.rank)} is a clear card: play it as 'clear {card_name(move.rank)}' (R9)"
    if state.pile and move.rank > state.top:
        return f"{card_name(move.rank)} is above the pile top {card_name(state.top)}: play equal or lower (R8)"
    return _why_cap(state, move, words) or "that play is not allowed here (R7, R8)"


def _why_cap(state: Core, move: Move, words: Vocabulary) -> str | None:
    """The USA cap (R10), which also limits additions to a landed blind card (R13)."""
    cap = play_cap(state, move.rank)
    if move.size > cap:
        return f"USA rules: at most {count(cap, words.word(move.rank))} may be laid to reach four on the pile (R10)"
    return None


# -- applying moves -------------------------------------------------------------------------------------------
