"""The printable track: the start line and numbered blank route cards on A4 pages, as a PDF.

The device holds the route cards' faces; the table needs only cards it can tell apart and lay in order.
Run `python -m companion.games.rallye.printable` to write static/track.pdf (served at
/games/rallye/track.pdf) and the preview of its first page linked from docs/games/rallye.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

from companion.gamekit import font
from companion.games.rallye.commands import MAX_POSITION
from companion.games.rallye.names import START_ICON

DPI = 150
A4 = (round(210 / 25.4 * DPI), round(297 / 25.4 * DPI))  # 1240 x 1754 px
MARGIN = round(10 / 25.4 * DPI)
COLS, ROWS = 4, 4  # 16 cards of about 47 x 69 mm a page
HERE = Path(__file__).resolve().parent
PDF = HERE / "static" / "track.pdf"
PREVIEW = HERE.parents[2] / "docs" / "games" / "rallye-track.png"


def card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], number: int) -> None:
    """One card: its cutting line, its number large, the start line's flag, and the way to go."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=DPI // 8, outline=0, width=3)
    w, h = x1 - x0, y1 - y0
    big = font(round(h * (0.28 if number else 0.22)), bold=True)
    text = str(number) if number else f"{START_ICON} 0"
    draw.text((x0 + w / 2, y0 + h * 0.42), text, font=big, fill=0, anchor="mm")
    small = font(round(h * 0.055))
    label = "Départ · Start" if number == 0 else "Le rallye hasardeux"
    draw.text((x0 + w / 2, y0 + h * 0.12), label, font=small, fill=0, anchor="mm")
    draw.text((x0 + w / 2, y0 + h * 0.8), "\u2192", font=font(round(h * 0.12)), fill=0, anchor="mm")


def pages(count: int = MAX_POSITION + 1) -> list[Image.Image]:
    """The start line and cards 1 to `count` - 1, COLS x ROWS a page."""
    width = (A4[0] - 2 * MARGIN) // COLS
    height = (A4[1] - 2 * MARGIN) // ROWS
    per_page = COLS * ROWS
    out = []
    for first in range(0, count, per_page):
        page = Image.new("1", A4, 1)
        draw = ImageDraw.Draw(page)
        draw.fontmode = "1"
        for i, number in enumerate(range(first, min(count, first + per_page))):
            row, col = divmod(i, COLS)
            x0, y0 = MARGIN + col * width, MARGIN + row * height
            card(draw, (x0 + 6, y0 + 6, x0 + width - 6, y0 + height - 6), number)
        out.append(page)
    return out


def write(pdf: Path = PDF, preview: Path = PREVIEW) -> None:
    sheets = pages()
    sheets[0].save(pdf, "PDF", resolution=DPI, save_all=True, append_images=sheets[1:],
                   title="Le rallye hasardeux", creationDate=None, modDate=None)
    sheets[0].resize((A4[0] // 4, A4[1] // 4)).save(preview, optimize=True)


if __name__ == "__main__":
    write(*(Path(arg) for arg in sys.argv[1:3]))
