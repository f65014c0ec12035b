"""The player's guide: a glossary entry for every setting, a clean build, and no dead help links."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

import cut_tutor
from cut_tutor.engine.rules import Rules
from cut_tutor.guide_links import GUIDE_LINKS, RULES_FIELDS, SETTINGS, guide_url

GUIDE = Path(__file__).resolve().parent.parent / "guide"
GLOSSARY = GUIDE / "docs" / "glossary.md"

#: Settings the app offers outside ``Rules``: per-seat, coach, display and pacing settings, and the preset.
APP_SETTINGS = (
    "Level", "Style", "Coach style", "Pile Counts", "Global Setting Set (preset)", "Pause between Players",
    "Dim non-playable Cards", "Automate Player", "Coaching", "View", "Seed",
)  # fmt: skip

#: Setup-screen labels that name their glossary entry differently.
LABELS = {"Coach": "Coach style", "Preset": "Global Setting Set (preset)", "Clear card": "Clear card rank",
          "AI pacing": "Pause between Players", "Ask from (points)": "Tutor mode"}  # fmt: skip


def glossary_headings() -> dict[str, str]:
    """Heading text → anchor id of every ``##`` entry in the glossary source."""
    entries = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"## (.+?)\s*\{#([\w-]+)\}\s*", line)
        if match:
            entries[match.group(1)] = match.group(2)
    return entries


def player_settable_fields() -> list[str]:
    """Every ``Rules`` field a player can set: the ones its JSON form carries (``stacks`` is fixed at 4)."""
    carried = set(Rules().to_dict())
    return [f.name for f in dataclasses.fields(Rules) if f.name in carried]


class TestGlossaryCompleteness:
    def test_every_rules_field_is_mapped_to_a_setting(self) -> None:
        missing = [name for name in player_settable_fields() if name not in RULES_FIELDS]
        assert not missing, f"Rules fields with no glossary heading in guide_links.RULES_FIELDS: {missing}"

    @pytest.mark.parametrize("field", player_settable_fields())
    def test_rules_field_has_an_entry(self, field: str) -> None:
        heading = RULES_FIELDS.get(field)
        assert heading is not None, f"Rules.{field} is not mapped in guide_links.RULES_FIELDS"
        assert heading in glossary_headings(), f"glossary.md has no entry '## {heading}' for Rules.{field}"

    @pytest.mark.parametrize("setting", APP_SETTINGS)
    def test_app_setting_has_an_entry(self, setting: str) -> None:
        assert setting in glossary_headings(), f"glossary.md has no entry '## {setting}'"
        assert setting in SETTINGS, f"guide_links.SETTINGS has no link for {setting!r}"

    def test_every_control_on_the_setup_screen_has_an_entry(self, tmp_path: Path) -> None:
        """Read the settings from the app itself, so a control added without an entry fails here."""
        import ipywidgets as w

        from cut_tutor.widgets import GameApp

        app = GameApp(tmp_path)

        def controls(widget: w.Widget) -> list[str]:
            if widget is app.seat_rows:  # per seat: a name, a colour, a Level and a Style (entries listed above)
                return []
            found = [widget.description] if isinstance(widget, w.ValueWidget) and widget.description else []
            for child in getattr(widget, "children", ()):
                found += controls(child)
            return found

        labels = controls(app.setup_box)
        assert {"Players", "Risk Play", "View", "Seed", "Coach"} <= set(labels)
        headings = glossary_headings()
        missing = [label for label in labels if LABELS.get(label, label) not in headings]
        assert not missing, f"setup controls with no glossary entry: {missing}"

    def test_links_match_the_glossary_anchors(self) -> None:
        headings = glossary_headings()
        for name, anchor in SETTINGS.items():
            assert headings.get(name) == anchor, f"{name!r}: glossary anchor {headings.get(name)!r}, link {anchor!r}"

    def test_a_missing_entry_is_caught(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The check can fail: drop one entry from a copy of the glossary and it is reported."""
        text = GLOSSARY.read_text(encoding="utf-8").replace("## Risk Play {#risk-play}", "## Something else")
        copy = tmp_path / "glossary.md"
        copy.write_text(text, encoding="utf-8")
        monkeypatch.setattr(sys.modules[__name__], "GLOSSARY", copy)
        assert "Risk Play" not in glossary_headings()

    def test_guide_url_accepts_names_fields_and_topics(self) -> None:
        assert guide_url("Risk Play") == guide_url("risk_play") == guide_url("risk play") == "glossary.html#risk-play"
        assert guide_url("saving", base="guide/") == "guide/saving.html"
        with pytest.raises(KeyError, match="no page"):
            guide_url("nonsense")


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for key, value in attrs if key == "id" and value)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The guide built with ``mkdocs build --strict`` into a temporary folder."""
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    if mkdocs is None:
        pytest.skip("mkdocs is not installed (the docs extra)")
    out = tmp_path_factory.mktemp("guide") / "site"
    result = subprocess.run(
        [mkdocs, "build", "--strict", "--config-file", str(GUIDE / "mkdocs.yml"), "--site-dir", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert not warnings, "\n".join(warnings)
    return out


class TestBuiltSite:
    def test_builds_with_search_and_print_css(self, site: Path) -> None:
        assert (site / "search" / "search_index.json").exists()
        css = (site / "css" / "print.css").read_text(encoding="utf-8")
        assert "@page" in css and 'counter(page) " of " counter(pages)' in css
        # the running header names the package's version (guide/hooks.py), the one number a printout can be matched by
        assert f"CUT — Player's Guide v{cut_tutor.__version__}" in css and "{version}" not in css

    @pytest.mark.parametrize("topic", sorted(GUIDE_LINKS))
    def test_link_target_exists(self, site: Path, topic: str) -> None:
        page, _, anchor = GUIDE_LINKS[topic].partition("#")
        path = site / page
        assert path.exists(), f"{topic!r} links to {page}, which the build did not produce"
        if anchor:
            parser = _Ids()
            parser.feed(path.read_text(encoding="utf-8"))
            assert anchor in parser.ids, f"{topic!r} links to {page}#{anchor}, which has no such id"


class TestSimulationHonesty:
    """C8: the coach page's figures for the styles are the ones ``benchmarks/report_ladder.py`` measured last."""

    LADDER = GUIDE.parent / "benchmarks" / "results" / "ladder.md"

    def profiles(self, heading: str) -> dict[str, list[float]]:
        """Per Expert style, the row of the style profile table under ``heading``: mean points, go-out rate,
        points on hands lost, spread, …"""
        section = self.LADDER.read_text(encoding="utf-8").split(f"## {heading}", 1)[1].split("## ", 1)[0]
        rows = re.findall(r"^\s*\d+\s+Expert:(\w+)\s+([\d.\s]+)$", section, flags=re.MULTILINE)
        return {style: [float(x) for x in numbers.split()] for style, numbers in rows}

    def test_the_coach_page_gives_the_measured_figures(self) -> None:
        page = " ".join((GUIDE / "docs" / "coach.md").read_text(encoding="utf-8").split())
        text = page[page.index("Simulation honesty (C8)") : page.index("## Playing the line")]
        usa, variants = self.profiles("Style profiles ("), self.profiles("Style profiles with Risk Play")
        rock, balanced, gambler = (usa[s] for s in ("Rock", "Balanced", "Gambler"))
        expected = [
            f"{rock[0]:.1f} and {balanced[0]:.1f} points a hand",
            f"({round(100 * balanced[1])}% of hands)",
            f"Marty scores {gambler[0]:.1f} and goes out in {round(100 * gambler[1])}%",
            f"{rock[2]:.1f} points, against {balanced[2]:.1f} for Madonna and {gambler[2]:.1f} for Marty",
            f"{rock[3]:.1f} (Daryl), {balanced[3]:.1f} (Madonna) and {gambler[3]:.1f} (Marty)",
            f"widest of the three ({variants['Gambler'][3]:.1f}, against {variants['Balanced'][3]:.1f} and"
            f" {variants['Rock'][3]:.1f})",
            f"at {variants['Rock'][0]:.1f} points a hand against Madonna's {variants['Balanced'][0]:.1f}",
        ]
        assert [claim for claim in expected if claim not in text] == []
        assert round(100 * rock[1]) == round(100 * balanced[1])  # "go out as often"
        assert rock[2] < balanced[2] < gambler[2] and max(rock[3], balanced[3]) > gambler[3]  # the claims that fail
        assert variants["Gambler"][3] == max(v[3] for v in variants.values())
