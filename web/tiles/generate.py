"""Draw the tile faces as SVG files: ``python3 web/tiles/generate.py``.

The SVGs next to this script are its output and are committed, so the client
needs no build step; run it again only after changing a drawing here. Every
face is vector geometry (strokes, circles, paths): no font is involved, so the
tiles look the same on every machine, CJK fonts installed or not.

Files are named by tile notation (R1): ``1m``..``9m``, ``0m`` (red five),
``1p``.., ``1s``.., ``1z``..``7z`` (E S W N haku hatsu chun) and ``back``.
"""

from __future__ import annotations

import math
from pathlib import Path

OUT = Path(__file__).resolve().parent

W, H = 60, 80
FACE_H = 74  # the face; the strip below it is the tile's coloured back seen edge-on

INK = "#1e1e24"
RED = "#c62828"
GREEN = "#1e7a45"
BLUE = "#1f4fa0"
FACE = "#fbf7ec"
BACK = "#2b7a5c"

Point = tuple[float, float]
Glyph = list[list[Point]]

# Stroke glyphs on a 100 x 100 grid. Each is a list of polylines drawn with a
# round pen; the shapes follow the strokes of the printed characters closely
# enough to read at 20 px, which is what matters on a tile.
GLYPHS: dict[str, Glyph] = {
    "1": [[(8, 50), (92, 50)]],
    "2": [[(22, 30), (78, 30)], [(8, 74), (92, 74)]],
    "3": [[(20, 16), (80, 16)], [(28, 50), (72, 50)], [(8, 86), (92, 86)]],
    "4": [
        [(12, 16), (12, 90)],
        [(12, 16), (88, 16), (88, 90)],
        [(12, 86), (88, 86)],
        [(40, 16), (38, 48), (24, 64)],
        [(60, 16), (60, 56), (68, 62), (88, 62)],
    ],
    "5": [
        [(16, 12), (84, 12)],
        [(46, 12), (38, 86)],
        [(22, 46), (74, 46), (70, 86)],
        [(6, 88), (94, 88)],
    ],
    "6": [
        [(46, 4), (56, 18)],
        [(8, 34), (92, 34)],
        [(38, 52), (16, 88)],
        [(62, 52), (86, 86)],
    ],
    "7": [
        [(6, 50), (94, 36)],
        [(38, 8), (38, 78), (48, 90), (84, 90), (90, 74)],
    ],
    "8": [
        [(40, 14), (34, 56), (8, 90)],
        [(60, 12), (66, 56), (94, 88)],
    ],
    "9": [
        [(6, 36), (62, 36), (60, 78), (70, 90), (88, 90), (94, 72)],
        [(36, 6), (34, 56), (8, 92)],
    ],
    "man": [
        [(6, 14), (94, 14)],
        [(30, 2), (30, 26)],
        [(70, 2), (70, 26)],
        [(22, 32), (22, 58)],
        [(22, 32), (78, 32), (78, 58)],
        [(22, 45), (78, 45)],
        [(50, 32), (50, 58)],
        [(22, 58), (78, 58)],
        [(14, 68), (14, 98)],
        [(14, 68), (86, 68), (86, 92), (76, 98)],
        [(50, 58), (50, 80)],
        [(32, 92), (50, 78), (66, 90)],
    ],
    "E": [
        [(8, 22), (92, 22)],
        [(50, 2), (50, 98)],
        [(22, 34), (78, 34), (78, 64), (22, 64), (22, 34)],
        [(22, 49), (78, 49)],
        [(44, 68), (10, 94)],
        [(56, 68), (90, 94)],
    ],
    "S": [
        [(8, 14), (92, 14)],
        [(50, 2), (50, 28)],
        [(14, 32), (14, 98)],
        [(14, 32), (86, 32), (86, 92), (74, 98)],
        [(34, 40), (42, 50)],
        [(66, 40), (58, 50)],
        [(28, 56), (72, 56)],
        [(30, 74), (70, 74)],
        [(50, 56), (50, 96)],
    ],
    "W": [
        [(6, 10), (94, 10)],
        [(14, 32), (14, 96)],
        [(14, 32), (86, 32), (86, 96)],
        [(14, 90), (86, 90)],
        [(40, 10), (40, 46), (26, 64)],
        [(60, 10), (60, 58), (68, 64), (86, 64)],
    ],
    "N": [
        [(36, 6), (36, 92)],
        [(10, 38), (36, 38)],
        [(6, 80), (36, 64)],
        [(64, 6), (64, 84), (72, 92), (94, 92), (94, 76)],
        [(92, 30), (64, 48)],
    ],
    "chun": [
        [(12, 26), (88, 26), (88, 68), (12, 68), (12, 26)],
        [(50, 2), (50, 98)],
    ],
    "hatsu": [
        [(14, 6), (38, 6), (8, 36)],
        [(22, 22), (40, 34)],
        [(58, 4), (66, 12)],
        [(56, 22), (88, 22)],
        [(70, 10), (64, 30), (92, 38)],
        [(10, 46), (38, 46), (36, 60), (12, 60), (10, 76), (38, 76), (36, 96), (26, 92)],
        [(58, 42), (54, 58), (46, 64)],
        [(62, 44), (76, 44), (76, 58), (86, 60)],
        [(52, 70), (86, 70), (56, 98)],
        [(62, 78), (92, 98)],
    ],
}


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def glyph(name: str, x: float, y: float, w: float, h: float, color: str, pen: float) -> str:
    """A stroke glyph fitted into the box (x, y, w, h); pen is in grid units."""
    sx, sy = w / 100, h / 100
    parts = []
    for line in GLYPHS[name]:
        pts = " ".join(f"{_fmt(x + px * sx)},{_fmt(y + py * sy)}" for px, py in line)
        parts.append(f'<polyline points="{pts}"/>')
    width = _fmt(pen * (sx + sy) / 2)
    return (
        f'<g fill="none" stroke="{color}" stroke-width="{width}" '
        f'stroke-linecap="round" stroke-linejoin="round">{"".join(parts)}</g>'
    )


def pin(cx: float, cy: float, r: float, color: str) -> str:
    """One circle of a pinzu tile: a ring with a centre dot, as on real tiles."""
    return (
        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r)}" fill="{color}"/>'
        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r * 0.6)}" fill="{FACE}"/>'
        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r * 0.32)}" fill="{color}"/>'
    )


def stick(cx: float, cy: float, length: float, color: str, tilt: float = 0) -> str:
    """One bamboo stick of a souzu tile, with the joints marked."""
    w = 7.4
    x0, y0 = cx - w / 2, cy - length / 2
    # A joint across the middle and swollen ends, as bamboo is drawn on real tiles.
    joint = (
        f'<line x1="{_fmt(x0 - 0.6)}" y1="{_fmt(cy)}" x2="{_fmt(x0 + w + 0.6)}" '
        f'y2="{_fmt(cy)}" stroke="{FACE}" stroke-width="1.4"/>'
    )
    body = (
        f'<rect x="{_fmt(x0)}" y="{_fmt(y0)}" width="{_fmt(w)}" height="{_fmt(length)}" '
        f'rx="3.2" fill="{color}"/>'
        f'<rect x="{_fmt(x0 - 0.6)}" y="{_fmt(y0)}" width="{_fmt(w + 1.2)}" height="2.6" '
        f'rx="1.3" fill="{color}"/>'
        f'<rect x="{_fmt(x0 - 0.6)}" y="{_fmt(y0 + length - 2.6)}" width="{_fmt(w + 1.2)}" '
        f'height="2.6" rx="1.3" fill="{color}"/>'
        f'<line x1="{_fmt(cx)}" y1="{_fmt(y0 + 3)}" x2="{_fmt(cx)}" '
        f'y2="{_fmt(y0 + length - 3)}" stroke="{FACE}" stroke-width="1" opacity="0.6"/>'
    )
    g = body + joint
    if tilt:
        return f'<g transform="rotate({_fmt(tilt)} {_fmt(cx)} {_fmt(cy)})">{g}</g>'
    return g


def bird() -> str:
    """1s: the bird (a peacock on most sets), kept to a few bold shapes."""
    tail = []
    for ang, col in ((-30, GREEN), (0, BLUE), (30, GREEN)):
        a = math.radians(ang)
        ex, ey = 38 + 22 * math.sin(a), 50 + 20 * math.cos(a)
        tail.append(
            f'<path d="M38 50 Q{_fmt(38 + 16 * math.sin(a) - 5)} {_fmt(50 + 10 * math.cos(a))} '
            f'{_fmt(ex)} {_fmt(ey)}" fill="none" stroke="{col}" stroke-width="4" '
            'stroke-linecap="round"/>'
            f'<circle cx="{_fmt(ex)}" cy="{_fmt(ey)}" r="3.4" fill="{RED}"/>'
        )
    return (
        "".join(tail)
        + f'<ellipse cx="32" cy="40" rx="11" ry="15" fill="{GREEN}"/>'
        + f'<path d="M27 34 Q40 36 40 52 Q30 48 27 34 Z" fill="{BLUE}"/>'
        + f'<path d="M30 28 Q26 22 27 16" fill="none" stroke="{GREEN}" stroke-width="7" '
        'stroke-linecap="round"/>'
        + f'<circle cx="26" cy="15" r="6.5" fill="{GREEN}"/>'
        + f'<circle cx="24.5" cy="13.5" r="1.6" fill="{FACE}"/>'
        + f'<path d="M20.5 13 L12 17 L20.5 18 Z" fill="{RED}"/>'
        + f'<circle cx="29" cy="7" r="2.2" fill="{RED}"/>'
        + f'<circle cx="33" cy="9.5" r="2" fill="{RED}"/>'
        + f'<path d="M29 54 L26 66 M35 54 L36 66" stroke="{RED}" stroke-width="2.2" '
        'stroke-linecap="round"/>'
    )


def pinzu(n: int, red: bool = False) -> str:
    B, R, G = (RED, RED, RED) if red else (BLUE, RED, GREEN)
    layouts: dict[int, list[tuple[float, float, float, str]]] = {
        2: [(30, 22, 12, G), (30, 54, 12, B)],
        3: [(16, 17, 9.5, B), (30, 38, 9.5, R), (44, 59, 9.5, G)],
        4: [(18, 22, 10.5, B), (42, 22, 10.5, G), (18, 54, 10.5, G), (42, 54, 10.5, B)],
        5: [
            (17, 18, 9, B),
            (43, 18, 9, G),
            (30, 38, 9, R),
            (17, 58, 9, G),
            (43, 58, 9, B),
        ],
        6: [(18, 15, 8.5, G), (42, 15, 8.5, G)]
        + [(x, y, 8.5, R) for y in (40, 60) for x in (18, 42)],
        7: [(14, 12, 7.2, G), (30, 19, 7.2, G), (46, 26, 7.2, G)]
        + [(x, y, 7.5, R) for y in (45, 62) for x in (20, 40)],
        8: [(x, y, 7.4, B) for y in (13, 29.5, 46, 62.5) for x in (19, 41)],
        9: [(x, 17, 7.6, B) for x in (13.5, 30, 46.5)]
        + [(x, 38, 7.6, R) for x in (13.5, 30, 46.5)]
        + [(x, 59, 7.6, G) for x in (13.5, 30, 46.5)],
    }
    if n == 1:
        return (
            f'<circle cx="30" cy="37" r="21" fill="{GREEN}"/>'
            f'<circle cx="30" cy="37" r="17.5" fill="{FACE}"/>'
            + "".join(
                f'<circle cx="{_fmt(30 + 14.5 * math.cos(i * math.pi / 6))}" '
                f'cy="{_fmt(37 + 14.5 * math.sin(i * math.pi / 6))}" r="1.8" fill="{BLUE}"/>'
                for i in range(12)
            )
            + f'<circle cx="30" cy="37" r="11" fill="{RED}"/>'
            f'<circle cx="30" cy="37" r="6.5" fill="{FACE}"/>'
            f'<circle cx="30" cy="37" r="3.5" fill="{RED}"/>'
        )
    return "".join(pin(x, y, r, c) for x, y, r, c in layouts[n])


def souzu(n: int, red: bool = False) -> str:
    G = RED if red else GREEN
    R = RED
    B = RED if red else BLUE
    if n == 1:
        return bird()
    L = 24.0
    layouts: dict[int, list[tuple[float, float, float, str, float]]] = {
        2: [(30, 22, L, G, 0), (30, 54, L, B, 0)],
        3: [(30, 22, L, G, 0), (20, 54, L, G, 0), (40, 54, L, B, 0)],
        4: [(x, y, L, c, 0) for y, c in ((22, G), (54, B)) for x in (20, 40)],
        5: [
            (16, 22, L, G, 0),
            (44, 22, L, B, 0),
            (30, 38, L, R, 0),
            (16, 54, L, B, 0),
            (44, 54, L, G, 0),
        ],
        6: [(x, y, L, c, 0) for y, c in ((22, G), (54, B)) for x in (16, 30, 44)],
        7: [(30, 15, 18, R, 0)]
        + [(x, y, 18, c, 0) for y, c in ((38, G), (61, B)) for x in (16, 30, 44)],
        8: [
            (11, 22, L, G, 0),
            (23, 22, L, G, 22),
            (37, 22, L, G, -22),
            (49, 22, L, G, 0),
            (11, 54, L, B, 0),
            (23, 54, L, B, -22),
            (37, 54, L, B, 22),
            (49, 54, L, B, 0),
        ],
        9: [
            (x, y, 18, R if x == 30 else c, 0)
            for y, c in ((15, G), (38, B), (61, G))
            for x in (14, 30, 46)
        ],
    }
    return "".join(stick(x, y, ln, c, t) for x, y, ln, c, t in layouts[n])


def manzu(n: int, red: bool = False) -> str:
    return glyph(str(n), 13, 7, 34, 27, RED if red else INK, 10) + glyph(
        "man", 9, 38, 42, 33, RED, 8
    )


def jihai(n: int) -> str:
    if n == 5:  # haku: a blank face with a blue frame, as on most Japanese sets
        return (
            f'<rect x="11" y="10" width="38" height="54" rx="3" fill="none" '
            f'stroke="{BLUE}" stroke-width="3"/>'
            f'<rect x="16" y="15" width="28" height="44" rx="1.5" fill="none" '
            f'stroke="{BLUE}" stroke-width="1.2"/>'
        )
    name, color = {
        1: ("E", INK),
        2: ("S", INK),
        3: ("W", INK),
        4: ("N", INK),
        6: ("hatsu", GREEN),
        7: ("chun", RED),
    }[n]
    return glyph(name, 8, 12, 44, 50, color, 9)


def tile_svg(body: str, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="6" fill="{BACK}"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="6" fill="{FACE}" '
        f'stroke="#cfc6ad" stroke-width="1"/>'
        f"{body}</svg>\n"
    )


def back_svg() -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="back">'
        "<title>back</title>"
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="6" fill="#1d5c44"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="6" fill="{BACK}"/>'
        f'<rect x="6" y="6" width="{W - 12}" height="{FACE_H - 11}" rx="3" fill="none" '
        'stroke="#d9ecdf" stroke-opacity="0.35" stroke-width="1.5"/></svg>\n'
    )


def all_tiles() -> dict[str, str]:
    out: dict[str, str] = {}
    for n in range(1, 10):
        out[f"{n}m"] = tile_svg(manzu(n), f"{n}m")
        out[f"{n}p"] = tile_svg(pinzu(n), f"{n}p")
        out[f"{n}s"] = tile_svg(souzu(n), f"{n}s")
    out["0m"] = tile_svg(manzu(5, red=True), "0m")
    out["0p"] = tile_svg(pinzu(5, red=True), "0p")
    out["0s"] = tile_svg(souzu(5, red=True), "0s")
    for n in range(1, 8):
        out[f"{n}z"] = tile_svg(jihai(n), f"{n}z")
    out["back"] = back_svg()
    return out


def write_all(out: Path = OUT) -> list[str]:
    """Write every tile file into ``out``; returns the names written."""
    tiles = all_tiles()
    for name, svg in tiles.items():
        (out / f"{name}.svg").write_text(svg, encoding="utf-8")
    return sorted(tiles)


def main() -> None:
    names = write_all()
    print(f"wrote {len(names)} tiles to {OUT}")


if __name__ == "__main__":
    main()
