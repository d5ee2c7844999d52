"""Names a table can tell apart (docs/security.md): every way of passing for another seat's name is
refused through the real server, in the player's language, and changes nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from webfixtures import live_server, post_json, request, running_app

from companion.core import lookalike
from companion.core.seats import Roster
from companion.devices.panels import panel
from companion.gamekit.contract import IllegalMove
from companion.outputs.frames import render, table_info
from companion.storage.store import Store

URL = "http://192.168.1.20:8080/"
ZALGO = "A" + "\u0301" * 21 + "da"


def join(server, runtime, seat: int, name: str, lang: str = "en") -> tuple[int, dict]:
    body = {"code": runtime.table.roster.join_code(), "seat": seat, "name": name}
    status, answer, _ = request(server.port, "POST", "/api/join", {"Accept-Language": lang}, body)
    return status, json.loads(answer)


@pytest.fixture
def table_with_ada(tmp_path):
    with running_app(tmp_path, game="schacht") as (runtime, app), live_server(app) as server:
        assert join(server, runtime, 0, "Ada")[0] == 200
        yield runtime, server


@pytest.mark.parametrize(("name", "said"), [
    ("Ada", "looks like Ada's (Seat\u00a01 · Lilac)"),        # the same name, her seat as the pages show it
    ("ada", "looks like Ada's"),                              # another case
    ("\u0410da", "looks like Ada's"),                         # a Cyrillic А
    ("\uff21\uff44\uff41", "looks like Ada's"),               # full-width letters (NFKC)
    ("Ada\u3164", "U+3164"),                                  # Hangul filler
    ("Ada\u034f", "U+034F"),                                  # combining grapheme joiner
    ("Ada\ufe00", "U+FE00"),                                  # variation selector after a letter
    ("\u3164\u3164\u3164", "U+3164"),                         # a name of fillers only
    ("\u2800\u2800", "U+2800"),                               # a name of braille blanks only
    ("\u115f\u1160Bo", "U+115F"),                             # Hangul choseong and jungseong fillers
    ("Bo\uffa0", "U+FFA0"),                                   # half-width Hangul filler
    (ZALGO, "at most 3 accents or marks on one letter"),      # 21 stacked marks
    ("Ada\ufffc", "does not draw (here U+FFFC)"),              # object replacement: drawn as nothing
    ("\ufffc", "U+FFFC"),                                     # a name of it alone: a blank name
    ("Ada\ufff0", "U+FFF0"),                                  # the Specials block
    ("Ada\ufffd", "U+FFFD"),                                  # the replacement character
    ("Ada\ue000", "U+E000"),                                  # private use
    ("Ada\U000f0000", "U+F0000"),                             # supplementary private use
    ("Ada\u0378", "U+0378"),                                  # unassigned
    ("Ada\U000e0001", "U+E0001"),                             # a language tag (format, invisible)
])
def test_a_name_that_could_pass_for_another_or_for_nothing_is_refused(table_with_ada, name, said):
    runtime, server = table_with_ada
    status, answer = join(server, runtime, 1, name)
    assert status == 409 and said in answer["error"], answer
    assert runtime.table.roster.name(1) == "" and runtime.table.roster.token(1) is None


def test_a_name_the_glass_would_cut_to_another_seats_is_refused_one_that_ends_apart_is_kept(table_with_ada):
    """The glass cuts a long name to its first and last letters beside a name that begins alike: two
    that differ only in the middle would read the same, two that differ at the end do not."""
    runtime, server = table_with_ada
    assert join(server, runtime, 1, "Christopher Robinson")[0] == 200
    status, answer = join(server, runtime, 2, "Christophor Robinson")
    assert status == 409 and answer["error"] == (
        "Shortened on the table's screen, this name reads Chris…son, as Christopher Robinson's "
        "(Seat\u00a02 · Orange) does: choose one that differs in its first or last letters."), answer
    assert runtime.table.roster.name(2) == ""
    status, answer = join(server, runtime, 2, "Christophor Robinson", lang="fr")
    assert status == 409 and answer["error"].startswith("Raccourci sur l’écran de la table, ce nom se lit "
                                                        "Chris…son"), answer
    assert join(server, runtime, 2, "Christopher Robinsons")[0] == 200


def test_the_refusal_says_whose_name_it_looks_like_in_french(table_with_ada):
    runtime, server = table_with_ada
    status, answer = join(server, runtime, 1, "\u0410da", lang="fr")
    assert status == 409
    assert answer["error"] == ("Ce nom ressemble trop à Ada (Place\u00a01 · Lilas)\u202f: "
                               "choisissez-en un autre.")


def test_the_host_cannot_give_a_seat_a_name_like_another(table_with_ada):
    runtime, server = table_with_ada
    host = {"X-Host-Token": runtime.table.host_token(), "Accept-Language": "en"}
    status, answer = post_json(server.port, "/api/seats/2/assign", {"name": "Ada\u034f"}, host)
    assert status == 409 and "U+034F" in answer["error"]
    status, answer = post_json(server.port, "/api/seats/2/assign", {"name": "ADA"}, host)
    assert status == 409 and "looks like Ada's" in answer["error"]
    assert runtime.table.roster.name(2) == ""
    # A seat's own name is not another's: the host may give Ada's seat to Ada again.
    assert post_json(server.port, "/api/seats/0/assign", {"name": "Ada"}, host)[0] == 200


CRASH_REFUSALS = {
    "en": ("North · Blue is taken: choose a free seat, or ask the host to free it.",
           "This name looks like Ada's (North · Blue): choose another one."),
    "fr": ("Nord · Bleu\u202f: cette place est prise. Choisissez une place libre, ou demandez à l’hôte de la "
           "libérer.",
           "Ce nom ressemble trop à Ada (Nord · Bleu)\u202f: choisissez-en un autre."),
}


@pytest.mark.parametrize("lang", sorted(CRASH_REFUSALS))
def test_a_refusal_names_the_seat_as_the_pages_show_it(tmp_path, lang):
    """Crash!'s seats are North and South: a seat taken, or a name like the one on it, says so."""
    taken, lookalike_of = CRASH_REFUSALS[lang]
    with running_app(tmp_path, game="crash") as (runtime, app), live_server(app) as server:
        assert join(server, runtime, 0, "Ada")[0] == 200
        status, answer = join(server, runtime, 0, "Bo", lang=lang)
        assert (status, answer["error"]) == (409, taken)
        status, answer = join(server, runtime, 1, "ADA", lang=lang)
        assert (status, answer["error"]) == (409, lookalike_of)
        assert runtime.table.roster.name(1) == ""


@pytest.mark.parametrize("name", ["Green", "VERT", "Gr\u0435en"])
def test_a_name_that_reads_like_the_colour_a_buttons_seat_shows_is_refused(table_with_ada, name):
    runtime, server = table_with_ada
    status, answer = join(server, runtime, 1, name)
    # seat 3, unnamed, shows "Green"/"Vert"
    assert status == 409 and "(Seat\u00a03 · Green)" in answer["error"], answer
    assert runtime.table.roster.name(1) == ""
    assert join(server, runtime, 2, "Cy")[0] == 200  # once seat 3 has a name, its colour is free to take
    assert join(server, runtime, 1, name)[0] == 200


@pytest.mark.parametrize("name", ["Zoé", "Nguyễn", "क्षत्रिय", "Ada 🎲", "❤\ufe0f Lou",
                                  "👨\u200d👩\u200d👧", "Ωμέγα", "Adam", "Ada B."])
def test_names_that_only_start_alike_or_carry_accents_and_emoji_are_kept(table_with_ada, name):
    runtime, server = table_with_ada
    assert join(server, runtime, 1, name)[0] == 200 and runtime.table.roster.name(1) == name


def test_the_eink_shows_three_names_apart_after_every_attack(table_with_ada):
    runtime, server = table_with_ada
    for seat, tries in ((1, ("Ada\u3164", "\u0410da", "Bea")), (2, ("Ada\ufe00", "ada", "Cy"))):
        for name in tries:
            join(server, runtime, seat, name)
    table = runtime.table
    names = [table.roster.name(seat) for seat in range(3)]
    assert names == ["Ada", "Bea", "Cy"]
    info = table_info(table.moment, URL)
    canvas = render("schacht", table.latest.public, panel("impression-7.3"), "en", info)
    drawn = " ".join(e.label for e in canvas.elements if e.kind == "text")
    assert all(name in drawn for name in names), drawn


ALPHABET = st.sampled_from(["A", "a", "d", "\u0410", "\u0430", "\uff21", "\u3164", "\u034f", "\ufe00",
                            "\u2800", "\u0301", "l", "I", "1", " ", "é", "e"])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_no_two_seats_ever_hold_names_that_look_alike(tmp_path_factory, data):
    store = Store(tmp_path_factory.mktemp("names") / "s.db")
    try:
        roster = Roster(store)
        for _ in range(data.draw(st.integers(1, 12), label="tries")):
            seat = data.draw(st.integers(0, 5), label="seat")
            name = "".join(data.draw(st.lists(ALPHABET, min_size=1, max_size=6), label="name"))
            before = [roster.name(s) for s in range(6)]
            try:
                roster.assign(seat, name, 6)
            except IllegalMove:
                assert [roster.name(s) for s in range(6)] == before  # a refusal changes nothing
        held = [roster.name(s) for s in range(6) if roster.name(s)]
        keys = [lookalike.key(name) for name in held]
        assert len(set(keys)) == len(keys), held
        for name in held:
            assert all(not lookalike.invisible(name, i) for i in range(len(name)))
            assert lookalike.most_marks(name) <= lookalike.MAX_MARKS
    finally:
        store.close()
