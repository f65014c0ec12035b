"""Deal codes, positions, records, move text, saves and the game history: every way a game travels.

Bad input must fail with an error that names the field at fault, and a file that cannot be read must
be reported and kept exactly as it was.
"""

from __future__ import annotations

import copy
import csv
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cut_tutor.engine import (
    Game,
    GreedyPlayer,
    Move,
    MoveSyntaxError,
    PositionError,
    Rules,
    State,
    deal_code,
    parse_deal_code,
    record_of,
    replay,
    state_from_deal,
    view,
)
from cut_tutor.engine.rules import DECK_SIZE
from cut_tutor.storage import History, SaveError, load_game, read_save, save_game

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_moves(state: State, rng: random.Random, steps: int) -> State:
    """Play up to ``steps`` random legal moves."""
    for _ in range(steps):
        if state.over:
            break
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def finish_hand(game: Game, rng: random.Random) -> None:
    player = GreedyPlayer()
    while not game.state.over:
        game.play(player.choose(game.state, rng))


def finish_game(game: Game, rng: random.Random) -> Game:
    while True:
        finish_hand(game, rng)
        if game.over:
            return game
        game.next_hand()


# -- deal codes -----------------------------------------------------------------------------------


class TestDealCodes:
    @FAST
    @given(
        players=st.integers(2, 8),
        dealt=st.sampled_from([19, 20]),
        extra=st.integers(0, 3),
        seed=st.integers(0, 2**64),
        data=st.data(),
    )
    def test_round_trip(self, players: int, dealt: int, extra: int, seed: int, data: st.DataObject) -> None:
        decks = -(-players * dealt // DECK_SIZE) + extra
        rules = Rules(players=players, decks=decks, cards_dealt=dealt)
        dealer = data.draw(st.integers(0, players - 1))
        code = deal_code(rules, seed, dealer)
        assert parse_deal_code(code) == (players, decks, dealt, dealer, seed)
        assert parse_deal_code(code.lower()) == (players, decks, dealt, dealer, seed)
        assert state_from_deal(code, rules).to_position() == State.deal(rules, seed, dealer).to_position()

    def test_dealt_state_carries_its_code(self) -> None:
        state = State.deal(Rules(), seed=12345, dealer=2)
        assert state.deal_code == deal_code(Rules(), 12345, 2) == "4-3-20-2-C1S"
        assert state_from_deal("4-3-20-2-C1S").to_position() == state.to_position()

    def test_crockford_look_alikes_read_as_digits(self) -> None:
        assert parse_deal_code("4-3-20-0-1O") == parse_deal_code("4-3-20-0-10") == parse_deal_code("4-3-20-0-lo")
        assert parse_deal_code("4-3-20-0-I")[4] == 1

    @pytest.mark.parametrize(
        "code",
        [
            "",
            "hello",
            "4-3-20-0",
            "4-3-20-0-",
            "4-3-20-0-7K-1",
            "4-3-20-9-7K",  # dealer is not a seat
            "4-3-20-0-7U",  # U is not a base-32 digit
            "4-3-2O-0-7K",
            "9-5-20-0-1",  # nine players
            "4-1-20-0-1",  # one deck cannot deal four seats
            "4-3-18-0-1",  # cards dealt must be 19 or 20
        ],
    )
    def test_bad_codes_name_the_deal(self, code: str) -> None:
        with pytest.raises(PositionError, match=r"^deal: "):
            state_from_deal(code)

    def test_what_is_wrong_comes_first(self) -> None:
        with pytest.raises(PositionError, match=r"^deal: expected a deal code like 4-3-20-0-7K, got NoneType$"):
            parse_deal_code(None)  # type: ignore[arg-type]
        with pytest.raises(PositionError, match=r"^deal: '0-3-20-0-7' names 0 as its number of seats; use 2 to 8$"):
            parse_deal_code("0-3-20-0-7")
        with pytest.raises(PositionError, match=r"^deal: '1-3-20-0-7' names 1 as its number"):
            state_from_deal("1-3-20-0-7")

    def test_code_must_agree_with_the_rules(self) -> None:
        with pytest.raises(PositionError, match=r"^deal: code 4-3-20-0-1 deals 4 seats .* rules say 5 seats"):
            state_from_deal("4-3-20-0-1", Rules(players=5))
        with pytest.raises(PositionError, match=r"^deal: .*19 cards"):
            state_from_deal("4-3-20-0-1", Rules(cards_dealt=19))

    def test_negative_seed_is_refused(self) -> None:
        with pytest.raises(ValueError, match="non-negative"):
            deal_code(Rules(), -1, 0)


# -- positions ------------------------------------------------------------------------------------


def base_position() -> dict[str, Any]:
    state = State.deal(Rules(), seed=21, dealer=0)
    random_moves(state, random.Random(2), 9)
    assert state.pile, "the fixture wants a non-empty pile"
    return state.to_position()


def _set(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``data`` with the value at a dotted path (``seats.1.hand``) replaced or deleted."""
    data = copy.deepcopy(data)
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if value is _DELETE:
        del node[key]
    else:
        node[key] = value
    return data


_DELETE = object()


class TestPositions:
    def test_round_trip_text(self) -> None:
        position = base_position()
        assert State.from_position(json.dumps(position)).to_position() == position

    def test_undealt_may_be_left_out(self) -> None:
        position = base_position()
        assert State.from_position(_set(position, "undealt", _DELETE)).to_position() == position

    @pytest.mark.parametrize(
        ("path", "value", "field"),
        [
            ("seats.1.hand", "K Q Z", r"position\.seats\[1\]\.hand: unknown card 'Z'"),
            ("seats.1.hand", 7, r"position\.seats\[1\]\.hand"),
            ("seats.2.known", "JK JK JK", r"position\.seats\[2\]\.known: JK is marked known"),
            ("seats.0.stacks", ["", ""], r"position\.seats\[0\]\.stacks: expected a list of 4"),
            ("seats.0.stacks.2", "[] K", r"position\.seats\[0\]\.stacks\[2\]: '' is not one card"),
            ("seats.0.stacks.3", "[X]", r"position\.seats\[0\]\.stacks\[3\]: unknown card 'X'"),
            ("seats.3.busts", -1, r"position\.seats\[3\]\.busts: -1 is not a whole number"),
            ("seats.3.colour", "red", r"position\.seats\[3\]: unknown field\(s\) colour"),
            ("seats.1", "K Q", r"position\.seats\[1\]: expected an object"),
            ("seats", [], r"position\.seats: expected a list of 4 seats"),
            ("pile", "9@7", r"position\.pile: '9@7' needs the seat"),
            ("pile", "9", r"position\.pile: '9' needs the seat"),
            ("pile", "@2", r"position\.pile: '' is not one card"),
            ("pile", "Z@1", r"position\.pile: unknown card 'Z'"),
            ("pile", "10@1", r"position\.pile: 10 is a clear card"),
            ("pile", ["9@1"], r"position\.pile: expected text"),
            ("rules.players", 9, r"position\.rules\.players: 9 is not allowed; use 2 to 8"),
            ("rules.players", 5, r"position\.seats: expected a list of 5 seats"),
            ("rules.clear_rank", "ZZ", r"position\.rules\.clear_rank: unknown card"),
            ("rules.wild", True, r"position\.rules: unknown setting\(s\) wild"),
            ("rules", [], r"position\.rules: expected an object"),
            ("turn", 4, r"position\.turn: 4 is not a whole number from 0 to 3"),
            ("dealer", "0", r"position\.dealer"),
            ("turns", 0, r"position\.turns"),
            ("phase", "bid", r"position\.phase: 'bid' is not play, add or gamble"),
            ("exposed", [5], r"position\.exposed: expected stack numbers from 1 to 4"),
            ("exposed", [True], r"position\.exposed: expected stack numbers from 1 to 4"),
            ("exposed", [2, 2], r"position\.exposed: .* each at most once"),
            ("exposed", [1], r"position\.exposed: .* not in phase 'play' \(R17, R22\)"),
            ("seats.0.stacks.1", "[K", r"position\.seats\[0\]\.stacks\[1\]: '\[K' is neither a card like 'K' nor"),
            ("seats.0.stacks.1", "K]", r"position\.seats\[0\]\.stacks\[1\]: 'K\]' is neither"),
            ("seats.0.stacks.1", "[[K]]", r"position\.seats\[0\]\.stacks\[1\]: '\[\[K\]\]' is neither"),
            ("stalemate", "no", r"position\.stalemate: expected true or false, got 'no'"),
            ("stalemate", 0, r"position\.stalemate: expected true or false, got 0"),
            ("dealer", 10**70, r"^position\.dealer: a whole number of more than 64 digits$"),
            (
                "seats.2.busts",
                [[[[[[[1]]]]]]],
                r"^position\.seats\[2\]\.busts\[0\]\[0\]\[0\]\[0\]\[0\]: nested deeper than 8$",
            ),
            ("cleared", "K Z", r"position\.cleared: unknown card 'Z'"),
            ("undealt", "K", r"position\.undealt: .* count does not add up"),
            ("winner", 8, r"position\.winner"),
            ("version", 2, r"position\.version: 2 is not supported"),
            ("format", "chess.fen", r"position\.format"),
        ],
    )
    def test_bad_fields_are_named(self, path: str, value: Any, field: str) -> None:
        with pytest.raises(PositionError, match=field):
            State.from_position(_set(base_position(), path, value))

    def test_too_many_of_a_card_for_the_decks(self) -> None:
        position = base_position()
        position["seats"][0]["hand"] += " JK JK JK JK JK JK JK"
        with pytest.raises(PositionError, match=r"^position: \d+ JKs are placed but 3 decks hold only 6"):
            State.from_position(position)

    def test_add_phase_needs_a_pile(self) -> None:
        position = _set(_set(_set(base_position(), "phase", "add"), "pile", ""), "undealt", _DELETE)
        with pytest.raises(PositionError, match=r"position\.phase: 'add' needs a landed blind card"):
            State.from_position(position)

    def test_text_too_deep_or_with_too_long_a_number(self) -> None:
        """JSON that would exhaust the parser's recursion or the int conversion limit is named, not a crash."""
        with pytest.raises(PositionError, match=r"^position: nested deeper than 8$"):
            State.from_position("[" * 100_000 + "]" * 100_000)
        text = json.dumps(base_position()).replace('"turns": ', '"turns": ' + "9" * 5000 + ', "x": ', 1)
        with pytest.raises(PositionError, match=r"^position\.turns: a whole number of more than 64 digits$"):
            State.from_position(text)

    def test_not_json(self) -> None:
        with pytest.raises(PositionError, match=r"^position: not valid JSON"):
            State.from_position('{"seats": [')
        with pytest.raises(PositionError, match=r"^position: expected a JSON object"):
            State.from_position("[1, 2]")

    @FAST
    @given(data=st.data())
    def test_any_damage_is_a_position_error(self, data: st.DataObject) -> None:
        """Whatever one field holds, loading either works or raises PositionError: never a crash."""
        position = base_position()
        paths = ["turn", "dealer", "turns", "phase", "pile", "exposed", "cleared", "undealt", "winner"]
        paths += [f"seats.{s}.{key}" for s in range(4) for key in ("hand", "known", "stacks", "busts")]
        paths += [f"seats.{s}.stacks.{k}" for s in range(4) for k in range(4)]
        paths += [f"rules.{key}" for key in position["rules"]]
        junk = (
            st.none()
            | st.booleans()
            | st.integers(-3, 30)
            | st.text(max_size=12)
            | st.lists(st.integers(-1, 5) | st.text(max_size=4), max_size=4)
        )
        damaged = _set(position, data.draw(st.sampled_from(paths)), data.draw(junk))
        try:
            state = State.from_position(damaged)
        except PositionError:
            return
        assert isinstance(state.legal_moves(), list)


# -- records --------------------------------------------------------------------------------------


def a_record() -> dict[str, Any]:
    return record_of(random_moves(State.deal(Rules(), seed=8), random.Random(8), 30))


class TestRecords:
    def test_replay_reproduces_the_state(self) -> None:
        state = random_moves(State.deal(Rules(risk_play=True), seed=8), random.Random(8), 60)
        assert replay(json.dumps(record_of(state))) == state

    @pytest.mark.parametrize("bad", ["junk", "flip 9", "take Q s1 s2", "4×Z"])
    def test_bad_move_names_its_index(self, bad: str) -> None:
        record = a_record()
        record["moves"][3] = bad
        with pytest.raises(PositionError, match=r"^record\.moves\[3\]: "):
            replay(record)

    def test_illegal_move_names_its_index(self) -> None:
        record = a_record()
        state = replay(record, 5)
        illegal = next(
            text for text in ("clear 4×JK", "take", "9×A", "flip 1", "done") if not state.is_legal(Move.parse(text))
        )
        record["moves"][5] = illegal
        with pytest.raises(PositionError, match=r"^record\.moves\[5\]: illegal move"):
            replay(record)

    @pytest.mark.parametrize(
        ("key", "value", "field"),
        [
            ("format", "cut_tutor.save", r"^record\.format"),
            ("version", 9, r"^record\.version: 9 is not supported"),
            ("rules", None, r"^record\.rules: expected an object"),
            ("rules", {"players": 11}, r"^record\.rules\.players"),
            ("moves", "1×9", r"^record\.moves: expected a list"),
            ("deal", "4-3-20", r"^deal: "),
        ],
    )
    def test_bad_record_fields(self, key: str, value: Any, field: str) -> None:
        record = a_record() | {key: value}
        with pytest.raises(PositionError, match=field):
            replay(record)

    def test_too_deep_or_too_long_a_number(self) -> None:
        with pytest.raises(PositionError, match=r"^record: nested deeper than 8$"):
            replay('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
        with pytest.raises(PositionError, match=r"^record\.version: a whole number of more than 64 digits$"):
            replay(json.dumps(a_record()).replace('"version": 1', '"version": 1' + "0" * 5000))
        with pytest.raises(PositionError, match=r"^record\.rules\.players: a whole number of more than 64"):
            replay(a_record() | {"rules": {"players": 10**5000}})
        deep: list[Any] = []
        for _ in range(10_000):
            deep = [deep]
        with pytest.raises(PositionError, match=r"^record\.moves\[0\]\[0\].*: nested deeper than 8$"):
            replay(a_record() | {"moves": [deep]})

    def test_not_json_and_no_deal(self) -> None:
        with pytest.raises(PositionError, match=r"^record: not valid JSON"):
            replay("{")
        with pytest.raises(PositionError, match=r"^record: .*no deal code"):
            record_of(State.from_position(base_position()))


# -- move text ------------------------------------------------------------------------------------


class TestMoveText:
    @FAST
    @given(
        players=st.integers(2, 8),
        clear_rank=st.sampled_from([10, None, 1, 13, 5]),
        flags=st.lists(st.booleans(), min_size=4, max_size=4),
        seed=st.integers(0, 2**32),
    )
    def test_every_legal_move_round_trips(
        self, players: int, clear_rank: int | None, flags: list[bool], seed: int
    ) -> None:
        four_plus, face_down, flip, risk = flags
        rules = Rules(
            players=players,
            clear_rank=clear_rank,
            four_plus_clears=four_plus,
            piles_face_down=face_down,
            pile_card_flip=flip,
            risk_play=risk,
        )
        state = State.deal(rules, seed)
        rng = random.Random(seed)
        while not state.over:
            moves = state.legal_moves()
            assert len(set(moves)) == len(moves), "a move is listed twice"
            assert len({str(m) for m in moves}) == len(moves), "two moves share a text"
            for move in moves:
                text = str(move)
                assert Move.parse(text) == move, text
                assert Move.parse(text.replace("×", "x").upper()) == move, text
            state.apply(moves[rng.randrange(len(moves))])

    @pytest.mark.parametrize(
        "text",
        [
            "", "   ", "play", "0×9", "3×Z", "flip", "flip 0", "flip 10", "flip x", "9 s0", "9 s1 s1",
            "2×9 s1 s2 s3", "clear", "clear 9+Q", "add", "turn up", "turn 2", "gamble two", "done now",
            "take 9 stack1", "K-9", "×9",
        ],
    )  # fmt: skip
    def test_junk_is_a_syntax_error(self, text: str) -> None:
        with pytest.raises(MoveSyntaxError, match="cannot read move"):
            Move.parse(text)

    @FAST
    @given(text=st.text(alphabet=st.sampled_from("0123456789sxX×+ AKQJjkcleartakeflipdonegmbuT"), max_size=14))
    def test_any_text_parses_or_is_a_syntax_error(self, text: str) -> None:
        try:
            move = Move.parse(text)
        except MoveSyntaxError:
            return
        assert Move.parse(str(move)) == move


# -- saves ----------------------------------------------------------------------------------------


def game_in_progress(rules: Rules | None = None, seed: int = 3, steps: int = 25) -> Game:
    game = Game(rules or Rules(), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.state.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


class TestSaves:
    def test_save_then_load_resumes_exactly(self, tmp_path: Path) -> None:
        game = game_in_progress()
        game.automated[2] = True
        path = save_game(game, tmp_path / "saves" / "game.json")
        loaded = load_game(path, Rules())
        assert loaded.state == game.state  # between turns: nothing to cut
        assert (loaded.seed, loaded.names, loaded.automated) == (game.seed, game.names, game.automated)
        rng_a, rng_b = random.Random(1), random.Random(1)
        finish_hand(game, rng_a)
        finish_hand(loaded, rng_b)
        assert loaded.results == game.results
        assert read_save(path)["hand"]["deal"] == game.state.deal_code

    def test_a_game_dealt_from_a_code_saves_its_first_hand_and_its_seed(self, tmp_path: Path) -> None:
        code = deal_code(Rules(), 4242, 3)
        game = Game(Rules(), 7, first=code)
        assert (game.state.deal_code, game.dealer) == (code, 3)
        game.play(game.state.legal_moves()[0])
        loaded = load_game(save_game(game, tmp_path / "g.json"), Rules())
        assert loaded.first == code and loaded.state == game.state
        finish_hand(game, random.Random(2))
        finish_hand(loaded, random.Random(2))
        assert loaded.next_hand().deal_code == game.next_hand().deal_code  # later hands come from the seed
        assert game.state.deal_code != code

    def test_a_first_code_that_does_not_fit_is_refused_and_kept(self, tmp_path: Path) -> None:
        path = save_game(Game(Rules(), 7), tmp_path / "g.json")
        data = json.loads(path.read_text())
        data["first"] = deal_code(Rules(players=3), 1, 0)
        path.write_text(json.dumps(data))
        with pytest.raises(SaveError, match="deal"):
            load_game(path)
        assert json.loads(path.read_text())["first"] == data["first"]

    def test_a_save_mid_turn_resumes_at_the_turn_start(self, tmp_path: Path) -> None:
        rules = Rules(piles_face_down=True, risk_play=True)
        game = Game(rules, 5)
        rng = random.Random(5)
        while game.state.phase == "play" or game.state.turn_start == len(game.state.moves):
            moves = game.state.legal_moves()
            flips = [m for m in moves if m.kind == "flip"]
            game.play(rng.choice(flips or moves))
        start = game.state.turn_start
        loaded = load_game(save_game(game, tmp_path / "g.json"))
        assert loaded.state.moves == game.state.moves[:start]
        assert loaded.state.phase == "play"
        assert loaded.state.turn == game.state.turn

    def test_a_save_after_a_hand_ended_resumes_that_hand(self, tmp_path: Path) -> None:
        rules = Rules(end_condition="rounds", rounds=3)
        game = Game(rules, 9)
        finish_hand(game, random.Random(0))
        loaded = load_game(save_game(game, tmp_path / "g.json"), rules)
        assert loaded.state == game.state and loaded.state.over
        assert (loaded.results, loaded.hand_number) == (game.results, 1)
        assert loaded.next_hand().to_position() == game.next_hand().to_position()

    def test_a_finished_game_reloads_finished(self, tmp_path: Path) -> None:
        rules = Rules(end_condition="rounds", rounds=2)
        game = finish_game(Game(rules, 4), random.Random(4))
        loaded = load_game(save_game(game, tmp_path / "g.json"), rules)
        assert loaded.over and loaded.totals == game.totals and loaded.winners == game.winners

    def test_other_rules_are_refused(self, tmp_path: Path) -> None:
        path = save_game(game_in_progress(), tmp_path / "g.json")
        before = path.read_bytes()
        with pytest.raises(SaveError, match=r"saved under different rules \(cards_dealt, risk_play\); not reopened"):
            load_game(path, Rules(cards_dealt=19, risk_play=True))
        assert path.read_bytes() == before

    def test_newer_version_is_refused(self, tmp_path: Path) -> None:
        path = save_game(game_in_progress(), tmp_path / "g.json")
        path.write_text(path.read_text().replace('"version": 1', '"version": 2', 1))
        with pytest.raises(SaveError, match=r"saved by a newer version \(save format 2\); this version reads 1"):
            load_game(path)

    @pytest.mark.parametrize(
        ("damage", "message"),
        [
            (lambda text: text[: len(text) // 2], r"the save file is corrupt \(.*\); it has been kept as it is"),
            (lambda text: "\udcff".join(text[:5]), r"corrupt"),
            (lambda text: '{"format": "cut_tutor.save"}', r"no valid version \(None\)"),
            (lambda text: "[]", r"not a cut_tutor save file"),
            (lambda text: text.replace('"seed"', '"sowed"'), r"save file is corrupt \(missing field 'seed'\)"),
            (lambda text: text.replace('"players": 4', '"players": 12'), r"save rules is corrupt \(rules\.players"),
        ],
    )
    def test_corrupt_file_is_reported_and_left_unchanged(self, tmp_path: Path, damage: Any, message: str) -> None:
        path = save_game(game_in_progress(), tmp_path / "g.json")
        path.write_bytes(damage(path.read_text()).encode("utf-8", "surrogateescape"))
        before = path.read_bytes()
        with pytest.raises(SaveError, match=message):
            load_game(path)
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]

    @pytest.mark.parametrize(
        ("edit", "message"),
        [
            (lambda d: d["hand"]["moves"].__setitem__(1, "junk"), r"hand\.moves\[1\]: cannot read move"),
            (lambda d: d["hand"]["moves"].__setitem__(1, None), r"hand\.moves\[1\]: cannot read move"),
            (lambda d: d["hand"]["moves"].insert(0, "flip 1"), r"hand\.moves\[0\]: illegal move"),
            (lambda d: d["hand"].__setitem__("dealer", 6), r"hand\.dealer 6 is not one of the 4 seats"),
            (lambda d: d["hand"].__setitem__("number", 3), r"hand\.number 3 does not follow the 0 finished"),
            (lambda d: d["hand"].__setitem__("deal", "4-3-20-0-1"), r"deal 4-3-20-0-1 does not match the seed"),
            (lambda d: d.__setitem__("names", ["A"]), r"names: 1 names for 4 players"),
        ],
    )
    def test_inconsistent_save_is_refused(self, tmp_path: Path, edit: Any, message: str) -> None:
        path = save_game(game_in_progress(), tmp_path / "g.json")
        data = json.loads(path.read_text())
        edit(data)
        path.write_text(json.dumps(data))
        with pytest.raises(SaveError, match=message):
            load_game(path)

    def test_saving_over_a_corrupt_file_keeps_it_aside(self, tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        corrupt = [b'{"format": "cut_tutor.save", "vers', b"\xff\xfe not even text"]
        for junk in corrupt:
            path.write_bytes(junk)
            save_game(game_in_progress(), path)
            assert load_game(path).state == game_in_progress().state
        kept = sorted(p for p in tmp_path.iterdir() if p != path)
        assert [p.read_bytes() for p in kept] == corrupt or [p.read_bytes() for p in kept][::-1] == corrupt
        assert all(re.fullmatch(r"g\.corrupt-\d{8}-\d{6}(-\d+)?\.json", p.name) for p in kept)
        assert not list(tmp_path.glob("*.tmp"))

    def test_saving_over_a_good_save_replaces_it(self, tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        save_game(game_in_progress(steps=5), path)
        save_game(game_in_progress(steps=40), path)
        assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
        assert load_game(path).state == game_in_progress(steps=40).state


# -- history --------------------------------------------------------------------------------------


class TestHistory:
    def test_record_read_delete_export(self, tmp_path: Path) -> None:
        rules = Rules(end_condition="rounds", rounds=2)
        history = History(tmp_path / "db" / "history.sqlite3")
        first = finish_game(Game(rules, 1), random.Random(1))
        first.automated[3] = True  # not used after the game: automation is recorded per hand
        second = finish_game(Game(rules, 2, names=["Ann", "Ben", "Cleo", "Dev"]), random.Random(2))
        id1, id2 = history.add(first), history.add(second)

        games = history.games()
        assert [g["id"] for g in games] == [id2, id1]
        assert games[1]["totals"] == first.totals and games[1]["winners"] == first.winners
        assert games[0]["names"] == ["Ann", "Ben", "Cleo", "Dev"]
        assert Rules.from_dict(games[0]["rules"]) == rules

        hands = history.hands(id1)
        assert len(hands) == 2 * rules.players
        for seat in range(rules.players):
            assert sum(h["points"] for h in hands if h["seat"] == seat) == first.totals[seat]
        for result in first.results:
            rows = [h for h in hands if h["hand"] == result.number]
            assert [h["went_out"] for h in rows] == [int(result.winner == s) for s in range(rules.players)]
            assert {h["deal"] for h in rows} == {result.deal}

        out = history.export_csv(tmp_path / "all.csv")
        with out.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        assert len(rows) == 2 * 2 * rules.players
        assert {r["name"] for r in rows if r["game"] == str(id2)} == {"Ann", "Ben", "Cleo", "Dev"}

        history.delete([id1])
        assert [g["id"] for g in history.games()] == [id2]
        assert history.hands(id1) == []
        with history.export_csv(tmp_path / "one.csv", [id2]).open(newline="") as handle:
            assert len(list(csv.DictReader(handle))) == 2 * rules.players

    def test_stored_hands_replay_exactly(self, tmp_path: Path) -> None:
        game = finish_game(Game(Rules(end_condition="rounds", rounds=2), 5), random.Random(5))
        history = History(tmp_path / "h.sqlite3")
        game_id = history.add(game)
        for result in game.results:
            state = replay(history.record(game_id, result.number))
            assert state.over and tuple(state.scores()) == result.scores
        with pytest.raises(ValueError, match="no stored hand 9"):
            history.record(game_id, 9)
        history.delete([game_id])
        with pytest.raises(ValueError, match="no stored hand 1"):
            history.record(game_id, 1)

    def test_an_unfinished_game_is_not_recorded(self, tmp_path: Path) -> None:
        with pytest.raises(ValueError, match="only finished games"):
            History(tmp_path / "h.sqlite3").add(game_in_progress())


# -- notebook drawings ----------------------------------------------------------------------------

#: Seat 0 sees 5s, 3s, 2s, 4s and a 6; every card hidden from it is a K, Q, J or 9.
DRAWN: dict[str, Any] = {
    "rules": Rules(players=2).to_dict(),
    "dealer": 1,
    "turn": 0,
    "pile": "6@1",
    "seats": [
        {"hand": "5 5 3", "stacks": ["[K] 2", "[K] 2", "[K]", ""]},
        {"hand": "Q Q 9", "stacks": ["[J] 4", "[J]", "", "[9] 4"]},
    ],
}

_CARD_SPAN = re.compile(r'<span class="card(?: clear)?">([^<]*)</span>')


class TestHtml:
    def test_state_draws_every_card(self) -> None:
        html = State.from_position(DRAWN)._repr_html_()
        assert set(_CARD_SPAN.findall(html)) == {"5", "3", "2", "[K]", "Q", "9", "[J]", "4", "[9]", "6"}
        assert "<b>You</b>" in html and "<b>Ann D</b>" in html and "Turn 1: your turn" in html  # the table's words
        assert "Seat" not in html and "(play)" not in html

    def test_view_draws_only_what_the_seat_sees(self) -> None:
        state = State.from_position(DRAWN)
        html = view(state, 0)._repr_html_()
        assert set(_CARD_SPAN.findall(html)) == {"5", "3", "2", "4", "6"}
        assert html.count('class="card down"') == 6
        for hidden in ("K", "Q", "J", "9"):
            assert f">{hidden}<" not in html and f"[{hidden}]" not in html
        assert "Legal: Play 1× 3, Play 1× 5, Play 2× 5" in html  # the moves as the buttons read

    def test_view_of_the_other_seat(self) -> None:
        html = view(State.from_position(DRAWN), 1)._repr_html_()
        assert set(_CARD_SPAN.findall(html)) == {"Q", "9", "4", "2", "6"}
        assert "3 cards" in html and "Legal" not in html and "<b>You</b>" in html and "<b>Ann D</b>" in html

    def test_a_finished_hand_names_who_went_out(self) -> None:
        over = {"rules": {"players": 2}, "turn": 0, "winner": 1, "seats": [{"hand": "9 9 8"}, {"hand": ""}]}
        for html in (State.from_position(over)._repr_html_(), view(State.from_position(over), 0)._repr_html_()):
            assert "<div>Ann went out — hand over</div>" in html and "▶" not in html  # R14

    def test_known_cards_are_drawn_for_other_seats(self) -> None:
        position = copy.deepcopy(DRAWN)
        position["seats"][1]["known"] = "Q"
        html = view(State.from_position(position), 0)._repr_html_()
        assert "(known: " in html and "Q" in _CARD_SPAN.findall(html)

    def test_a_clear_card_is_marked(self) -> None:
        position = copy.deepcopy(DRAWN)
        position["seats"][0]["hand"] = "5 5 10"
        html = view(State.from_position(position), 0)._repr_html_()
        assert '<span class="card clear">10</span>' in html
