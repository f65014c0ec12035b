"""The player's words: one label per move, the guide's names, counts and verbs that agree, in both games.

Each wording bug a learner once met has a test here, reproduced through what the learner reads: the coach's
sentence, a button, the table's data or the replayer's line.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import SEEDS, rules_st

from cut_tutor import Rules, State, view
from cut_tutor.analysis import analyse
from cut_tutor.coach import advise
from cut_tutor.coach.words import plan
from cut_tutor.engine import Move
from cut_tutor.engine.cards import CLEAR_CARD, PUSH, WILD
from cut_tutor.engine.rules import CLEAR4
from cut_tutor.engine.words import (
    SEAT_NAMES,
    acts,
    and_list,
    card_word,
    count,
    face,
    move_labels,
    plural,
    seat_name,
    seat_names,
    who,
)
from cut_tutor.widgets import Replayer, move_label, table_data
from cut_tutor.widgets.replayer import REVIEW
from cut_tutor.widgets.words import table_words

EMPTY = ["", "", "", ""]
FAR = "K K Q Q J J 9 9"  # an opponent nowhere near going out
NAMES = ["You", "Daryl", "Marty"]


def pos(seats: list[dict[str, Any]], pile: str = "", turn: int = 0, **rules: Any) -> State:
    full = [{"hand": s.get("hand", ""), "stacks": s.get("stacks", EMPTY)} for s in seats]
    return State.from_position({"rules": {"players": len(seats)} | rules, "turn": turn, "pile": pile,
                                "seats": full})  # fmt: skip


def text(state: State, names: list[str] | None = None) -> str:
    return advise(view(state, state.turn), names=names).text


class TestCoachSentences:
    def test_a_joker_clear_names_the_joker(self) -> None:
        """Once "Clear with your a JOKER": CUT's Joker is a Joker, with no article after "your"."""
        state = pos([{"hand": "JK 7 6"}, {"hand": FAR}, {"hand": "4 4"}], "8@1")
        assert text(state) == "Clear with your Joker — dumps a clear card worth 25 points before seat 2 goes out."

    def test_a_stack_clear_in_cut_is_no_clear4_card(self) -> None:
        """Once "Clear with your CLEAR card" in a CUT game: that is Clear 4's card."""
        state = pos([{"hand": "", "stacks": ["[3] 10", "", "", ""]}, {"hand": FAR}], "8@1")
        assert str(advise(view(state, 0)).move) == "clear s1"
        assert text(state).startswith("Clear with your face-up clear card — ")

    def test_counts_agree_with_their_nouns(self) -> None:
        """Once "a pile of 1 cards" and "down to 1 card(s)"."""
        one = pos([{"hand": "10 K K Q Q J J 7"}, {"hand": FAR}], "A@1")
        assert str(advise(view(one, 0)).move) == "clear 10" and "a pile of 1 card (1 pt)" in text(one)
        low = pos([{"hand": "9 3"}, {"hand": "4"}], "J@1")
        assert "plays low so seat 1, down to 1 card, must match" in text(low)

    def test_a_reason_fires_where_the_scorer_does(self) -> None:
        """Daryl holds his clear until a seat is down to one card (C6), so with one at two cards his clear sweeps
        the pile: once "dumps a clear card … before seat 2 goes out" for every coach at two cards."""
        pile = "K@1 K@1 Q@1 J@1 9@1 5@2 2@2"
        two = pos([{"hand": "10 K Q"}, {"hand": FAR}, {"hand": "4 4"}], pile)
        swept = "Clear with your 10 — sweeps a pile of 7 cards (56 pts) and you go again."
        assert advise(view(two, 0), "Daryl").text == swept
        assert advise(view(two, 0), "Madonna").text.endswith("before seat 2 goes out.")
        one = pos([{"hand": "10 K Q"}, {"hand": FAR}, {"hand": "4"}], pile)
        assert advise(view(one, 0), "Daryl").text.endswith("before seat 2 goes out.")
        # Expert hinders only a seat down to its last card; Experienced one down to two (the guide's Levels).
        low = pos([{"hand": "9 3"}, {"hand": "4 4"}], "J@1")
        assert "plays low so seat 1, down to 2 cards" in advise(view(low, 0), level="Experienced").text
        assert "plays low" not in advise(view(low, 0), level="Expert").text
        # Clear 4's scorer hinders a seat down to two cards at every Level, and its words say so
        state = pos([{"hand": "9 3"}, {"hand": "4 4"}], "10@1", **Rules.from_preset(CLEAR4, players=2).to_dict())
        assert "plays low so seat 1, down to 2 cards" in advise(view(state, 0), level="Expert").text

    def test_an_empty_pile_is_not_swept(self) -> None:
        """A clear on an empty pile sweeps nothing: it sheds the card and you go again."""
        state = pos([{"hand": "", "stacks": ["[3] 10", "", "", ""]}, {"hand": FAR}])
        assert str(advise(view(state, 0)).move) == "clear s1"
        assert text(state) == "Clear with your face-up clear card — sheds it and you go again."

    def test_you_inside_a_sentence(self) -> None:
        """Advice for another seat names you as "you", and its verb agrees: once "before You goes out"."""
        low = pos([{"hand": "4"}, {"hand": "9 3"}], "J@1", turn=1)
        assert "plays low so you, down to 1 card, must match" in text(low, NAMES[:2])
        dump = pos([{"hand": "4 4"}, {"hand": "10 7 6"}, {"hand": FAR}], "8@1", turn=1)
        assert text(dump, NAMES).endswith("before you go out.")

    def test_a_seat_has_one_name(self) -> None:
        """The game's names when they cover the seats, else a new setup's, for every number of players."""
        assert seat_names(2, ["Zoe", "Max", "Ida"]) == ["Zoe", "Max"]
        for players in range(2, 9):
            assert seat_names(players) == seat_names(players, ["Zoe"]) == list(SEAT_NAMES[:players])
        assert seat_names(3) == ["You", "Ann", "Ben"]

    def test_clear4_names_its_own_cards(self) -> None:
        """Clear 4 writes its 1 as 1 and its JOKER with no article after "your" (once "your a JOKER")."""
        ones = pos([{"hand": "A 7"}, {"hand": "9 9"}], "A@1 A@1 A@1", **Rules.from_preset(CLEAR4, players=2).to_dict())
        assert "completes four 1s" in text(ones) and "your 1" in text(ones)
        assert plan([(CLEAR_CARD, 0), (PUSH, 1), (WILD, 1), (1, 3)], CLEAR4) == (
            "your CLEAR card to clear, then your PUSH, then your JOKER, then your 3 1s"
        )  # once "your CL to clear, then your P, then your J*, then your 3 As"
        joker = Move.parse("1×J*")
        assert advise_text_for(joker).startswith("Play your JOKER")


def advise_text_for(move: Move) -> str:
    """The coach's sentence for one move on a Clear 4 pile, whatever it would rather play."""
    from cut_tutor.coach.advice import explain
    from cut_tutor.coach.styles import level_of, style_of
    from cut_tutor.coach.values import evaluate

    state = pos([{"hand": "J* 3 2"}, {"hand": "9 9"}], "8@1", **Rules.from_preset(CLEAR4, players=2).to_dict())
    seen = view(state, 0)
    style, level = style_of("Madonna"), level_of("Expert")
    cand = next(c for c in evaluate(seen, style, level) if c.move == move)
    return explain(cand, cand, seen)[0]


class TestLabels:
    def test_two_clears_of_one_size_name_their_cards_everywhere(self) -> None:
        """Once two moves both "Play 1× clear": every place a label is read tells the 10 from the Joker."""
        state = pos([{"hand": "10 JK 3"}, {"hand": "2"}], "5@1")
        labels = {str(m): move_label(m, view(state, state.turn)) for m in state.legal_moves()}
        assert labels["clear 10"] == "Play 1× clear (10)" and labels["clear JK"] == "Play 1× clear (JK)"
        assert labels["clear 10+JK"] == "Play 2× clear"
        advice = advise(view(state, 0))
        assert advice.label == labels[str(advice.move)]

    def test_the_coach_names_the_moves_after_a_blind_card_lands_as_the_table_does(self) -> None:
        """R13: the landed 5 is card 1 of every choice, in the coach's and the analysis' words as on the buttons."""
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "9@1 5@0", "phase": "add",
                                     "seats": [{"hand": "5 K"}, {"hand": "Q"}]})  # fmt: skip
        seen = view(state, 0)
        labels = advise(seen).labels
        assert labels == {m: move_label(m, seen) for m in state.legal_moves()}
        assert sorted(labels.values()) == ["Play 1× 5", "Play 2× 5"]
        assert {m.label for m in analyse(seen, seconds=None, max_rollouts=32).moves} == set(labels.values())

    def test_the_coach_marks_a_clear_as_the_table_does(self) -> None:
        """R22: two 1s on two 1s clear the pile, four JOKERs on an empty pile do not: the coach's words, and so the
        analysis', mark the first "— clear" and not the second, as the buttons do and as the engine plays them."""
        rules = Rules.from_preset(CLEAR4, players=2).to_dict()
        ones = State.from_position({"rules": rules, "turn": 0, "pile": "6@1 A@1 A@1",
                                    "seats": [{"hand": "A A 9"}, {"hand": "9 9"}]})  # fmt: skip
        jokers = State.from_position({"rules": rules, "turn": 0, "pile": "",
                                      "seats": [{"hand": "J* J* J* J* 9"}, {"hand": "9 9"}]})  # fmt: skip
        for state, text, label in ((ones, "2×A", "Play 2× 1 — clear"), (jokers, "4×J*", "Play 4× JOKER")):
            seen = view(state, 0)
            labels = advise(seen).labels
            assert labels == {m: move_label(m, seen) for m in state.legal_moves()}
            assert labels[Move.parse(text)] == label
            played = state.copy()
            played.play(Move.parse(text))
            assert (not played.pile) == label.endswith("— clear")

    def test_the_analysis_names_the_seat_a_push_goes_to_as_the_table_does(self) -> None:
        """R22: a PUSH sends the pile to a seat, named as the setup names the seats, never "seat 1"."""
        rules = Rules.from_preset(CLEAR4, players=3).to_dict()
        state = State.from_position({"rules": rules, "turn": 0, "pile": "8@1",
                                     "seats": [{"hand": "P 3"}, {"hand": "9 9"}, {"hand": "7"}]})  # fmt: skip
        labels = {m.label for m in analyse(view(state, 0), seconds=None, max_rollouts=32).moves}
        assert labels == {"Push to Ann", "Push to Ben", "Play 1× 3", "Pass"}

    def test_a_stack_is_named_by_its_pile_number(self) -> None:
        """One word for a player's numbered stack, as the guide's buttons and badges have it: "pile 2", never
        "stack 2"; the gamble is "Risk pile 2" and the combined button "Play 2× 9 + Risk pile 1"."""
        state = pos([{"hand": "", "stacks": ["[3]", "[A]", "[5]", "[6]"]}, {"hand": "Q"}], "K@1",
                    risk_play=True, pile_card_flip=True)  # fmt: skip
        labels = [move_label(m, view(state, state.turn)) for m in state.legal_moves()]
        assert "Flip pile 2" in labels and "Turn up pile 2" in labels
        assert not any("stack" in label.lower() for label in labels)
        assert move_label(Move.parse("gamble 2"), view(state, state.turn)) == "Risk pile 2"
        risky = pos([{"hand": "9", "stacks": ["[3] 9", "[A] 4", "[5] Q", "[6] 2"]}, {"hand": "Q"}], "K@1",
                    risk_play=True)  # fmt: skip
        data = table_data(view(risky, 0), names=NAMES[:2], colours=["#000", "#111"])
        combos = [a["label"] for a in data["actions"] if a.get("then")]
        assert combos == ["Play 2× 9 + Risk pile 1"]

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rules=rules_st(), seed=SEEDS, clear4=st.booleans())
    def test_no_two_moves_share_a_label(self, rules: Rules, seed: int, clear4: bool) -> None:
        """On random positions of random CUT rules and of Clear 4, a seat's moves all read differently."""
        if clear4:
            rules = Rules.from_preset(CLEAR4, players=min(rules.players, 6))
        state = State.deal(rules, seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        names = [f"P{i}" for i in range(rules.players)]
        for _ in range(400):
            if state.over:
                break
            moves = state.legal_moves()
            labels = [move_label(m, view(state, state.turn), names) for m in moves]
            assert len(set(labels)) == len(labels), sorted(zip(labels, map(str, moves), strict=True))
            state.play(rng.choice(moves))

    def test_the_table_offers_the_same_labels(self) -> None:
        state = pos([{"hand": "10 10 JK 3"}, {"hand": "2"}], "5@1")
        data = table_data(view(state, 0), names=NAMES[:2], colours=["#000", "#111"])
        assert {a["move"]: a["label"] for a in data["actions"]} == {
            str(m): move_label(m, view(state, state.turn)) for m in state.legal_moves()
        }

    def test_labels_keep_a_seats_moves_apart_by_cards_only_where_needed(self) -> None:
        moves = [Move.parse(t) for t in ("clear 2×10", "clear 10+JK", "clear 2×JK", "clear 10", "clear 10 s1",
                                         "clear JK s1")]  # fmt: skip
        assert list(move_labels(moves).values()) == [
            "Play 2× clear (10, 10)", "Play 2× clear (10, JK)", "Play 2× clear (JK, JK)", "Play 1× clear",
            "Play 2× clear (10, pile 1)", "Play 2× clear (JK, pile 1)",
        ]  # fmt: skip


class TestTableWords:
    def test_one_card_is_one_card(self) -> None:
        """Once "1 cards" under a seat's name and on the pile: the page prints the counts Python words."""
        state = pos([{"hand": "9 3"}, {"hand": "4"}], "J@1")
        words = table_data(view(state, 0), names=NAMES[:2], colours=["#000", "#111"])["words"]
        assert words["left"] == ["2 cards", "1 card"] and words["pile"] == "1 card · 10 pts"
        assert words["faces"] == {} and words["legend"][0] == ["💥", "Bust: took the pile"]

    def test_clear4_faces_come_from_python(self) -> None:
        state = pos([{"hand": "A P J* CL"}, {"hand": "4"}], "", **Rules.from_preset(CLEAR4, players=2).to_dict())
        words = table_words(view(state, 0), pile_counts=False)
        assert words["faces"] == {"A": "1", "P": "PUSH", "J*": "JOKER", "CL": "CLEAR"}
        assert table_words(view(state, 1), pile_counts=False)["faces"] == {}  # only the faces of cards it shows
        assert words["pile"] == "value any" and words["legend"][0][1] == "Passed: took the pile"
        assert face("A", CLEAR4) == "1" and face("A") == "A"

    def test_the_page_keeps_no_faces_of_its_own(self) -> None:
        from cut_tutor.widgets import TableWidget

        js = TableWidget._esm
        for word in ('"PUSH"', '"JOKER"', '"CLEAR"', '" cards"', '"1 card"', '"pile "', "Bust: took the pile"):
            assert word not in js


class TestSeatsAndCounts:
    def test_verbs_agree(self) -> None:
        """Once "You deals"."""
        assert acts("You", "deal") == "You deal" and acts("Daryl", "deal") == "Daryl deals"
        assert acts("Marty", "go out") == "Marty goes out" and acts(["Ann", "You"], "win") == "Ann and You win"
        assert acts(["Ann"], "win") == "Ann wins" and acts("you", "go out") == "you go out"

    def test_counts_and_lists(self) -> None:
        assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
        assert count(1.0, "point") == "1 point" and count(2.5, "point") == "2.5 points"
        assert [plural(w) for w in ("7", "A", "Joker", "PUSH")] == ["7s", "As", "Jokers", "PUSHes"]
        assert [and_list(x) for x in (["A"], ["A", "B"], ["A", "B", "C"])] == ["A", "A and B", "A, B and C"]
        assert seat_name(2) == "seat 2" and seat_name(0, NAMES) == "You" and who(0, NAMES) == "you"


class TestReplayerWords:
    def test_the_coach_pick_is_not_play_play(self) -> None:
        """Once "Madonna would play Play 3× J": the replayer names the coach's pick by its button."""
        state = State.deal(Rules(players=2), seed=12)
        rng = random.Random(1)
        for _ in range(40):
            if state.over:
                break
            state.play(rng.choice(state.legal_moves()))
        r = Replayer.from_state(state, names=NAMES[:2])
        r.set_seat(REVIEW)
        r.go(r.differences()[0].step)
        assert "Madonna recommends: " in r.info.value and "would play Play" not in r.info.value
        assert " 1 points" not in r.info.value


class TestEngineReasons:
    """The engine's refusals speak the same words: counts that agree, piles by number, Clear 4's own faces."""

    def test_cut_reasons(self) -> None:
        state = pos([{"hand": "J J 4", "stacks": ["", "[3] 9", "", ""]}, {"hand": "Q"}], "K@1")
        assert state.why_illegal(Move.parse("3×J")) == "you hold 2 Js in your hand, not 3"
        assert state.why_illegal(Move.parse("1×9 s1")) == "pile 1 is empty"
        capped = pos([{"hand": "9 9 9"}, {"hand": "Q"}], "9@1 9@1 9@1")
        assert "at most 1 9 may be laid" in (capped.why_illegal(Move.parse("2×9")) or "")

    def test_clear4_reasons(self) -> None:
        state = State.from_position({"rules": Rules.from_preset(CLEAR4, players=2).to_dict(), "turn": 0, "dealer": 1,
                                     "pile": "8@1", "seats": [{"hand": "A 5", "stacks": ["", "", "", ""]},
                                                              {"hand": "3", "stacks": ["", "", "", ""]}]})  # fmt: skip
        assert state.why_illegal(Move.parse("2×A")) == "you hold 1 1 in your hand, not 2"


class TestEachGamesOwnWords:
    """A game's own words live on its module (``WORDS``), so a third game brings its words with its module and its
    entry in ``GAME_MODULES``; the shared words never ask which game it is."""

    WORDS_MODULES = ("engine/words.py", "coach/words.py", "widgets/words.py", "review/words.py")

    def test_the_words_modules_never_ask_which_game(self) -> None:
        import ast
        from pathlib import Path

        import cut_tutor

        root = Path(cut_tutor.__file__).parent
        for module in self.WORDS_MODULES:
            tree = ast.parse((root / module).read_text(encoding="utf-8"))
            names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            assert "CLEAR4" not in names, f"{module} names Clear 4: its words belong on its game module"
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare):
                    sides = [node.left, *node.comparators]
                    named = {side.id for side in sides if isinstance(side, ast.Name)}
                    said = {side.value for side in sides if isinstance(side, ast.Constant)}
                    assert not named & {"CUT", "CLEAR4"} and not said & {"CUT", CLEAR4}, f"{module}:{node.lineno}"

    def test_a_third_game_speaks_its_words_everywhere(self, monkeypatch: Any) -> None:
        from types import SimpleNamespace

        from cut_tutor.coach.words import move_phrase
        from cut_tutor.engine.game_words import Vocabulary
        from cut_tutor.engine.games import GAME_MODULES
        from cut_tutor.engine.words import move_label as label
        from cut_tutor.widgets.words import turn_status

        third = Vocabulary(faces={"A": "Ace"}, prose={"A": "ace card"}, passes="Fold", took="Folded",
                           phases={"add": "add your aces"})  # fmt: skip
        monkeypatch.setitem(GAME_MODULES, "Third", SimpleNamespace(WORDS=third))
        assert face("A", "Third") == "Ace" and count(2, card_word("A", "Third")) == "2 ace cards"
        assert label(Move.parse("take"), game="Third") == move_phrase(Move.parse("take"), "Third") == "Fold"
        assert label(Move.parse("clear 10"), game="Third") == "Play 1× clear"
        seen = view(pos([{"hand": "A 9"}, {"hand": "4"}], "J@1"), 0)
        seen["rules"] = seen["rules"] | {"game": "Third"}
        words = table_words(seen)
        assert words["faces"] == {"A": "Ace"} and words["legend"][0] == ["💥", "Folded: took the pile"]
        assert turn_status(seen | {"phase": "add"}, NAMES[:2], 1) == "Your turn — add your aces"
        assert turn_status(seen, NAMES[:2], 1) == "Your turn"
