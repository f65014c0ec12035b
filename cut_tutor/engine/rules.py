"""The rules of one game as a frozen value, with the USA and Canada presets (R1–R3, R16–R21).

>>> Rules().preset
'USA'
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
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from .cards import JOKER, KING, NRANKS, CardError, card_name, parse_card, standard_deck

CardScoring = Literal["rank", "flat5"]
EndCondition = Literal["score", "rounds"]

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
class Rules:
    """Every setting of the guide's glossary that changes play or scoring.

    ``decks=None`` is *Auto*. ``clear_rank=None`` means only Jokers clear.
    Display-only settings (Pile Counts, dim cards, pacing) live in the app, not here.
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
    stacks: int = field(default=4, repr=False)

    def __post_init__(self) -> None:
        def check(name: str, ok: bool, allowed: str) -> None:
            if not ok:
                raise RulesError(f"{name}: {getattr(self, name)!r} is not allowed; {allowed}")

        for number in ("players", "cards_dealt", "clear_value", "bust_penalty", "game_end_total", "rounds"):
            check(number, type(getattr(self, number)) is int, "use a whole number")
        check("players", 2 <= self.players <= 8, "use 2 to 8")
        check("cards_dealt", self.cards_dealt in (19, 20), "use 19 or 20")
        check(
            "clear_rank",
            self.clear_rank is None or (isinstance(self.clear_rank, int) and 1 <= self.clear_rank <= KING),
            "use None (only Jokers clear) or a rank from A (1) to K (13)",
        )
        check("clear_value", self.clear_value in (25, 50), "use 25 or 50")
        check("card_scoring", self.card_scoring in ("rank", "flat5"), "use 'rank' or 'flat5' (A–9 = 5)")
        check("bust_penalty", self.bust_penalty in (0, 25, 50), "use 0 (off), 25 or 50")
        check("end_condition", self.end_condition in ("score", "rounds"), "use 'score' or 'rounds'")
        check("game_end_total", self.game_end_total in (300, 500), "use 300 or 500")
        check("rounds", isinstance(self.rounds, int) and 1 <= self.rounds <= 100, "use 1 to 100")
        for flag in ("four_plus_clears", "piles_face_down", "pile_card_flip", "risk_play"):
            check(flag, isinstance(getattr(self, flag), bool), "use true or false")
        check("stacks", self.stacks == 4, "CUT deals 4 stacks")
        if self.decks is not None:
            check("decks", isinstance(self.decks, int) and 1 <= self.decks <= 12, "use Auto (None) or 1 to 12")
            need = -(-self.players * self.cards_dealt // DECK_SIZE)
            if self.decks < need:
                raise RulesError(
                    f"decks: {self.decks} decks ({self.decks * DECK_SIZE} cards) cannot deal {self.players}"
                    f" seats {self.cards_dealt} cards each; the minimum is {need}"
                )

    # -- derived values -------------------------------------------------------------------------------

    @property
    def deck_count(self) -> int:
        """The number of decks in play, resolving *Auto*."""
        return self.decks if self.decks is not None else auto_decks(self.players)

    @property
    def hand_size(self) -> int:
        """Cards dealt to the hand after the stacks (R5)."""
        return self.cards_dealt - 2 * self.stacks

    @property
    def preset(self) -> str:
        """``USA``, ``Canada`` or ``Custom``: derived from the four preset settings, never chosen (R21)."""
        key = (self.cards_dealt, self.clear_value, self.game_end_total, self.four_plus_clears)
        return {v: k for k, v in _PRESETS.items()}.get(key, "Custom")

    @cached_property
    def is_clear(self) -> tuple[bool, ...]:
        """Per rank: is it a clear card? Jokers always are (R2)."""
        return tuple(rank == JOKER or rank == self.clear_rank for rank in range(NRANKS))

    @cached_property
    def number_ranks(self) -> tuple[int, ...]:
        """The ordinary ranks, low to high: every rank that is not a clear card (R2)."""
        return tuple(rank for rank in range(1, NRANKS) if not self.is_clear[rank])

    @cached_property
    def points(self) -> tuple[int, ...]:
        """Per rank: what a card left in your hands scores (R3)."""
        table = [0] * NRANKS
        for rank in range(1, NRANKS):
            if self.is_clear[rank]:
                table[rank] = self.clear_value
            elif rank >= 10:
                table[rank] = 10
            else:
                table[rank] = 5 if self.card_scoring == "flat5" else rank
        return tuple(table)

    def deck(self) -> list[int]:
        """Every card in play, in a fixed order ready to shuffle."""
        return standard_deck(self.deck_count)

    # -- presets and serialisation --------------------------------------------------------------------

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """Rules filled from a preset (``USA`` or ``Canada``); any setting may then be changed."""
        try:
            dealt, value, total, four_plus = _PRESETS[_preset_key(name)]
        except KeyError:
            raise RulesError(f"preset: unknown preset {name!r}; use USA or Canada") from None
        base: dict[str, Any] = dict(
            cards_dealt=dealt, clear_value=value, game_end_total=total, four_plus_clears=four_plus
        )
        return cls(**(base | overrides))

    def with_preset(self, name: str) -> Rules:
        """These rules with a preset's four settings filled in, the others kept."""
        preset = Rules.from_preset(name)
        return dataclasses.replace(
            self,
            cards_dealt=preset.cards_dealt,
            clear_value=preset.clear_value,
            game_end_total=preset.game_end_total,
            four_plus_clears=preset.four_plus_clears,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the clear rank is written as a card name (``"10"``) or null."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "stacks"}
        data["clear_rank"] = None if self.clear_rank is None else card_name(self.clear_rank)
        return data

    @classmethod
    def from_dict(cls, data: Any, *, where: str = "rules") -> Rules:
        """Rules from :meth:`to_dict` output; an error names the bad field."""
        if not isinstance(data, dict):
            raise RulesError(f"{where}: expected an object of settings, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)} - {"stacks"}
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
PRESETS: tuple[str, ...] = tuple(_PRESETS)


def _preset_key(name: str) -> str:
    return {key.lower(): key for key in _PRESETS}[name.strip().lower()]


def load_rules(spec: str) -> Rules:
    """Rules from a preset name or a path to a rules JSON file (the CLI's ``--rules``)."""
    from pathlib import Path

    try:
        return Rules.from_preset(spec)
    except RulesError:
        path = Path(spec)
        if not path.exists():
            raise RulesError(f"rules: {spec!r} is neither a preset (USA, Canada) nor a rules file") from None
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError as exc:
            raise RulesError(f"rules: {spec} is not valid JSON ({exc})") from None
        return Rules.from_dict(data)
