"""Player-facing text in French and English, from the gettext catalogs compiled with Babel."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import Any, Protocol

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
DOMAIN = "messages"


def N_(msgid: str) -> str:
    """Mark a string for the catalogs without translating it yet."""
    return msgid


class Domain(Protocol):
    """Whose strings: a game's spec is one (its `name` is the gettext domain, its `package` holds locale/)."""

    @property
    def name(self) -> str: ...

    @property
    def package(self) -> str: ...


@cache
def _catalog(lang: str, game: tuple[str, str] | None) -> gettext.NullTranslations:
    """The catalog of `lang`, the platform's alone or, for `game` (its domain and package), the game's own
    in front of it; keyed by plain strings so that the cache holds no spec."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if game is None:
        localedir = str(files("companion").joinpath("locale"))
        return gettext.translation(DOMAIN, localedir=localedir, languages=[lang], fallback=lang == "en")
    domain, package = game
    localedir = str(files(package).joinpath("locale"))
    own = gettext.translation(domain, localedir=localedir, languages=[lang], fallback=True)
    own.add_fallback(_catalog(lang, None))
    return own


def catalog(lang: str, game: Domain | None = None) -> gettext.NullTranslations:
    """The compiled catalog of `lang`; English msgids stand for themselves.

    A game's strings are in its own domain (its name), in the locale/ folder of its package; the
    platform's catalog stands behind it for the strings a game shares with the platform.
    """
    return _catalog(lang, (game.name, game.package) if game is not None else None)


class Translator:
    """`_(msgid, **params)`: translated, then `{name}` fields filled; `_.ngettext(singular, plural, n,
    **params)` for plurals (see plural_translator)."""

    __slots__ = ("_gettext", "ngettext")

    def __init__(self, gettext_: Callable[[str], str], ngettext: Callable[..., str]) -> None:
        self._gettext = gettext_
        # Plurals ride along, so whoever is handed a translator (a game's e-ink screen) has them too.
        self.ngettext = ngettext

    def __call__(self, msgid: str, **params: Any) -> str:
        text = self._gettext(msgid)
        return text.format(**params) if params else text


def translator(lang: str, game: Domain | None = None) -> Translator:
    """`_(msgid, **params)` in `lang`, with `game`'s strings (see Translator)."""
    return Translator(catalog(lang, game).gettext, plural_translator(lang, game))


def plural_translator(lang: str, game: Domain | None = None) -> Callable[..., str]:
    """`ngettext(singular, plural, n, **params)` in `lang`, with `game`'s strings: the form the language's
    own plural rule picks for `n` (French counts 0 as one, English does not), then `{n}` and the other
    fields filled. Extracted by `python -m companion.locale.update` under the name `ngettext`."""
    ngettext = catalog(lang, game).ngettext

    def ngettext_(singular: str, plural: str, n: int, **params: Any) -> str:
        return ngettext(singular, plural, n).format(n=n, **params)
    return ngettext_


def plural_forms(lang: str, game: Domain | None = None) -> Callable[[str, str], list[str]]:
    """`plural_forms(singular, plural)` in `lang`: the forms for n = 0, 1 and 2 or more, `{n}` unfilled,
    for a page's script to pick by its count (`Companion.fill` does). French and English differ only
    below 2. Extracted by `python -m companion.locale.update` as `ngettext` is."""
    ngettext = catalog(lang, game).ngettext
    return lambda singular, plural: [ngettext(singular, plural, n) for n in (0, 1, 2)]


def pick_language(accept: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The first of our languages named in an Accept-Language header, else `default`."""
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return default
