"""Refresh the catalogs with Babel: extract every msgid, merge into fr, compile the .mo files.

Run `python -m companion.locale.update` after changing any player-facing string. The platform's
strings go to companion/locale; each game's go to its own domain, in the locale/ folder of its
package (companion/games/<game>/locale/fr/LC_MESSAGES/<game>.po), so a game is one folder. A game
shipped as its own package refreshes its catalog with `--game PATH/TO/ITS/PACKAGE`.

To add French for new strings, put {"msgid": "French", ...} in a JSON file and run it with
`--merge FILE`; a plural (`ngettext(singular, plural, n)`) is {"singular": ["one", "many"]}. A new
msgid that the platform's catalog already translates starts with that translation. The run holds a
lock on the catalogs, so several people may run it at once.
"""

from __future__ import annotations

import argparse
import fcntl
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = Path(__file__).resolve().parent
GAMES = ROOT / "companion" / "games"
KEYWORDS = {"_": None, "N_": None, "IllegalMove": (1,), "ngettext": (1, 2), "plural_forms": (1, 2)}
TRANSLATED = ("fr",)


@dataclass(frozen=True)
class Domain:
    """One catalog: its name, the folder its strings are read from, how, and where it is kept."""

    name: str
    source: Path
    methods: tuple[tuple[str, str], ...]
    locale: Path

    def po_path(self, lang: str) -> Path:
        return self.locale / lang / "LC_MESSAGES" / f"{self.name}.po"


PLATFORM = Domain("messages", ROOT, (("companion/games/*/**", "ignore"), ("companion/**.py", "python"),
                                     ("web/templates/**.html", "jinja2")), LOCALE)


def game_domain(package: Path, name: str | None = None) -> Domain:
    """The catalog of the game whose package folder is `package` (its domain is the game's name)."""
    return Domain(name or package.name, package, (("locale/**", "ignore"), ("**.py", "python"),
                                                  ("templates/**.html", "jinja2")), package / "locale")


def domains() -> list[Domain]:
    """The platform's catalog and every bundled game's."""
    return [PLATFORM, *(game_domain(init.parent) for init in sorted(GAMES.glob("*/__init__.py")))]


def extract(domain: Domain = PLATFORM) -> Catalog:
    """Every msgid the domain's code and templates use."""
    template = Catalog(fuzzy=False)
    options: dict[str, dict[str, str]] = {pattern: {} for pattern, method in domain.methods
                                          if method == "jinja2"}
    for filename, lineno, message, comments, context in extract_from_dir(
            domain.source, list(domain.methods), keywords=KEYWORDS, options_map=options):
        if "locale/update.py" not in filename:
            template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def translated(message) -> bool:
    """Whether a catalog entry has its translation: every form of a plural."""
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(forms)


def po_path(lang: str, domain: Domain = PLATFORM) -> Path:
    return domain.po_path(lang)


def load(lang: str, domain: Domain = PLATFORM) -> Catalog:
    path = domain.po_path(lang)
    if not path.exists():
        return Catalog(locale=lang)
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def compiled(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.locale.update",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--merge", type=Path, action="append", default=[],
                        help="JSON file of {msgid: French} (a plural: its singular msgid, and a list of "
                             "the French forms); fills (or replaces) those translations")
    parser.add_argument("--game", type=Path, action="append", default=[],
                        help="the package folder of a game shipped on its own (repeatable)")
    args = parser.parse_args(argv)
    given: dict[str, str] = {}
    for path in args.merge:
        given |= json.loads(path.read_text(encoding="utf-8"))
    chosen = [game_domain(path.resolve()) for path in args.game] or domains()
    with (LOCALE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _update(chosen, {"fr": given})


def _update(chosen: list[Domain], given: dict[str, dict[str, str]]) -> int:
    missing = 0
    unused = set(given.get("fr", {}))
    for lang in TRANSLATED:
        platform = load(lang)
        for domain in chosen:
            catalog = load(lang, domain)
            created = catalog.creation_date
            catalog.update(extract(domain), no_fuzzy_matching=True)
            for message in catalog:
                if message.id and not message.string and domain is not PLATFORM and message.id in platform:
                    message.string = platform[message.id].string
            for msgid, text in given.get(lang, {}).items():
                if msgid in catalog:  # a plural's msgid is its singular, and its French a list of forms
                    catalog[msgid].string = tuple(text) if isinstance(text, list) else text
                    unused.discard(msgid)
            # update() stamps the template's date: keep the old one, so an unchanged catalog stays byte-equal.
            catalog.creation_date = created
            catalog.fuzzy = False  # a fuzzy header would be left out of the .mo, and with it the charset
            catalog.project, catalog.version = "table-companion", ""
            path = domain.po_path(lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                write_po(f, catalog, omit_header=False, no_location=True, sort_output=True,
                         ignore_obsolete=True)
            path.with_suffix(".mo").write_bytes(compiled(catalog))
            untranslated = [m.id for m in catalog if m.id and not translated(m)]
            missing += len(untranslated)
            for entry in untranslated:
                print(f"{path}: untranslated: {entry!r}", file=sys.stderr)
    for msgid in sorted(unused):
        print(f"--merge: no code uses {msgid!r}; left out", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
