"""The analysis seat: legal to the end of a hand, reproducible from its seed, and blind to what its view hides."""

from __future__ import annotations

from test_analysis import synthetic

from cut_tutor.analysis import AnalysisSeat, analyse
from cut_tutor.analysis.search import rounds
from cut_tutor.analysis.seat import hands_open, preferred
from cut_tutor.analysis.stats import mean_se
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine import Move, Rules, State, view
from cut_tutor.engine.view import sight

#: Small budgets keep a whole hand to a few seconds; the seat raises them to 2 rollouts a move where it must.
BUDGET = 8
#: A short 2-seat hand (a full deal lasts minutes at any budget): seat 0 has seven cards and several choices.
SHORT = {"rules": {"players": 2}, "turn": 0, "pile": "9@1",
         "seats": [{"hand": "K J 9 7 7 5 3"}, {"hand": "Q 10 8 6 4 4 2"}]}  # fmt: skip


def play(seat: AnalysisSeat) -> tuple[list[Move], State, int]:
    """The short hand with ``seat`` in chair 0 against Expert:Balanced: its moves, the end state and how many of
    its decisions had a single legal move. Every move is checked legal before it is played."""
    state = State.from_position(SHORT)
    others = [AIPlayer("Expert", "Balanced", seed=s) for s in range(2)]
    moves, forced = [], 0
    while not state.over:
        legal = state.legal_moves()
        if state.turn == 0:
            move = seat.choose(state)
            moves.append(move)
            forced += len(legal) == 1
        else:
            move = others[state.turn].choose(Knowledge.from_sight(sight(state, state.turn)))
        assert move in legal
        state.apply(move)
    return moves, state, forced


def test_it_plays_legal_moves_to_the_end_of_a_hand_and_analyses_only_real_choices() -> None:
    seat = AnalysisSeat(BUDGET, seed=1)
    moves, state, forced = play(seat)
    assert state.over
    assert seat.analysed == len(moves) - forced > 0
    assert seat.rollouts >= 2 * seat.analysed and seat.seconds > 0


def test_the_same_deal_and_seed_give_the_same_hand() -> None:
    one, end_one, _ = play(AnalysisSeat(BUDGET, seed=7))
    two, end_two, _ = play(AnalysisSeat(BUDGET, seed=7))
    assert one == two
    assert end_one.scores() == end_two.scores()


def test_two_tables_that_look_the_same_to_the_seat_get_the_same_move() -> None:
    state = State.deal(Rules(), seed=11)
    expert = [AIPlayer("Expert", "Balanced", seed=s) for s in range(4)]
    while len(state.legal_moves()) < 3:
        state.apply(expert[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    me = state.turn
    other = (me + 1) % state.players
    planted = State.from_position(state.to_position())
    # swap one of the next seat's unseen hand cards with an undealt card of another rank
    rank = next(r for r, n in enumerate(planted.hands[other]) if n > planted.known[other][r])
    spare = next(r for r, n in enumerate(planted.undealt) if n and r != rank)
    planted.hands[other][rank] -= 1
    planted.hands[other][spare] += 1
    planted.undealt[spare] -= 1
    planted.undealt[rank] += 1
    assert planted.to_position() != state.to_position()
    assert view(planted, me) == view(state, me)
    assert AnalysisSeat(40, seed=2).choose(state) == AnalysisSeat(40, seed=2).choose(planted)


def test_it_leaves_its_policys_move_only_for_a_best_that_beats_it_by_the_confidence() -> None:
    """Candidate 1 is the policy's move; candidate 0 averages 1 point better on noisy rollouts."""
    found = rounds(synthetic([10, 11], own=[6, 6]), 2, seconds=None, max_rollouts=64)
    assert found.best == 0
    mean, se = mean_se(found.gap(1, 0))
    z = mean / se
    assert 0 < z < 5
    assert preferred(found, 1, 0.0) == 0  # always the best
    assert preferred(found, 1, z * 0.99) == 0 and preferred(found, 1, z * 1.01) == 1
    assert preferred(found, 0, 3.0) == 0  # the policy's move is the best: nothing to beat


def test_its_rounds_stop_once_one_move_is_left_where_the_analysis_measures_every_gap() -> None:
    """Shedding the 5 beats showing the K to take: the seat stops choosing once the take is eliminated, while the
    analysis spends its whole budget measuring by how much (the guide's *Playing by the analysis*). Seat 1's lead is
    not one an Expert would make from that hand, so the seat does not read the pile here."""
    state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "9@1",
                                 "seats": [{"hand": "5 K"}, {"hand": "Q Q 8 6 4 4 2"}]})  # fmt: skip
    seat = AnalysisSeat(400, infer=False)
    assert seat.choose(state) == Move.parse("1×5") and seat.rollouts < 400
    assert analyse(view(state, 0), seconds=None, max_rollouts=400, aim="gaps").rollouts == 400
    chosen = analyse(view(state, 0), seconds=None, max_rollouts=400, aim="best")
    assert chosen.rollouts < 400 and chosen.status.startswith(f"{chosen.rollouts} rollouts in")
    assert "(every other move was eliminated)" in chosen.status


#: Seat 1's hand is known to seat 0 (it picked those cards up from the pile, R11) until it plays a card.
OPEN = {"rules": {"players": 2}, "turn": 0, "pile": "9@1",
        "seats": [{"hand": "K J 9 7 7 5 3"}, {"hand": "Q 8 6 4", "known": "Q 8 6 4"}]}  # fmt: skip


def test_an_endgame_is_open_when_every_other_hand_is_known() -> None:
    state = State.from_position(OPEN)
    assert hands_open(view(state, 0))
    assert not hands_open(view(state, 1))  # seat 1 has not seen seat 0's hand
    assert not hands_open(view(State.from_position(SHORT), 0))


def test_reading_only_open_endgames_analyses_those_and_plays_the_policy_elsewhere() -> None:
    policy = AIPlayer("Expert", "Balanced")
    hidden = State.from_position(SHORT)
    reader = AnalysisSeat(BUDGET, seed=3, open_only=True)
    assert reader.choose(hidden) == policy.choose(Knowledge.from_sight(sight(hidden, 0)))
    assert reader.analysed == 0 and reader.rollouts == 0
    assert reader.choose(State.from_position(OPEN)) in State.from_position(OPEN).legal_moves()
    assert reader.analysed == 1 and reader.rollouts >= BUDGET
    assert "open endgames only" in repr(reader)
