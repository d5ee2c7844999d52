"""What every page may see of an update, in the reader's language: the scoreboard's payload, seats named
as every page names them, and refusals in the reader's words."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from companion.core import registry
from companion.core.moment import Moment
from companion.core.seats import SEAT_NAMED
from companion.gamekit.contract import NOT_YOU, NOT_YOU_MANY, PHONE_SEAT, IllegalMove
from companion.i18n import N_, Translator, translator


def public_payload(moment: Moment, lang: str) -> dict:
    """What every phone may see of `moment`, in `lang`: never the command's args or the events, which a
    game may not vet.

    Each seat's colour label comes in the reader's language, so no page declares the colours again.
    """
    tr = translator(lang, registry.find(moment.game))
    left = None if moment.due is None else round(max(0.0, moment.due - time.monotonic()), 1)
    return {"version": moment.version, "game": moment.game, "public": moment.public,
            "title": tr(moment.title) if moment.title else None,
            # whose move it is is public (the e-ink shows it): each seat's page says "Your turn" from it
            "waiting": list(moment.waiting),
            "seats": public_seats(moment, tr),
            "history": list(moment.history),
            "deadline": left,  # seconds until the table sends the game's default itself (see GameSpec)
            "over": moment.over,
            "undo": moment.undo,  # whether the host's Undo would take a move back
            "result": moment.result,
            "match": moment.match,
            "ended": ended_title(moment, lang)}


def ended_title(moment: Moment, lang: str) -> str | None:
    """The title of the game the host ended, while the game between games its end began is young: every
    page says so, so no phone switches without a word."""
    ended = registry.find(moment.ended) if moment.ended else None
    return translator(lang, ended)(ended.title) if ended is not None else None


def public_seats(moment: Moment, tr) -> list[dict]:
    """Each seat's public facts with its colour and place in the reader's words (`tr`): a seat the game
    does not name is "Seat n"."""
    return [{**seat, "label": tr(seat["label"]), "place": place(seat, tr)} for seat in moment.seats]


def place(seat: Mapping[str, Any], tr) -> str:
    """A seat's place in the reader's words: the game's name for it, else "Seat n"."""
    return unbroken(tr(seat["place"]) if seat.get("place") else tr(N_("Seat {n}"), n=seat["seat"] + 1))


def seat_label(seat: Mapping[str, Any], tr) -> str:
    """A seat as the join and host pages show it: its place, then its colour ("North · Red")."""
    return f"{place(seat, tr)} · {tr(seat['label'])}"


def unbroken(text: str) -> str:
    """`text` with a no-break space before each number, so "Seat 3" or "Table 3" never splits on a phone."""
    return re.sub(r" (?=\d)", "\u00a0", text)


def refusal(exc: IllegalMove, lang: str, game: str | None, seats: Sequence[Mapping[str, Any]] = ()) -> dict:
    """A refusal as JSON in `lang`: the readable reason (from the game's catalog first) and its msgid.

    With the table's `seats`, a refusal of the platform's that names seats by number names them as every
    page does (their chosen name, else their colour)."""
    tr = translator(lang, registry.find(game))
    named = _by_name(exc, seats, tr)
    return {"error": named or tr(exc.msgid, **_seat_labelled(exc, seats, tr)), "msgid": exc.msgid}


def _seat_labelled(exc: IllegalMove, seats: Sequence[Mapping[str, Any]], tr: Translator) -> dict:
    """The params of a roster refusal naming a seat (seats.SEAT_NAMED), the seat said as the pages say it."""
    if exc.msgid not in SEAT_NAMED:
        return exc.params
    seat = exc.params["seat"]
    found = next((s for s in seats if s["seat"] == seat), {"seat": seat, "label": "", "place": ""})
    return {**exc.params, "seat": seat_label(found, tr) if found["label"] else place(found, tr)}


def _by_name(exc: IllegalMove, seats: Sequence[Mapping[str, Any]], tr: Translator) -> str | None:
    """The platform's seat-numbered refusals (contract.NOT_YOU, NOT_YOU_MANY, PHONE_SEAT) with names."""
    numbers = {NOT_YOU: "player", NOT_YOU_MANY: "players", PHONE_SEAT: "n"}
    key = numbers.get(exc.msgid)
    if key is None or not seats:
        return None
    shown = {seat["seat"]: seat["name"] or tr(seat["label"]) for seat in seats}
    found = [shown.get(int(n) - 1) for n in str(exc.params.get(key, "")).split(", ") if n.isdigit()]
    named = [name for name in found if name is not None]
    if not named or len(named) < len(found):
        return None
    names = ", ".join(named)
    if exc.msgid == PHONE_SEAT:
        return tr(N_("{name} plays from their own phone: only that phone may make this move."), name=names)
    return tr(N_("{names} must act now, not you: wait for them."), names=names)
