"""The catalogs: every string the code and templates use is translated to French and compiled.

The msgids are read from the code at test time (Babel's extractor), never listed here: a new
player-facing string without a translation fails until `python -m companion.locale.update` is run
and the French filled in.
"""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st
from typography import slips

from companion.core import registry
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, pick_language, plural_translator, translator
from companion.locale.update import PLATFORM, ROOT, TRANSLATED, compiled, domains, extract, load

FIX = "run `python -m companion.locale.update` and fill in the French"
DOMAINS = {domain.name: domain for domain in domains()}
CATALOGS = [(name, lang) for name in DOMAINS for lang in TRANSLATED]


@pytest.fixture(scope="module")
def used() -> dict[str, dict[str, object]]:
    """Per domain (the platform's, each game's): msgid -> message, for every msgid its code uses."""
    return {name: {m.id: m for m in extract(domain) if m.id} for name, domain in DOMAINS.items()}


def fields(text: str | tuple[str, ...]) -> set[str]:
    """The `{name}` fields of a format string ('{{' is a literal brace, not a field); of a plural, its
    forms' (every form says the count)."""
    if not isinstance(text, str):
        return set().union(*map(fields, text))
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def same_fields(msgid, msgstr) -> bool:
    """Whether a translation fills the fields its msgid has: each form of a plural, those of either msgid
    form ({n} may be left out of the form for one)."""
    if isinstance(msgid, str):
        return fields(msgid) == fields(msgstr)
    known = fields(msgid[0]) | fields(msgid[1])
    return all(fields(form) <= known and fields(form) >= known - {"n"} for form in msgstr)


def test_every_bundled_game_has_a_catalog_of_its_own():
    assert {"messages", "dice", "schacht", "gewalt"} <= set(DOMAINS)


def test_extraction_finds_the_core_strings(used):
    # Guards the guard: if extraction silently found nothing, every other test here would pass.
    assert {"Nothing to undo.", "Join the table", "Unknown command {kind}: send one of {kinds}."} <= set(
        used["messages"])
    assert {"Free dice", "{who} rolled the dice"} <= set(used["dice"])
    assert "Free dice" not in used["messages"], "a game's strings are its own, not the platform's"


@pytest.mark.parametrize(("name", "lang"), CATALOGS)
def test_every_used_msgid_is_translated(used, name, lang):
    domain = DOMAINS[name]
    po = load(lang, domain)
    missing = sorted(msgid for msgid in used[name] if msgid not in po)
    empty = sorted(msgid for msgid in used[name] if msgid in po and not po[msgid].string)
    assert not missing, f"{domain.po_path(lang)} lacks {missing}: {FIX}"
    assert not empty, f"{domain.po_path(lang)} has no translation for {empty}: {FIX}"


@pytest.mark.parametrize(("name", "lang"), CATALOGS)
def test_the_catalog_holds_no_stale_or_fuzzy_entries(used, name, lang):
    domain = DOMAINS[name]
    po = load(lang, domain)
    stale = sorted(m.id for m in po if m.id and m.id not in used[name])
    fuzzy = sorted(m.id for m in po if m.id and m.fuzzy)
    assert not stale, f"{domain.po_path(lang)} still holds msgids the code no longer uses: {stale}; {FIX}"
    assert not fuzzy, f"{domain.po_path(lang)} has fuzzy entries, which the .mo leaves out: {fuzzy}"


@pytest.mark.parametrize(("name", "lang"), CATALOGS)
def test_placeholders_of_each_translation_match_its_msgid(name, lang):
    po = load(lang, DOMAINS[name])
    wrong = [(m.id, m.string) for m in po if m.id and m.string and not same_fields(m.id, m.string)]
    assert not wrong, f"{DOMAINS[name].po_path(lang)}: placeholders differ between msgid and msgstr: {wrong}"


# The French every author starts from or copies: the new-game template's and the test games' catalogs.
MODEL_CATALOGS = sorted((ROOT / "companion" / "scaffold").rglob("*.po.tmpl")) + sorted(
    (ROOT / "tests").rglob("*.po"))


def catalog_slips(po) -> dict[str, list[str]]:
    """Each French translation in `po` whose typography slips, with where: every form of a plural."""
    return {str(m.id): found for m in po if m.id
            for found in [sum((slips(form) for form in as_tuple(m.string) if form), [])] if found}


def test_the_typography_check_finds_a_slip_and_spares_fields_and_links():
    """Guards the guard: a plain space before a colon, a bare « », a straight apostrophe are found."""
    assert slips("Plaque tournante: 5") == ["ue tournante: 5"]
    assert slips("Au tour de : {player}") == ["Au tour de : x"]
    assert slips("« ROLL »") and not slips("«\u202fROLL\u202f»")
    assert slips("Page de l'hôte") == ["Page de l'hôte"] and not slips("Page de l’hôte")
    assert not slips("Tour {n:>3}\u202f! voir https://example.org/a?b=1")


@pytest.mark.parametrize(("name", "lang"), CATALOGS)
def test_every_french_string_follows_french_typography(name, lang):
    """Issue 31: straight apostrophes beside typographic ones, plain spaces before a colon."""
    wrong = catalog_slips(load(lang, DOMAINS[name]))
    assert not wrong, (f"{DOMAINS[name].po_path(lang)}: write ’ for an apostrophe, and U+202F before : ; ? ! "
                       f"» and after «: {wrong}")


def model_catalog(path: Path):
    """A model catalog as its author gets it (the new-game template's fields filled)."""
    text = string.Template(path.read_text(encoding="utf-8")).safe_substitute(title="T", title_fr="T",
                                                                           name="t")
    return read_po(io.BytesIO(text.encode()), locale="fr")


@pytest.mark.parametrize("path", MODEL_CATALOGS, ids=lambda path: path.name)
def test_the_model_catalogs_follow_french_typography(path: Path):
    wrong = catalog_slips(model_catalog(path))
    assert not wrong, f"{path}: write ’ for an apostrophe, and U+202F before : ; ? ! » and after «: {wrong}"


def test_a_game_that_ends_is_terminee_in_every_catalog():
    """Issue 31: a new game said "Partie finie", the others "Partie terminée": one term, everywhere."""
    every = [load(lang, domain) for name, lang in CATALOGS for domain in [DOMAINS[name]]]
    every += [model_catalog(path) for path in MODEL_CATALOGS]
    finie = [form for po in every for m in po if m.id for form in as_tuple(m.string)
             if re.search(r"\bfinies?\b", form)]
    assert not finie, f"say « terminée » of a game, a race or a stage that is over: {finie}"


def as_tuple(text: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return (text,) if isinstance(text, str) else tuple(text)


def served(mo: bytes) -> dict[str, object]:
    """What a player gets from a compiled catalog: every message with each of its plural forms, and the
    header fields that change the text (the plural rule and the charset). The header's other lines (the
    tool's version, dates) change nothing a player sees, so a new Babel never fails this."""
    read = read_mo(io.BytesIO(mo))
    return {"messages": {(m.context, *as_tuple(m.id)): as_tuple(m.string) for m in read if m.id},
            "plural forms": read.plural_forms, "charset": read.charset}


@pytest.mark.parametrize(("name", "lang"), CATALOGS)
def test_the_committed_mo_is_compiled_from_the_po(name, lang):
    mo = DOMAINS[name].po_path(lang).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: {FIX}"
    assert served(mo.read_bytes()) == served(compiled(load(lang, DOMAINS[name]))), (
        f"{mo} is older than its .po: {FIX}")


def test_the_mo_check_ignores_the_tool_line_and_sees_every_message():
    """Guards the guard: another Babel's header is the same catalog; one changed form is not."""
    po = load("fr")
    mo = compiled(po)
    tool = re.search(rb"Generated-By: Babel [^\n]*", mo).group()
    assert served(mo.replace(tool, b"Generated-By: Babel 99.1.0".ljust(len(tool)))) == served(mo)
    plural = next(m for m in po if m.id and m.pluralizable)
    plural.string = (plural.string[0], plural.string[1] + "!")
    assert served(compiled(po)) != served(mo)
    po.mime_headers = [("Plural-Forms", "nplurals=2; plural=(n != 1);")]
    assert served(compiled(po))["plural forms"] != served(mo)["plural forms"]


def test_counts_take_each_languages_plural_forms():
    """French says "0 tour" and "1 tour", English "0 turns" and "1 turn" (issue 24: "(1 tours)")."""
    fr, en = (translator(lang, registry.get("rallye")).ngettext for lang in ("fr", "en"))
    words = ("{n} turn to sit out", "{n} turns to sit out")
    assert [fr(*words, n) for n in (0, 1, 2)] == ["0 tour à passer", "1 tour à passer", "2 tours à passer"]
    assert [en(*words, n) for n in (0, 1, 2)] == ["0 turns to sit out", "1 turn to sit out",
                                                  "2 turns to sit out"]


def test_translations_are_served_in_french():
    fr = translator("fr")
    assert fr("Roll {n}", n=3) == "Lancer n° 3"
    assert fr("Unknown game {game}.", game="go") == "Jeu inconnu\u202f: go."
    assert translator("fr", registry.get("dice"))("Free dice") == "Dés libres"
    assert fr("Free dice") == "Free dice", "the platform's catalog holds no game's strings"


def test_plurals_follow_each_language_s_own_rule():
    """French counts 0 as one ("0 place prise"), English does not ("0 seats taken")."""
    fr, en = plural_translator("fr"), plural_translator("en")
    taken = ("{n} seat taken", "{n} seats taken")
    assert [fr(*taken, n) for n in (0, 1, 2)] == ["0 place prise", "1 place prise", "2 places prises"]
    assert [en(*taken, n) for n in (0, 1, 2)] == ["0 seats taken", "1 seat taken", "2 seats taken"]
    dice = plural_translator("fr", registry.get("dice"))  # a game's catalog falls back to the platform's
    assert dice(*taken, 3) == "3 places prises"
    assert translator("fr", registry.get("dice")).ngettext(*taken, 0) == "0 place prise"  # an e-ink's `_`


def test_a_games_catalog_falls_back_to_the_platforms():
    dice = translator("fr", registry.get("dice"))
    assert dice("Nothing to undo.") == "Rien à annuler."  # a platform string, read through the game's
    assert dice("{who} rolled the dice", who="Ada") == "Ada a lancé les dés"


def test_english_is_the_msgid_itself():
    en = translator("en")
    assert translator("en", registry.get("dice"))("Free dice") == "Free dice"
    assert en("Roll {n}", n=4) == "Roll 4"


@pytest.mark.parametrize("name", list(DOMAINS))
def test_every_translated_msgid_is_served_from_the_compiled_catalog(used, name):
    fr = catalog("fr", None if DOMAINS[name] is PLATFORM else registry.get(name))
    po = load("fr", DOMAINS[name])
    for msgid in used[name]:
        if msgid in po and po[msgid].string and isinstance(msgid, tuple):  # a plural: French's 1 and 2
            assert [fr.ngettext(*msgid, n) for n in (1, 2)] == list(po[msgid].string)
        elif msgid in po and po[msgid].string:
            assert fr.gettext(msgid) == po[msgid].string


@pytest.mark.parametrize("lang", ["de", "", "FR", "english"])
def test_an_unknown_language_is_refused(lang):
    with pytest.raises(ValueError, match="unknown language"):
        translator(lang)


@pytest.mark.parametrize(("header", "expected"), [
    ("en-GB,en;q=0.9", "en"),
    ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
    ("de-DE,de;q=0.9,en;q=0.5", "en"),
    ("EN-us", "en"),
    ("de-DE", DEFAULT_LANGUAGE),
    ("", DEFAULT_LANGUAGE),
    (None, DEFAULT_LANGUAGE),
])
def test_pick_language_from_accept_language(header, expected):
    assert pick_language(header) == expected


def test_the_default_language_is_french():
    assert DEFAULT_LANGUAGE == "fr"
    assert pick_language("de", default="en") == "en"


@given(st.text())
def test_pick_language_always_names_one_of_ours(header):
    assert pick_language(header) in LANGUAGES
