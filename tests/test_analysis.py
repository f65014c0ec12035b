"""The analysis (guide: *Analysis*): exact on an endgame small enough to enumerate, honest about hidden cards (C2),
repeatable for a seed whatever the workers, and stopping by its stated rule."""

from __future__ import annotations

import io
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from test_native_coach import ai_play

from cut_tutor.analysis import Analysis, Deals, analyse, evaluation
from cut_tutor.analysis.evaluations import cached, forget, seed_of
from cut_tutor.analysis.report import MoveValue
from cut_tutor.analysis.run import POLICY, values_of
from cut_tutor.analysis.search import Result, Search, play_out, players, rounds
from cut_tutor.analysis.stats import clearly_worse, mean_interval
from cut_tutor.cli import main
from cut_tutor.coach import Knowledge, advise
from cut_tutor.coach.advice import LONG_HAND
from cut_tutor.engine import Move, RandomPlayer, Rules, State, view
from cut_tutor.engine.cards import CODES, KING, RANK_MASK, UP, card_name, cards_of
from cut_tutor.engine.view import sight

#: A 2-seat endgame: seat 1's two hand cards are the only hidden cards that can matter (the rest are undealt).
ENDGAME = {"rules": {"players": 2}, "turn": 0, "turns": 40, "pile": "9@1",
           "seats": [{"hand": "9 9 8 3"}, {"hand": "Q 5"}]}  # fmt: skip


#: A like endgame after seat 1 took the pile bare on an 8: its two hidden cards are ordinary ranks above 8 (R11).
ENDGAME_BARE = ENDGAME | {"seats": [{"hand": "9 9 8 3"}, {"hand": "Q 9", "above": "8"}]}


def exact_values(position: dict[str, Any]) -> dict[str, float]:
    """Each move's expected points for seat 0, over every pair of cards seat 1 may hold, weighted by its chance."""
    pool = list(Knowledge.from_view(view(State.from_position(position), 0)).counted)
    rules = Rules.from_dict(position["rules"])
    above = position["seats"][1].get("above")
    if above:  # only the cards a bare take on that top leaves possible
        pool = [n if rules.above_bare(rank, CODES[above]) else 0 for rank, n in enumerate(pool)]
    total = sum(pool)
    ranks = [rank for rank, n in enumerate(pool) if n]
    values = {}
    for move in State.from_position(position).legal_moves():
        value = 0.0
        for a, b in itertools.combinations_with_replacement(ranks, 2):
            weight = (pool[a] * (pool[a] - 1) if a == b else 2 * pool[a] * pool[b]) / (total * (total - 1))
            deal = position | {
                "seats": [position["seats"][0], position["seats"][1] | {"hand": f"{card_name(a)} {card_name(b)}"}]
            }
            state = State.from_position(deal)
            state.apply(move)
            seats = players("Expert:Balanced", [1, 2])
            while not state.over:
                state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
            assert state.turns <= LONG_HAND, "past LONG_HAND the seats add noise and no enumeration is exact"
            value += weight * state.scores()[0]
        values[str(move)] = value
    return values


def mid_game(seed: int, rules: Rules | None = None) -> State:
    """A position some random moves into a seeded deal."""
    rng = random.Random(seed)
    state = State.deal(rules or Rules(), seed=seed)
    for _ in range(30):
        move = RandomPlayer().choose(state, rng)
        following = state.copy()
        following.apply(move)
        if following.over:
            break
        state = following
    return state


def figures(result: Analysis) -> list[dict[str, Any]]:
    return [m.to_dict() for m in result.moves]


class TestExactness:
    @pytest.mark.parametrize("position", [ENDGAME, ENDGAME_BARE], ids=["endgame", "after a bare take"])
    def test_intervals_cover_the_enumerated_value_and_the_best_move_matches(self, position: dict[str, Any]) -> None:
        exact = exact_values(position)
        best = min(exact, key=exact.__getitem__)
        assert sorted(exact.values())[1] - exact[best] > 3  # a position where the best is worth finding
        seat_view = view(State.from_position(position), 0)
        covered, intervals, found = 0, 0, 0
        for seed in range(40):
            result = analyse(seat_view, seconds=None, seed=seed, max_rollouts=400)
            for m in result.moves:
                intervals += 1
                covered += m.low <= exact[str(m.move)] <= m.high
            found += str(result.best.move) == best
        assert covered / intervals >= 0.9
        assert found == 40


def expert_mid_game(seed: int) -> State:
    """A position some Expert:Balanced turns into a seeded deal, with turns on the pile to read."""
    rng = random.Random(seed)
    while True:
        state = State.deal(Rules(), seed=rng.randrange(10**9))
        seats = players("Expert:Balanced", [1, 2, 3, 4])
        for _ in range(rng.randrange(6, 60)):
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
            if state.over:
                break
        if not state.over and len(state.legal_moves()) > 1 and Deals(view(state, state.turn), READER).reads:
            return state


#: The seat the deals read the pile by in these tests: the one that played the turns.
READER = players("Expert:Balanced", [0])[0]


class TestHonesty:
    @pytest.mark.parametrize("infer", [False, True], ids=["uniform", "reading the pile"])
    def test_planted_deals_that_look_the_same_get_the_same_analysis(self, infer: bool) -> None:
        state = mid_game(4)
        me = state.turn
        other = (me + 1) % state.players
        planted = State.from_position(state.to_position())
        # swap one of the next seat's hand cards with one of its face-down Risk cards of another rank
        k = next(k for k, stack in enumerate(planted.stacks[other]) if stack and not stack[0] & UP)
        hidden = planted.stacks[other][k][0] & RANK_MASK
        rank = next(r for r, n in enumerate(planted.hands[other]) if n > planted.known[other][r] and r != hidden)
        planted.hands[other][rank] -= 1
        planted.hands[other][hidden] += 1
        planted.stacks[other][k][0] = rank
        assert planted.to_position() != state.to_position()
        assert view(planted, me) == view(state, me)
        one = analyse(view(state, me), seconds=None, seed=3, max_rollouts=80, infer=infer)
        two = analyse(view(planted, me), seconds=None, seed=3, max_rollouts=80, infer=infer)
        assert figures(one) == figures(two)

    @pytest.mark.parametrize(
        "rules",
        [Rules(), Rules.from_preset("Canada"), Rules.from_preset("Clear 4"), Rules(piles_face_down=True),
         Rules(risk_play=True, pile_card_flip=True, players=3), Rules(four_plus_clears=True, bust_penalty=25)],
        ids=["USA", "Canada", "Clear 4", "piles face down", "risk play and flip", "4+ clears"],
    )  # fmt: skip
    def test_every_sampled_deal_looks_the_same_to_the_seat(self, rules: Rules) -> None:
        for seed in range(6):
            state = mid_game(seed, rules)
            seat_view = view(state, state.turn)
            deals = Deals(seat_view)
            for k in range(5):
                sampled = deals.sample(random.Random(k))
                assert view(sampled, state.turn) == seat_view
                assert sampled.legal_moves() == state.legal_moves()

    def test_a_bare_taker_is_dealt_only_ordinary_ranks_above_its_top_evenly(self) -> None:
        seats = [{"hand": "9 9 4"}, {"hand": "K Q 9 7 7", "known": "7", "above": "6"}, {"hand": "2 3"}]
        position = {"rules": {"players": 3}, "turn": 0, "pile": "8@2", "seats": seats}
        seat_view = view(State.from_position(position), 0)
        assert seat_view["seats"][1]["above"] == "6"
        pool = Knowledge.from_view(seat_view).counted
        fits = [n if 6 < rank <= KING and rank != 10 else 0 for rank, n in enumerate(pool)]  # 10 clears (R2)
        deals, rng, draws = Deals(seat_view), random.Random(0), 1500
        drawn = [0] * len(pool)
        for _ in range(draws):
            hand = deals.sample(rng).hands[1]
            for rank, n in enumerate(hand):
                drawn[rank] += n - (rank == 7)  # less the known 7
        assert sum(drawn[rank] for rank, n in enumerate(fits) if not n) == 0
        for rank, n in enumerate(fits):
            if n:
                expected = draws * 4 * n / sum(fits)
                assert abs(drawn[rank] - expected) < 5 * expected**0.5, card_name(rank)

    def test_two_bare_takers_are_dealt_every_consistent_deal_equally_often(self) -> None:
        """Seat 1 took bare on a 9, seat 2 on a 6; six unaccounted cards, J Q 8 K 7 3 (the rest cleared): seat 1
        may hold two of J Q K, seat 2 two of the 7, the 8 and the one left of J Q K: 3 × 3 consistent deals."""
        placed = Counter(["5", "5", "4", "J", "Q", "8", "K", "2", "7", "3"])
        deck = Counter(card_name(c) for c in Rules(players=3).deck())
        cleared = " ".join(c for c, n in (deck - placed).items() for _ in range(n))
        seats = [{"hand": "5 5 4"}, {"hand": "J Q", "above": "9"}, {"hand": "8 K", "above": "6"}]
        position = {"rules": {"players": 3}, "turn": 0, "pile": "2@2", "cleared": cleared, "seats": seats,
                    "undealt": "7 3"}  # fmt: skip
        deals, rng, draws = Deals(view(State.from_position(position), 0)), random.Random(1), 9000
        seen = Counter()
        for _ in range(draws):
            deal = deals.sample(rng)
            seen[tuple(" ".join(card_name(c) for c in cards_of(deal.hands[k])) for k in (1, 2))] += 1
        assert len(seen) == 9
        assert all(abs(n - draws / 9) < 5 * (draws / 9) ** 0.5 for n in seen.values()), seen

    def test_a_bare_take_no_deal_can_honour_is_refused(self) -> None:
        position = {"rules": {"players": 2}, "turn": 0, "pile": "8@1",
                    "seats": [{"hand": "9 9 4"}, {"hand": "K Q", "above": "J"}]}  # fmt: skip
        seat_view = view(State.from_position(position), 0)
        seat_view["seats"][1]["above"] = "JK"
        with pytest.raises(ValueError, match="seat 1 took the pile bare on 'JK', not a CUT rank"):
            Deals(seat_view)
        seat_view["seats"][1]["above"] = "K"
        with pytest.raises(ValueError, match="2 hidden hand cards must be ordinary ranks above K, but only 0 unacc"):
            Deals(seat_view)

    def test_the_real_hands_agree_with_every_turn_read_from_the_pile(self) -> None:
        """Taking the pile's turns back rebuilds the hands that made them: the real deal always agrees."""
        read = 0
        for seed in range(12):
            state = expert_mid_game(seed)
            deals = Deals(view(state, state.turn), READER)
            assert deals.agrees(state)
            read += sum(map(len, deals.reads.values()))
        assert read >= 12

    def test_reading_the_pile_deals_hands_that_would_have_made_its_turns(self) -> None:
        """Uniform deals often give a seat a hand it would not have played its turn from; read deals seldom do,
        and every one still looks the same to the seat."""
        agree = {False: 0, True: 0}
        for seed in range(6):
            state = expert_mid_game(seed)
            seat_view = view(state, state.turn)
            reading = Deals(seat_view, READER)
            for infer in (False, True):
                deals = reading if infer else Deals(seat_view)
                for k in range(10):
                    sampled = deals.sample(random.Random(k))
                    assert view(sampled, state.turn) == seat_view
                    agree[infer] += reading.agrees(sampled)
        assert agree[True] >= 57 and agree[False] <= 40, agree

    def test_reading_deals_every_hand_that_agrees_as_often_as_the_pool_allows_and_no_other(self) -> None:
        """Seat 1 laid a 9 under seat 0's K and holds two hidden cards: the Expert plays that 9 from about half the
        hands they can be, found here without the deals' own code, and a reading deals those in their proportions."""
        position = {"rules": {"players": 2}, "turn": 0, "turns": 40, "pile": "K@0 9@1",
                    "seats": [{"hand": "9 8 3"}, {"hand": "Q 5"}]}  # fmt: skip
        seat_view = view(State.from_position(position), 0)
        pool = Knowledge.from_view(seat_view).counted
        weight = {}
        for a, b in itertools.combinations_with_replacement([r for r, n in enumerate(pool) if n], 2):
            seats = [{"hand": "9 8 3"}, {"hand": f"{card_name(a)} {card_name(b)} 9"}]
            before = State.from_position(position | {"turn": 1, "turns": 39, "pile": "K@0", "seats": seats})
            if READER.choose(Knowledge.from_sight(sight(before, 1))) == Move.parse("1×9"):
                weight[b, a] = pool[a] * (pool[a] - 1) if a == b else 2 * pool[a] * pool[b]
        assert 30 < len(weight) < 80
        deals, rng, draws = Deals(seat_view, READER), random.Random(3), 6000
        seen = Counter(tuple(cards_of(deals.sample(rng).hands[1])) for _ in range(draws))
        assert set(seen) <= set(weight)
        total = sum(weight.values())
        for hand, w in weight.items():
            expected = draws * w / total
            assert abs(seen[hand] - expected) < 5 * expected**0.5 + 1, (hand, seen[hand], expected)

    def test_a_reader_that_plays_with_noise_reads_nothing(self) -> None:
        state = expert_mid_game(0)
        seat_view = view(state, state.turn)
        assert Deals(seat_view, READER).reads
        assert not Deals(seat_view, players("Experienced:Balanced", [0])[0]).reads
        assert not Deals(seat_view | {"turns": LONG_HAND + 1}, READER).reads

    @pytest.mark.parametrize(("seed", "met"), [(1, 595), (2, 1000)], ids=["add", "gamble"])
    def test_a_turn_is_read_from_its_start_whatever_phase_the_seat_to_move_is_in(self, seed: int, met: int) -> None:
        """A seat adding matching cards after a blind card (R13) or deciding on its Risk cards (R17) reads the turns
        below its own as they were made: from the start of that player's turn, in the play phase with no Risk card
        exposed, so the reader is asked what it would have played there (not what it would add to a pile emptied of
        the cards it is asked about). The seats here play at random Levels, so the real hands need not agree."""
        state = next(s for k, (s, _) in enumerate(ai_play(seed, met + 1)) if k == met)
        assert state.phase in ("add", "gamble")
        deals = Deals(view(state, state.turn), READER)
        assert deals.reads and all(before.phase == "play" and not before.exposed
                                   for turns in deals.reads.values() for before, _, _ in turns)  # fmt: skip
        assert view(deals.sample(random.Random(1)), state.turn) == view(state, state.turn)

    def test_hidden_cards_come_evenly_from_the_unseen_pool(self) -> None:
        state = mid_game(2)
        me, other = state.turn, (state.turn + 1) % state.players
        deals = Deals(view(state, me))
        pool = Knowledge.from_view(view(state, me)).counted
        rank = max(range(len(pool)), key=pool.__getitem__)
        hidden = state.hand_count[other] - sum(state.known[other])
        rng = random.Random(0)
        draws = 2000
        seen = sum(deals.sample(rng).hands[other][rank] - state.known[other][rank] for _ in range(draws))
        expected = draws * hidden * pool[rank] / sum(pool)
        assert abs(seen - expected) < 5 * expected**0.5


class TestDeterminism:
    def test_a_seed_repeats_and_another_seed_differs(self) -> None:
        seat_view = view(mid_game(7), mid_game(7).turn)
        first = analyse(seat_view, seconds=None, seed=1, max_rollouts=60)
        assert figures(first) == figures(analyse(seat_view, seconds=None, seed=1, max_rollouts=60))
        assert figures(first) != figures(analyse(seat_view, seconds=None, seed=2, max_rollouts=60))

    def test_one_or_two_worker_processes_give_the_same_figures(self) -> None:
        state = mid_game(9)
        seat_view = view(state, state.turn)
        alone = analyse(seat_view, seconds=None, seed=5, max_rollouts=90)
        with ProcessPoolExecutor(2) as pool:
            shared = analyse(seat_view, seconds=None, seed=5, max_rollouts=90, executor=pool)
        assert figures(alone) == figures(shared)

    def test_a_dask_cluster_gives_the_same_figures(self) -> None:
        distributed = pytest.importorskip("distributed")
        state = mid_game(9)
        seat_view = view(state, state.turn)
        alone = analyse(seat_view, seconds=None, seed=5, max_rollouts=90)
        with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
            shared = analyse(seat_view, seconds=None, seed=5, max_rollouts=90, executor=client)
        assert figures(alone) == figures(shared)

    def test_play_out_does_not_depend_on_the_batch(self) -> None:
        state = mid_game(3)
        payload, moves = dict(view(state, state.turn)), [str(m) for m in state.legal_moves()[:2]]
        whole = play_out(payload, "Expert:Balanced", 0, range(4), moves)
        parts = [play_out(payload, "Expert:Balanced", 0, [i], moves) for i in range(4)]
        assert whole == [[part[j][0] for part in parts] for j in range(len(moves))]


def synthetic(means: Sequence[float], spread: float = 20.0, own: Sequence[float] | None = None) -> Any:
    """A measure whose candidate k scores ``means[k]`` plus noise shared by every candidate on a sample (as common
    random numbers give), plus some of its own (``own[k]`` standard deviations; a little by default)."""

    def measure(samples: Sequence[int], active: Sequence[int]) -> list[list[Result]]:
        out = []
        for k in active:
            row = []
            for i in samples:
                shared = random.Random(i).gauss(0, spread)
                noise = random.Random(i * 1000 + k).gauss(0, 1.0 if own is None else own[k])
                row.append((round(means[k] + shared + noise), False))
            out.append(row)
        return out

    return measure


class TestStopping:
    def test_three_joint_standard_errors(self) -> None:
        base = [1.0, -1.0] * 8  # mean 0, standard error (16 / 15) ** 0.5 / 4
        se = (16 / 15) ** 0.5 / 4
        assert clearly_worse([b + 3.001 * se for b in base])
        assert not clearly_worse([b + 2.999 * se for b in base])
        assert not clearly_worse([0.0] * 20)  # identical results: no gap, never dropped
        assert clearly_worse([0.5] * 20)  # always worse by the same: dropped

    def test_a_clearly_worse_move_is_dropped_after_the_minimum_and_the_best_stands_apart(self) -> None:
        found = rounds(synthetic([10, 30]), 2, seconds=None, max_rollouts=1000)
        assert [len(r) for r in found.results] == [16, 16]
        assert found.stopped == "apart" and found.active == [0]

    def test_equal_moves_run_to_the_budget_and_worse_ones_stop_early(self) -> None:
        found = rounds(synthetic([10, 10, 10.4, 40]), 4, seconds=None, max_rollouts=400)
        counts = [len(r) for r in found.results]
        assert found.stopped == "budget" and counts[0] == counts[1] and found.rollouts <= 400
        assert counts[3] == 16 and 16 < counts[2] < counts[0]
        assert 0 in found.active and 1 in found.active and 3 not in found.active

    def test_no_budget_or_too_small_a_budget_is_an_error(self) -> None:
        with pytest.raises(ValueError, match="budget"):
            rounds(synthetic([1, 2]), 2, seconds=None, max_rollouts=None)
        with pytest.raises(ValueError, match="cannot pay"):
            rounds(synthetic([1, 2, 3]), 3, seconds=None, max_rollouts=5)

    def test_a_time_budget_stops_the_rounds(self) -> None:
        state = mid_game(6)
        result = analyse(view(state, state.turn), seconds=0.3)
        assert result.stopped in ("apart", "budget") and result.rollouts >= 16 * len(state.legal_moves())


def half_width(found: Search, k: int) -> float:
    _, low, high = mean_interval(found.gap(k))
    return (high - low) / 2


class TestAllocation:
    """Rounds go where the gaps are not yet known (the guide's *Analysis*): elimination chooses the best, and a
    move eliminated as clearly worse is still played out until its gap is known to ±2 points."""

    def test_an_eliminated_move_is_refined_until_its_gap_is_known(self) -> None:
        found = rounds(synthetic([10, 40], own=[1, 8]), 2, seconds=None, max_rollouts=2000)
        assert found.active == [0] and found.stopped == "apart"
        assert len(found.results[1]) > 16 and half_width(found, 1) <= 2.0
        assert len(found.results[0]) == len(found.results[1])  # every gap is paired with the best
        assert found.samples[1] == list(range(len(found.results[1])))

    def test_a_known_gap_waits_while_a_wide_one_is_refined(self) -> None:
        found = rounds(synthetic([10, 40, 40], own=[1, 1, 8]), 3, seconds=None, max_rollouts=2000)
        counts = [len(r) for r in found.results]
        assert counts[1] == 16 and counts[2] > 16 and counts[0] == counts[2]
        assert found.stopped == "apart" and all(half_width(found, k) <= 2.0 for k in (1, 2))

    def test_a_close_mark_waits_while_a_worse_gap_is_still_wide(self) -> None:
        found = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=90)
        counts = [len(r) for r in found.results]
        assert found.stopped == "budget" and counts == [37, 16, 37] and found.active == [0, 1]
        _, low, _ = mean_interval(found.gap(1))
        assert low <= 0 < half_width(found, 1) - 2.0  # too close to call on 16, though wide: it waits
        assert half_width(found, 2) > 2.0

    def test_an_eliminated_move_that_recovers_comes_back_and_can_be_the_best(self) -> None:
        def measure(samples: Sequence[int], active: Sequence[int]) -> list[list[Result]]:
            """Candidate 1 is 10 points better than candidate 0, but its first 16 deals went 30 points worse."""
            shared = [random.Random(i).gauss(0, 20) for i in samples]
            own = [random.Random(i * 1000 + 1).gauss(0, 8) for i in samples]
            return [[(round(20 + x if k == 0 else (50 if i < 16 else 10) + x + e), False)
                     for i, x, e in zip(samples, shared, own, strict=True)] for k in active]  # fmt: skip

        first = rounds(measure, 2, seconds=None, max_rollouts=32)
        assert first.active == [0] and first.best == 0  # clearly worse after the first round
        found = rounds(measure, 2, seconds=None, max_rollouts=2000)
        assert found.best == 1 and found.active == [1] and sum(found.gap(0)) > 0  # 0 eliminated in its turn

    def test_once_every_gap_is_known_the_active_moves_race_for_the_best(self) -> None:
        found = rounds(synthetic([10, 10, 40]), 3, seconds=None, max_rollouts=300)
        counts = [len(r) for r in found.results]
        assert all(half_width(found, k) <= 2.0 for k in (1, 2)) and found.stopped == "budget"
        assert counts[2] == 16 and counts[0] == counts[1] > 16 and found.rollouts <= 300

    def test_aiming_only_at_the_best_leaves_an_eliminated_move_and_stops_at_one_left(self) -> None:
        found = rounds(synthetic([10, 40], own=[1, 8]), 2, seconds=None, max_rollouts=2000, aim="best")
        assert [len(r) for r in found.results] == [16, 16] and found.stopped == "chosen" and found.active == [0]
        assert half_width(found, 1) > 2.0  # the gaps aim would refine it (the first test of this class)

    def test_aiming_only_at_the_best_races_the_moves_not_eliminated(self) -> None:
        found = rounds(synthetic([10, 10, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=300, aim="best")
        counts = [len(r) for r in found.results]
        assert found.stopped == "budget" and found.active == [0, 1]
        assert counts[2] == 16 and counts[0] == counts[1] > 16 and found.rollouts <= 300
        assert half_width(found, 2) > 2.0


class TestTheVerdictsRule:
    """A judge's rounds stop as soon as the verdicts are settled (the guide's *Analysis*): every other move *worse*
    or *too close* on 16 shared deals, and the focus move's gap to the best known to ±2 points."""

    def test_without_a_focus_the_first_round_settles_every_verdict(self) -> None:
        found = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=2000, aim="verdicts")
        assert [len(r) for r in found.results] == [16, 16, 16] and found.stopped == "apart"
        assert half_width(found, 1) > 2.0 and half_width(found, 2) > 2.0  # not known: the gaps aim would go on
        gaps = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=2000)
        assert gaps.rollouts > found.rollouts

    def test_the_focus_move_is_priced_to_two_points_and_no_other_is_played_on(self) -> None:
        found = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=2000, aim="verdicts",
                       focus=[2])  # fmt: skip
        counts = [len(r) for r in found.results]
        assert found.stopped == "apart" and counts[1] == 16 and counts[0] == counts[2] > 16
        assert half_width(found, 2) <= 2.0 and not found.undecided([2], 2.0, 16)
        assert found.undecided([1], 2.0, 16) == [1]  # the close move's price is not known: it was not asked

    def test_a_focus_on_the_best_costs_nothing_more(self) -> None:
        found = rounds(synthetic([10, 40]), 2, seconds=None, max_rollouts=2000, aim="verdicts", focus=[0])
        assert [len(r) for r in found.results] == [16, 16] and found.best == 0

    def test_a_budget_too_small_for_the_price_stops_unsettled(self) -> None:
        found = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=60, aim="verdicts",
                       focus=[2])  # fmt: skip
        assert found.stopped == "budget" and found.undecided([2], 2.0, 16) == [2]


class TestOneEvaluation:
    """One evaluation per position: seeded by the view, kept, extended on the same sample stream, never redrawn."""

    def test_re_opening_a_position_gives_the_same_evaluation(self) -> None:
        state = mid_game(7)
        seat_view = view(state, state.turn)
        first = evaluation(seat_view, rollouts=80)
        assert first.seed == seed_of(seat_view) == seed_of(json.loads(json.dumps(seat_view)))
        assert evaluation(seat_view, rollouts=80) is first and cached(seat_view) is first
        forget()  # another process: the same view, the same budget, the same numbers
        again = evaluation(json.loads(json.dumps(seat_view)), rollouts=80)
        assert again is not first and figures(again.analysis) == figures(first.analysis) and again.seed == first.seed

    def test_the_seed_is_the_position_s_not_the_caller_s(self) -> None:
        one, two = (view(mid_game(seed), mid_game(seed).turn) for seed in (7, 8))
        assert seed_of(one) != seed_of(two)
        moved = dict(one, turns=one["turns"] + 1)
        assert seed_of(moved) != seed_of(one)  # every field of the view counts
        # but the top run, which the pile already says: a view sent before it, and its figures, keep their seed
        before = {key: value for key, value in one.items() if key != "top_run"}
        assert one["top_run"] and seed_of(before) == seed_of(one)

    def test_extending_narrows_it_and_keeps_the_earlier_samples_and_seed(self) -> None:
        state = mid_game(7)
        seat_view = view(state, state.turn)
        legal = seat_view["legal"]
        first = evaluation(seat_view, rollouts=80)
        assert first.analysis.search is not None
        kept = [list(s) for s in first.analysis.search.samples], [list(r) for r in first.analysis.search.results]
        focus = next(str(m.move) for m in first.moves if m.verdict != "best")
        more = evaluation(seat_view, focus=focus, rollouts=2000)
        assert more.seed == first.seed and more.rollouts > first.rollouts and cached(seat_view) is more
        search = more.analysis.search
        assert search is not None
        for k in range(len(legal)):
            assert search.samples[k][: len(kept[0][k])] == kept[0][k]  # the earlier rollouts first, unchanged
            assert search.results[k][: len(kept[1][k])] == kept[1][k]
            assert search.samples[k] == sorted(set(search.samples[k]))
        if more.best.move == first.best.move:
            narrow, wide = more.price(focus), first.price(focus)
            assert narrow.gap_high - narrow.gap_low < wide.gap_high - wide.gap_low
        assert more.decided(focus) or more.rollouts == 2000
        assert evaluation(seat_view, focus=focus, rollouts=2000) is more  # settled: asked again, nothing more

    def test_one_begun_before_forget_is_not_kept(self) -> None:
        """A test forgets every evaluation; one still being made then (a thread of an earlier test) is not kept."""
        state = mid_game(7)
        seat_view = view(state, state.turn)
        made = evaluation(seat_view, rollouts=80, progress=lambda share: forget())
        assert made.rollouts and cached(seat_view) is None

    def test_its_line_says_the_verdict_rule_in_words(self) -> None:
        """Rounds stopped by their verdicts say so as the guide's stopping rule does: every other move worse or too
        close to call, and the learner's move (not the best) priced; never how the search stopped inside."""
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
                                     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})  # fmt: skip
        priced = evaluation(view(state, 0), focus="2×5", rollouts=2000)
        assert priced.analysis.stopped == "apart" and priced.analysis.focus == ("2×5",)
        assert priced.price("2×5").verdict == "worse"
        line = priced.analysis.status
        assert "the verdict is in. Every other move is worse than the best or too close to call" in line
        assert "your move's gap to the best is known to ±2 points" in line and "apart" not in line
        forget()
        first = evaluation(view(state, 0), rollouts=2000)
        assert first.analysis.stopped == "apart" and "the verdict is in" in first.analysis.status
        assert "your move" not in first.analysis.status  # no move of the learner's to price

    def test_a_focus_that_is_not_legal_is_refused(self) -> None:
        state = mid_game(7)
        with pytest.raises(ValueError, match="not one of the legal moves"):
            evaluation(view(state, state.turn), focus="13×K", rollouts=80)


class TestContinuing:
    """*Analyse longer*: a finished analysis continued on the deals after its own (GNU Backgammon's extended
    rollouts), without changing the first, repeatably, and only for the position it is of."""

    def test_continuing_searches_the_next_deals_and_keeps_the_first_rounds(self) -> None:
        first = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=90)
        kept = [list(s) for s in first.samples]
        more = rounds(synthetic([10, 13, 40], own=[1, 8, 8]), 3, seconds=None, max_rollouts=400, start=first)
        assert first.samples == kept and first.rollouts == 90  # the earlier search is not changed
        assert 90 < more.rollouts <= 490
        for k in range(3):
            assert more.samples[k][: len(kept[k])] == kept[k]  # its rollouts first, then new deals only
            assert more.samples[k] == sorted(set(more.samples[k]))
        assert min(more.samples[0][len(kept[0]) :]) == first.deals
        assert half_width(more, 1) < half_width(first, 1)  # the wide close mark is refined once the rest is known

    def test_a_search_that_stood_apart_has_nothing_to_add(self) -> None:
        first = rounds(synthetic([10, 30]), 2, seconds=None, max_rollouts=1000)
        more = rounds(synthetic([10, 30]), 2, seconds=None, max_rollouts=1000, start=first)
        assert first.stopped == more.stopped == "apart" and more.results == first.results

    def test_an_analysis_continues_repeatably_on_its_own_seed(self) -> None:
        state = mid_game(7)
        seat_view = view(state, state.turn)
        first = analyse(seat_view, seconds=None, seed=1, max_rollouts=60)
        more = analyse(seat_view, seconds=None, seed=9, max_rollouts=120, resume=first)  # the seed is the first's
        assert more.seed == 1 and first.rollouts < more.rollouts <= first.rollouts + 120
        assert figures(more) == figures(analyse(seat_view, seconds=None, max_rollouts=120, resume=first))
        with ProcessPoolExecutor(2) as pool:
            shared = analyse(seat_view, seconds=None, max_rollouts=120, resume=first, executor=pool)
        assert figures(shared) == figures(more)
        assert all(m.rollouts >= n.rollouts for m in more.moves for n in first.moves if n.move == m.move)
        assert first.search is not None and first.search.rollouts == first.rollouts

    def test_a_reading_analysis_continues_reading(self) -> None:
        state = expert_mid_game(3)
        seat_view = view(state, state.turn)
        first = analyse(seat_view, seconds=None, seed=2, max_rollouts=40, infer=True)
        more = analyse(seat_view, seconds=None, max_rollouts=40, resume=first)
        assert first.infer and more.infer and not analyse(seat_view, seconds=None, max_rollouts=40).infer
        plain = analyse(seat_view, seconds=None, seed=2, max_rollouts=40)
        assert figures(first) != figures(plain)  # the reading's deals are not the uniform ones

    def test_the_time_to_settle_the_rest_is_estimated_from_each_gap_s_width(self) -> None:
        def move(text: str, verdict: str, rollouts: int, gap_low: float, gap_high: float) -> MoveValue:
            gap = (gap_low + gap_high) / 2
            return MoveValue(Move.parse(text), text, 20.0, 18.0, 22.0, gap, gap_low, gap_high, 0.3, rollouts, verdict)

        best, close = move("1×9", "best", 100, 0.0, 0.0), move("1×8", "close", 10, -3.0, 9.0)
        wide = move("1×K", "worse", 100, 2.0, 10.0)  # ±4 on 100 deals: ±2 takes 400
        found = Analysis(0, [best, close, wide], 210, 2.0, "budget", 0, POLICY, settled=0)
        # 300 more of the wide gap, 300 of the best with it, 6 to give the close one its first 16: at 105 a second
        assert found.more_seconds == pytest.approx(606 * 2.0 / 210)
        assert found.status.endswith(
            "0 of 2 gaps known to ±2 points or too close to call. About 6 s more would settle the rest."
        )
        known = Analysis(0, [best, move("1×K", "worse", 100, 2.0, 5.0)], 200, 2.0, "apart", 0, POLICY, settled=1)
        assert known.more_seconds is None
        assert known.status.endswith("every gap known to ±2 points or too close to call.")

    def test_another_position_cannot_be_continued(self) -> None:
        state, other = mid_game(7), mid_game(8)
        first = analyse(view(state, state.turn), seconds=None, max_rollouts=60)
        with pytest.raises(ValueError, match="not of this position"):
            analyse(view(other, other.turn), seconds=None, max_rollouts=60, resume=first)


class TestVerdicts:
    def test_best_close_and_worse_follow_the_gap_intervals(self) -> None:
        state = mid_game(11)
        result = analyse(view(state, state.turn), seconds=None, seed=2, max_rollouts=150)
        assert sorted(str(m.move) for m in result.moves) == sorted(str(m) for m in state.legal_moves())
        assert [m.verdict for m in result.moves].count("best") == 1 and result.moves[0].verdict == "best"
        best = result.best
        for m in result.moves[1:]:
            assert m.verdict == ("close" if m.gap_low <= 0 else "worse")
            assert m.expected >= best.expected or m.rollouts < best.rollouts

    def test_moves_that_score_alike_are_too_close_to_call(self) -> None:
        moves = [Move.parse(text) for text in ("1×9", "1×8", "1×K")]
        found = rounds(synthetic([10, 10, 40]), 3, seconds=None, max_rollouts=300)
        values = values_of(found, moves, {m: str(m) for m in moves})
        assert [(str(m.move), m.verdict) for m in values][2] == ("1×K", "worse")
        assert {values[0].verdict, values[1].verdict} == {"best", "close"}
        assert values[1].gap_low <= 0 <= values[1].gap_high and values[2].gap_low > 0

    def test_a_forced_move_is_the_best(self) -> None:
        # the 2 is the only play: the Board 9 may not join it, nor be shown, while the hand holds a card (R7, R11)
        position = {"rules": {"players": 2}, "turn": 0, "pile": "3@1",
                    "seats": [{"hand": "2", "stacks": ["[5] 9", "", "", ""]}, {"hand": "8 7"}]}  # fmt: skip
        result = analyse(view(State.from_position(position), 0), seconds=None, max_rollouts=40)
        assert [(str(m.move), m.verdict, m.rollouts) for m in result.moves] == [("1×2", "best", 16)]

    def test_clear_4_is_analysed(self) -> None:
        state = mid_game(1, Rules.from_preset("Clear 4"))
        result = analyse(view(state, state.turn), seconds=None, max_rollouts=60)
        assert {m.move for m in result.moves} == set(state.legal_moves())
        frame = result.to_frame()
        assert list(frame["move"]) == [str(m.move) for m in result.moves]
        html = result._repr_html_()
        assert "<table" in html and result.best.label in html

    def test_a_notebook_draws_it_in_the_guide_s_words(self) -> None:
        """The drawing names the seat as the table does and each move by its button, its verdict in words: no
        engine notation, no seat number."""
        state = mid_game(7)
        result = analyse(view(state, state.turn), seconds=None, max_rollouts=200)
        html = result._repr_html_()
        assert "Seat" not in html and "seat " not in html and "<code>" not in html
        assert all(m.label in html for m in result.moves)
        assert all(f">{m.move}<" not in html for m in result.moves if str(m.move) != m.label)
        verdicts = {m.verdict for m in result.moves}
        assert ("too close to call" in html) == ("close" in verdicts) and ">close<" not in html
        assert result.status in html and "played out by Expert Balanced seats" in html

    def test_intervals(self) -> None:
        assert mean_interval([3.0, 3.0, 3.0]) == (3.0, 3.0, 3.0)
        mean, low, high = mean_interval([0.0, 10.0] * 8)
        assert mean == 5.0 and low < 5.0 < high and round(high - 5.0, 2) == round(2.131 * 5.164 / 4, 2)


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is in an interactive shell."""

    def isatty(self) -> bool:
        return True


class TestCli:
    def run(self, *args: str, err: io.StringIO | None = None) -> tuple[int, str, str]:
        out, err = io.StringIO(), err or io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["analyse", *args])
        return code, out.getvalue(), err.getvalue()

    def test_json_lines_name_every_legal_move(self, tmp_path: Path) -> None:
        path = tmp_path / "position.json"
        path.write_text(json.dumps(ENDGAME), encoding="utf-8")
        code, out, err = self.run(str(path), "--rollouts", "60", "--seed", "4", "--json")
        assert code == 0 and err == "", "stderr is not a terminal: no progress bar in a log or a pipe"
        rows = [json.loads(line) for line in out.splitlines()]
        keys = {"move", "label", "expected", "low", "high", "gap", "gap_low", "gap_high", "p_out", "rollouts",
                "verdict"}  # fmt: skip
        assert all(set(row) == keys for row in rows)
        state = State.from_position(ENDGAME)
        labels = advise(view(state, 0)).labels
        assert {(row["move"], row["label"]) for row in rows} == {(str(m), labels[m]) for m in state.legal_moves()}
        expected = analyse(view(state, 0), seconds=None, seed=4, max_rollouts=60)
        assert rows == figures(expected)

    def test_without_a_seed_it_gives_the_position_s_evaluation(self, tmp_path: Path) -> None:
        path = tmp_path / "position.json"
        path.write_text(json.dumps(ENDGAME), encoding="utf-8")
        code, out, _ = self.run(str(path), "--rollouts", "60", "--json")
        found = evaluation(view(State.from_position(ENDGAME), 0), rollouts=60)
        assert code == 0 and [json.loads(line) for line in out.splitlines()] == figures(found.analysis)

    def test_a_terminal_sees_the_progress_bar_fill(self, tmp_path: Path) -> None:
        path = tmp_path / "position.json"
        path.write_text(json.dumps(ENDGAME), encoding="utf-8")
        code, _, err = self.run(str(path), "--rollouts", "60", "--csv", err=Terminal())
        assert code == 0 and err.split("\r")[-1].startswith("100%|") and err.endswith("\n"), err
        code, _, err = self.run(str(path), "--rollouts", "60", "--csv", "--quiet", err=Terminal())
        assert code == 0 and err == ""

    def test_the_table_speaks_the_table_s_words(self, tmp_path: Path) -> None:
        """The turn as the rules count it (R15), the seat by its name, each move by its button: no engine notation."""
        path = tmp_path / "position.json"
        path.write_text(json.dumps(ENDGAME), encoding="utf-8")
        code, out, _ = self.run(str(path), "--rollouts", "60", "--seed", "4", "--quiet")
        title, status, head, *rows = out.splitlines()
        result = analyse(view(State.from_position(ENDGAME), 0), seconds=None, seed=4, max_rollouts=60)
        assert code == 0 and title == "Turn 40, You: 4 cards in hand, the pile topped by 9"
        assert status == result.status and head.split() == ["move", "expected", "points", "gap", "out", "first",
                                                             "rollouts", "verdict"]  # fmt: skip
        assert [row.split("  ")[0] for row in rows] == [m.label for m in result.moves]
        assert all(m.label.startswith(("Play ", "Take")) for m in result.moves)
        assert not any(str(m.move) in out for m in result.moves) and "seat" not in out

    def test_csv_and_bad_input(self, tmp_path: Path) -> None:
        path = tmp_path / "position.json"
        path.write_text(json.dumps(ENDGAME), encoding="utf-8")
        code, out, _ = self.run(str(path), "--rollouts", "40", "--csv", "--quiet")
        assert code == 0 and out.splitlines()[0].startswith("move,label,expected,low,high,gap")
        over = ENDGAME | {"winner": 1, "seats": [{"hand": "9 9 8"}, {"hand": ""}]}  # seat 1 went out: nothing to play
        path.write_text(json.dumps(over), encoding="utf-8")
        code, _, err = self.run(str(path), "--rollouts", "40", "--quiet")
        assert code == 2 and "no move to analyse" in err


def test_a_move_text_round_trips_through_the_report() -> None:
    state = State.from_position(ENDGAME)
    result = analyse(view(state, 0), seconds=None, max_rollouts=40)
    assert all(Move.parse(m.to_dict()["move"]) == m.move for m in result.moves)
