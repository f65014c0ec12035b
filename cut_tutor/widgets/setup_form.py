"""The setup form: seats, coaching, the rules and the table's display, before a game is dealt.

Its twins (``set_players``, ``set_rule``, ``set_preset`` …) change the app's :class:`~.shared.Setup`; the rule
controls are built from :data:`~cut_tutor.engine.rules.SETTINGS`, so the form offers what the rules allow.
"""

from __future__ import annotations

import dataclasses
from html import escape
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from cut_tutor.coach import COACHES, LEVELS, STYLES
from cut_tutor.engine import Rules, RulesError
from cut_tutor.engine.game import INT_LIMIT, seed_too_large
from cut_tutor.engine.rules import CLEAR4_MAX_PLAYERS, PRESETS, SETTINGS, Setting
from cut_tutor.engine.words import SEAT_NAMES

from ..guide_links import RULES_FIELDS
from .shared import PACING, YOU, Host, SeatSetup, Setup, help_html
from .table import COLOURS, IntentError

#: The rule settings the form offers, in its order.
FORM_RULES = (
    "cards_dealt", "clear_value", "game_end_total", "four_plus_clears", "clear_rank", "card_scoring", "bust_penalty",
    "risk_play", "piles_face_down", "pile_card_flip", "end_condition", "rounds", "decks",
)  # fmt: skip
#: The rule settings Clear 4 has (R22); the setup hides the others while it is chosen.
CLEAR4_SETTINGS = ("rounds",)


def _rule_widget(setting: Setting, layout: w.Layout, looks: Looks) -> w.Widget:
    """A checkbox for a flag, a number box for a long span, else a dropdown of the allowed values; each with its
    label its own width, whole.

    A dropdown shows None as no choice at all, so Auto decks and "only Jokers" travel as 0.
    """
    if setting.flag:
        return w.Checkbox(description=setting.label, layout=layout, style=looks.wide_check)
    look = {"layout": layout, "style": looks.wide}
    if setting.span is not None and setting.none is None:
        return w.BoundedIntText(min=setting.span[0], max=setting.span[1], description=setting.label, **look)
    options = [(label, 0 if value is None else value) for label, value in setting.options()]
    return w.Dropdown(options=options, description=setting.label, **look)


class Looks:
    """The layouts and styles the form's controls share: a control opens one widget on the page, not three (its
    own layout and style), and a kernel starts sooner. A control shown or hidden on its own keeps its own layout."""

    def __init__(self) -> None:
        self.plain = w.Layout()
        self.wrap = w.Layout(flex_flow="row wrap")
        self.html = {"layout": self.plain, "style": HTMLStyle()}
        self.check = {"layout": self.plain, "style": CheckboxStyle()}
        self.dropdown = {"layout": self.plain, "style": DescriptionStyle()}
        self.toggles = {"layout": self.plain, "style": w.ToggleButtonsStyle()}
        self.text = TextStyle()
        #: the label its own width, whole (the rules' controls and the seats' dropdowns)
        self.wide = DescriptionStyle(description_width="initial")
        self.wide_check = CheckboxStyle(description_width="initial")
        #: the widths of a seat's name, colour, Level and Style, alike on every seat
        self.seat = [w.Layout(width=width) for width in ("220px", "165px", "175px", "160px")]

    def row(self, children: list[w.Widget]) -> w.HBox:
        """A row of controls that wraps on a narrow window (a phone) instead of running off the screen."""
        row = w.HBox(children, layout=self.wrap)
        row.add_class("cut-wrap")
        return row


@dataclasses.dataclass
class _SeatControls:
    """One seat's row: made once, then redrawn from the setup (:meth:`SetupForm._draw_seat`)."""

    swatch: w.HTML
    name: w.Text
    colour: w.Dropdown
    level: w.Dropdown
    style: w.Dropdown
    row: w.HBox


class SetupForm:
    """The setup screen's controls and twins; :attr:`box` is the screen."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._cut_rules: Rules | None = None
        self._seats: list[_SeatControls] = []
        controls = host.controls
        looks = self.looks = Looks()
        self.players = w.Dropdown(options=list(SETTINGS["players"].values), value=4, description="Players",
                                  **looks.dropdown)  # fmt: skip
        controls.watch(self.players, self.set_players)
        self.seat_rows = w.VBox(layout=looks.plain)
        self.coach_pick = w.Dropdown(options=list(COACHES), value="Madonna", description="Coach", **looks.dropdown)
        controls.watch(self.coach_pick, host.set_coach)
        self.coach_about = w.HTML(**looks.html)
        self.automate = w.Checkbox(value=False, description="Automate Player", **looks.check)
        controls.watch(self.automate, host.set_automate)
        self.coaching = w.Checkbox(value=True, description="Coaching", **looks.check)
        controls.watch(self.coaching, self.set_coaching)
        self.pile_counts = w.Checkbox(value=False, description="Pile Counts", **looks.check)
        controls.watch(self.pile_counts, self.set_pile_counts)
        self.dim = w.Checkbox(value=False, description="Dim non-playable Cards", **looks.check)
        controls.watch(self.dim, self.set_dim)
        self.pacing = w.ToggleButtons(options=list(PACING), value="Step", description="AI pacing", **looks.toggles)
        controls.watch(self.pacing, host.set_pacing)
        self.view_pick = w.ToggleButtons(options=["Auto", "Table", "Stacked"], value="Auto", description="View",
                                         **looks.toggles)  # fmt: skip
        controls.watch(self.view_pick, host.set_layout)
        # the page's own "Switch to Stacked" offer changes the table's layout: keep the picker in step
        host.table.observe(lambda c: setattr(self.view_pick, "value", c["new"].title()), "table_layout")
        self.preset = w.Dropdown(options=list(PRESETS), value="USA", description="Preset", **looks.dropdown)
        controls.watch(self.preset, self.set_preset)
        self.rule_widgets = self._rule_widgets()
        self.clear4_note = w.HTML(
            "<i>Clear 4: its own 120-card deck, 2 to 6 players, three-card stacks and a hand of 8. It is played"
            " over a number of rounds; every card left in your hands counts one point against you.</i>"
        )
        self.seed = w.Text(value="", placeholder="random", description="Seed", layout=looks.plain, style=looks.text)
        controls.guard(self.seed)
        self.deal_button = controls.button("Deal & play", self._deal_from_form, button_style="primary")
        self.reset_button = controls.button("Reset game setup", host.ask_reset)
        #: Reset game setup asks first while a game is in progress (the guide's *Reset game setup*).
        self.asking = False
        self.reset_yes = controls.button("Reset and end the game", host.reset_setup, button_style="danger")
        self.reset_no = controls.button("Keep it", self.cancel_reset)
        self.reset_ask = w.HBox([w.HTML("<b>A game is in progress: reset the setup and end it?</b>", **looks.html),
                                 self.reset_yes, self.reset_no])  # fmt: skip
        self.reset_ask.add_class("cut-wrap")
        self.reset_ask.layout.display = "none"
        guide, html, row = host.guide, looks.html, looks.row
        self.box = w.VBox(
            [
                help_html(["rules", "coach", "scores", "saving"], guide, title="Guide", **html),
                w.HTML("<h3>Players</h3>", **html), self.players, self.seat_rows,
                help_html(["Players", "Level", "Style"], guide, **html),
                w.HTML("<h3>Coaching</h3>", **html), row([self.coach_pick, self.coaching, self.automate]),
                self.coach_about, help_html(["Coaching", "Coach style", "Automate Player"], guide, **html),
                w.HTML("<h3>Rules</h3>", **html), self.preset,
                help_html(["Global Setting Set (preset)"], guide, **html),
                self.clear4_note, w.GridBox(
                    list(self.rule_widgets.values()),
                    layout=w.Layout(grid_template_columns="repeat(auto-fill, minmax(300px, 1fr))"),
                ),
                help_html(list(RULES_FIELDS), guide, **html),
                w.HTML("<h3>Table</h3>", **html), row([self.pile_counts, self.dim]), self.pacing, self.view_pick,
                self.seed,
                help_html(["Pile Counts", "Dim non-playable Cards", "Pause between Players", "View", "Seed"], guide,
                          **html),
                row([self.deal_button, self.reset_button]), self.reset_ask,
            ]
        )  # fmt: skip

    @property
    def setup(self) -> Setup:
        return self.host.sitting.setup

    def _not_in_play(self, what: str) -> None:
        """The rules and the number of seats are fixed while a game is in play (the form is hidden then, but a forged
        update from the page can still reach a control): the control is redrawn as it was and the change refused."""
        if self.host.sitting.game is not None:
            self.refresh_setup()
            raise IntentError(f"{what} cannot change while a game is in play: press New game first")

    # -- twins --------------------------------------------------------------------------------------------

    def ask_reset(self) -> bool:
        """Reset at once, or ask first (``True``) while a game is in play, since Reset ends it (its save stays
        for *Continue*)."""
        host = self.host
        if host.sitting.game is None:
            host.reset_setup()
            return False
        self.asking = True
        host.refresh()
        return True

    def cancel_reset(self) -> None:
        """Keep the setup and the game."""
        self.asking = False
        self.host.refresh()

    def set_players(self, players: int) -> None:
        """Seat 2 to 8 players (2 to 6 in Clear 4); new seats take the default names and the first free colours."""
        self._not_in_play("the number of players")
        self._set_rules(dataclasses.replace(self.setup.rules, players=int(players)))
        self.refresh_setup(rebuild=True)

    def _set_rules(self, rules: Rules) -> None:
        """Take new rules, seating as many players as they name (kept seats keep their names and colours)."""
        players = rules.players
        seats = self.setup.seats[:players]
        free = [c for c in COLOURS if c not in {s.colour for s in seats}]
        for i in range(len(seats), players):
            seats.append(SeatSetup(SEAT_NAMES[i], free.pop(0)))
        self.setup.seats, self.setup.rules = seats, rules

    def set_name(self, seat: int, name: str) -> None:
        """Rename a seat (blank names are refused)."""
        if not name.strip():
            raise ValueError("a seat needs a name")
        self.setup.seats[seat].name = name.strip()[:24]
        self.refresh_setup()

    def set_colour(self, seat: int, colour: str) -> None:
        """Give a seat a colour no other seat has."""
        if colour not in COLOURS:
            raise ValueError(f"colour: {colour!r} is not one of {', '.join(COLOURS)}")
        if any(s.colour == colour for i, s in enumerate(self.setup.seats) if i != seat):
            raise ValueError(f"colour: {colour} is already taken")
        self.setup.seats[seat].colour = colour
        self.refresh_setup(rebuild=True)

    def set_level(self, seat: int, level: str) -> None:
        """A seat's Level; for your own seat it also sets how many hints you see (C7)."""
        if level not in LEVELS:
            raise ValueError(f"level: {level!r} is not one of {', '.join(LEVELS)}")
        self.setup.seats[seat].level = level
        self._reseat(seat)

    def set_style(self, seat: int, style: str) -> None:
        """A seat's Style (Rock, Balanced or Gambler)."""
        if style not in STYLES:
            raise ValueError(f"style: {style!r} is not one of {', '.join(STYLES)}")
        self.setup.seats[seat].style = style
        self._reseat(seat)

    def _reseat(self, seat: int) -> None:
        """A game in play takes a seat's new Level or Style at once."""
        self.host.reseat(seat)
        self.host.refresh()

    def set_rule(self, name: str, value: Any) -> None:
        """Change one rule variant; an impossible value is refused with the engine's reason."""
        self._not_in_play("the rules")
        if name == "players":
            self.set_players(int(value))
            return
        try:
            self.setup.rules = dataclasses.replace(self.setup.rules, **{name: value})
        except (TypeError, RulesError) as exc:
            raise ValueError(str(exc)) from None
        self.refresh_setup()

    def set_preset(self, name: str) -> None:
        """Fill a preset's settings (USA, Canada or Clear 4); *Custom* is derived, never chosen (R21).

        Clear 4 (R22) seats at most 6 and plays rounds; switching back to USA or Canada restores the CUT settings
        chosen before it, with the seats chosen since.
        """
        self._not_in_play("the rules")
        if name == "Custom":
            raise ValueError("Custom is not a preset: it shows that the settings match neither USA nor Canada")
        rules = self.setup.rules
        try:
            if Rules.from_preset(name).clear4:
                if not rules.clear4:
                    self._cut_rules = rules
                new = rules.with_preset(name)
            else:
                new = self._cut_rules_for(rules).with_preset(name) if rules.clear4 else rules.with_preset(name)
        except RulesError as exc:
            raise ValueError(str(exc)) from None
        self._set_rules(new)
        self.refresh_setup(rebuild=True)

    def _cut_rules_for(self, clear4: Rules) -> Rules:
        """The CUT rules to return to from Clear 4: those chosen before it, with Clear 4's seats."""
        base = self._cut_rules or Rules()
        try:
            return dataclasses.replace(base, players=clear4.players)
        except RulesError:  # fixed decks too few for the seats chosen since: back to Auto
            return dataclasses.replace(base, players=clear4.players, decks=None)

    def set_coaching(self, on: bool) -> None:
        """Coaching on or off; off hides every hint whatever the Level."""
        self.setup.coaching = bool(on)
        self.host.refresh()

    def set_dim(self, on: bool) -> None:
        """Dim non-playable Cards: the cards no legal move uses are drawn faded."""
        self.setup.dim = bool(on)
        self.host.refresh()

    def set_pile_counts(self, on: bool) -> None:
        """Show the pile's card count and points."""
        self.setup.pile_counts = bool(on)
        self.host.refresh()

    # -- widgets ------------------------------------------------------------------------------------------

    def _rule_widgets(self) -> dict[str, w.Widget]:
        # the settings Clear 4 hides are shown and hidden together: one layout for them, one for the rest (R22)
        layouts = {True: w.Layout(), False: w.Layout()}
        specs = {
            name: _rule_widget(SETTINGS[name], layouts[name in CLEAR4_SETTINGS], self.looks) for name in FORM_RULES
        }
        for name, widget in specs.items():
            self.host.controls.guard(widget)
            none = SETTINGS[name].none is not None
            widget.observe(lambda c, name=name, none=none: self.host.controls.run(
                self.set_rule, name, None if none and c["new"] == 0 else c["new"]), "value")  # fmt: skip
        return specs

    def _seat_row(self, seat: int) -> _SeatControls:
        """A seat's row, wired to its twins; :meth:`_draw_seat` fills it."""
        run = self.host.controls.run
        looks = self.looks
        who = "You" if seat == YOU else f"Seat {seat}"
        name = w.Text(description=who, layout=looks.seat[0], style=looks.text)
        # each dropdown names what it sets, so a screen reader (and a phone, where the row wraps) can tell them apart
        colour = w.Dropdown(description="Colour", style=looks.wide, layout=looks.seat[1])
        level = w.Dropdown(options=list(LEVELS), description="Level", style=looks.wide, layout=looks.seat[2])
        style = w.Dropdown(options=list(STYLES), description="Style", style=looks.wide, layout=looks.seat[3])
        for control in (name, colour, level, style):
            self.host.controls.guard(control)
        name.observe(lambda c: run(self.set_name, seat, c["new"]), "value")
        colour.observe(lambda c: run(self.set_colour, seat, c["new"]), "value")
        level.observe(lambda c: run(self.set_level, seat, c["new"]), "value")
        style.observe(lambda c: run(self.set_style, seat, c["new"]), "value")
        swatch = w.HTML(**looks.html)
        return _SeatControls(swatch, name, colour, level, style, looks.row([swatch, name, colour, level, style]))

    def _draw_seat(self, seat: int) -> None:
        """Redraw a seat's row from the setup: its name, the colours no other seat has, its Level and Style."""
        s, row = self.setup.seats[seat], self._seats[seat]
        taken = {x.colour for i, x in enumerate(self.setup.seats) if i != seat}
        colours = [c for c in COLOURS if c not in taken]
        if list(row.colour.options) != colours:
            row.colour.options = colours
        row.name.value, row.colour.value, row.level.value, row.style.value = s.name, s.colour, s.level, s.style
        row.swatch.value = (f'<span style="display:inline-block;width:14px;height:14px;border-radius:50%;'
                            f'background:{COLOURS[s.colour]}"></span>')  # fmt: skip

    def _deal_from_form(self) -> None:
        text = self.seed.value.strip()
        if text and not text.isdigit():
            self.host.deal_code(text)  # refused with the reason when it is no deal code for this setup
            return
        if len(text.lstrip("0")) > len(str(INT_LIMIT)):  # no seed is that long, and past 4300 digits int() fails
            raise seed_too_large()
        self.host.deal(int(text) if text else None)

    # -- drawing ------------------------------------------------------------------------------------------

    def refresh_setup(self, rebuild: bool = False) -> None:
        """Redraw the setup form from the app's setup, then the whole app."""
        with self.host.controls.quiet():
            count = len(self.setup.seats)
            if rebuild or len(self.seat_rows.children) != count:
                # a seat's row is made once and redrawn after: a new learner, preset or colour opens no new widgets
                self._seats += [self._seat_row(i) for i in range(len(self._seats), count)]
                for i in range(count):
                    self._draw_seat(i)
                self.seat_rows.children = [row.row for row in self._seats[:count]]
            rules = self.setup.rules
            seats = [n for n in SETTINGS["players"].values if not rules.clear4 or n <= CLEAR4_MAX_PLAYERS]
            if list(self.players.options) != seats:
                self.players.options = seats
            self.players.value = rules.players
            preset = rules.preset
            options = list(PRESETS) + (["Custom"] if preset == "Custom" else [])
            if list(self.preset.options) != options:
                self.preset.options = options
            self.preset.value = preset
            for name, widget in self.rule_widgets.items():
                value = getattr(rules, name)
                widget.value = 0 if value is None else value
                # Clear 4 has only its seats and rounds (R22): its other settings are not offered
                shown = not rules.clear4 or name in CLEAR4_SETTINGS
                widget.layout.display = "" if shown else "none"
                widget.disabled = not shown
            self.clear4_note.layout.display = "" if rules.clear4 else "none"
        self.host.refresh()

    def draw(self, shown: bool) -> None:
        """The setup screen's place and its display settings, from the app's setup."""
        setup = self.setup
        self.box.layout.display = "" if shown else "none"
        self.coach_pick.value = setup.coach
        self.coach_about.value = f"<i>{escape(COACHES[setup.coach])}</i>"
        self.coaching.value = setup.coaching
        self.pile_counts.value = setup.pile_counts
        self.dim.value = setup.dim
        self.pacing.value = setup.pacing
        self.automate.value = setup.automate
        self.reset_ask.layout.display = "" if self.asking else "none"
