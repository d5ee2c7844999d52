"""Refresh the catalogs with Babel: extract every msgid, merge into fr, compile the .mo files.

Run `python -m companion.locale.update` after changing any player-facing string. To add French
for new strings, put {"msgid": "French", ...} in a JSON file and run it with `--merge FILE`. The
run holds a lock on the catalog, so several people may run it at once.
"""

from __future__ import annotations

import argparse
import fcntl
import io
import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = Path(__file__).resolve().parent
KEYWORDS = {"_": None, "N_": None, "IllegalMove": (1,)}
METHODS = [("companion/**.py", "python"), ("web/templates/**.html", "jinja2")]
TRANSLATED = ("fr",)


def extract() -> Catalog:
    """Every msgid the code and templates use."""
    template = Catalog(fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, METHODS, keywords=KEYWORDS, options_map={"web/templates/**.html": {}}):
        if "locale/update.py" not in filename:
            template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "messages.po"


def load(lang: str) -> Catalog:
    path = po_path(lang)
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
                        help="JSON file of {msgid: French}; fills (or replaces) those translations")
    args = parser.parse_args(argv)
    given: dict[str, str] = {}
    for path in args.merge:
        given |= json.loads(path.read_text(encoding="utf-8"))
    with (LOCALE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _update({"fr": given})


def _update(given: dict[str, dict[str, str]]) -> int:
    template = extract()
    missing = 0
    for lang in TRANSLATED:
        catalog = load(lang)
        created = catalog.creation_date
        catalog.update(template, no_fuzzy_matching=True)
        for msgid, text in given.get(lang, {}).items():
            if msgid in catalog:
                catalog[msgid].string = text
            else:
                print(f"--merge: no code uses {msgid!r}; left out", file=sys.stderr)
        # update() stamps the template's date: keep the old one, so an unchanged catalog stays byte-equal.
        catalog.creation_date = created
        catalog.fuzzy = False  # a fuzzy header would be left out of the .mo, and with it the charset
        catalog.project, catalog.version = "table-companion", ""
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, catalog, omit_header=False, no_location=True, sort_output=True, ignore_obsolete=True)
        path.with_suffix(".mo").write_bytes(compiled(catalog))
        untranslated = [m.id for m in catalog if m.id and not m.string]
        missing += len(untranslated)
        for msgid in untranslated:
            print(f"{path}: untranslated: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
