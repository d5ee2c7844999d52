"""Player-facing text in French and English, from the gettext catalogs compiled with Babel."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from importlib.resources import files

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
DOMAIN = "messages"


def N_(msgid: str) -> str:
    """Mark a string for the catalogs without translating it yet."""
    return msgid


@cache
def catalog(lang: str, game: str | None = None) -> gettext.NullTranslations:
    """The compiled catalog of `lang`; English msgids stand for themselves.

    A game's strings are in its own domain (its name), in the locale/ folder of its package; the
    platform's catalog stands behind it for the strings a game shares with the platform.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if game is None:
        localedir = str(files("companion").joinpath("locale"))
        return gettext.translation(DOMAIN, localedir=localedir, languages=[lang], fallback=lang == "en")
    from companion import games

    localedir = str(games.get(game).folder.joinpath("locale"))
    own = gettext.translation(game, localedir=localedir, languages=[lang], fallback=True)
    own.add_fallback(catalog(lang))
    return own


def translator(lang: str, game: str | None = None) -> Callable[..., str]:
    """`_(msgid, **params)` in `lang`, with `game`'s strings: translated, then `{name}` fields filled."""
    gettext_ = catalog(lang, game).gettext

    def _(msgid: str, **params) -> str:
        text = gettext_(msgid)
        return text.format(**params) if params else text
    return _


def pick_language(accept: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The first of our languages named in an Accept-Language header, else `default`."""
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return default
