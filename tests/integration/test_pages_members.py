"""Members' pages (issue 11 items 8, 13, 14, 20): the late joiner's chart, the member's own row,
the abbreviations' legend, keyboard-reachable scrolling tables, readable greys."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse

from scoring.models import Absence, Player, Turno
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.turni import turno_close, turno_start
from tests.helpers import deal_record

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def season(make_season):
    return make_season(giornate=3, seed=5)  # 4, 11 and 18 September 2026


def _close_turno(season, players, date, seed=1):
    while True:
        record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
        if len(set(score_turno(caf(), record).totals.values())) == len(players):
            break
        seed += 1
    turno = turno_start(season=season, date=date, players=players, first_dealer=players[0])
    for i, sm in enumerate(record.smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno_close(turno=turno)


def _polylines(html: str) -> dict[str, int]:
    svg = re.search(r'<svg[^>]*aria-labelledby="chart-league.*?</svg>', html, re.S)
    root = ET.fromstring(svg.group(0))
    return {
        pl.find(f"{NS}title").text.split(":")[0]: len(pl.get("points").split())
        for pl in root.iter(f"{NS}polyline")
    }


def test_a_late_joiner_chart_starts_at_their_first_giornata(client, season):
    import datetime as dt

    Player.objects.create(name="Zeno")
    _close_turno(season, ["Zeno", "Anna", "Bruno", "Carla"], dt.date(2026, 9, 25))
    zeno = Player.objects.get(name="Zeno")
    html = client.get(reverse("scoring:player", args=[zeno.pk])).content.decode()
    lines = _polylines(html)
    # a late joiner takes the lowest score of every earlier giornata (SPEC §8.1): the chart
    # starts at the first giornata he has points for, here the first of the season, with the
    # absences' values rather than flat zeros
    assert lines["Zeno"] == 4
    assert all(n == 4 for name, n in lines.items() if name != "Zeno")
    assert Absence.objects.filter(player=zeno, season=season).count() == 3


def test_the_member_sees_their_own_row_and_their_page(client, season):
    anna = Player.objects.get(name="Anna")
    user = User.objects.create_user("anna", password="pw-kingclub-1")
    anna.user = user
    anna.save()
    html = client.get(reverse("scoring:home")).content.decode()
    assert 'class="me' not in html and "La mia pagina" not in html
    client.force_login(user)
    html = client.get(reverse("scoring:home")).content.decode()
    rows = re.findall(r"<tr [^>]*>", html)
    mine = [r for r in rows if 'data-player="Anna"' in r]
    assert len(mine) == 1 and 'class="me' in mine[0] and 'aria-current="true"' in mine[0]
    assert sum('class="me' in r for r in rows) == 1
    page = reverse("scoring:player", args=[anna.pk])
    assert f'<a class="who" href="{page}" title="La mia pagina">anna</a>' in html
    # another member's view is not the cached one
    other = User.objects.create_user("bruno", password="pw-kingclub-1")
    Player.objects.filter(name="Bruno").update(user=other)
    client.force_login(other)
    html = client.get(reverse("scoring:home")).content.decode()
    mine = [r for r in re.findall(r"<tr [^>]*>", html) if 'class="me' in r]
    assert len(mine) == 1 and 'data-player="Bruno"' in mine[0]


def test_classifica_has_the_legend_of_its_abbreviations(client, season):
    html = client.get(reverse("scoring:home")).content.decode()
    legend = re.search(r'<dl class="abbr-legend.*?</dl>', html, re.S).group(0)
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", legend)
    assert pairs == [
        ("CdC", "Coppa dei Campioni"),
        ("Int", "Coppa Intercontinentale"),
        ("UEFA", "Coppa UEFA"),
        ("Mit", "Mitropa Cup"),
        ("CI", "Coppa Italia"),
        ("Retr", "Retrocessione"),
        ("RetrC", "Retrocessione per contatore"),
    ]


def test_scrolling_tables_are_reachable_by_keyboard(client, segretario_client, season):
    turno = Turno.objects.filter(season=season).first()
    anna = Player.objects.get(name="Anna")
    pages = [
        reverse("scoring:home"),
        reverse("scoring:turni"),
        reverse("scoring:turno", args=[turno.pk]),
        reverse("scoring:players"),
        reverse("scoring:player", args=[anna.pk]),
        reverse("scoring:segreteria"),
        reverse("scoring:turno_live", args=[turno.pk]),
    ]
    for url in pages:
        html = segretario_client.get(url).content.decode()
        wraps = re.findall(r'<div class="table-wrap[^"]*"[^>]*>', html)
        assert wraps, url
        for tag in wraps:
            assert 'tabindex="0"' in tag and 'role="region"' in tag, (url, tag)
            assert "aria-label=" in tag or "aria-labelledby=" in tag, (url, tag)
            ref = re.search(r'aria-labelledby="([^"]+)"', tag)
            if ref:
                assert f'id="{ref.group(1)}"' in html, (url, ref.group(1))


# -- contrast, read from the stylesheet --------------------------------------------------------
CSS = (Path(settings.BASE_DIR) / "static" / "css" / "kingclub.css").read_text(encoding="utf-8")


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _var(name: str) -> str:
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", CSS).group(1)


def _rule(selector: str) -> str:
    return re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS).group(1)


def _colour(declarations: str, prop: str = "color") -> str:
    value = re.search(rf"(?<![-\w]){prop}:\s*([^;]+);?", declarations).group(1).strip()
    var = re.fullmatch(r"var\(--([\w-]+)\)", value)
    return _var(var.group(1)) if var else value


def test_contrast_hand_checked():
    assert round(contrast("#b3bac6", "#ffffff"), 2) == 1.95  # the grey zero on main
    assert round(contrast("#1a73e8", "#0b5d3b"), 2) == 1.76  # the blue ring on the top bar


def test_grey_zeros_and_muted_text_reach_4_5_to_1():
    zero = _colour(_rule(".zero"))
    for background in ("#ffffff", "#f3f7f5", "#fff6d6"):  # white, a hovered row, my own row
        assert contrast(zero, background) >= 4.5, (zero, background)
    assert contrast(_var("muted"), "#ffffff") >= 4.5
    # the Serie page's empty steps are no longer faded (opacity turned the muted text 3.14:1)
    assert "opacity" not in _rule(".ladder-step.empty")
    for background in ("#ffffff", "#e8f3ee"):  # a positive number, also on a chiamante's cell
        assert contrast(_var("pos"), background) >= 4.5


def test_focus_ring_on_the_top_bar_is_visible():
    rule = _rule(".topbar input:focus-visible")
    ring = re.search(r"outline:\s*3px solid (#[0-9a-fA-F]{6}|#fff)\b", rule).group(1)
    ring = "#ffffff" if ring == "#fff" else ring
    assert contrast(ring, _var("accent")) >= 3  # WCAG 1.4.11, non-text contrast
