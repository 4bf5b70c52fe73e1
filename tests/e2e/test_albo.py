"""The Albo d'oro in a real browser (issue 17, the club's history): the segretario closes a
season from the dashboard, and the Albo shows every season as the ledger stores it (champion,
Scudetti, the provisional leader of the season still open), on a desktop and on a phone without
sideways scroll. The desktop view is the README's screenshot (docs/screenshots/albo-doro.png)."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring.demo import DEMO_MEMBERS, simulated_season
from scoring.models import Season, Standing, TitleAward
from scoring.services.interchange import season_import
from scoring.services.seasons_close import season_close, season_new
from tests.e2e.conftest import built_once
from tests.helpers import play_turno

PASSWORD = "pw-e2e-albo-1"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _two_closed_and_one_open():
    """Two closed seasons (the second carrying the first's series) and one in progress."""
    first = season_import(
        data=simulated_season(
            name="2023-24",
            players=DEMO_MEMBERS[:6],
            giornate=5,
            seed=4,
            start=dt.date(2023, 10, 6),
        ),
        current=False,
    )
    season_close(season=first, reason="fine del campionato 2023-24")
    second = season_import(
        data=simulated_season(
            name="2024-25",
            players=DEMO_MEMBERS[:6],
            giornate=6,
            seed=9,
            start=dt.date(2024, 10, 4),
        ),
        current=False,
    )
    third = season_new(name="2025-26", series_origin="carried", source=first, current=True)
    for i, seed in enumerate((5, 6, 7)):
        play_turno(third, dt.date(2025, 10, 3) + dt.timedelta(days=7 * i), DEMO_MEMBERS[:5], seed)
    user = User.objects.create_user("maria", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return first, second, third


@pytest.fixture
def club(transactional_db):
    """The three seasons, built once per process (``built_once``): each test starts from them."""
    return built_once(_two_closed_and_one_open)


def _login(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "maria")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def _champions(season: Season) -> list[str]:
    return list(
        Standing.objects.filter(season=season, place=1)
        .order_by("-scudetti", "player__name")
        .values_list("player__name", flat=True)
    )


def test_the_segretario_closes_a_season_and_the_albo_matches_the_seasons(
    browser, live_server, club, shot
):
    first, second, third = club
    context = browser.new_context(locale="it-IT", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    _login(page, live_server.url)
    page.goto(live_server.url + reverse("scoring:segreteria") + f"?stagione={second.pk}")
    page.click("a:has-text('Chiudi stagione')")
    page.fill("textarea[name=reason]", "fine del campionato 2024-25")
    page.check("input[name=confirm]")
    page.click("button:has-text('Chiudi stagione')")
    page.wait_for_url(f"**{reverse('scoring:albo')}")
    second.refresh_from_db()
    assert second.closed_at is not None

    assert page.locator(".albo-season").count() == 3
    for season in (first, second, third):
        row = page.locator(f".albo-season[data-season='{season.name}']")
        champion = row.locator("[data-col=champion] a").all_inner_texts()
        assert champion == _champions(season)
        scudetti = TitleAward.objects.filter(season=season, code="SCUDETTO").count()
        assert row.locator("[data-col=SCUDETTO]").get_attribute("data-total") == str(scudetti)
        closed = season.pk != third.pk
        assert row.locator("[data-closed]").count() == (1 if closed else 0)
        assert row.locator("[data-provisional]").count() == (0 if closed else 1)
    link = page.locator(f".albo-season[data-season='{second.name}'] a:has-text('finale')")
    link.click()
    page.wait_for_load_state()
    assert page.locator("[data-final='1']").is_visible()
    page.goto(live_server.url + reverse("scoring:albo"))
    path = shot(page, "albo-doro")
    if os.environ.get("KINGCLUB_README_SHOTS"):  # the README's picture, only when asked
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / "albo-doro.png")
    context.close()


@pytest.mark.parametrize("width", [1366, 390])
def test_albo_fits_the_screen(browser, live_server, club, shot, width):
    context = browser.new_context(locale="it-IT", viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(live_server.url + reverse("scoring:albo"))
    assert page.locator(".albo-season").count() == 3
    assert page.locator("[data-record]").count() == 7
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "page scrolls sideways"
    shot(page, f"albo-{width}")
    context.close()
