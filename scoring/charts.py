"""Charts drawn on the server as SVG: plain string building, no JavaScript, no libraries.

:func:`line_chart` draws one polyline per :class:`Line` (a player's cumulative league points over
the season's giornate, beside the leaders'); :func:`bar_chart` draws horizontal bars (average
points per game). Both return a standalone ``<svg>`` element that scales to its container
(``viewBox`` and ``width="100%"``) and stays readable on a 390px phone: the drawing is 400 units
wide, so text of 12 units is still about 10 CSS pixels there.

Every text passes through :func:`esc`: player names come from users.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from xml.sax.saxutils import escape

Number = int | float | Decimal
Formatter = Callable[[float], str]

WIDTH = 400
FONT = 14
SMALL = 12
INK = "#1d2330"
MUTED = "#5b6474"
GRID = "#e3e7ee"
AXIS = "#8a93a3"
RED = "#c0262d"
GREEN = "#1b7f3b"
HIGHLIGHT = "#0b5d3b"
PALETTE = ("#1f5fbf", "#d46a00", "#7b3fa0", "#8a6d00", "#0f7c8c", "#b3366b")


@dataclass(frozen=True)
class Line:
    """One line of a :func:`line_chart`: a value per x label from ``start`` on (a member who
    joined at the fourth giornata starts at 3 and has ``len(x_labels) - 3`` values)."""

    label: str
    values: Sequence[Number]
    highlight: bool = False
    start: int = 0


@dataclass(frozen=True)
class Bar:
    """One bar of a :func:`bar_chart`; ``suit`` (S/H/D/C) is drawn after the label."""

    label: str
    value: Number
    suit: str = ""
    note: str = ""  # a tooltip, e.g. "12 smazzate"


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def esc(text: object) -> str:
    """Text safe inside an SVG element or a double-quoted attribute."""
    return escape(str(text), {'"': "&quot;"})


def _f(x: float) -> str:
    """A coordinate, short: ``12.5``, ``40``."""
    return f"{x:.1f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 × 10ⁿ) covering ``lo``..``hi``."""
    if hi < lo:
        lo, hi = hi, lo
    if math.isclose(lo, hi):
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw - 1e-12)
    start = math.floor(lo / step + 1e-9) * step
    end = math.ceil(hi / step - 1e-9) * step
    n = round((end - start) / step)
    return [round(start + i * step, 10) for i in range(n + 1)]


def default_format(value: float) -> str:
    """``3``, ``2.5``, ``-0.75`` with a true minus sign."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.replace("-", "−")


def _svg_open(chart_id: str, height: float, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {_f(height)}" '
        f'width="100%" preserveAspectRatio="xMidYMid meet" role="img" class="kc-chart" '
        f'aria-labelledby="{esc(chart_id)}-title {esc(chart_id)}-desc" '
        f'font-family="DejaVu Sans, system-ui, sans-serif" font-size="{FONT}">',
        f'<title id="{esc(chart_id)}-title">{esc(title)}</title>',
        f'<desc id="{esc(chart_id)}-desc">{esc(desc)}</desc>',
    ]


def even_indices(n: int, limit: int) -> list[int]:
    """At most ``limit`` (≥ 2) indices of ``range(n)``, evenly spaced, the first and the last
    always among them: every index when ``n <= limit``. A long season's chart keeps one point
    every few giornate, so drawing it costs the same whatever the number of giornate."""
    if n <= limit:
        return list(range(n))
    return sorted({round(j * (n - 1) / (limit - 1)) for j in range(limit)})


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def line_chart(
    lines: Sequence[Line],
    x_labels: Sequence[str],
    *,
    title: str,
    chart_id: str = "chart",
    x_title: str = "",
    y_title: str = "",
    empty_text: str = "—",
    fmt: Formatter = default_format,
    max_x_ticks: int = 6,
    show_title: bool = True,
) -> str:
    """A line chart: axes with round ticks, a zero line, one polyline per line and a legend.

    Every line has one point per x label. The highlighted line is drawn last, thicker.
    ``show_title=False`` keeps the title for screen readers only (the page has a heading).
    """
    left, right, plot_h = 46.0, 12.0, 200.0
    top = 30.0 if show_title else 10.0
    plot_w = WIDTH - left - right
    legend_cols = 2
    legend_rows = math.ceil(len(lines) / legend_cols) if lines else 0
    x_axis_h = 22 + (18 if x_title else 0)
    height = top + plot_h + x_axis_h + 10 + legend_rows * 20 + 6
    out = _svg_open(chart_id, height, title, f"{title}: {', '.join(ln.label for ln in lines)}")
    if show_title:
        out.append(
            f'<text x="{_f(left)}" y="18" font-weight="700" fill="{INK}">{esc(title)}</text>'
        )
    n = len(x_labels)
    if not n or not lines:
        out.append(
            f'<text x="{_f(WIDTH / 2)}" y="{_f(top + plot_h / 2)}" text-anchor="middle" '
            f'fill="{MUTED}">{esc(empty_text)}</text>'
        )
        out.append("</svg>")
        return "\n".join(out)

    values = [float(v) for ln in lines for v in ln.values]
    ticks = nice_ticks(min([*values, 0.0]), max([*values, 0.0]))
    y_lo, y_hi = ticks[0], ticks[-1]

    def x_at(i: int) -> float:
        return left + (plot_w / 2 if n == 1 else i * plot_w / (n - 1))

    def y_at(v: float) -> float:
        return top + plot_h - (v - y_lo) / (y_hi - y_lo) * plot_h

    # y axis: grid lines and tick labels
    out.append('<g class="y-axis">')
    for t in ticks:
        y = y_at(t)
        colour = AXIS if t == 0 else GRID
        out.append(
            f'<line x1="{_f(left)}" y1="{_f(y)}" x2="{_f(left + plot_w)}" y2="{_f(y)}" '
            f'stroke="{colour}" stroke-width="1"/>'
        )
        out.append(
            f'<text class="tick" x="{_f(left - 6)}" y="{_f(y + 4)}" text-anchor="end" '
            f'font-size="{SMALL}" fill="{MUTED}">{esc(fmt(t))}</text>'
        )
    if y_title:
        cy = top + plot_h / 2
        out.append(
            f'<text class="axis-title" x="12" y="{_f(cy)}" text-anchor="middle" '
            f'font-size="{SMALL}" fill="{MUTED}" transform="rotate(-90 12 {_f(cy)})">'
            f"{esc(y_title)}</text>"
        )
    out.append("</g>")

    # x axis: the baseline, ticks at evenly spaced giornate (the first and the last included)
    base = top + plot_h
    out.append('<g class="x-axis">')
    out.append(
        f'<line x1="{_f(left)}" y1="{_f(base)}" x2="{_f(left + plot_w)}" y2="{_f(base)}" '
        f'stroke="{AXIS}" stroke-width="1"/>'
    )
    k = max(1, min(max_x_ticks, n))
    tick_idx = sorted({round(j * (n - 1) / (k - 1)) for j in range(k)} if k > 1 else {0})
    for i in tick_idx:
        x = x_at(i)
        anchor = "start" if n > 1 and i == 0 else "end" if n > 1 and i == n - 1 else "middle"
        out.append(
            f'<line x1="{_f(x)}" y1="{_f(base)}" x2="{_f(x)}" y2="{_f(base + 5)}" '
            f'stroke="{AXIS}" stroke-width="1"/>'
        )
        out.append(
            f'<text class="tick" x="{_f(x)}" y="{_f(base + 18)}" text-anchor="{anchor}" '
            f'font-size="{SMALL}" fill="{MUTED}">{esc(x_labels[i])}</text>'
        )
    if x_title:
        out.append(
            f'<text class="axis-title" x="{_f(left + plot_w / 2)}" y="{_f(base + 36)}" '
            f'text-anchor="middle" font-size="{SMALL}" fill="{MUTED}">{esc(x_title)}</text>'
        )
    out.append("</g>")

    # the lines: the highlighted one last, so it is drawn on top
    colours = {}
    palette = iter(PALETTE * (len(lines) // len(PALETTE) + 1))
    for k, ln in enumerate(lines):
        colours[k] = HIGHLIGHT if ln.highlight else next(palette)
    order = sorted(range(len(lines)), key=lambda k: lines[k].highlight)
    out.append('<g class="lines" fill="none" stroke-linejoin="round" stroke-linecap="round">')
    for k in order:
        ln = lines[k]
        if not ln.values:
            continue
        pts = " ".join(
            f"{_f(x_at(ln.start + i))},{_f(y_at(float(v)))}" for i, v in enumerate(ln.values)
        )
        width = 3 if ln.highlight else 1.75
        last = ln.values[-1]
        out.append(
            f'<polyline class="line{" highlight" if ln.highlight else ""}" '
            f'stroke="{colours[k]}" stroke-width="{width}" points="{pts}">'
            f"<title>{esc(ln.label)}: {esc(fmt(float(last)))}</title></polyline>"
        )
        if ln.values:
            i = ln.start + len(ln.values) - 1
            out.append(
                f'<circle cx="{_f(x_at(i))}" cy="{_f(y_at(float(last)))}" r="3" '
                f'fill="{colours[k]}" stroke="none"/>'
            )
    out.append("</g>")

    # the legend, two columns under the axis
    out.append(f'<g class="legend" font-size="{SMALL + 1}">')
    col_w = plot_w / legend_cols
    y0 = base + x_axis_h + 14
    for k, ln in enumerate(lines):
        cx = left + (k % legend_cols) * col_w
        cy = y0 + (k // legend_cols) * 20
        last = ln.values[-1] if ln.values else 0
        out.append(
            f'<line x1="{_f(cx)}" y1="{_f(cy - 4)}" x2="{_f(cx + 18)}" y2="{_f(cy - 4)}" '
            f'stroke="{colours[k]}" stroke-width="{3 if ln.highlight else 2}"/>'
        )
        weight = ' font-weight="700"' if ln.highlight else ""
        out.append(
            f'<text class="legend-label" x="{_f(cx + 24)}" y="{_f(cy)}" fill="{INK}"{weight}>'
            f"{esc(_shorten(ln.label, 18))} ({esc(fmt(float(last)))})</text>"
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    chart_id: str = "bars",
    empty_text: str = "—",
    fmt: Formatter = default_format,
) -> str:
    """Horizontal bars from a zero line, negative red and positive green, values on the right."""
    label_w, value_w, top, row_h = 74.0, 52.0, 30.0, 24.0
    left = label_w
    plot_w = WIDTH - label_w - value_w - 8
    height = top + max(len(bars), 1) * row_h + 10
    desc = "; ".join(
        f"{b.label}{SUIT_SYMBOLS.get(b.suit, '')}: {fmt(float(b.value))}" for b in bars
    )
    out = _svg_open(chart_id, height, title, desc or empty_text)
    out.append(f'<text x="0" y="18" font-weight="700" fill="{INK}">{esc(title)}</text>')
    if not bars:
        out.append(
            f'<text x="{_f(WIDTH / 2)}" y="{_f(top + row_h / 2 + 4)}" text-anchor="middle" '
            f'fill="{MUTED}">{esc(empty_text)}</text>'
        )
        out.append("</svg>")
        return "\n".join(out)
    values = [float(b.value) for b in bars]
    lo, hi = min([*values, 0.0]), max([*values, 0.0])
    if math.isclose(lo, hi):
        hi = lo + 1

    def x_at(v: float) -> float:
        return left + (v - lo) / (hi - lo) * plot_w

    zero = x_at(0.0)
    out.append('<g class="bars">')
    for k, b in enumerate(bars):
        v = float(b.value)
        y = top + k * row_h
        x0, x1 = sorted((zero, x_at(v)))
        colour = RED if v < 0 else GREEN
        suit_part = ""
        if b.suit in SUIT_SYMBOLS:
            fill = RED if b.suit in ("H", "D") else INK
            suit_part = f'<tspan fill="{fill}">{SUIT_SYMBOLS[b.suit]}</tspan>'
        out.append(
            f'<text class="bar-label" x="{_f(label_w - 8)}" y="{_f(y + row_h / 2 + 4)}" '
            f'text-anchor="end" fill="{INK}">{esc(b.label)}{suit_part}</text>'
        )
        note = f" ({esc(b.note)})" if b.note else ""
        out.append(
            f'<rect class="bar" x="{_f(x0)}" y="{_f(y + 4)}" width="{_f(max(x1 - x0, 1))}" '
            f'height="{_f(row_h - 8)}" rx="2" fill="{colour}">'
            f"<title>{esc(b.label)}{SUIT_SYMBOLS.get(b.suit, '')}: {esc(fmt(v))}{note}</title>"
            "</rect>"
        )
        out.append(
            f'<text class="bar-value" x="{_f(WIDTH - 2)}" y="{_f(y + row_h / 2 + 4)}" '
            f'text-anchor="end" fill="{colour}">{esc(fmt(v))}</text>'
        )
    out.append(
        f'<line x1="{_f(zero)}" y1="{_f(top)}" x2="{_f(zero)}" '
        f'y2="{_f(top + len(bars) * row_h)}" stroke="{AXIS}" stroke-width="1"/>'
    )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
