"""Page scripts never hand text they did not write to String.replace as its replacement: there `$&`, `$$`,
`$'` and `` $` `` are patterns, so a password or a name holding them would be shown changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The platform's pages, every bundled game's, and the test game's; templates for their inline scripts.
SCRIPTS = sorted({*ROOT.glob("web/static/*.js"), *ROOT.glob("companion/**/static/*.js"),
                  *ROOT.glob("tests/tinygame/*/static/*.js")})
TEMPLATES = sorted({*ROOT.glob("web/templates/**/*.html"), *ROOT.glob("companion/**/templates/**/*.html"),
                    *ROOT.glob("tests/tinygame/*/templates/*.html")})
CALL = re.compile(r"\.replace(?:All)?\(")
CLOSING = {"(": ")", "[": "]", "{": "}"}


def arguments(source: str, start: int) -> list[str]:
    """The arguments of the call whose "(" is just before `start`, split at its top-level commas. Strings,
    template literals and regular expressions are skipped whole, so their commas and brackets do not count."""
    args, depth, index, begun = [], [], start, start
    while index < len(source):
        char = source[index]
        if char in "\"'`":
            index = _past_quote(source, index)
            continue
        if char == "/" and source[begun:index].strip() == "" and not depth:  # a regex as an argument
            index = _past_quote(source, index)
            continue
        if char in CLOSING:
            depth.append(CLOSING[char])
        elif depth and char == depth[-1]:
            depth.pop()
        elif char == ")" and not depth:
            args.append(source[begun:index].strip())
            return args
        elif char == "," and not depth:
            args.append(source[begun:index].strip())
            begun = index + 1
        index += 1
    raise AssertionError(f"unclosed call at {start}")


def _past_quote(source: str, index: int) -> int:
    quote, index, in_class = source[index], index + 1, False
    while source[index] != quote or in_class:
        if source[index] == "\\":
            index += 1
        elif quote == "/" and source[index] in "[]":
            in_class = source[index] == "["
        index += 1
    return index + 1


def safe_replacement(arg: str) -> bool:
    """A function (its return value is used as it is), or a literal string without `$` in it."""
    if re.match(r"(\w+|\([\w\s,]*\))\s*=>|function\b", arg):
        return True
    return bool(re.fullmatch(r"\"[^\"$\\]*\"|'[^'$\\]*'", arg))


def replacements(source: str) -> list[tuple[int, str]]:
    """(line, replacement argument) of every .replace( and .replaceAll( call in `source`."""
    found = []
    for call in CALL.finditer(source):
        args = arguments(source, call.end())
        found.append((source.count("\n", 0, call.start()) + 1, args[1] if len(args) > 1 else ""))
    return found


def inline_scripts(html: str) -> list[str]:
    """The code of a template's <script> elements (not JSON data blocks, not scripts loaded by src)."""
    return [code for attrs, code in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
            if "src=" not in attrs and "application/json" not in attrs]


def test_the_scan_sees_what_it_must_refuse():
    code = ('a.replace("{x}", value); b.replace(/_/g, " "); c.replace(/\\{(\\w+)\\}/g, (m, k) => p[k]);'
            'd.replaceAll(",", "$&"); e.replace(f(g, h), i); j.replaceChildren(k);')
    assert [(arg, safe_replacement(arg)) for _, arg in replacements(code)] == [
        ("value", False), ('" "', True), ("(m, k) => p[k]", True), ('"$&"', False), ("i", False)]


@pytest.mark.parametrize("path", SCRIPTS + TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_script_hands_its_data_to_replace_as_the_replacement(path):
    text = path.read_text(encoding="utf-8")
    sources = inline_scripts(text) if path.suffix == ".html" else [text]
    unsafe = [(line, arg) for source in sources for line, arg in replacements(source)
              if not safe_replacement(arg)]
    assert unsafe == [], (f"{path.relative_to(ROOT)}: a replacement that may hold `$` patterns (use a "
                          f"function, or Companion.fill): {unsafe}")
