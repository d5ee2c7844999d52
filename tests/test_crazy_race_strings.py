"""Both Crazy Races' French: typography (a narrow no-break space before : ; ? ! and inside « »)."""

from __future__ import annotations

import re

import pytest

from companion.core import registry
from companion.i18n import translator
from companion.locale.update import domains, load

GAMES = ("schacht", "gewalt")
SPACES = "\u202f\u00a0"  # narrow no-break space, or a no-break space
FIELD = re.compile(r"\{[^{}]*\}")  # {name} or {value:>3}: a format field, not text
URL = re.compile(r"\w+://\S+")


def slips(text: str) -> list[str]:
    """Each place in `text` where French punctuation lacks its no-break space, shown in context."""
    prose = URL.sub("", FIELD.sub("x", text))
    found = []
    for match in re.finditer(r"[:;?!»]|«", prose):
        at, mark = match.start(), match.group()
        spaced = (at + 1 < len(prose) and prose[at + 1] in SPACES) if mark == "«" else (
            at > 0 and prose[at - 1] in SPACES)
        if not spaced:
            found.append(prose[max(0, at - 12):at + 12])
    return found


def test_the_check_finds_a_slip_and_spares_fields_and_links():
    assert slips("Plaque tournante: 5") == ["ue tournante: 5"]
    assert slips("Au tour de : {player}") == ["Au tour de : x"]
    assert slips("« ROLL »") and not slips("«\u202fROLL\u202f»")
    assert not slips("Tour {n:>3}\u202f! voir https://example.org/a?b=1")


@pytest.mark.parametrize("game", GAMES)
def test_every_french_string_spaces_its_punctuation(game):
    catalog = load("fr", next(d for d in domains() if d.name == game))
    wrong = {m.id: slips(m.string) for m in catalog if m.id and m.string and slips(m.string)}
    assert not wrong, f"{game}: put U+202F before : ; ? ! and inside « »: {wrong}"


def test_the_stage_end_and_the_piles_read_naturally():
    fr, en = translator("fr", registry.get("schacht")), translator("en", registry.get("schacht"))
    review = "Stage over: turn up the next stage card."
    assert fr(review) == "Étape terminée\u202f: retournez la carte Étape suivante." and en(review) == review
    pile = fr("{pile}: {top} ({left})", pile=fr("Turntable"), top=5, left="4")
    assert pile == "Plaque tournante\u202f: 5 (4)"
