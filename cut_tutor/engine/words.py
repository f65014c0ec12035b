"""The player's words in one place: move labels, card faces, counts, seat names and the coach's phrases.

One word per thing, as the guide's buttons write it. *The pile* is the cards in the middle; each of a player's
four stacks (a Board card over its Risk card) is named by the number on its badge, as the buttons name it:
``pile 2``. Buttons read like the guide's: ``Play 2× 9``, ``Play 3× A — clear``, ``Play 4× clear``,
``Take (show K)``, ``Flip pile 2``, ``Play 2× 9 + Risk pile 2``. The coach's explanations, the table, the Play
Bar and the replayer all take their words from here, so the same thing never has two names.

>>> move_label(Move.parse("3×A"), clears=True), move_label(Move.parse("gamble 2"))
('Play 3× A — clear', 'Risk pile 2')
>>> count(1, "card"), count(2, "card"), acts("You", "deal"), acts("Ann", "deal")
('1 card', '2 cards', 'You deal', 'Ann deals')
>>> face("A", "Clear 4"), card_word("JK"), cards_phrase(Move.parse("clear JK"))
('1', 'Joker', 'your Joker')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .cards import CLEAR_CARD, JOKER, WILD, card_name
from .moves import ADD, CLEAR, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from .rules import CLEAR4

CUT = "CUT"
#: The name the seat at the keyboard goes by: it takes "you deal", not "you deals".
YOU = "You"

#: Card name → the word on its face, where a game writes a card otherwise than by its short name (R22: Clear 4
#: writes its 1 as ``1`` and its special cards in words). The table draws its faces from this, through the data.
FACES: dict[str, dict[str, str]] = {CUT: {}, CLEAR4: {"A": "1", "P": "PUSH", "J*": "JOKER", "CL": "CLEAR"}}
#: Card name → the word a sentence uses, where it differs from the face (the guide writes "Joker").
_PROSE: dict[str, dict[str, str]] = {CUT: {"JK": "Joker"}, CLEAR4: {"CL": "CLEAR card"}}
#: The table's legend for each game: icon and what it means.
LEGENDS: dict[str, tuple[tuple[str, str], ...]] = {
    CUT: (
        ("💥", "Bust: took the pile"),
        ("🃏", "Known card: came from the pile"),
        ("🤖", "Automated: the coach plays this seat"),
        ("D", "Dealer"),
        ("S", "Clear: the pile was swept away"),
    ),
    CLEAR4: (
        ("💥", "Passed: took the pile"),
        ("🃏", "Known card: came from the pile"),
        ("🤖", "Automated: the coach plays this seat"),
        ("D", "Dealer"),
        ("S", "Clear: the pile was swept away"),
    ),
}

#: The seats' names in a new setup: you, then AI opponents named apart from the three coaches (Daryl, Madonna and
#: Marty give advice; they do not sit at the table).
SEAT_NAMES = ("You", "Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gia")
#: The buttons that move play on: before an AI seat's move (Step pacing), after a pause, after a hand.
NEXT, CONTINUE, NEXT_HAND = "Next", "Continue", "Next hand"

_NUMBERS = ("no", "one", "two", "three", "four", "five")
_IRREGULAR = {"be": "is", "do": "does", "go": "goes", "have": "has"}
_STACK_VERBS = {FLIP: "Flip", GAMBLE: "Risk", TURNUP: "Turn up"}


def game_of(view: Mapping[str, Any]) -> str:
    """The game a view is of (its rules name Clear 4; CUT's leave the game out)."""
    return str(view["rules"].get("game", CUT))


# -- cards and counts ---------------------------------------------------------------------------------------


def pile_number(k: int) -> str:
    """A player's stack as the buttons and badges name it: ``pile 2`` (``k`` from 0)."""
    return f"pile {k + 1}"


def face(card: int | str, game: str = CUT) -> str:
    """A card as the table shows it: its short name, or the word this game prints on it."""
    name = card if isinstance(card, str) else card_name(card)
    return FACES[game].get(name, name)


def card_word(card: int | str, game: str = CUT) -> str:
    """A card as a sentence names it: ``Joker`` for CUT's ``JK``, otherwise its face."""
    name = card if isinstance(card, str) else card_name(card)
    return _PROSE[game].get(name, face(name, game))


def cards_text(cards: Iterable[int], game: str = CUT) -> str:
    """Some cards' faces in a row (``Q 4``), or ``nothing``."""
    return " ".join(face(card, game) for card in cards) or "nothing"


def plural(noun: str) -> str:
    """``card`` → ``cards``, ``7`` → ``7s``, ``PUSH`` → ``PUSHes``."""
    return noun + ("es" if noun.lower().endswith(("s", "sh", "ch", "x")) else "s")


def count(n: float, noun: str) -> str:
    """``1 card``, ``2 cards``, ``2.5 points``."""
    return f"{n:g} {noun if n == 1 else plural(noun)}"


def pts(n: int) -> str:
    """Card points, short: ``1 pt``, ``25 pts``."""
    return f"{n} pt" if n == 1 else f"{n} pts"


def percent(p: float) -> str:
    """A chance in whole per cent: ``62%``."""
    return f"{p:.0%}"


def number(n: int) -> str:
    """A small count in words (``two``), larger ones in figures."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


# -- seats ----------------------------------------------------------------------------------------------------


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat as the table names it: the player's name when there are names, else ``seat 2``."""
    return names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"


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


# -- move labels: the buttons' words --------------------------------------------------------------------------


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


def _label(
    move: Move, game: str, clears: bool, names: Sequence[str] | None, detail: bool, place: bool = True, landed: int = 0
) -> str:
    """The button text; ``place`` names the piles a play draws on, ``detail`` the cards of a clear play."""
    kind = move.kind
    if kind == ADD and game == CUT:  # R13: the landed card is card 1, and each choice counts it
        rank = move.rank or landed
        cards = f"{move.size + 1}× {face(rank) if rank else 'turned card'}"
        return f"Play {cards}{_where(move) if place else ''}" + (" — clear" if clears else "")
    if kind in (PLAY, ADD):
        if kind == ADD and not move.size:
            return "Add none"
        jokers = f" + {move.jokers}× {face(WILD, game)}" if move.jokers else ""  # Clear 4's JOKERs joining (R22)
        cards = f"{move.size - move.jokers}× {face(move.rank, game)}{jokers}"
        return f"{kind.capitalize()} {cards}{_where(move) if place else ''}" + (" — clear" if clears else "")
    if kind == PUSH:
        return f"Push to {seat_name(move.to, names)}{_where(move)}"
    if kind == CLEAR:
        if game == CLEAR4:  # one CLEAR card at a time (R22)
            return f"Play {face(CLEAR_CARD, game)}{_where(move)}"
        hand = [face(move.rank)] * move.n + [face(JOKER)] * move.jokers if detail else []
        return f"Play {move.size}× clear{_where(move, hand)}"
    if kind == TAKE:
        if game == CLEAR4:
            return "Pass"
        if not move.rank:
            return "Take the pile"
        where = f" from {pile_number(move.stacks[0])}" if move.stacks else ""
        return f"Take (show {face(move.rank)}{where})"
    if kind in _STACK_VERBS:
        return f"{_STACK_VERBS[kind]} {pile_number(move.stacks[0])}"
    return "Done"  # DONE: the last kind, ending a run of gambles (R17)


def _where(move: Move, cards: Sequence[str] = ()) -> str:
    """`` (piles 1, 3)``: the stacks a move plays from, after any cards named."""
    word = "piles " if len(move.stacks) > 1 else "pile "
    stacks = [word + ", ".join(str(k + 1) for k in move.stacks)] if move.stacks else []
    parts = [*cards, *stacks]
    return f" ({', '.join(parts)})" if parts else ""


# -- the coach's phrases --------------------------------------------------------------------------------------


def cards_phrase(move: Move, game: str = CUT) -> str:
    """The cards a move lays, as the advice names them: ``your 2 7s``, ``your 10 and a Joker``, ``your JOKER``."""
    if game == CLEAR4:
        if move.kind == CLEAR:
            return "your " + card_word(CLEAR_CARD, game)
        jokers = move.size if move.rank == WILD else move.jokers  # JOKERs join a number, or play alone (R22)
        parts = [(move.size - jokers, card_word(move.rank, game)), (jokers, card_word(WILD, game))]
    elif move.kind == CLEAR:
        stacks = (len(move.stacks), "face-up clear card")
        parts = [(move.n, card_word(move.rank)), (move.jokers, card_word(JOKER)), stacks]
    else:
        parts = [(move.size, card_word(move.rank, game))]
    named = [(n, word) for n, word in parts if n]
    return "your " + " and ".join(_some(n, word, article=i > 0) for i, (n, word) in enumerate(named))


def _some(n: int, word: str, article: bool = False) -> str:
    """``7``, ``a 7`` (after another card), ``2 7s``: n of a card."""
    return f"{n} {plural(word)}" if n > 1 else f"a {word}" if article else word


def plan(steps: Iterable[tuple[int, int]], game: str = CUT) -> str:
    """The coach's line in words (C5): each step a card and a count, a count of 0 a clear card spent to clear.

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
        if game == CLEAR4:
            return "Pass"
        return f"Take the pile, showing your {card_word(move.rank, game)}" if move.rank else "Take the pile"
    if kind == PUSH:
        return f"Push the pile to {who(move.to, names)}"
    if kind in _STACK_VERBS:
        return move_label(move, game=game)
    return "Stop here (Done)"


def recommends(coach: str, label: str) -> str:
    """The coach's pick for a move, named by its button: ``Madonna recommends: Play 3× J``."""
    return f"{coach} recommends: {label}"


# -- the Play Bar ---------------------------------------------------------------------------------------------


def play_bar(
    name: str,
    label: str,
    *,
    game: str = CUT,
    turned: str = "",
    took: Iterable[int] | None = None,
    swept: Iterable[int] | None = None,
    went_out: bool = False,
) -> str:
    """One line of the Play Bar: who played what, the card a blind play turned, the cards taken or swept away
    (they are public, R9–R11) and going out.

    >>> play_bar("You", "Pass", game="Clear 4", took=[1, 4])
    'You: Pass — 💥 took the pile: 1 4'
    """
    text = f"{name}: {label}"
    if turned:
        text += f" (turned {turned})"
    if took is not None:
        text += f" — 💥 took the pile: {cards_text(took, game)}"
    elif swept is not None:
        text += f" — cleared {cards_text(swept, game)}, plays again"
    if went_out:
        text += " — and went out!"
    return text


def cut_line(cuts: Iterable[tuple[int, int]], names: Sequence[str], dealer: int, game: str = CUT) -> str:
    """The first hand's cut for dealer (R4) in the Play Bar: every card cut, in order, and who deals.

    >>> cut_line([(0, 7), (1, 13)], ["You", "Ann"], 1)
    'Cut for dealer: You 7, Ann K — Ann deals'
    """
    cut = ", ".join(f"{seat_name(seat, names)} {face(card, game)}" for seat, card in cuts)
    return f"Cut for dealer: {cut} — {acts(seat_name(dealer, names), 'deal')}"


def code_note(code: str) -> str:
    """The Play Bar's word on a game dealt from a deal code: its first hand is the code's."""
    return f"Dealt from code {code}: the first hand is the code's deal"


def pause_line(kind: str, name: str, cards: Iterable[int], game: str = CUT) -> str:
    """What a Step pause shows (``kind`` ``clear`` or ``bust``): the swept cards before the pile clears, or the
    pile a seat took; both are public (R9–R11).

    >>> pause_line("clear", "Ann", [9, 9, 9, 9]), pause_line("bust", "Ben", [12, 4])
    ('Ann cleared the pile: 9 9 9 9', '💥 Ben took the pile: Q 4')
    """
    if kind == "clear":  # the table marks it with the S badge
        return f"{name} cleared the pile: {cards_text(cards, game)}"
    return f"💥 {name} took the pile: {cards_text(cards, game)}"


def busts_mark(busts: int) -> str:
    """A seat's busts as one mark with a count, however many: ``💥×8``."""
    return f"💥×{busts}" if busts else ""


def bust_addon(busts: int, penalty: int) -> str:
    """The bust add-on on a hand's score, on its own line (R19): ``💥×2 +50``; empty without busts or a penalty."""
    return f"{busts_mark(busts)} +{busts * penalty}" if busts and penalty else ""


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


def turn_status(
    seen: Mapping[str, Any],
    names: Sequence[str],
    hand_number: int,
    winners: Sequence[str] | None = None,
    automated: bool = False,
) -> str:
    """The Turn Status for the seat whose view ``seen`` is: whose turn, what your turn asks, or how the hand ended
    (``winners``: the game is over and they won it)."""
    game = game_of(seen)
    if seen["winner"] is not None or seen["stalemate"]:
        status = (
            f"{names[seen['winner']]} went out — hand {hand_number} over"
            if seen["winner"] is not None
            else "Stalemate — hand over"
        )
        return status + (" · Game over: " + acts(list(winners), "win") if winners else "")
    if seen["turn"] != seen["seat"]:
        return f"{names[seen['turn']]} to play"
    status = "Your turn" + (" (automated)" if automated else "")
    if game == CLEAR4 and seen["phase"] == "push":
        status += " — your blind PUSH: choose who gets the pile"
    elif game == CLEAR4 and seen["phase"] == "add":
        status += " — add matching cards, or Add none"
    return status


# -- the table's words ----------------------------------------------------------------------------------------


def _stack_badges(stacks: Sequence[Sequence[Any]]) -> list[str]:
    """Each stack's badge, read out: ``pile 2, 2 cards``."""
    return [f"{pile_number(k)}, {count(len(stack), 'card')}" for k, stack in enumerate(stacks)]


def adding_list(card: int, hand: int, piles: Sequence[int]) -> dict[str, Any]:
    """R13's list after a blind ``card`` lands: it is card 1, and each card that could go with it has the next
    number, the hand's first (a hand card costs nothing but itself), then the piles' (each uncovers a Risk card).

    >>> [g["title"] for g in adding_list(5, 2, [1])["groups"]], adding_list(5, 2, [1])["groups"][1]["cards"]
    (['From your hand', 'From your piles'], [{'number': 4, 'card': '5', 'stack': 1, 'where': 'pile 2'}])
    """
    name = card_name(card)
    groups = [
        {"title": "From your hand", "note": "costs nothing but the card",
         "cards": [{"number": 2 + i, "card": name} for i in range(hand)]},
        {"title": "From your piles", "note": "each one played uncovers that pile's Risk card",
         "cards": [{"number": 2 + hand + j, "card": name, "stack": k, "where": pile_number(k)}
                   for j, k in enumerate(piles)]},
    ]  # fmt: skip
    return {
        "first": {"number": 1, "card": name, "note": "the card you turned over"},
        "groups": [group for group in groups if group["cards"]],
    }


def table_words(view: Mapping[str, Any], *, pile_counts: bool = True) -> dict[str, Any]:
    """The words the page prints for a view: the faces of the cards it shows, each seat's card count, bust mark and
    stack badges, the pile readout and the legend, so the page holds no second copy of them.
    """
    game = game_of(view)
    pile = view["pile"]
    readout = [count(len(pile), "card")] if pile_counts else []
    if game == CLEAR4:  # the value to play equal or lower to is a rule, not a counting aid: always shown (R22)
        readout.append("value " + (face(view["pile_value"], game) if view.get("pile_value") else "any"))
    elif pile_counts:
        readout.append(pts(view["pile_points"]))
    shown = {*view["hand"], *view["cleared"], view.get("pile_value")}
    shown |= {card for entry in view["pile"] for card in (entry["card"], entry.get("as"))}
    for seat in view["seats"]:
        shown |= {*seat["known"], *seat.get("hand", ()), *(c for stack in seat["stacks"] for c in stack)}
    return {
        "faces": {card: word for card, word in FACES[game].items() if card in shown},  # only cards on view (C2)
        "left": [count(seat["cards_left"], "card") for seat in view["seats"]],
        "busts": [busts_mark(seat["busts"]) for seat in view["seats"]],
        "stacks": [_stack_badges(seat["stacks"]) for seat in view["seats"]],
        "pile": " · ".join(readout),
        "legend": [list(entry) for entry in LEGENDS[game]],
    }


# -- the analysis table ---------------------------------------------------------------------------------------

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


# -- the hand review, the belief panel and the drills -------------------------------------------------------------

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


def aligned(table: Sequence[Sequence[str]]) -> list[str]:
    """A table as plain text for the command line: its rows' cells in columns two spaces apart.

    >>> aligned([("Turn", "You played"), ("12", "Play 2× 5")])
    ['Turn  You played', '12    Play 2× 5']
    """
    widths = [max(len(row[k]) for row in table) for k in range(len(table[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in table]


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

# -- the review room: the review after a hand, tutor mode, the drills and the belief beside the coach -------------

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


# -- progress over time: the kinds of mistake and the progress section -----------------------------------------------

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


# -- tutor mode, refined by the analysis ------------------------------------------------------------------------------

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
