"""A member, not logged in, follows the league: read-only pages, nothing to edit."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from scoring.demo import DEMO_MEMBERS, simulated_season
from scoring.models import Standing, Turno
from scoring.rules.caf.interchange import parse_document, score_document
from scoring.services.interchange import season_import

EDIT_WORDS = ("Registra", "Chiudi il turno", "Riapri", "Annulla", "Elimina", "Segreteria")


@pytest.fixture
def league(transactional_db):
    doc = simulated_season(
        name="2026-27", players=DEMO_MEMBERS[:9], giornate=8, seed=21, table_sizes=(5, 4)
    )
    season = season_import(data=doc, current=True)
    return season, score_document(parse_document(doc))


def it(d: Decimal) -> str:
    """A decimal as the Italian pages print it: 4,21 and −0,26."""
    return f"{d:.2f}".replace(".", ",").replace("-", "\u2212")


def no_edit_controls(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "page scrolls sideways"
    # the language switch posts too, but changes nothing of the club's
    assert page.locator("form[method=post]:not(.lang) button:not(.linklike)").count() == 0
    text = page.inner_text("body")
    for word in EDIT_WORDS:
        assert word not in text, f"{word!r} shown to a member"


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_member_reads_the_league(browser, live_server, league, shot, viewport):
    season, engine = league
    context = browser.new_context(
        locale="it-IT", viewport={"width": viewport[0], "height": viewport[1]}
    )
    page = context.new_page()
    page.goto(live_server.url + "/")
    shot(page, "home-classifica", full_page=False)
    assert "Classifica" in page.inner_text("main")
    no_edit_controls(page)
    # the table's leader is the engine's leader, with the engine's score
    _place, leader = engine.season.classifica[0]
    main = page.inner_text("main")
    assert leader.player in main
    assert it(leader.score) in main
    assert Standing.objects.get(season=season, player__name=leader.player).score == leader.score

    # two clicks: Turni, then a turno's Verbale
    page.click("nav >> text=Turni")
    page.wait_for_load_state()
    shot(page, "turni", full_page=False)
    turno = Turno.objects.filter(season=season).order_by("-giornata__date", "-number").first()
    page.click(f"a[href='/turni/{turno.pk}/']")
    page.wait_for_load_state()
    shot(page, "verbale")
    no_edit_controls(page)
    body = page.inner_text("main")
    for seat in turno.seats.all():
        assert seat.player.name in body
        assert it(seat.league_points) in body

    # two clicks: Giocatori, then the leader's page with the chart
    page.click("nav >> text=Giocatori")
    page.wait_for_load_state()
    page.click(f"main a:has-text('{leader.player}')")
    page.wait_for_load_state()
    shot(page, "player")
    no_edit_controls(page)
    chart = page.locator("svg").first
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box["width"] <= viewport[0]
    assert page.locator("svg polyline").count() >= 1
    svg = chart.inner_html()
    assert re.search(r"<text[^>]*>", svg)  # axes are labelled
    assert it(leader.score) in page.inner_text("main")

    page.click("nav >> text=Serie")
    page.wait_for_load_state()
    shot(page, "serie", full_page=False)
    assert "Serie A" in page.inner_text("main")
    no_edit_controls(page)
    context.close()
