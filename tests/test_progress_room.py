"""The drills room's *Progress* section through GameApp's twins: a reviewed hand is kept in the learner's drills
file with its mistakes' kinds and shows at once as the plot, the table and the CSV download; the same hand reviewed
again is still one row, and another learner's progress is their own."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from test_review_room import SEED, small_app, worst

from cut_tutor.review import Drills
from cut_tutor.review.drills import DRILLS_FILE
from cut_tutor.review.words import PROGRESS_DOWNLOAD, PROGRESS_SECTION
from cut_tutor.widgets.review_room import ReviewRoom


def test_a_reviewed_hand_shows_in_progress_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ReviewRoom, "automatic", True)
    app = small_app(tmp_path)
    app.set_learner("ana")
    room = app.drills_room
    assert room.progress_section.titles == (PROGRESS_SECTION,)
    assert room.progress_panel.frame.empty and room.progress_panel.link.value == ""
    app.deal(seed=SEED)
    while not app.state.over:  # type: ignore[union-attr]
        app.play(worst(app))
    hand = app.review_hand(wait=True)
    assert hand is not None and hand.mistakes()
    panel = room.progress_panel
    assert len(panel.frame) == 1 and panel.frame["accuracy"][0] == hand.summary.accuracy
    assert panel.frame["hand"][0] == 1 and panel.frame["game"][0] == app.game.uid  # type: ignore[union-attr]
    kinds = sum(int(panel.frame[c][0]) for c in panel.frame.columns if c.startswith("kind_"))
    assert kinds == len(hand.mistakes())
    assert 'download="cut-progress-ana.csv"' in panel.link.value and PROGRESS_DOWNLOAD in panel.link.value
    assert 'role="img" aria-label="Accuracy and points lost over 1 reviewed hand' in panel.plot.value
    assert "currentColor" in panel.plot.value  # drawn in the theme's text colour, light or dark
    # the same hand reviewed again (a new session of the same learner): still one row
    app.review.reviews.clear()
    app.review_hand(wait=True)
    assert len(Drills(tmp_path / "learners" / "ana" / DRILLS_FILE).reviewed()) == 1 and len(panel.frame) == 1
    # another learner on the same server starts with no progress
    other = small_app(tmp_path)
    other.set_learner("ben")
    other.refresh()
    assert other.drills_room.progress_panel.frame.empty
