"""The rules of one game as a frozen value, with the USA, Canada and Clear 4 presets (R1–R3, R16–R22).

``game`` chooses the card game: ``"CUT"`` (the guide's rules, R1–R21) or ``"Clear 4"`` (its own rulebook, R22),
which fixes its own deck, deal and scoring: the CUT-only settings must then keep their defaults.

>>> Rules().preset
'USA'
>>> Rules.from_preset("Clear 4").preset, Rules.from_preset("Clear 4").hand_size
('Clear 4', 8)
>>> Rules.from_preset("Clear 4", risk_play=True)
Traceback (most recent call last):
...
cut_tutor.engine.rules.RulesError: risk_play: True is not allowed; Clear 4 has no such setting: leave it at False
>>> Rules.from_preset("Canada").cards_dealt
19
>>> Rules(cards_dealt=19).preset
'Custom'
>>> Rules(players=8, decks=2)
Traceback (most recent call last):
...
cut_tutor.engine.rules.RulesError: decks: 2 decks (108 cards) cannot deal 8 seats 20 cards each; the minimum is 3
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final, Literal

from .cards import (
    CLEAR_CARD,
    JOKER,
    KING,
    NCODES,
    NRANKS,
    STACKS,
    CardError,
    card_name,
    clear4_deck,
    counts_of,
    parse_card,
    standard_deck,
)
from .reading import JSONLimitError, load_json

CardScoring = Literal["rank", "flat5"]
EndCondition = Literal["score", "rounds"]
#: The card games one engine plays, by the name every table of games keys on: CUT (R1–R21) and Clear 4 (R22).
CUT: Final = "CUT"
CLEAR4: Final = "Clear 4"
GameName = Literal["CUT", "Clear 4"]
GAME_NAMES: tuple[GameName, ...] = (CUT, CLEAR4)
#: Clear 4's deck (R22): 120 cards, 20 to each seat, so at most 6 seats.
CLEAR4_DECK_SIZE, CLEAR4_MAX_PLAYERS = 120, 6

#: R15: a hand that reaches this many turns ends as a stalemate.
STALEMATE_TURNS = 2000
#: Cards in one standard deck (R1).
DECK_SIZE = 54


class RulesError(ValueError):
    """An impossible setting; the message names the setting and the allowed values."""


def auto_decks(players: int) -> int:
    """R1: 2 decks for 2–3 players, 3 for 4, 4 for 5–6, 5 for 7–8."""
    return {2: 2, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}[players]


@dataclass(frozen=True)
class Setting:
    """One setting's label and allowed values, declared once: :class:`Rules` checks them, the setup form offers them.

    ``choices`` lists the allowed values (``labels`` how the form shows them); ``span`` allows every whole number
    from its first to its last; ``none`` names what ``None`` means where ``None`` is allowed.

    >>> SETTINGS["cards_dealt"].allowed, SETTINGS["decks"].allowed
    ('use 19 or 20', 'use Auto (None) or 1 to 12')
    >>> SETTINGS["bust_penalty"].options()
    (('Off', 0), ('25', 25), ('50', 50))
    """

    name: str
    label: str
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()
    span: tuple[int, int] | None = None
    none: str | None = None
    #: The reason given for a refused value, where the values alone do not say it plainly.
    reason: str = ""

    @property
    def values(self) -> tuple[Any, ...]:
        """Every allowed value but ``None``, in the form's order."""
        return self.choices if self.span is None else tuple(range(self.span[0], self.span[1] + 1))

    @property
    def flag(self) -> bool:
        """Is it on or off (a checkbox)?"""
        return self.choices == (False, True)

    @property
    def whole(self) -> bool:
        """Must it be a whole number (no ``None``, and ``True`` is not 1)?"""
        return self.none is None and not self.flag and type(self.values[0]) is int

    @property
    def allowed(self) -> str:
        """What :class:`RulesError` says to use instead of a refused value."""
        if self.reason:
            return self.reason
        if self.flag:
            return "use true or false"
        if self.span is not None:
            given = f"{self.span[0]} to {self.span[1]}"
        else:
            *rest, last = (repr(value) for value in self.choices)
            given = f"{', '.join(rest)} or {last}"
        return f"use {self.none} (None) or {given}" if self.none else f"use {given}"

    def allows(self, value: Any) -> bool:
        """Is ``value`` one of the allowed values (of the same kind: ``1.0`` is not a number of cards)?"""
        if value is None:
            return self.none is not None
        return isinstance(value, type(self.values[0])) and value in self.values

    def options(self) -> tuple[tuple[str, Any], ...]:
        """``(label, value)`` for a dropdown: ``None`` first where allowed, each value by its label."""
        labels = self.labels or tuple(str(value) for value in self.values)
        first = () if self.none is None else ((self.none, None),)
        return first + tuple(zip(labels, self.values, strict=True))


_RANKS = tuple(range(1, KING + 1))
#: Every setting of :class:`Rules` a player chooses, in the order they are checked.
SETTINGS: dict[str, Setting] = {
    setting.name: setting
    for setting in (
        Setting("players", "Players", span=(2, 8)),
        Setting("cards_dealt", "Cards Dealt", (19, 20)),
        Setting("clear_rank", "Clear card", _RANKS, tuple(card_name(rank) for rank in _RANKS),
                none="None (only Jokers)", reason="use None (only Jokers clear) or a rank from A (1) to K (13)"),
        Setting("clear_value", "Clear Card value", (25, 50)),
        Setting("card_scoring", "Card scoring", ("rank", "flat5"), ("Rank value", "A–9 = 5"),
                reason="use 'rank' or 'flat5' (A–9 = 5)"),
        Setting("bust_penalty", "Bust penalty", (0, 25, 50), ("Off", "25", "50"), reason="use 0 (off), 25 or 50"),
        Setting("end_condition", "End condition", ("score", "rounds"), ("Score total", "After N rounds")),
        Setting("game_end_total", "Game End Total", (300, 500)),
        Setting("rounds", "Rounds", span=(1, 100)),
        Setting("four_plus_clears", "4+ Card Clears", (False, True)),
        Setting("piles_face_down", "Piles Face Down", (False, True)),
        Setting("pile_card_flip", "Pile Card Flip", (False, True)),
        Setting("risk_play", "Risk Play", (False, True)),
        Setting("game", "Game", GAME_NAMES),
        Setting("decks", "Decks", span=(1, 12), none="Auto"),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """Every setting of the guide's glossary that changes play or scoring.

    ``decks=None`` is *Auto*. ``clear_rank=None`` means only Jokers clear.
    Display-only settings (Pile Counts, dim cards, pacing) live in the app, not here.
    With ``game="Clear 4"`` (R22) only ``players`` (2–6), ``end_condition="rounds"`` and ``rounds`` apply;
    every other setting must keep its default, and a changed one is refused with its name.
    """

    players: int = 4
    decks: int | None = None
    cards_dealt: int = 20
    clear_rank: int | None = 10
    clear_value: int = 25
    card_scoring: CardScoring = "rank"
    bust_penalty: int = 0
    four_plus_clears: bool = False
    piles_face_down: bool = False
    pile_card_flip: bool = False
    risk_play: bool = False
    end_condition: EndCondition = "score"
    game_end_total: int = 300
    rounds: int = 5
    game: GameName = CUT

    def __post_init__(self) -> None:
        def check(name: str, ok: bool, allowed: str) -> None:
            if not ok:
                raise RulesError(f"{name}: {getattr(self, name)!r} is not allowed; {allowed}")

        for setting in SETTINGS.values():
            if setting.whole:
                check(setting.name, type(getattr(self, setting.name)) is int, "use a whole number")
        for setting in SETTINGS.values():
            if setting.name != "decks":  # CUT's decks depend on the seats; Clear 4 has its own deck
                check(setting.name, setting.allows(getattr(self, setting.name)), setting.allowed)
        if self.game == CLEAR4:
            self._check_clear4(check)
            return
        if self.decks is not None:
            check("decks", SETTINGS["decks"].allows(self.decks), SETTINGS["decks"].allowed)
            need = -(-self.players * self.cards_dealt // DECK_SIZE)
            if self.decks < need:
                raise RulesError(
                    f"decks: {self.decks} decks ({self.decks * DECK_SIZE} cards) cannot deal {self.players}"
                    f" seats {self.cards_dealt} cards each; the minimum is {need}"
                )

    def _check_clear4(self, check: Any) -> None:
        """R22: Clear 4 deals its own 120 cards, 20 each, and scores one point per card left."""
        check(
            "players",
            self.players <= CLEAR4_MAX_PLAYERS,
            f"Clear 4's {CLEAR4_DECK_SIZE} cards deal 20 each to 2 to {CLEAR4_MAX_PLAYERS} seats",
        )
        check("decks", self.decks is None, "Clear 4 plays its own single deck: leave it at Auto (None)")
        check("cards_dealt", self.cards_dealt == 20, "Clear 4 deals 20 cards")
        for name in _CUT_ONLY:
            default = _DEFAULTS[name]
            check(name, getattr(self, name) == default, f"Clear 4 has no such setting: leave it at {default!r}")
        check(
            "end_condition",
            self.end_condition == "rounds",
            "Clear 4 is played over a number of rounds, cards left counting against you: use 'rounds'",
        )

    # -- derived values -------------------------------------------------------------------------------

    @property
    def clear4(self) -> bool:
        """Is this Clear 4 (R22) rather than CUT?"""
        return self.game == CLEAR4

    @property
    def ncodes(self) -> int:
        """Length of this game's count arrays: :data:`~.cards.NRANKS` for CUT, :data:`~.cards.NCODES` for Clear 4."""
        return NCODES if self.game == CLEAR4 else NRANKS

    @property
    def stack_depth(self) -> int:
        """Cards dealt to each stack: 2 in CUT (Risk under Board), 3 in Clear 4 (final, middle, top)."""
        return 3 if self.game == CLEAR4 else 2

    @property
    def deck_count(self) -> int:
        """The number of decks in play, resolving *Auto*."""
        if self.game == CLEAR4:
            return 1
        return self.decks if self.decks is not None else auto_decks(self.players)

    @property
    def hand_size(self) -> int:
        """Cards dealt to the hand after the stacks (R5; 8 in Clear 4, R22)."""
        return self.cards_dealt - self.stack_depth * STACKS

    @property
    def preset(self) -> str:
        """``USA``, ``Canada``, ``Clear 4`` or ``Custom``: derived from the settings, never chosen (R21, R22)."""
        if self.game == CLEAR4:
            return CLEAR4
        key = (self.cards_dealt, self.clear_value, self.game_end_total, self.four_plus_clears)
        return {v: k for k, v in _PRESETS.items()}.get(key, "Custom")

    @cached_property
    def is_clear(self) -> tuple[bool, ...]:
        """Per rank: is it a clear card? Jokers always are (R2); in Clear 4 only its CLEAR card (R22)."""
        if self.game == CLEAR4:
            return tuple(rank == CLEAR_CARD for rank in range(NCODES))
        return tuple(rank == JOKER or rank == self.clear_rank for rank in range(NCODES))

    def above_bare(self, rank: int, top: int) -> bool:
        """Can a hand card nobody saw be of ``rank`` once its seat took the pile bare on ``top``? Only an ordinary
        rank above it: a bare take is legal only without a legal play (R11)."""
        return rank > top and not self.is_clear[rank]

    @cached_property
    def number_ranks(self) -> tuple[int, ...]:
        """The ordinary ranks, low to high: every rank that is not a clear card (R2); 1–10 in Clear 4 (R22)."""
        if self.game == CLEAR4:
            return tuple(range(1, 11))
        return tuple(rank for rank in range(1, JOKER) if not self.is_clear[rank])

    @cached_property
    def ranks_below(self) -> tuple[tuple[int, ...], ...]:
        """Per pile top: the ordinary ranks below it, low to high (index 0, an empty pile: all of them)."""
        ranks = self.number_ranks
        return tuple(tuple(r for r in ranks if top == 0 or r < top) for top in range(NCODES))

    @cached_property
    def points(self) -> tuple[int, ...]:
        """Per rank: what a card left in your hands scores (R3); in Clear 4 every card counts one (R22)."""
        if self.game == CLEAR4:
            return (0,) + (1,) * (NCODES - 1)
        table = [0] * (JOKER + 1)  # CUT's cards only: indexed by A … K and JK
        for rank in range(1, JOKER + 1):
            if self.is_clear[rank]:
                table[rank] = self.clear_value
            elif rank >= 10:
                table[rank] = 10
            else:
                table[rank] = 5 if self.card_scoring == "flat5" else rank
        return tuple(table)

    @cached_property
    def deck_counts(self) -> tuple[int, ...]:
        """Per code (every code, :data:`~cut_tutor.engine.cards.NCODES` of them): the cards of that code in play."""
        return tuple(counts_of(self.deck(), NCODES))

    # A rules value is a dictionary key and a cache key in every simulated decision (the coach's tables per rules):
    # its fields are read once into a tuple, which equality and hashing then use, as the generated methods would.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self._key == other._key

    def __hash__(self) -> int:  # not cached itself: a pickled hash of the text fields is wrong in another process
        return hash(self._key)

    @cached_property
    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, f.name) for f in dataclasses.fields(self)])

    def deck(self) -> list[int]:
        """Every card in play, in a fixed order ready to shuffle."""
        if self.game == CLEAR4:
            return clear4_deck()
        return standard_deck(self.deck_count)

    # -- presets and serialisation --------------------------------------------------------------------

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """Rules filled from a preset (``USA``, ``Canada`` or ``Clear 4``); any setting may then be changed.

        Clear 4 plays one round per seat unless ``rounds`` says otherwise (its rulebook's suggestion).
        """
        try:
            key = _preset_key(name)
        except KeyError:
            raise RulesError(f"preset: unknown preset {name!r}; use USA, Canada or Clear 4") from None
        if key == CLEAR4:
            players = overrides.get("players", 4)
            rounds = players if isinstance(players, int) and 1 <= players <= 100 else 4
            clear4: dict[str, Any] = dict(game=CLEAR4, end_condition="rounds", rounds=rounds)
            return cls(**(clear4 | overrides))
        dealt, value, total, four_plus = _PRESETS[key]
        base: dict[str, Any] = dict(
            cards_dealt=dealt, clear_value=value, game_end_total=total, four_plus_clears=four_plus
        )
        return cls(**(base | overrides))

    def with_preset(self, name: str) -> Rules:
        """These rules with a preset's settings filled in, the others kept where the game allows.

        Switching to Clear 4 resets the CUT-only settings, keeps the seats (at most 6) and plays rounds: as many as
        these rules did if they ended after a number of rounds, else one per seat, so that everyone leads once (its
        rulebook's suggestion). Switching back to USA or Canada keeps the seats and the rounds.
        """
        preset = Rules.from_preset(name)
        if preset.game == CLEAR4:
            players = min(self.players, CLEAR4_MAX_PLAYERS)
            return Rules.from_preset(CLEAR4, players=players,
                                     rounds=self.rounds if self.end_condition == "rounds" else players)  # fmt: skip
        return dataclasses.replace(
            self,
            game=CUT,
            cards_dealt=preset.cards_dealt,
            clear_value=preset.clear_value,
            game_end_total=preset.game_end_total,
            four_plus_clears=preset.four_plus_clears,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the clear rank is written as a card name (``"10"``) or null.

        ``game`` is written only for Clear 4, so CUT's JSON form is what it always was.
        """
        return dict(self._as_dict)

    @cached_property
    def _as_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` built once: every view carries the rules, so this is on the AI's hot path."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if self.game == CUT:
            del data["game"]
        data["clear_rank"] = None if self.clear_rank is None else card_name(self.clear_rank)
        return data

    @classmethod
    def from_dict(cls, data: Any, *, where: str = "rules") -> Rules:
        """Rules from :meth:`to_dict` output; an error names the bad field."""
        if not isinstance(data, dict):
            raise RulesError(f"{where}: expected an object of settings, got {type(data).__name__}")
        try:
            load_json(data, where)
        except JSONLimitError as exc:
            raise RulesError(str(exc)) from None
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"{where}: unknown setting(s) {', '.join(unknown)}")
        values = dict(data)
        if isinstance(values.get("clear_rank"), str):
            try:
                values["clear_rank"] = parse_card(values["clear_rank"])
            except CardError as exc:
                raise RulesError(f"{where}.clear_rank: {exc}") from None
        try:
            return cls(**values)
        except RulesError as exc:
            raise RulesError(f"{where}.{exc}") from None

    def to_json(self) -> str:
        """The rules as a compact JSON text (used to compare saves with the current settings)."""
        return json.dumps(self.to_dict(), sort_keys=True)


_PRESETS: dict[str, tuple[int, int, int, bool]] = {
    "USA": (20, 25, 300, False),
    "Canada": (19, 50, 500, True),
}
PRESETS: tuple[str, ...] = (*_PRESETS, CLEAR4)
#: Settings Clear 4 does not have (R22): they must keep these defaults.
_CUT_ONLY = (
    "clear_rank", "clear_value", "card_scoring", "bust_penalty", "four_plus_clears", "piles_face_down",
    "pile_card_flip", "risk_play", "game_end_total",
)  # fmt: skip
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)}


def _preset_key(name: str) -> str:
    keys = {key.lower().replace(" ", ""): key for key in PRESETS}
    return keys[name.strip().lower().replace(" ", "")]


def load_rules(spec: str) -> Rules:
    """Rules from a preset name or a path to a rules JSON file (the CLI's ``--rules``)."""
    from pathlib import Path

    try:
        return Rules.from_preset(spec)
    except RulesError:
        path = Path(spec)
        if not path.exists():
            raise RulesError(f"rules: {spec!r} is neither a preset (USA, Canada, Clear 4) nor a rules file") from None
        try:
            data = load_json(path.read_text(encoding="utf-8"), f"rules: {spec}")
        except JSONLimitError as exc:
            raise RulesError(str(exc)) from None
        return Rules.from_dict(data)
