"""Buttons of Le rallye hasardeux: ROLL moves the player to act; A-D answer what an effect asks.

- Placing the passages: a mark on the e-ink names a route card. A and B move it one card back or on, C six
  cards on, D six back; ROLL names the marked card and rolls for the passage.
- A question (whom to send back, whom to swap with, which exit): A, B, C and D pick the choice the e-ink
  shows beside that letter; with more than four choices ROLL shows the next ones.
- A cancel question: A answers no (only the victim's phone can cancel: the device cannot see hands).
- A hand over 3 cards: A discards the newest card (the player may lay or discard another from the phone).
- Otherwise ROLL rolls for the player whose turn it is. Surprise cards are played from the phones only.
"""

from __future__ import annotations

from companion.gamekit import Command, Controls, Entry, Field

LETTERS = ("a", "b", "c", "d")
PAGE = len(LETTERS)
MOVES = {"a": -1, "b": 1, "c": 6, "d": -6}  # the placing mark, in route cards


def route_cards(view: dict) -> list[int]:
    """The positions a passage may replace: the circuit's plain route cards."""
    return [card["position"] for card in view["circuit"] if card["kind"] == "route"]


def choices(view: dict) -> list[Command]:
    """The answers the pending choice takes, in the order the e-ink letters them."""
    pending = view["pending"]
    if pending is None or pending["kind"] not in ("target", "exit"):
        return []
    if pending["kind"] == "target":
        return [Command("choose", {"seat": seat}) for seat in pending["choices"]]
    stay = [Command("stay")] if pending["optional"] else []
    return [Command("exit", {"card": card}) for card in pending["choices"]] + stay


def pages(view: dict) -> int:
    return max(1, -(-len(choices(view)) // PAGE))


PLACE = Field("card", lambda view: len(route_cards(view)))
MORE = Field("page", pages)


def marked(entry: Entry | None, view: dict) -> int:
    """The route card the placing mark is on (the first route card until a button moves it)."""
    cards = route_cards(view)
    index = entry.values[0] if entry is not None and entry.flow == "place" else 0
    return cards[index % len(cards)]


def page(entry: Entry | None) -> int:
    return entry.values[0] if entry is not None and entry.flow == "page" else 0


def step(entry: Entry | None, key: str, view: dict) -> tuple[Entry | None, Command | None]:
    """(input in progress, key, public view) -> (input in progress, command or None)."""
    # (ruling) With buttons only, a cancel question is asked on the e-ink and A answers no: a card that
    # cancels can come only from the victim's phone, as the device never sees a hand.
    pending = view["pending"]
    if view["phase"] == "over" or pending is None and view["phase"] != "race":
        return entry, None
    kind = pending["kind"] if pending else None
    if kind == "place":
        return _place(entry, key, view)
    if kind == "trim":
        return entry, Command("discard") if key == "a" else None
    if kind == "cancel":
        return entry, Command("decline") if key == "a" else None
    if kind in ("target", "exit"):
        return _choose(entry, key, view)
    return entry, Command("roll") if key == "roll" else None


def _place(entry: Entry | None, key: str, view: dict) -> tuple[Entry | None, Command | None]:
    if key == "roll":
        return None, Command("place_passage", {"card": marked(entry, view)})
    if key not in MOVES:
        return entry, None
    current = entry if entry is not None and entry.flow == "place" else Entry("place", (PLACE,), (0,))
    return current.moved(MOVES[key], view), None


def _choose(entry: Entry | None, key: str, view: dict) -> tuple[Entry | None, Command | None]:
    answers = choices(view)
    if key == "roll":
        if len(answers) <= PAGE:
            return entry, None
        current = entry if entry is not None and entry.flow == "page" else Entry("page", (MORE,), (0,))
        return current.moved(1, view), None
    if key not in LETTERS:
        return entry, None
    index = page(entry) * PAGE + LETTERS.index(key)
    return (None, answers[index]) if index < len(answers) else (entry, None)


def shown(entry: Entry, view: dict) -> dict:
    """The public part of the input: the card the placing mark is on, or the page of choices shown."""
    if entry.flow == "place":
        return {"flow": "place", "card": marked(entry, view)}
    return {"flow": "page", "page": page(entry)}


def dice_shown(view: dict) -> list[int]:
    """The LED die holds the last die rolled, whatever rolled it."""
    return [view["die"]["face"]] if view["die"] else []


CONTROLS = Controls(step, shown=shown)
