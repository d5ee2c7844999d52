"""Schacht's Crazy Race in French: the stage end and the piles read naturally (every catalog's typography is
checked in test_i18n.py)."""

from __future__ import annotations

from companion.core import registry
from companion.i18n import translator


def test_the_stage_end_and_the_piles_read_naturally():
    fr, en = translator("fr", registry.get("schacht")), translator("en", registry.get("schacht"))
    review = "Stage over: turn up the next stage card."
    assert fr(review) == "Étape terminée\u202f: retournez la carte Étape suivante." and en(review) == review
    pile = fr("{pile}: {top} ({left})", pile=fr("Turntable"), top=5, left="4")
    assert pile == "Plaque tournante\u202f: 5 (4)"
