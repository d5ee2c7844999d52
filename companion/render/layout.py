"""A canvas that fits text by measuring and records every element's box, so tests can check them."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from companion.foreground import checkpoint
from companion.render.fonts import font
from companion.render.palette import Palette
from companion.render.qr import qr_image

if TYPE_CHECKING:
    from PIL import Image, ImageDraw


@dataclass(frozen=True)
class Box:
    """A rectangle in pixels: left, top, right, bottom (right and bottom excluded)."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    def inset(self, d: int) -> Box:
        return Box(self.x0 + d, self.y0 + d, max(self.x0 + d, self.x1 - d), max(self.y0 + d, self.y1 - d))

    def rows(self, *weights: float, gap: int = 0) -> list[Box]:
        """Split top to bottom in proportion to `weights`, with `gap` pixels between parts."""
        return [Box(self.x0, a, self.x1, b) for a, b in _split(self.y0, self.y1, weights, gap)]

    def cols(self, *weights: float, gap: int = 0) -> list[Box]:
        """Split left to right in proportion to `weights`, with `gap` pixels between parts."""
        return [Box(a, self.y0, b, self.y1) for a, b in _split(self.x0, self.x1, weights, gap)]

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def within(self, other: Box) -> bool:
        return other.x0 <= self.x0 and other.y0 <= self.y0 and self.x1 <= other.x1 and self.y1 <= other.y1


def _split(start: int, end: int, weights, gap: int) -> list[tuple[int, int]]:
    free = max(0, end - start - gap * (len(weights) - 1))
    total = sum(weights) or 1
    out, pos = [], start
    for i, w in enumerate(weights):
        size = round(free * w / total) if i < len(weights) - 1 else end - pos
        out.append((pos, pos + max(0, size)))
        pos += size + gap
    return out


@dataclass(frozen=True)
class Element:
    """Something drawn: its kind, what it says, and the box its ink really covers.

    `shortened` marks a text cut with an ellipsis because it was too wide at the smallest readable
    size; `size` is a text's type size in pixels (0 for other elements).
    """

    kind: str
    label: str
    box: Box
    shortened: bool = False
    size: int = 0


ELLIPSIS = "\u2026"


REFERENCE_SIZE = 100  # px: where fit() first measures a text
READABLE_SIZE = 14  # px on the 800x480 reference: the smallest type still read across a table
# px on the 800x480 reference: the type of what the table reads from its chairs, a metre away (names,
# positions, counts): capitals about 2.9 mm high on the 7.3" panel. A layout gives way before it does.
TABLE_SIZE = 20
NAME_START = 8  # characters of a long name kept before an ellipsis in a line that says more
NAME_KEEP = 4  # characters a long name keeps at least when it gives way to its table's type size


NAME_TAIL = 3  # characters a cut name keeps of its end: "Christopher Robinsons" reads "Chris…ons"


def short_name(name: str) -> str:
    """A name cut to NAME_START characters, its end kept after an ellipsis ("Chris…ons"), for lines that
    must keep the rest: two names that differ at the end stay apart."""
    if len(name) <= NAME_START + 1:
        return name
    return name[:NAME_START - NAME_TAIL].rstrip() + ELLIPSIS + name[-NAME_TAIL:].lstrip()


def told_apart(name: str, others: Sequence[str]) -> str:
    """`name` as the glass shows it beside the other seats' names: whole, or cut to its first and last
    letters (short_name) when another name starts with the same NAME_START characters, since a line
    that runs out of room cuts a name's end, and "Christopher Robinson" and "Christopher Robinsons"
    would both read "Christop…"."""
    start = name[:NAME_START].casefold()
    if any(other != name and other[:NAME_START].casefold() == start for other in others):
        return short_name(name)
    return name


PHRASE_ENDS = ",;:.!?)»"  # a word ending in one of these ends a phrase: a line may break after it
PHRASE_SLACK = 1.4  # how much longer than the evenest split a line may grow to break between phrases


def phrase_lines(text: str, count: int) -> list[str]:
    """`text` over at most `count` lines of about the same length, broken after the ends of phrases where
    a line need not grow more than PHRASE_SLACK for it (mid-phrase breaks are read as one thought cut)."""
    words = text.split(" ")
    count = max(1, min(count, len(words)))
    length = [[len(" ".join(words[i:j])) for j in range(len(words) + 1)] for i in range(len(words))]

    def mid_phrase(j: int) -> int:  # a break before words[j]
        return 0 if words[j - 1][-1:] in PHRASE_ENDS else 1

    @cache
    def evenest(i: int, k: int) -> int:  # the shortest longest line of words[i:] over k lines
        if k == 1:
            return length[i][len(words)]
        return min(max(length[i][j], evenest(j, k - 1)) for j in range(i + 1, len(words) - k + 2))

    most = PHRASE_SLACK * evenest(0, count)

    @cache
    def best(i: int, k: int) -> tuple[float, float, tuple[int, ...]]:  # (mid-phrase breaks, longest, breaks)
        if k == 1:
            whole = length[i][len(words)]
            return (0 if whole <= most else math.inf, whole, ())
        found: tuple[float, float, tuple[int, ...]] = (math.inf, math.inf, ())
        for j in range(i + 1, len(words) - k + 2):
            if length[i][j] > most:
                break
            bad, longest, breaks = best(j, k - 1)
            found = min(found, (bad + mid_phrase(j), max(longest, length[i][j]), (j, *breaks)))
        return found

    cuts = (0, *best(0, count)[2], len(words))
    return [" ".join(words[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]


def seat_initials(names: list[str]) -> list[str]:
    """Each seat's initial, to mark what is the seat's beside its colour ("Z"); seats whose names share
    an initial add their seat number ("F1", "F2"), so no two seats read the same on a black-only panel."""
    first = [name[:1].upper() or str(seat + 1) for seat, name in enumerate(names)]
    return [letter if first.count(letter) == 1 else f"{letter}{seat + 1}"
            for seat, letter in enumerate(first)]


class Canvas:
    """One e-ink frame being drawn. Text shrinks to fit its box; nothing is drawn outside it."""

    MIN_TEXT = 8  # pixels: the smallest DejaVu size still readable on e-ink
    MIN_QR_MODULE = 2  # pixels per QR module: below this phones struggle to scan the glass

    def __init__(self, size: tuple[int, int], palette: Palette):
        self.size = size
        self.palette = palette
        from PIL import Image, ImageDraw  # at the first frame, not when a game's screen is imported

        self.image = Image.new("RGB", size, palette.rgb("paper"))
        self.draw = ImageDraw.Draw(self.image)
        # No anti-aliasing: every pixel stays a pure ink, as the glass can only show those.
        self.draw.fontmode = "1"
        self.elements: list[Element] = []

    @property
    def bounds(self) -> Box:
        return Box(0, 0, *self.size)

    @property
    def scale(self) -> float:
        """How big this panel is against the 800x480 reference, for margins and line widths."""
        return min(self.size[0] / 800, self.size[1] / 480)

    def px(self, reference: float) -> int:
        """A length given for the 800x480 panel, scaled to this one (at least 1 pixel)."""
        return max(1, round(reference * self.scale))

    @property
    def min_size(self) -> int:
        """The smallest type size this panel draws when a box has the height for it.

        A text wider than its box at this size is shortened with an ellipsis instead of shrunk
        further: one long name must not make a whole table unreadable.
        """
        return max(self.MIN_TEXT, round(READABLE_SIZE * self.scale))

    @property
    def table_size(self) -> int:
        """The smallest type size for what the table must read at a metre on this panel (names, positions,
        hands' counts): layouts give such text room (fewer words, more of the panel) before going under
        it."""
        return max(self.MIN_TEXT, round(TABLE_SIZE * self.scale))

    def text_height(self, size: int, bold: bool = False) -> int:
        """How tall a line of accented capitals and descenders is at `size` (to size boxes)."""
        left, top, right, bottom = text_box("ÉÀgjpq", size, bold)
        return bottom - top

    def text_width(self, text: str, size: int, bold: bool = False) -> int:
        """How wide `text` is at `size`."""
        left, _, right, _ = text_box(text, size, bold)
        return right - left

    def text(self, box: Box, text: str, *, bold: bool = False, role: str = "ink",
             align: str = "center", max_size: int | None = None, size: int | None = None,
             name: bool = False, ink: tuple[int, int, int] | None = None) -> Element | None:
        """Draw `text` at the largest size that fits `box`, up to `max_size`; or at exactly `size`
        (a role's one size, see `common_size`), lowered only if the box is not that high.

        A text too wide even at MIN_TEXT (or at `size`) is shortened with an ellipsis, never clipped;
        a `name` already cut to keep its end (told_apart: "❶ Chris…son") is cut before its ellipsis
        ("❶ Ch…son"), so two names that differ at the end stay apart. Only a box lower than one line at
        MIN_TEXT (a layout bug) draws nothing. `ink` draws it in a seat's ink rather than its role's.
        """
        checkpoint()
        if not text:
            return None
        if size is not None:  # the role's one size, lowered only where the box is not that high
            size = self._tallest(text, box, bold, size)
            fitting = size is not None and self._measure(text, size, bold)[0] <= box.width
        else:
            size = self.fit(text, box, bold, max_size)
            fitting = size is not None
            size = size if fitting else self._tallest(text, box, bold, self.MIN_TEXT)
        if size is None:
            return None
        shortened = not fitting
        if shortened:
            end = text[text.rindex(ELLIPSIS) + 1:] if name and ELLIPSIS in text else ""
            short = self._shorten(text[:len(text) - len(end)].removesuffix(ELLIPSIS), box, bold, size, end)
            if short is None:
                return None
            text = short
        f = font(size, bold)
        left, top, right, bottom = text_box(text, size, bold)
        w, h = right - left, bottom - top
        x = {"left": box.x0, "right": box.x1 - w}.get(align, box.x0 + (box.width - w) // 2) - left
        y = box.y0 + (box.height - h) // 2 - top
        self.draw.text((x, y), text, font=f, fill=ink or self.palette.rgb(role))
        drawn = Box(x + left, y + top, x + right, y + bottom)
        return self._add("text", text, drawn, shortened, size)

    def floor(self, text: str, box: Box, bold: bool = False, max_size: int | None = None) -> int | None:
        """The smallest size `text` may take in `box`: `min_size`, lowered only to what the box's height
        (or `max_size`) allows; None if not even MIN_TEXT is low enough."""
        return self._tallest(text, box, bold, min(self.min_size, max_size or self.min_size))

    def _tallest(self, text: str, box: Box, bold: bool, cap: int) -> int | None:
        """The largest size up to `cap` at which `text` is no higher than `box` (its width aside)."""
        return self.fit(text, Box(box.x0, box.y0, box.x0 + 10**6, box.y1), bold, cap)

    def fit(self, text: str, box: Box, bold: bool = False, max_size: int | None = None) -> int | None:
        """The largest font size at which `text` fits `box` (None if not even MIN_TEXT does).

        Text grows almost linearly with its size, so one measure at a reference size gives a
        close guess, and a few real measures settle it. Every size tried is a cached FreeType
        face of about 100 kB: a binary search over all sizes cost tens of MB on a Pi Zero.
        """
        top_size = max(self.MIN_TEXT, max_size or box.height)
        width, height = self._measure(text, REFERENCE_SIZE, bold)
        if width <= 0 or height <= 0:
            return None
        size = min(top_size, int(REFERENCE_SIZE * min(box.width / width, box.height / height)) + 1)
        while size >= self.MIN_TEXT:
            width, height = self._measure(text, size, bold)
            if width <= box.width and height <= box.height:
                return size
            size -= 1
        return None

    def _measure(self, text: str, size: int, bold: bool) -> tuple[int, int]:
        left, top, right, bottom = text_box(text, size, bold)
        return right - left, bottom - top

    def common_size(self, items: list[tuple[Box, str]], bold: bool = False, max_size: int | None = None,
                    names: bool = False) -> int | None:
        """One size for a role: the largest at which every (box, text) fits; None if one does not fit
        even at MIN_TEXT.

        With `names`, a name longer than NAME_START limits the size only as far as its first NAME_KEEP
        characters need, and nothing goes below the panel's readable `min_size` (where the boxes are that
        high): draw them with `text(..., size=)`, and a 24-letter name ends in an ellipsis at the size
        the other names set, instead of shrinking the table.
        """
        sizes = []
        for box, text in items:
            if not text:
                continue
            if not names:
                sizes.append(self.fit(text, box, bold, max_size))
                continue
            start = text if len(text) <= NAME_START else text[:NAME_KEEP].rstrip() + ELLIPSIS
            fitted = self.fit(start, box, bold, max_size)
            floor = self.floor(text, box, bold, max_size)
            sizes.append(max(filter(None, (fitted, floor)), default=None))
        known = [size for size in sizes if size is not None]
        return min(known) if sizes and len(known) == len(sizes) else None

    def all_fit(self, items: list[tuple[Box, str]], size: int | None, bold: bool = False) -> bool:
        """Whether every (box, text) fits whole at `size`."""
        return size is not None and all(self.fit(t, box, bold, size) == size for box, t in items if t)

    def lines_naming(self, rows: list[Box], *writers: Callable[[Callable[[str], str]], list[str]],
                     bold: bool = False) -> tuple[list[str], int | None]:
        """Lines that name players, one per row, and their one size.

        `writers` write the lines, the most complete first, passing each name through the function they
        are given. The first writing that fits at the panel's readable size wins: with whole names, else
        with long names cut (`short_name`), so one long name never shrinks the rest. If none is
        readable, the first that fits at all.
        """
        fallback: tuple[list[str], int | None] = ([], None)
        for write in writers:
            for shown in (str, short_name):
                lines = write(shown)
                size = self.common_size(list(zip(rows, lines, strict=False)), bold)
                if size is not None and size >= self.min_size:
                    return lines, size
                if fallback[1] is None:
                    fallback = (lines, size)
        return fallback if fallback[0] else (writers[0](str), None)

    def picture(self, box: Box, image: Image.Image, label: str) -> Element:
        """Paste a 1-bit or RGB image centred in `box` (shrunk to fit, never enlarged)."""
        checkpoint()
        if image.width > box.width or image.height > box.height:
            image = image.copy()
            image.thumbnail((max(1, box.width), max(1, box.height)))
        x = box.x0 + (box.width - image.width) // 2
        y = box.y0 + (box.height - image.height) // 2
        self.image.paste(image.convert("RGB"), (x, y))
        return self._add("picture", label, Box(x, y, x + image.width, y + image.height))

    def qr_side(self, url: str, side: int) -> int:
        """The side in pixels of the QR code of `url` drawn in a `side` square (0 if it cannot be scanned)."""
        unit = _qr_modules(url)
        scale = side // unit
        return unit * scale if scale >= self.MIN_QR_MODULE else 0

    def qr(self, box: Box, url: str) -> Element | None:
        """A QR code of `url`, as large as `box` allows in whole modules; None if a module would be
        smaller than MIN_QR_MODULE pixels (the layout should then leave it out)."""
        side = self.qr_side(url, min(box.width, box.height))
        if not side:
            return None
        return self.picture(box, qr_image(url, side), url)

    def rule(self, box: Box, role: str = "ink") -> Element:
        """A filled bar (separators, die pips)."""
        checkpoint()
        self.draw.rectangle((box.x0, box.y0, box.x1 - 1, box.y1 - 1), fill=self.palette.rgb(role))
        return self._add("rule", role, box)

    def _shorten(self, text: str, box: Box, bold: bool, size: int, end: str = "") -> str | None:
        """The longest start of `text` that, followed by an ellipsis and `end` (where that fits), fits
        `box` at `size`."""
        def fits(candidate: str) -> bool:
            left, top, right, bottom = text_box(candidate, size, bold)
            return right - left <= box.width and bottom - top <= box.height

        if not fits(ELLIPSIS + end):
            end = ""
            if not fits(ELLIPSIS):
                return None
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(text[:mid].rstrip() + ELLIPSIS + end):
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + ELLIPSIS + end

    def _add(self, kind: str, label: str, box: Box, shortened: bool = False, size: int = 0) -> Element:
        element = Element(kind, label, box, shortened, size)
        self.elements.append(element)
        return element


@cache
def _measuring() -> ImageDraw.ImageDraw:
    """Measures as a canvas draws: no anti-aliasing."""
    from PIL import Image, ImageDraw

    measuring = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    measuring.fontmode = "1"
    return measuring


@lru_cache(maxsize=2048)
def text_box(text: str, size: int, bold: bool = False) -> tuple[int, int, int, int]:
    """The box `text` covers at `size`, drawn at (0, 0) without anti-aliasing, as the canvas draws.

    Kept: a frame measures the same few hundred texts at the same sizes as the last one did, and each
    measure is a FreeType layout (a tenth of a millisecond here, a millisecond on a Pi Zero).
    """
    # Pillow annotates floats, for text drawn at a fractional position; from (0, 0) FreeType's box is ints.
    return _measuring().textbbox((0, 0), text, font=font(size, bold))  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _qr_modules(url: str) -> int:
    """How many modules (quiet zone included) the QR code of `url` is wide."""
    return qr_image(url, 1).width
