"""The server-side SVG charts: well-formed, one polyline per line, one point per giornata."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from scoring.charts import (
    Bar,
    Line,
    bar_chart,
    default_format,
    even_indices,
    line_chart,
    nice_ticks,
)

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return [
        "".join(t.itertext())
        for t in root.iter(f"{NS}text")
        if cls is None or t.get("class") == cls
    ]


def test_line_chart_is_well_formed_with_a_polyline_per_line():
    labels = [f"{d:02d}/09" for d in range(1, 11)]
    lines = [
        Line("Anna", [Decimal(i) / 2 for i in range(10)], highlight=True),
        Line("Bruno", [Decimal(-i) / 3 for i in range(10)]),
        Line("Carla", [Decimal(i % 3) for i in range(10)]),
        Line("Dario", [Decimal("1.25")] * 10),
    ]
    root = parse(line_chart(lines, labels, title="Punti", x_title="Giornata", y_title="Punti"))
    polylines = root.findall(f".//{NS}polyline")
    assert len(polylines) == 4
    for pl in polylines:
        points = pl.get("points").split()
        assert len(points) == 10
        assert all(len(p.split(",")) == 2 for p in points)
    # the highlighted line is drawn last (on top) and thicker
    assert "highlight" in polylines[-1].get("class")
    assert float(polylines[-1].get("stroke-width")) > float(polylines[0].get("stroke-width"))
    legend = texts(root, "legend-label")
    assert [t.split(" (")[0] for t in legend] == ["Anna", "Bruno", "Carla", "Dario"]
    assert legend[0] == "Anna (4.5)"
    ticks = texts(root, "tick")
    assert "01/09" in ticks and "10/09" in ticks  # first and last giornata labelled
    assert "0" in ticks  # the zero line is on the axis
    assert "Giornata" in texts(root, "axis-title") and "Punti" in texts(root, "axis-title")
    # scales to its container: a viewBox and a relative width, readable at 390px
    assert root.get("width") == "100%"
    width = float(root.get("viewBox").split()[2])
    assert width <= 420  # text of 12 units stays about 10 CSS px on a 390px screen
    assert root.find(f"{NS}title").text == "Punti"


def test_line_chart_x_ticks_are_thinned_on_long_seasons():
    labels = [f"G{i}" for i in range(1, 51)]
    root = parse(line_chart([Line("Anna", list(range(50)))], labels, title="t", max_x_ticks=6))
    ticks = [t for t in texts(root, "tick") if t.startswith("G")]
    assert 5 <= len(ticks) <= 8
    assert ticks[0] == "G1" and ticks[-1] == "G50"
    assert len(root.find(f".//{NS}polyline").get("points").split()) == 50


def test_line_chart_points_follow_the_values():
    root = parse(line_chart([Line("A", [0, 10]), Line("B", [10, 0])], ["1", "2"], title="t"))
    a, b = root.findall(f".//{NS}polyline")
    (ax0, ay0), (ax1, ay1) = (tuple(map(float, p.split(","))) for p in a.get("points").split())
    (bx0, by0), (bx1, by1) = (tuple(map(float, p.split(","))) for p in b.get("points").split())
    assert ax0 == bx0 < ax1 == bx1
    assert ay1 < ay0  # higher value, higher on screen (smaller y)
    assert (ay0, ay1) == (by1, by0)


def test_single_giornata_and_empty_chart():
    root = parse(line_chart([Line("Anna", [Decimal("2.00")])], ["04/09"], title="t"))
    assert len(root.find(f".//{NS}polyline").get("points").split()) == 1
    empty = parse(line_chart([], [], title="t", empty_text="Nessuna giornata"))
    assert empty.findall(f".//{NS}polyline") == []
    assert "Nessuna giornata" in texts(empty)


def test_texts_are_escaped():
    name = 'Bob <script>alert("x")</script> & Co'
    svg = line_chart([Line(name, [1, 2])], ["a", "b"], title="<b>t</b>")
    assert "<script>" not in svg
    root = parse(svg)
    assert any(t.startswith("Bob <script>") for t in texts(root, "legend-label"))


def test_bar_chart():
    bars = [
        Bar("NJ", Decimal("-2.50"), note="4 smazzate"),
        Bar("N", Decimal("-1"), suit="H"),
        Bar("NQ", Decimal("-8"), suit="S"),
        Bar("Semplice", Decimal("6.25")),
    ]
    root = parse(bar_chart(bars, title="Media punti per gioco"))
    rects = root.findall(f".//{NS}rect")
    assert len(rects) == 4
    assert [r.get("class") for r in rects] == ["bar"] * 4
    labels = texts(root, "bar-label")
    assert labels == ["NJ", "N♥", "NQ♠", "Semplice"]
    # the heart is red, the spade is not
    tspans = {t.text: t.get("fill") for t in root.iter(f"{NS}tspan")}
    assert tspans["♥"] == "#c0262d" and tspans["♠"] != "#c0262d"
    values = texts(root, "bar-value")
    assert values == ["−2.5", "−1", "−8", "6.25"]
    # negative bars end at the zero line, positive bars start there
    zero = float(rects[0].get("x")) + float(rects[0].get("width"))
    assert float(rects[3].get("x")) == pytest.approx(zero, abs=0.15)  # 1-decimal coordinates
    widths = [float(r.get("width")) for r in rects]
    assert widths[2] > widths[0] > widths[1]  # proportional to |value|
    assert parse(bar_chart([], title="t", empty_text="vuoto")).findall(f".//{NS}rect") == []


@pytest.mark.parametrize(
    ("lo", "hi"),
    [(0, 10), (-3.2, 7.9), (-0.4, 0.3), (0, 0), (12, 230), (-57, -3)],
)
def test_nice_ticks_cover_the_range(lo, hi):
    ticks = nice_ticks(lo, hi)
    assert ticks[0] <= lo and ticks[-1] >= hi
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    assert 2 <= len(ticks) <= 8


def test_default_format():
    assert default_format(3.0) == "3"
    assert default_format(-0.75) == "−0.75"
    assert default_format(-0.0) == "0"


def test_title_can_stay_for_screen_readers_only():
    svg = line_chart([Line("Anna", [1, 2])], ["a", "b"], title="Andamento", show_title=False)
    root = parse(svg)
    assert root.find(f"{NS}title").text == "Andamento"
    assert "Andamento" not in texts(root)
    assert root.get("aria-labelledby").startswith("chart-title")


def test_a_late_line_starts_at_its_first_giornata():
    """11.8: a member who joined at the fourth giornata is not drawn flat at 0 before it."""
    labels = ["04/09", "11/09", "18/09", "25/09", "02/10", "09/10"]
    full = Line("Anna", [1, 2, 3, 4, 5, 6])
    late = Line("Zeno", [Decimal("0.5"), Decimal("1.5"), 2], start=3, highlight=True)
    root = parse(line_chart([full, late], labels, title="t"))
    anna, zeno = root.findall(f".//{NS}polyline")
    a_pts = [tuple(map(float, p.split(","))) for p in anna.get("points").split()]
    z_pts = [tuple(map(float, p.split(","))) for p in zeno.get("points").split()]
    assert len(a_pts) == 6 and len(z_pts) == 3
    assert [x for x, _ in z_pts] == [x for x, _ in a_pts[3:]]
    # the dot on the last value sits at the last giornata
    dots = root.findall(f".//{NS}circle")
    assert float(dots[-1].get("cx")) == a_pts[-1][0]
    assert texts(root, "legend-label")[1] == "Zeno (2)"


def test_a_line_with_no_giornata_yet_draws_nothing():
    root = parse(
        line_chart([Line("Anna", [1, 2]), Line("Zeno", [], start=2)], ["a", "b"], title="t")
    )
    assert len(root.findall(f".//{NS}polyline")) == 1
    assert texts(root, "legend-label") == ["Anna (2)", "Zeno (0)"]


@pytest.mark.parametrize(("n", "limit"), [(0, 60), (1, 60), (5, 60), (60, 60), (61, 60), (308, 60)])
def test_even_indices_keep_the_first_and_the_last(n, limit):
    idx = even_indices(n, limit)
    if n <= limit:
        assert idx == list(range(n))
        return
    assert len(idx) == limit
    assert idx[0] == 0 and idx[-1] == n - 1
    gaps = {b - a for a, b in itertools.pairwise(idx)}
    assert max(gaps) - min(gaps) <= 1  # evenly spaced
