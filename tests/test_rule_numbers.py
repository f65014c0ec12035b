"""The project stands alone: every rule number its code, tests and notebooks cite is defined in the guide.

The guide defines a number where a heading or a bold run-in title carries it in parentheses — ``### Taking the
pile (R11)``, ``**Decks (R1).**`` — on How to play (R1–R22), Optional rules, The coach (C1–C9), Saving, or
Card Clear (K1–K18 for its rules, H1–H8 for its Hint).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "guide" / "docs"
#: Where rule numbers are cited: the package, the tests, the notebooks and the README.
CITING = [ROOT / "cut_tutor", ROOT / "tests", ROOT / "notebooks", ROOT / "README.md"]
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".js", ".css", ".json", ".txt", ".toml", ".yml", ".yaml"}
NUMBER = re.compile(r"\b[RCKH]\d{1,2}\b")
#: A parenthesised list of numbers, ``(R7)`` or ``(R1, R5)``, ending a title.
TITLE_NUMBERS = re.compile(r"\(((?:[RCKH]\d{1,2}, )*[RCKH]\d{1,2})\)")
TITLES = re.compile(r"^#{1,6} (.+)$|\*\*([^*]+)\*\*", re.MULTILINE)


def defined_numbers() -> dict[str, str]:
    """Rule number → the guide page that defines it."""
    defined: dict[str, str] = {}
    for page in sorted(DOCS.glob("*.md")):
        for title in TITLES.finditer(page.read_text(encoding="utf-8")):
            for group in TITLE_NUMBERS.findall(title.group(1) or title.group(2)):
                for number in group.split(", "):
                    defined.setdefault(number, page.name)
    return defined


def citing_files() -> list[Path]:
    files = []
    for place in CITING:
        candidates = [place] if place.is_file() else sorted(place.rglob("*"))
        files += [
            path
            for path in candidates
            if path.is_file()
            and path.suffix in TEXT_SUFFIXES
            and not {"__pycache__", ".ipynb_checkpoints"} & set(path.parts)
        ]
    return files


def cited_numbers() -> dict[str, list[str]]:
    """Rule number → the files (relative to the repository) that cite it."""
    cited: dict[str, list[str]] = {}
    for path in citing_files():
        numbers: set[str] = set(NUMBER.findall(path.read_text(encoding="utf-8", errors="replace")))
        for number in sorted(numbers):
            cited.setdefault(number, []).append(str(path.relative_to(ROOT)))
    return cited


def rule_order(number: str) -> tuple[str, int]:
    return number[0], int(number[1:])


def test_the_guide_defines_every_rule_and_coach_number() -> None:
    expected = {f"R{i}" for i in range(1, 23)} | {f"C{i}" for i in range(1, 10)}
    expected |= {f"K{i}" for i in range(1, 19)} | {f"H{i}" for i in range(1, 9)}
    defined = defined_numbers()
    assert set(defined) == expected, (
        f"missing {sorted(expected - set(defined))}, extra {sorted(set(defined) - expected)}"
    )


def test_the_scan_finds_citations() -> None:
    """The scan reads the files that cite rules: this file's own module docstring names R11 and R1."""
    cited = cited_numbers()
    assert "tests/test_rule_numbers.py" in cited["R11"] and "tests/test_rules.py" in cited["R10"]


CITED: list[str] = sorted(cited_numbers(), key=rule_order)


@pytest.mark.parametrize("number", CITED)
def test_every_cited_number_is_defined_in_the_guide(number: str) -> None:
    files = cited_numbers()[number]
    assert number in defined_numbers(), f"{number} is cited in {', '.join(files[:5])} but no guide page defines it"


def test_no_citation_points_outside_the_project() -> None:
    """Rules are cited by their guide page, never by a rules file that the project does not ship."""
    outside = [str(p.relative_to(ROOT)) for p in citing_files() if "RULES" + ".md" in p.read_text(errors="replace")]
    assert not outside, f"these files cite a rules file the project does not ship: {outside}"
