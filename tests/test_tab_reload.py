"""A reload of the browser tab that plays a game: its *Continue* is offered plainly, as this tab's own; a game open
in another tab says so; no kernel is ever named to the learner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

from cut_tutor.widgets import GameApp
from cut_tutor.widgets.saving import kernel_id
from cut_tutor.widgets.table import IntentError, parse_intent


def _page(home: Path, tab: str) -> GameApp:
    """A new kernel drawing the browser tab ``tab`` of the learner ``ann`` (Voilà starts one per page load)."""
    app = GameApp(home)
    assert app.table.receive({"type": "ready", "learner": "ann", "tab": tab})
    return app


def _uid(app: GameApp) -> str:
    assert app.game is not None
    return app.game.uid


def _offer_text(app: GameApp) -> str:
    rows = app.resume_box.children[1:-1]
    return " ".join(str(getattr(widget, "value", "")) for row in rows for widget in row.children)


def test_a_reload_of_the_same_tab_offers_its_game_plainly(tmp_path: Path) -> None:
    before = _page(tmp_path, "tab-1")
    before.deal(seed=4)  # the old kernel still holds the game, its heartbeat fresh
    claim = json.loads(before.save_path.with_suffix(".claim").read_text())
    assert claim["holder"] == before.tab and claim["holder"].startswith("tab-1/")
    reloaded = _page(tmp_path, "tab-1")
    assert reloaded.resume_label is not None and reloaded.saved.waiting[0].elsewhere, "held by the old kernel"
    text = _offer_text(reloaded)
    assert "another tab" not in text and "kernel" not in text and kernel_id() not in text
    reloaded.continue_game()
    assert reloaded.game is not None and reloaded.game.uid == _uid(before)


def test_a_game_open_in_another_tab_says_so_without_naming_a_kernel(tmp_path: Path) -> None:
    _page(tmp_path, "tab-1").deal(seed=4)
    for other in (_page(tmp_path, "tab-2"), GameApp(tmp_path / "learners" / "ann")):  # a tab, a notebook's app
        text = _offer_text(other)
        assert "Open in another tab" in text
        assert "kernel" not in text and "process" not in text and kernel_id() not in text


def test_the_tab_is_named_before_a_game_only(tmp_path: Path) -> None:
    """A game's claim keeps the holder it was made with: a page drawn again over a game in play changes nothing."""
    app = _page(tmp_path, "tab-1")
    app.deal(seed=4)
    holder = app.tab
    assert app.table.receive({"type": "ready", "learner": "ann", "tab": "tab-9"})
    assert app.tab == holder and app.page == "tab-1"
    with pytest.raises(IntentError, match="browser tab"):
        GameApp(tmp_path).set_page("../x")


@pytest.mark.parametrize("tab", [7, "", "x" * 500, ["t"]])
def test_a_ready_message_with_a_bad_tab_is_refused(tab: object) -> None:
    with pytest.raises(IntentError, match="'tab'"):
        parse_intent({"type": "ready", "tab": tab})
    assert parse_intent({"type": "ready", "tab": "t1"}) == ("ready", (None, "t1"))


def test_the_table_drawn_again_on_the_same_page_keeps_its_screen(tmp_path: Path) -> None:
    """The game picker shows the table again (the page says it is ready once more): a setup screen chosen past the
    offer stays; a page loaded anew is offered the saved games."""
    _page(tmp_path, "tab-1").deal(seed=4)
    app = _page(tmp_path, "tab-2")
    assert app.resume_label is not None
    app.start_new()
    assert app.table.receive({"type": "ready", "learner": "ann", "tab": "tab-2"})
    assert app.resume_label is None, "the setup screen stays"
    assert _page(tmp_path, "tab-2").resume_label is not None, "a new page load is offered the game"
