"""The club room's scoreboard (issue 17, part 1) in headless Chromium.

A TV (its own browser context, the site's Content-Security-Policy enforced) shows /live/ while
a second context, the segretario, records the last smazzata of a turno on the live screen: the
TV shows it at the next 2 s poll without a reload, the polls in between answered 304. The network
drops: the TV says "in aggiornamento" and catches up when it is back. Then the segretario closes
the turno: the TV shows the places, ratios, titles, series moves and the Classifica Generale.

The TV's clock is Playwright's (``clock.install``): time flows as usual, and where the test
waits for the next poll it moves the clock on by the poll's 2 s (``fast_forward``) instead of
waiting for the poll to come by itself (the waits' limits are as before, a poll or two).
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from scoring.models import Player, Seat
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.e2e.conftest import audit, axe_context, htmx_settled, needs_axe
from tests.helpers import deal_record

PLAYERS = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi"]
OTHERS = ["Elena Giusti", "Franco Lenzi", "Giulia Marchetti", "Ivo Neri"]  # the second table
PASSWORD = "pw-e2e-board-1"
TV = {"width": 1600, "height": 900}
POLL_MS = 2000  # the board's hx-trigger="every 2s" (templates/scoring/live/_board.html)
README_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "scoreboard.png"


def _untied_turno():
    """A simulated turno whose final totals have no tie (the close needs no spareggio)."""
    rules = caf()
    for seed in range(1, 200):
        record = simulate_turno(rules, PLAYERS, random.Random(seed), first_dealer=PLAYERS[0])
        totals = score_turno(rules, record).totals
        if len(set(totals.values())) == len(PLAYERS):
            return record
    raise AssertionError("no untied turno")


@pytest.fixture
def club(transactional_db):
    for name in [*PLAYERS, *OTHERS]:
        Player.objects.create(name=name)
    season = season_create(name="2026-27")
    user = User.objects.create_user("maria", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return season


def _segretario(browser, live_server):
    context = browser.new_context(locale="it-IT", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "maria")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    return context, page


def _next_poll(tv):
    """The TV's next poll, brought by moving its clock on by one poll interval: the response."""
    with tv.expect_response(lambda r: "/live/poll/" in r.url, timeout=5000) as poll:
        tv.clock.fast_forward(POLL_MS)
    return poll.value


def _wait_fields(page, name: str, value: str) -> None:
    """Choose a radio of the live screen (unless it is already chosen) and wait for the fields
    htmx asks for in answer (not for the network to be idle: half a second without a request,
    each time)."""
    radio = page.locator(f"input[name={name}][value='{value}']")
    if radio.is_checked():
        return
    with page.expect_response(lambda r: "/segreteria/" in r.url):
        radio.check()
    htmx_settled(page)


def test_tv_updates_while_the_segretario_records_then_shows_the_close(
    browser, live_server, club, shot
):
    from playwright.sync_api import expect

    record = _untied_turno()
    last = len(record.smazzate)
    turno = turno_start(
        season=club, date=timezone.localdate(), players=PLAYERS, first_dealer=PLAYERS[0]
    )
    for i, sm in enumerate(record.smazzate[:-1], start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )

    other = turno_start(
        season=club, date=timezone.localdate(), players=OTHERS, first_dealer=OTHERS[0], table="2"
    )
    sim = simulate_turno(caf(), OTHERS, random.Random(5), first_dealer=OTHERS[0])
    for i, sm in enumerate(sim.smazzate[:6], start=1):
        deal_record(
            turno=other, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )

    # -- the TV: no CSP bypass, no script of ours but the site's static files -----------------
    tv_context = browser.new_context(locale="it-IT", viewport=TV)
    tv_context.clock.install()
    tv = tv_context.new_page()
    polls: list[int] = []
    tv.on("response", lambda r: polls.append(r.status) if "/live/poll/" in r.url else None)
    tv.goto(f"{live_server.url}/live/")
    board = tv.locator("#board")
    table = tv.locator(f"section[data-turno='{turno.pk}']")
    expect(table.locator(".board-last")).to_have_attribute("data-last", str(last - 1))
    expect(tv.locator("[data-fullscreen]")).to_be_visible()  # the Fullscreen API is there
    expect(tv.locator(".board-status .board-ok")).to_be_visible()
    # two polls, nothing changed: each the next one, one interval on
    for _ in range(2):
        assert _next_poll(tv).status == 304
    assert len(polls) >= 2 and set(polls) == {304}, polls
    expect(table.locator(".board-last")).to_have_attribute("data-last", str(last - 1))

    # -- the segretario records the last smazzata on the live screen ----------------------------
    seg_context, seg = _segretario(browser, live_server)
    seg.goto(f"{live_server.url}{reverse('scoring:turno_live', args=[turno.pk])}")
    sm = record.smazzate[-1]
    _wait_fields(seg, "caller", sm.caller)
    if not seg.locator(f"input[name=game][value='{sm.game}']").is_checked():
        _wait_fields(seg, "game", sm.game)
    if sm.trump:
        seg.locator(f"input[name=trump][value='{sm.trump}']").check()
    for i, name in enumerate(PLAYERS):
        seg.fill(f"input[name=count_{i}]", str(sm.result[name]))
    with seg.expect_response(lambda r: r.request.method == "POST"):
        seg.click(f"button:has-text('Registra la smazzata {last}')")
    # the next poll brings it: one poll interval on (the wait's limit as before)
    tv.clock.fast_forward(POLL_MS)
    expect(table.locator(".board-last")).to_have_attribute("data-last", str(last), timeout=3000)
    totals = score_turno(caf(), record).totals
    for name in PLAYERS:
        expect(table.locator(f"tr[data-player='{name}'] .board-total")).to_have_attribute(
            "data-total", str(totals[name])
        )
    assert 200 in polls

    # -- the network drops: "in aggiornamento", then it catches up -----------------------------
    tv_context.set_offline(True)
    tv.clock.fast_forward(POLL_MS)  # the next poll fails
    expect(tv.locator(".board-status .board-stale")).to_be_visible(timeout=8000)
    expect(board).to_be_visible()  # the last board stays on screen
    shot(tv, "offline", full_page=False)

    # -- the segretario closes the turno while the TV is offline --------------------------------
    seg.click("button:has-text('Chiudi il turno')")
    seg.wait_for_load_state()
    assert Seat.objects.filter(turno=turno, place=1).exists()
    tv_context.set_offline(False)
    tv.clock.fast_forward(POLL_MS)  # the next poll
    expect(tv.locator(".board-status .board-ok")).to_be_visible(timeout=8000)
    closed = tv.locator(f"section.is-closed[data-turno='{turno.pk}']")
    expect(closed).to_be_visible(timeout=5000)
    seats = list(Seat.objects.filter(turno=turno).select_related("player").order_by("place"))
    rows = closed.locator("tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    for k, seat in enumerate(seats):
        row = rows.nth(k)
        expect(row).to_have_attribute("data-player", seat.player.name)
        expect(row).to_have_attribute("data-place", str(seat.place))
        expect(row.locator("[data-ratio]")).to_have_attribute("data-ratio", str(seat.ratio))
    expect(closed).to_contain_text("Scudetto")
    loser = seats[-1]
    expect(closed.locator(".board-moves")).to_contain_text(
        f"{loser.player.name}: da Serie A a Serie B"
    )
    standing = tv.locator(f"section[data-standing='{club.pk}']")
    expect(standing).to_contain_text("Classifica Generale")
    expect(standing.locator("tbody tr").first).to_contain_text(seats[0].player.name)
    expect(tv.locator(f"section.is-open[data-turno='{other.pk}']")).to_be_visible()
    assert tv.url.endswith("/live/")  # never reloaded

    path = shot(tv, "closed", full_page=False)
    if os.environ.get("KINGCLUB_README_SHOTS"):  # the README's picture, only when asked
        README_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, README_SHOT)
    seg_context.close()
    tv_context.close()


@needs_axe
@pytest.mark.parametrize("viewport", [(1366, 768), (390, 844)])
def test_the_board_and_the_unpublished_notice_pass_axe(browser, live_server, club, viewport):
    """axe (WCAG 2.1 AA, serious and critical) on the board with a table in progress and a
    closed one, and on an unpublished season's Classifica; no sideways scroll on a phone."""
    from scoring.services.publishing import season_publish
    from scoring.services.turni import turno_close

    record = _untied_turno()
    closed = turno_start(
        season=club, date=timezone.localdate(), players=PLAYERS, first_dealer=PLAYERS[0]
    )
    for i, sm in enumerate(record.smazzate, start=1):
        deal_record(
            turno=closed, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    turno_close(turno=closed, tiebreak=record.tiebreak)
    other = turno_start(
        season=club, date=timezone.localdate(), players=OTHERS, first_dealer=OTHERS[0], table="2"
    )
    sim = simulate_turno(caf(), OTHERS, random.Random(5), first_dealer=OTHERS[0])
    for i, sm in enumerate(sim.smazzate[:4], start=1):
        deal_record(
            turno=other, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    context = axe_context(browser, *viewport)
    page = context.new_page()
    page.goto(f"{live_server.url}/live/")
    assert page.locator("section.board-table").count() == 2
    problems = audit(page, "/live/")
    season_publish(season=club, published=False)
    page.goto(f"{live_server.url}/")
    assert page.locator("[data-unpublished]").count() == 1
    problems += audit(page, "/ (non pubblicata)")
    context.close()
    assert problems == [], "\n".join(problems)
