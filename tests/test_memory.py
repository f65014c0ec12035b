"""A seat's memory of the hand (the guide's *Reading the pile*): the turns it watched each other seat play from its
hand since that seat last picked cards up, read back past the pile's last clear, from its own views alone (C2)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cut_tutor.analysis import AnalysisSeat
from cut_tutor.analysis import memory as M
from cut_tutor.analysis.deals import Deals
from cut_tutor.analysis.memory import Memory
from cut_tutor.analysis.search import players
from cut_tutor.engine import Move, Rules, State, view
from cut_tutor.sim import simulate

#: Seat 1 leads 9, seat 0 goes under with 7, seat 1 with 5, seat 0 clears with its 10 (R9) and leads its 4.
OPENING = {"rules": {"players": 2}, "turn": 1, "seats": [{"hand": "K Q 7 10 4"}, {"hand": "9 9 5 6 J"}]}
MOVES = ("1×9", "1×7", "1×5", "clear 10", "1×4")
READER = players("Expert:Balanced", [0])[0]


def watched(moves: Sequence[str], memory: Memory, position: dict[str, object] = OPENING) -> State:
    """The position after ``moves``, each watched by ``memory``'s seat from its chair."""
    state = State.from_position(position)
    for text in moves:
        move = Move.parse(text)
        memory.observe(view(state, memory.seat), move)
        state.play(move)
    return state


def test_it_remembers_each_seats_hand_plays_with_the_cards_laid_since() -> None:
    memory = Memory(0)
    state = watched(MOVES, memory)
    assert [(e["seat"], e["move"], e["laid"]) for e in memory.entries()] == [
        (1, "1×5", ["5"]),
        (1, "1×9", ["9", "5"]),
    ]
    first = memory.entries()[-1]["view"]
    assert first["seat"] == 0 and first["turn"] == 1 and first["pile"] == []  # its own view as seat 1's turn began
    assert memory.follows(view(state, 0)) and memory.follows(view(state, 1)) is False


def test_the_turns_remembered_are_read_past_the_pile_clear() -> None:
    """Seat 0 cleared the pile, so it shows no turn of seat 1's; the memory still reads both."""
    memory = Memory(0)
    state = watched(MOVES[:4], memory)
    seen = view(state, 0)
    assert seen["pile"] == [] and Deals(seen, READER).reads == {}
    deals = Deals({**seen, "memory": memory.entries()}, READER)
    assert [(str(move), back) for _, back, move in deals.reads[1]] == [("1×5", [5]), ("1×9", [9, 5])]
    for before, back, move in deals.reads[1]:
        assert before.turn == 1 and move in before.with_hand(1, [*back, 6, 9, 11]).legal_moves()
    # every deal agrees with both turns: a hand holding a 6 under the 9 leads the 9 no Expert would lead instead
    sampled = [deals.sample(random.Random(i)) for i in range(20)]
    assert all(deals.agrees(s) for s in sampled)


def test_a_seat_that_picks_cards_up_is_forgotten() -> None:
    memory = Memory(0)
    watched([*MOVES, "take"], memory)
    assert memory.entries() == []


def test_only_the_latest_turns_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 plays two turns from its hand; with room for one, the later is kept, its cards laid counted."""
    monkeypatch.setattr(M, "MEMORY", 1)
    memory = Memory(0)
    watched(MOVES, memory)
    assert [(e["seat"], e["move"], e["laid"]) for e in memory.entries()] == [(1, "1×5", ["5"])]


def test_a_memory_that_missed_the_start_or_a_move_is_not_read() -> None:
    late = Memory(0)
    state = watched(MOVES[:2], Memory(0))
    state = watched(MOVES[2:4], late, state.to_position())  # began watching mid-hand: not whole
    assert not late.follows(view(state, 0))
    memory = Memory(0)
    state = watched(MOVES[:2], memory)
    state.play(Move.parse(MOVES[2]))
    state.play(Move.parse(MOVES[3]))  # two moves not watched
    assert memory.follows(view(state, 0)) is False
    with pytest.raises(ValueError, match="seat 1's view"):
        memory.observe(view(state, 1), Move.parse("take"))


def test_a_malformed_memory_is_refused_with_what_was_wrong() -> None:
    memory = Memory(0)
    seen = view(watched(MOVES[:4], memory), 0)
    for bad in ([{"seat": 1}], [{**memory.entries()[0], "laid": ["Z"]}], [{**memory.entries()[0], "move": "nope"}]):
        with pytest.raises(ValueError, match="its memory of the turns it saw is malformed"):
            Deals({**seen, "memory": bad}, READER)


def test_the_seat_watches_every_move_of_a_simulated_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate`` shows an analysis seat every move, from its chair, so its memory follows each of its decisions."""
    seen: list[tuple[int, int]] = []
    followed: list[bool] = []
    watch, choose = AnalysisSeat.observe, AnalysisSeat.choose_view

    def observe(self: AnalysisSeat, view: dict[str, object], move: Move) -> None:
        seen.append((int(view["seat"]), int(view["turns"])))  # type: ignore[call-overload]
        watch(self, view, move)

    def choose_view(self: AnalysisSeat, view: dict[str, object]) -> Move:
        followed.append(self._memory is not None and self._memory.follows(view))
        return choose(self, view)

    monkeypatch.setattr(AnalysisSeat, "observe", observe)
    monkeypatch.setattr(AnalysisSeat, "choose_view", choose_view)
    frame = simulate(["Analysis:4", "Expert:Balanced"], Rules(players=2), hands=1, seed=3)
    assert len(seen) == int(frame["decisions"].sum()) and {s for s, _ in seen} == {0}
    assert followed and all(followed[1:])
