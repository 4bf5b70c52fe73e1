"""The new-turno form's script and the members' pages in a real browser (issue 11 items 5, 7,
13, 14, 20): dealer names follow the seats, the back-dated warning shows while typing, the
Classifica fits 1366 px, nothing scrolls sideways at 390 px, the focus is visible everywhere."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring.demo import DEMO_MEMBERS, simulated_season
from scoring.models import Season
from scoring.services.interchange import season_import

PASSWORD = "pw-e2e-pages-1"


@pytest.fixture
def league(transactional_db):
    doc = simulated_season(
        name="2026-27", players=DEMO_MEMBERS[:9], giornate=4, seed=21, table_sizes=(5, 4)
    )
    season = season_import(data=doc, current=True)
    season_import(
        data=simulated_season(
            name="2025-26 · stagione con un nome lungo", players=DEMO_MEMBERS[:5], giornate=1
        ),
        current=False,
    )
    user = User.objects.create_user("maria", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return season


def _login(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "maria")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def _options(page) -> list[tuple[str, bool]]:
    return page.eval_on_selector_all(
        "select[name=first_dealer_seat] option", "os => os.map(o => [o.textContent, o.hidden])"
    )


def test_new_turno_form_follows_the_seats_and_warns_of_a_backdated_date(
    browser, live_server, league, shot
):
    context = browser.new_context(locale="it-IT", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    _login(page, live_server.url)
    page.goto(live_server.url + reverse("scoring:turno_new"))
    page.select_option("select[name=seat_1]", label="Carla Dini")
    page.select_option("select[name=seat_2]", label="Anna Bertini")
    page.fill("input[name=seat_3_new]", "Zeno Nuovo")
    visible = [text for text, hidden in _options(page) if not hidden]
    assert visible == ["Carla Dini", "Anna Bertini", "Zeno Nuovo"]
    page.select_option("select[name=first_dealer_seat]", label="Anna Bertini")
    assert page.input_value("select[name=first_dealer_seat]") == "2"

    warning = page.locator("#backdated-warning")
    last = max(g.date for g in Season.objects.get(is_current=True).giornate.all())
    page.fill("input[name=date]", (last - dt.timedelta(days=3)).isoformat())
    assert warning.is_visible()
    assert last.strftime("%d/%m/%Y") in warning.inner_text()
    shot(page, "backdated-warning")
    page.fill("input[name=date]", "2030-01-01")
    assert not warning.is_visible()
    context.close()


@pytest.mark.parametrize("width", [1366, 390])
def test_members_pages_fit_and_show_focus(browser, live_server, league, shot, width):
    context = browser.new_context(locale="it-IT", viewport={"width": width, "height": 800})
    page = context.new_page()
    season = league
    other = Season.objects.exclude(pk=season.pk).get()
    for url in ["/", f"/?stagione={other.pk}", "/serie/", "/turni/", "/giocatori/"]:
        page.goto(live_server.url + url)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{url} is {scroll} px wide at {width} px"
    page.goto(live_server.url + "/")
    if width == 1366:
        # every column of the Classifica is visible: its box does not scroll
        sizes = page.eval_on_selector(
            "table.classifica", "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
        )
        assert sizes[0] <= sizes[1], sizes
    shot(page, "classifica")
    # the first Tab stops show a ring that can be seen on the green bar (white, not blue)
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")  # the brand, on the top bar
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.className, s.outlineStyle, s.outlineColor]; }"
    )
    assert ring == ["brand", "solid", "rgb(255, 255, 255)"], ring
    # the scrolling table is a Tab stop with a name
    wrap = page.locator(".table-wrap").first
    wrap.focus()
    assert (
        page.evaluate("document.activeElement.getAttribute('aria-label')") == "Classifica Generale"
    )
    context.close()
