"""What every page may see of an update, in the reader's language: the scoreboard's payload, seats named
as every page names them, and refusals in the reader's words."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence

from companion.core import registry
from companion.core.seats import SEAT_NAMED
from companion.core.session import END_GAME, undo_refused
from companion.core.table import Update
from companion.gamekit.contract import NOT_YOU, NOT_YOU_MANY, PHONE_SEAT, IllegalMove
from companion.i18n import N_, translator

log = logging.getLogger(__name__)


def public_payload(update: Update, lang: str) -> dict:
    """What every phone may see: never the command's args or the events, which a game may not vet.

    Each seat's colour label comes in the reader's language, so no page declares the colours again.
    """
    tr = translator(lang, update.spec)
    left = None if update.due is None else round(max(0.0, update.due - time.monotonic()), 1)
    return {"version": update.version, "game": update.game, "public": update.public,
            "title": tr(update.spec.title) if update.session else None,
            # whose move it is is public (the e-ink shows it): each seat's page says "Your turn" from it
            "waiting": update.spec.waiting_on(update.session.state) if update.session else [],
            "seats": public_seats(update, tr),
            "history": list(update.session.history) if update.session else [],
            "deadline": left,  # seconds until the table sends the game's default itself (see GameSpec)
            "over": update.session is not None and update.session.spec.over(update.session.state),
            "undo": undo_refused(update.session) is None,  # whether the host's Undo would take a move back
            "result": game_result(update),
            "match": match_game(update),
            "ended": ended_title(update, lang)}


def match_game(update: Update) -> dict | None:
    """Which game of a match the table is at (`GameSpec.match_game`), for the end box and the scoreboard."""
    if update.session is None:
        return None
    try:
        found = update.spec.match_game(update.public)
    except Exception as exc:  # a bug in a game's view reader costs the line, not the page
        log.error("the match game of %s failed: %s", update.game, type(exc).__name__)
        return None
    return None if found is None else {"game": found.game, "games": found.games, "ended": found.ended}


def ended_title(update: Update, lang: str) -> str | None:
    """The title of the game the host ended, while the game between games its end began is young (its
    history still opens with the end): every page says so, so no phone switches without a word."""
    history = update.session.history if update.session is not None else ()
    if not history or history[0].get("kind") != END_GAME or "game" not in history[0]:
        return None
    ended = registry.find(history[0]["game"])
    return translator(lang, ended)(ended.title) if ended is not None else None


def game_result(update: Update) -> dict | None:
    """How a finished game ended (the game's `Result`, read from its public view, so public too): each
    seat's page tells its own place from it. None while the game runs."""
    session = update.session
    if session is None or not session.spec.over(session.state):
        return None
    try:
        result = session.spec.result(update.public)
    except Exception as exc:  # a game's bug: its pages still show the end, without the places
        log.error("the result of %s failed: %s", update.game, type(exc).__name__)
        return None
    return {"winners": list(result.winners), "scores": None if result.scores is None else list(result.scores),
            "ranks": None if result.ranks is None else list(result.ranks)}


def public_seats(update: Update, tr) -> list[dict]:
    """Each seat's public facts with its colour and place in the reader's words (`tr`): a seat the game
    does not name is "Seat n"."""
    return [{**seat, "label": tr(seat["label"]), "place": place(seat, tr)} for seat in update.seats]


def place(seat: dict, tr) -> str:
    """A seat's place in the reader's words: the game's name for it, else "Seat n"."""
    return unbroken(tr(seat["place"]) if seat.get("place") else tr(N_("Seat {n}"), n=seat["seat"] + 1))


def seat_label(seat: dict, tr) -> str:
    """A seat as the join and host pages show it: its place, then its colour ("North · Red")."""
    return f"{place(seat, tr)} · {tr(seat['label'])}"


def unbroken(text: str) -> str:
    """`text` with a no-break space before each number, so "Seat 3" or "Table 3" never splits on a phone."""
    return re.sub(r" (?=\d)", "\u00a0", text)


def refusal(exc: IllegalMove, lang: str, game: str | None, seats: Sequence[dict] = ()) -> dict:
    """A refusal as JSON in `lang`: the readable reason (from the game's catalog first) and its msgid.

    With the table's `seats`, a refusal of the platform's that names seats by number names them as every
    page does (their chosen name, else their colour)."""
    tr = translator(lang, registry.find(game))
    named = _by_name(exc, seats, tr)
    return {"error": named or tr(exc.msgid, **_seat_labelled(exc, seats, tr)), "msgid": exc.msgid}


def _seat_labelled(exc: IllegalMove, seats: Sequence[dict], tr) -> dict:
    """The params of a roster refusal naming a seat (seats.SEAT_NAMED), the seat said as the pages say it."""
    if exc.msgid not in SEAT_NAMED:
        return exc.params
    seat = exc.params["seat"]
    found = next((s for s in seats if s["seat"] == seat), {"seat": seat, "label": "", "place": ""})
    return {**exc.params, "seat": seat_label(found, tr) if found["label"] else place(found, tr)}


def _by_name(exc: IllegalMove, seats: Sequence[dict], tr) -> str | None:
    """The platform's seat-numbered refusals (contract.NOT_YOU, NOT_YOU_MANY, PHONE_SEAT) with names."""
    numbers = {NOT_YOU: "player", NOT_YOU_MANY: "players", PHONE_SEAT: "n"}
    key = numbers.get(exc.msgid)
    if key is None or not seats:
        return None
    shown = {seat["seat"]: seat["name"] or tr(seat["label"]) for seat in seats}
    named = [shown.get(int(n) - 1) for n in str(exc.params.get(key, "")).split(", ") if n.isdigit()]
    if not named or None in named:
        return None
    names = ", ".join(named)
    if exc.msgid == PHONE_SEAT:
        return tr(N_("{name} plays from their own phone: only that phone may make this move."), name=names)
    return tr(N_("{names} must act now, not you: wait for them."), names=names)
