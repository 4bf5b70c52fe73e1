"""The live screen at the table (issue 11, items 1-4, 6, 19), in headless Chromium.

Seven players at 1366×768 with the keyboard only (Enter records), a phone at 390×844, a reload
in the middle of an entry, a correction of smazzata 2 of 5 and a rejected entry.
"""

from __future__ import annotations

import random
import re
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring.models import Player, Smazzata
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.records import TurnoRecord
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.e2e.conftest import htmx_settled, logged_in
from tests.helpers import deal_record

SEVEN = [
    "Anna Bertini",
    "Bruno Cecchi",
    "Carla Dini",
    "Dario Fanucchi",
    "Elena Giusti",
    "Franco Lenzi",
    "Giulia Marchetti",
]
PASSWORD = "pw-e2e-live-1"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def club(transactional_db):
    for name in SEVEN:
        Player.objects.create(name=name)
    season = season_create(name="2026-27")
    user = User.objects.create_user("maria", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return season


def _open(browser, live_server, viewport) -> tuple:
    # Playwright's wait_for_function polls with eval, which the site's Content-Security-Policy
    # (no 'unsafe-eval') refuses; the page's own scripts are static files either way
    context = browser.new_context(locale="it-IT", viewport=viewport, bypass_csp=True)
    logged_in(context, live_server.url, "maria")
    return context, context.new_page()


def _turno(season, smazzate=(), players=SEVEN):
    import datetime as dt

    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=players, first_dealer=players[0]
    )
    for i, sm in enumerate(smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno


def _record(seed: int, players=SEVEN) -> TurnoRecord:
    return simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])


def _live(live_server, turno) -> str:
    return f"{live_server.url}{reverse('scoring:turno_live', args=[turno.pk])}"


@contextmanager
def answered(page, method: str = "GET"):
    """Wait for the htmx request the enclosed action sends, and for its swap to settle (the
    screen's own afterSettle work, its focus and running check, done: ``htmx_settled``)."""
    with page.expect_response(lambda r: r.request.method == method and "/segreteria/" in r.url):
        yield
    htmx_settled(page)


def _focused(page) -> str:
    return page.evaluate("document.activeElement && (document.activeElement.name || '')")


def _check_text(page) -> str:
    return page.locator("#count-check").inner_text().strip()


def _no_sideways_scroll(page, width: int) -> None:
    """Neither the page nor any table of the live screen scrolls sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('#live .table-wrap')]
                 .map(w => [w.closest('section').id || w.closest('section').className,
                            w.scrollWidth - w.clientWidth])"""
    )
    assert all(extra <= 0 for _, extra in overflow), overflow


def _cells_in_view(page, width: int) -> None:
    """Every point of the smazzate table lies inside the screen's width."""
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('table.smazzate td[data-player]')]
                 .map(td => { const r = td.getBoundingClientRect();
                              return [r.left, r.right, r.width, td.offsetParent !== null]; })"""
    )
    assert boxes
    for left, right, w, shown in boxes:
        assert shown and w > 0 and left >= 0 and right <= width + 0.5, (left, right)


def _choose(page, sm) -> None:
    """Chiamante and game by mouse, each answered by the server's refresh of the fields."""
    with answered(page):
        page.check(f"input[name=caller][value='{sm.caller}']")
    if not page.locator(f"input[name=game][value='{sm.game}']").is_checked():
        with answered(page):
            page.check(f"input[name=game][value='{sm.game}']")


def _keyboard_entry(page, sm, players, *, submit: bool = True) -> None:
    """Radios by arrow keys, counts by Tab and typing, Enter in the last count records."""
    values = page.locator("input[name=caller]").evaluate_all("els => els.map(e => e.value)")
    assert _focused(page) == "caller"
    target = values.index(sm.caller)
    if target == 0 and not page.locator("input[name=caller]").first.is_checked():
        with answered(page):
            page.keyboard.press("Space")
    for _ in range(target):
        with answered(page):
            page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    codes = page.locator("input[name=game]").evaluate_all("els => els.map(e => e.value)")
    assert _focused(page) == "game"
    current = codes.index(page.evaluate("document.activeElement.value"))
    want = codes.index(sm.game)
    if want == current and not page.locator("input[name=game]").nth(current).is_checked():
        with answered(page):
            page.keyboard.press("Space")
    for _ in range(abs(want - current)):
        with answered(page):
            page.keyboard.press("ArrowRight" if want > current else "ArrowLeft")
    if sm.trump:
        page.keyboard.press("Tab")
        order = page.locator("input[name=trump]").evaluate_all("els => els.map(e => e.value)")
        if order.index(sm.trump) == 0:
            page.keyboard.press("Space")
        for _ in range(order.index(sm.trump)):
            page.keyboard.press("ArrowRight")
    for i, name in enumerate(players):
        page.keyboard.press("Tab")
        assert _focused(page) == f"count_{i}"
        page.keyboard.type(str(sm.result[name]))
    if submit:
        with answered(page, "POST"):
            page.keyboard.press("Enter")  # in the last count field: records the smazzata


def _typed_by_keyboard(record: TurnoRecord) -> set[int]:
    """The smazzate the seven-player test types: the first of each game (every game's running
    check, Domino's included) and the last two; the others are recorded through the services
    (the full keyboard evening is tests/e2e/test_segretario.py's ``test_keyboard_only``)."""
    first = {}
    for number, sm in enumerate(record.smazzate, start=1):
        first.setdefault(sm.game, number)
    last = len(record.smazzate)
    return {*first.values(), last - 1, last}


def test_seven_players_at_1366_keyboard_only_enter_records(browser, live_server, club, shot):
    record = _record(seed=11)
    turno = _turno(club)
    context, page = _open(browser, live_server, DESKTOP)
    page.goto(_live(live_server, turno))
    rules = caf()
    checks = set()
    typed = _typed_by_keyboard(record)
    assert {record.smazzate[n - 1].game for n in typed} == set(rules.games)
    for number, sm in enumerate(record.smazzate, start=1):
        if number not in typed:
            deal_record(
                turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump,
                number=number,
            )  # fmt: skip
            if number + 1 in typed:  # the screen read again, with what the services stored
                page.reload()
                assert _focused(page) == "caller"
            continue
        _keyboard_entry(page, sm, SEVEN, submit=False)
        # the running check, from the engine's numbers the server rendered
        rule = rules.games[sm.game]
        if rule.counts == "cards_left":
            assert _check_text(page) == "un vincitore con 0 carte"
        else:
            total = rules.deck(7).count_of(rule.counts)
            assert _check_text(page).startswith(f"{total} ")
            assert _check_text(page).endswith(f" su {total}")
        checks.add(_check_text(page))
        if number == 1:
            shot(page, "smazzata-1-typed")
        with answered(page, "POST"):
            page.keyboard.press("Enter")
        assert Smazzata.objects.filter(turno=turno).count() == number, f"smazzata {number}"
        # nothing blanked: the totals, the table and the next "Registra" are all there
        assert page.locator(".total-box").count() == 7
        assert page.locator("table.smazzate tbody tr").count() == number
        if number < len(record.smazzate):
            assert page.locator(f"button:has-text('Registra la smazzata {number + 1}')").count()
            _no_sideways_scroll(page, DESKTOP["width"])
        if number == len(record.smazzate) - 1:
            shot(page, "before-the-last", full_page=False)
    assert "un vincitore con 0 carte" in checks  # Domino was played and checked
    shot(page, "complete")
    _no_sideways_scroll(page, DESKTOP["width"])
    _cells_in_view(page, DESKTOP["width"])
    totals = {}
    for box in page.locator(".total-box").all():
        name = re.sub(r"^\d+\.\s*", "", box.locator(".name").inner_text().strip())
        totals[name] = int(box.locator(".value").inner_text().strip().replace("−", "-"))
    assert totals == dict(score_turno(rules, record).totals)
    context.close()


def test_running_check_while_typing(browser, live_server, club, shot):
    record = _record(seed=12)
    turno = _turno(club, record.smazzate[:1])
    context, page = _open(browser, live_server, DESKTOP)
    page.goto(_live(live_server, turno))
    sm = record.smazzate[1]
    with answered(page):
        page.check(f"input[name=caller][value='{sm.caller}']")
    with answered(page):
        page.check("input[name=game][value='NF']")  # 7 mani in a 7-player deck of 49 cards
    page.fill("input[name=count_0]", "2")
    page.fill("input[name=count_1]", "3")
    assert _check_text(page) == "5 mani su 7 · mancano 2 mani"
    page.fill("input[name=count_2]", "4")
    assert _check_text(page) == "9 mani su 7 · 2 mani di troppo"
    shot(page, "check-over", full_page=False)
    page.fill("input[name=count_2]", "2")
    assert _check_text(page) == "7 mani su 7"
    context.close()


def test_phone_entry_without_sideways_scroll(browser, live_server, club, shot):
    record = _record(seed=13)
    turno = _turno(club, record.smazzate[:6])
    context, page = _open(browser, live_server, PHONE)
    page.goto(_live(live_server, turno))
    for number, sm in enumerate(record.smazzate[6:9], start=7):
        with answered(page):
            page.check(f"input[name=caller][value='{sm.caller}']")
        if not page.locator(f"input[name=game][value='{sm.game}']").is_checked():
            with answered(page):
                page.check(f"input[name=game][value='{sm.game}']")
        if sm.trump:
            page.check(f"input[name=trump][value='{sm.trump}']")
        for i, name in enumerate(SEVEN):
            page.fill(f"input[name=count_{i}]", str(sm.result[name]))
        with answered(page, "POST"):
            page.locator(f"input[name=count_{len(SEVEN) - 1}]").press("Enter")
        assert Smazzata.objects.filter(turno=turno).count() == number
    _no_sideways_scroll(page, PHONE["width"])
    _cells_in_view(page, PHONE["width"])
    page.locator("table.smazzate").scroll_into_view_if_needed()
    shot(page, "phone-table", full_page=False)
    shot(page, "phone-complete")
    context.close()


def test_reload_mid_entry_keeps_the_work(browser, live_server, club, shot):
    record = _record(seed=14)
    turno = _turno(club, record.smazzate[:2])
    context, page = _open(browser, live_server, DESKTOP)
    page.goto(_live(live_server, turno))
    sm = record.smazzate[2]
    _choose(page, sm)
    if sm.trump:
        page.check(f"input[name=trump][value='{sm.trump}']")
    for i, name in enumerate(SEVEN[:5]):
        page.fill(f"input[name=count_{i}]", str(sm.result[name]))
    # the page comes back, then asks for the chosen chiamante's games (the counts go along)
    with page.expect_response(lambda r: "/smazzata/modulo/" in r.url):
        page.reload()
    page.wait_for_selector(f"input[name=game][value='{sm.game}']:checked", timeout=5000)
    page.wait_for_timeout(100)
    assert page.locator(f"input[name=caller][value='{sm.caller}']").is_checked()
    assert page.locator(f"input[name=game][value='{sm.game}']").is_checked()
    for i, name in enumerate(SEVEN[:5]):
        assert page.input_value(f"input[name=count_{i}]") == str(sm.result[name])
    assert page.input_value("input[name=count_5]") == ""
    shot(page, "after-reload", full_page=False)
    for i, name in enumerate(SEVEN[5:], start=5):
        page.fill(f"input[name=count_{i}]", str(sm.result[name]))
    with answered(page, "POST"):
        page.locator("input[name=count_6]").press("Enter")
    assert Smazzata.objects.filter(turno=turno).count() == 3
    # recorded: the work is no longer kept, the next smazzata starts empty after a reload
    page.reload()
    page.wait_for_timeout(200)
    assert page.locator("input[name=caller]:checked").count() == 0
    assert all(page.input_value(f"input[name=count_{i}]") == "" for i in range(7))
    assert page.evaluate("Object.keys(sessionStorage).filter(k => k.includes(':nuova:3'))") == []
    context.close()


def test_correct_smazzata_2_of_5(browser, live_server, club, shot):
    record = _record(seed=15)
    turno = _turno(club, record.smazzate[:5])
    context, page = _open(browser, live_server, DESKTOP)
    page.goto(_live(live_server, turno))
    page.click("table.smazzate a[aria-label='Correggi la smazzata 2']")
    page.wait_for_load_state()
    assert page.locator("#smazzata-h").inner_text() == "Correggi la smazzata 2"
    second = record.smazzate[1]
    assert page.locator(f"input[name=caller][value='{second.caller}']").is_checked()
    counts = dict(second.result)
    a, b = next((p, q) for p in SEVEN for q in SEVEN if counts[p] != counts[q])
    counts[a], counts[b] = counts[b], counts[a]
    for i, name in enumerate(SEVEN):
        assert page.input_value(f"input[name=count_{i}]") == str(second.result[name])
        page.fill(f"input[name=count_{i}]", str(counts[name]))
    shot(page, "correcting-2", full_page=False)
    with answered(page, "POST"):
        page.locator("input[name=count_0]").press("Enter")
    assert "Smazzata 2 corretta" in page.inner_text("#live")
    fixed = list(record.smazzate)
    fixed[1] = type(second)(**{**second.__dict__, "result": counts})
    expected = score_turno(
        caf(), TurnoRecord(SEVEN, SEVEN[0], tuple(fixed[:5])), require_complete=False
    )
    row = page.locator("table.smazzate tr[data-number='2']")
    for name in SEVEN:
        points = row.locator(f"td[data-player='{name}'] .pts").inner_text()
        assert int(points.replace("−", "-").replace("+", "")) == expected.smazzate[1].points[name]
    stored = {
        r.player.name: r.points
        for r in Smazzata.objects.get(turno=turno, number=2).results.select_related("player")
    }
    assert stored == dict(expected.smazzate[1].points)
    totals = page.locator("tfoot tr.total-row td[data-player]")
    shown = {
        totals.nth(i).get_attribute("data-player"): int(
            totals.nth(i).inner_text().strip().replace("−", "-")
        )
        for i in range(7)
    }
    assert shown == dict(expected.totals)
    # the change trail, read when opened (htmx), keeps the correction
    trail = page.locator("section[aria-labelledby='history-h'] .history-body")
    assert "smazzata 2" not in trail.inner_text()  # not read yet: a link to the page
    with answered(page):
        page.click("#history-h")
    assert "smazzata 2" in trail.inner_text() and "modifica risultato" in trail.inner_text()
    shot(page, "corrected")
    context.close()


def test_rejected_entry_moves_focus_to_the_error_summary(browser, live_server, club, shot):
    record = _record(seed=16)
    turno = _turno(club, record.smazzate[:3])
    context, page = _open(browser, live_server, PHONE)
    page.goto(_live(live_server, turno))
    sm = record.smazzate[3]
    _choose(page, sm)
    for i in range(7):
        page.fill(f"input[name=count_{i}]", "9" if i != 2 else "")
    with answered(page, "POST"):
        page.locator("input[name=count_6]").press("Enter")
    assert Smazzata.objects.filter(turno=turno).count() == 3
    page.wait_for_function("document.activeElement.id === 'smazzata-errors'", timeout=5000)
    focused = page.evaluate("document.activeElement.id")
    assert focused == "smazzata-errors"
    summary = page.locator("#smazzata-errors")
    box = summary.bounding_box()
    assert box is not None and -1 <= box["y"] < PHONE["height"]
    assert "manca il risultato di Carla Dini" in summary.inner_text()
    # role=alert wraps the list, which keeps its list role
    assert page.locator("#smazzata-errors [role=alert] > ul.errorlist > li").count() >= 1
    assert page.locator("ul.errorlist[role]").count() == 0
    # the field errors are announced with their field
    field = page.locator("#id_count_2")
    assert field.get_attribute("aria-invalid") == "true"
    described = field.get_attribute("aria-describedby")
    assert described and "manca il risultato" in page.locator(f"#{described}").inner_text()
    shot(page, "error-summary", full_page=False)
    # no chiamante, no gioco: the messages are tied to their fieldsets
    page.evaluate("sessionStorage.clear()")  # else the reload brings the entry back
    page.goto(_live(live_server, turno))
    with answered(page, "POST"):
        page.locator("input[name=count_0]").press("Enter")
    page.wait_for_function("document.activeElement.id === 'smazzata-errors'", timeout=5000)
    for fieldset, text in (("caller-fieldset", "chiamante"), ("game-fieldset", "gioco")):
        ids = page.locator(f"#{fieldset}").get_attribute("aria-describedby")
        assert ids and f"scegliere il {text}" in page.locator(f"#{ids}").inner_text()
    context.close()
