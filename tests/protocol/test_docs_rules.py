"""The rules of record live in the repository: docs/protocol.md and docs/rules/*.md stand alone,
and every named test position they give (A-T1, B-T2, S-T1, ...) is pinned by a test. The names
the rules of record define are kept in tests/fixtures/rules-test-positions.txt: no test reads a
file outside the repository."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexarena.engine import registry

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "docs" / "protocol.md", ROOT / "docs" / "rules.md", *sorted((ROOT / "docs" / "rules").glob("*.md"))]
#: The test positions the rules of record define, one name a line.
DEFINED = ROOT / "tests" / "fixtures" / "rules-test-positions.txt"
#: The letter of each game's test positions.
LETTER = {"anda": "A", "anda-prison": "B", "spelde": "S", "vaxandis": "V", "marbanta": "M"}
NAME = re.compile(r"\b([ABSVM])-T(\d+)\b")


def _names(text: str) -> set[str]:
    return {f"{m.group(1)}-T{m.group(2)}" for m in NAME.finditer(text)}


def _docs_names() -> set[str]:
    return set().union(*(_names(p.read_text()) for p in DOCS))


def _test_sources() -> str:
    here = Path(__file__).resolve()
    return "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py") if p != here)


def test_every_game_has_a_rules_page() -> None:
    assert {p.stem for p in (ROOT / "docs" / "rules").glob("*.md")} == set(registry.GAME_MODULES)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_do_not_point_outside_the_repository(doc: Path) -> None:
    text = doc.read_text()
    assert "../shared" not in text and "shared/" not in text, doc


@pytest.mark.parametrize("game", sorted(LETTER))
def test_each_rules_page_names_its_test_positions(game: str) -> None:
    names = _names((ROOT / "docs" / "rules" / f"{game}.md").read_text())
    assert names, f"docs/rules/{game}.md names no test position"
    assert {n[0] for n in names} == {LETTER[game]}, names


def test_every_test_position_named_in_the_docs_is_in_the_test_suite() -> None:
    sources = _test_sources()
    missing = []
    for name in sorted(_docs_names()):
        letter, number = name.split("-T")
        spelled = re.compile(rf"(?<![A-Za-z0-9]){letter}[-_]T{number}(?![0-9])", re.I)
        if not spelled.search(sources):
            missing.append(name)
    assert not missing, f"named in the docs, in no test under tests/: {missing}"


def test_the_docs_name_every_test_position_of_the_rules() -> None:
    lines = DEFINED.read_text(encoding="utf-8").splitlines()
    expected = {line.strip() for line in lines if line.strip() and not line.startswith("#")}
    assert expected and all(NAME.fullmatch(name) for name in expected), expected
    documented = _docs_names()
    assert expected <= documented, f"defined by the rules of record, missing from docs/: {sorted(expected - documented)}"
