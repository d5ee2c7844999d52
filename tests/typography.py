"""French typography as the catalogs write it: a narrow no-break space before : ; ? ! » and after «, and
the typographic apostrophe ’ rather than the straight one."""

from __future__ import annotations

import re

SPACES = "\u202f\u00a0"  # narrow no-break space, or a no-break space
FIELD = re.compile(r"\{[^{}]*\}")  # {name} or {value:>3}: a format field, not text
URL = re.compile(r"\w+://\S+")


def slips(text: str) -> list[str]:
    """Each place in `text` where French punctuation lacks its no-break space, or an apostrophe is the
    straight one, shown in context."""
    prose = URL.sub("", FIELD.sub("x", text))
    found = []
    for match in re.finditer(r"[:;?!»']|«", prose):
        at, mark = match.start(), match.group()
        if mark == "'":
            spaced = False
        elif mark == "«":
            spaced = at + 1 < len(prose) and prose[at + 1] in SPACES
        else:
            spaced = at > 0 and prose[at - 1] in SPACES
        if not spaced:
            found.append(prose[max(0, at - 12):at + 12])
    return found
