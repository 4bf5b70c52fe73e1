"""A segretario records a whole turno in a real browser (headless Chromium).

At the desk every smazzata is recorded by mouse; on a phone the first five (the impossible
entry, the undo) and the last two, the ones between through the services (the same screen, read
again); by keyboard alone every smazzata of a whole turno, and three with JavaScript off."""

from __future__ import annotations

import io
import random
import re
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring.models import Player, Seat, Smazzata, Turno
from scoring.rules.caf import Penalty, caf, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.season import season_create
from tests.e2e.conftest import htmx_settled
from tests.helpers import deal_record

PLAYERS = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi"]
PASSWORD = "pw-e2e-segretario-1"


def _turno_without_tie(seed: int = 0):
    """A simulated turno whose totals (after Dario's -5 penalità) have no tie."""
    while True:
        record = simulate_turno(caf(), PLAYERS, random.Random(seed), first_dealer=PLAYERS[0])
        totals = dict(score_turno(caf(), record).totals)
        totals[PLAYERS[3]] -= 5
        if len(set(totals.values())) == len(totals):
            return record, totals
        seed += 1


@pytest.fixture
def club(transactional_db):
    for name in PLAYERS:
        Player.objects.create(name=name)
    season_create(name="2026-27")
    user = User.objects.create_user("maria", password=PASSWORD, first_name="Maria")
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return user


def login(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "maria")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/login" not in page.url


def start_turno(page, base: str) -> int:
    page.goto(f"{base}{reverse('scoring:turno_new')}")
    page.fill("input[name=date]", "2026-11-20")
    for i, name in enumerate(PLAYERS, start=1):
        page.select_option(f"select[name=seat_{i}]", label=name)
    page.select_option("select[name=first_dealer_seat]", value="1")
    page.click("button:has-text('Inizia il turno')")
    page.wait_for_url(re.compile(r"/segreteria/turni/\d+/$"))
    return int(page.url.rstrip("/").split("/")[-1])


@contextmanager
def answered(page, method: str = "GET"):
    """Wait for the htmx request the enclosed action sends (and the swap after it)."""
    with page.expect_response(lambda r: r.request.method == method and "/segreteria/" in r.url):
        yield
    htmx_settled(page)


def new_context(browser, **kwargs):
    return browser.new_context(locale="it-IT", **kwargs)


def record_by_mouse(page, number: int, sm) -> None:
    caller = page.locator(f"input[name=caller][value='{sm.caller}']")
    if not caller.is_checked():
        with answered(page):
            caller.check()
    # the screen offers only legal games: the recorded one must be among them
    game = page.locator(f"input[name=game][value='{sm.game}']")
    assert game.count() == 1, f"{sm.game} not offered to {sm.caller}"
    if not game.is_checked():
        with answered(page):
            game.check()
    if sm.trump:
        page.check(f"input[name=trump][value='{sm.trump}']")
    for i, name in enumerate(PLAYERS):
        page.fill(f"input[name=count_{i}]", str(sm.result[name]))
    with answered(page, "POST"):
        page.click(f"button:has-text('Registra la smazzata {number}')")


def has_focus(page, selector: str) -> None:
    """Wait until an element of ``selector`` has the focus: the live screen gives it back after
    htmx has swapped the fields in, a moment after the response (a fixed wait lost that race at
    load: "focus is on None, not on the first chiamante"). Fails after 5 s."""
    page.locator(f"{selector}:focus").wait_for(timeout=5000)


def record_by_keyboard(page, number: int, sm) -> None:
    """Radios by arrow keys, fields by Tab, Enter submits: no mouse."""
    callers = page.locator("input[name=caller]")
    values = [callers.nth(i).get_attribute("value") for i in range(callers.count())]
    has_focus(page, "input[name=caller]")  # the screen's own script, after the last swap
    target = values.index(sm.caller)
    if target == 0:
        if not page.locator("input[name=caller]").first.is_checked():
            with answered(page):
                page.keyboard.press("Space")
    else:
        for _ in range(target):
            with answered(page):
                page.keyboard.press("ArrowRight")
            has_focus(page, "input[name=caller]")
    page.keyboard.press("Tab")  # to the game radios
    games = page.locator("input[name=game]")
    codes = [games.nth(i).get_attribute("value") for i in range(games.count())]
    assert page.evaluate("document.activeElement.name") == "game"
    current = codes.index(page.evaluate("document.activeElement.value"))
    want = codes.index(sm.game)
    key = "ArrowRight" if want > current else "ArrowLeft"
    if want == current and not games.nth(current).is_checked():
        with answered(page):
            page.keyboard.press("Space")
    for _ in range(abs(want - current)):
        with answered(page):
            page.keyboard.press(key)
        has_focus(page, "input[name=game]")
    if sm.trump:
        page.keyboard.press("Tab")
        suits = page.locator("input[name=trump]")
        order = [suits.nth(i).get_attribute("value") for i in range(suits.count())]
        if order.index(sm.trump) == 0:
            page.keyboard.press("Space")
        for _ in range(order.index(sm.trump)):
            page.keyboard.press("ArrowRight")
    for i, name in enumerate(PLAYERS):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.name") == f"count_{i}"
        page.keyboard.type(str(sm.result[name]))
    page.keyboard.press("Tab")  # to "Registra la smazzata N"
    assert page.evaluate("document.activeElement.innerText").startswith("Registra la smazzata")
    with answered(page, "POST"):
        page.keyboard.press("Enter")


def page_totals(page) -> dict[str, int]:
    """The running totals as the screen shows them."""
    out = {}
    for box in page.locator(".total-box").all():
        name = re.sub(r"^\d+\.\s*", "", box.locator(".name").inner_text().strip())
        out[name] = int(box.locator(".value").inner_text().strip().replace("−", "-"))
    return out


def by_the_services(pk: int, smazzate) -> None:
    """Record the next smazzate of turno ``pk`` as the desk would, without the browser."""
    start = Smazzata.objects.filter(turno_id=pk).count() + 1
    for number, sm in enumerate(smazzate, start=start):
        deal_record(
            turno=pk, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump,
            number=number,
        )  # fmt: skip


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_segretario_records_a_whole_turno(browser, live_server, club, shot, viewport):
    """The whole evening at the desk: every smazzata by mouse, an impossible entry, an undo, a
    penalità, the close, the Verbale on screen, as PDF and as a spreadsheet. On the phone the
    same evening, the smazzate between the sixth and the last two recorded through the services
    (the desk's run already proves each of them by mouse); the downloads are the desk's."""
    record, expected = _turno_without_tie()
    by_hand = range(1, len(record.smazzate) + 1)
    if viewport == "phone":
        by_hand = [*range(1, 6), *range(len(record.smazzate) - 1, len(record.smazzate) + 1)]
    size = {"desktop": (1280, 900), "phone": (390, 844)}[viewport]
    context = new_context(
        browser, viewport={"width": size[0], "height": size[1]}, accept_downloads=True
    )
    page = context.new_page()
    base = live_server.url
    login(page, base)
    pk = start_turno(page, base)
    shot(page, "turno-started")

    for number, sm in enumerate(record.smazzate, start=1):
        if number not in by_hand:
            by_the_services(pk, [sm])
            if number + 1 in by_hand:  # the screen read again, with what the services stored
                page.reload()
                page.wait_for_load_state()
            continue
        if number == 3:
            # an impossible entry: counts that do not add up; the error sits by the counts
            with answered(page):
                page.check(f"input[name=caller][value='{sm.caller}']")
            with answered(page):
                page.check(f"input[name=game][value='{sm.game}']")
            for i in range(len(PLAYERS)):
                page.fill(f"input[name=count_{i}]", "9")
            with answered(page, "POST"):
                page.click("button:has-text('Registra la smazzata 3')")
            error = page.locator(".counts-set .errorlist, .counts .errorlist").first
            assert error.is_visible()
            assert "somma" in error.inner_text() or "massimo" in error.inner_text()
            shot(page, "impossible-entry")
            assert Smazzata.objects.filter(turno_id=pk).count() == 2
        if number == 5:
            # record a wrong smazzata 5, then undo it
            record_by_mouse(page, 5, sm)
            assert Smazzata.objects.filter(turno_id=pk).count() == 5
            page.click("summary:has-text('Annulla')")
            with answered(page, "POST"):
                page.click("button:has-text('Sì, annulla la smazzata 5')")
            assert Smazzata.objects.filter(turno_id=pk).count() == 4
            shot(page, "after-undo")
        record_by_mouse(page, number, sm)
        assert Smazzata.objects.filter(turno_id=pk).count() == number
        if number in (1, 10):
            shot(page, f"after-smazzata-{number}")

    # a penalità for Dario
    shot(page, "before-penalty")
    page.click("summary:has-text('Aggiungi una penalità')")
    form = page.locator("form[action$='/penalita/']")
    form.locator("select[name=pen-player]").select_option(label=PLAYERS[3])
    form.locator("input[name=pen-points]").fill("-5")
    form.locator("select[name=pen-article]").select_option(value="9")
    form.locator("input[name=pen-reason]").fill("carte toccate prima del permesso")
    form.locator("button:has-text('Aggiungi la penalità')").click()
    page.wait_for_load_state()

    engine = score_turno(
        caf(),
        type(record)(**{**record.__dict__, "penalties": (Penalty(PLAYERS[3], -5, "9", "x"),)}),
    )
    assert page_totals(page) == dict(engine.totals) == expected
    shot(page, "complete")
    # on a phone the page never scrolls sideways: wide tables scroll in their own box
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]

    page.click("button:has-text('Chiudi il turno')")
    page.wait_for_load_state()
    turno = Turno.objects.get(pk=pk)
    assert turno.status == Turno.CHIUSO
    shot(page, "closed")
    places = dict(Seat.objects.filter(turno=turno).values_list("player__name", "place"))
    assert places == dict(engine.places)

    # the Verbale, on screen and downloaded
    page.goto(f"{base}{reverse('scoring:turno', args=[pk])}")
    body = page.inner_text("main")
    for name, total in engine.totals.items():
        assert name in body
        assert str(total) in body
    shot(page, "verbale-on-screen")
    if viewport == "phone":
        context.close()
        return
    # the PDF opens inline: fetch it the way the browser does, with its session
    href = page.locator("a[href$='verbale.pdf']").first.get_attribute("href")
    response = page.request.get(f"{base}{href}")
    assert response.headers["content-type"] == "application/pdf"
    pdf_bytes = response.body()
    assert pdf_bytes.startswith(b"%PDF")
    from pypdf import PdfReader

    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf_bytes)).pages)
    for name in PLAYERS:
        assert name in text
    with page.expect_download() as xlsx:
        page.locator("a[href$='verbale.xlsx']").first.click()
    from openpyxl import load_workbook

    assert xlsx.value.suggested_filename == "verbale-2026-11-20-1.xlsx"
    wb = load_workbook(io.BytesIO(xlsx.value.path().read_bytes()))
    assert wb.sheetnames == ["Verbale", "Classifica"]
    cells = [str(c.value) for row in wb["Verbale"].iter_rows() for c in row]
    for name in PLAYERS:
        assert name in cells
    context.close()


def test_keyboard_only(browser, live_server, club, shot):
    record, _ = _turno_without_tie(seed=40)
    context = new_context(browser, viewport={"width": 1024, "height": 900})
    page = context.new_page()
    base = live_server.url
    login(page, base)
    pk = start_turno(page, base)
    for number, sm in enumerate(record.smazzate, start=1):
        record_by_keyboard(page, number, sm)
        assert Smazzata.objects.filter(turno_id=pk).count() == number, f"smazzata {number}"
    shot(page, "keyboard-complete")
    assert page_totals(page) == dict(score_turno(caf(), record).totals)
    context.close()


def test_recording_works_with_javascript_off(browser, live_server, club, shot):
    record, _ = _turno_without_tie(seed=7)
    context = new_context(browser, java_script_enabled=False)
    page = context.new_page()
    base = live_server.url
    login(page, base)
    pk = start_turno(page, base)
    for number, sm in enumerate(record.smazzate[:3], start=1):
        page.check(f"input[name=caller][value='{sm.caller}']")
        # without JS the "Aggiorna" button re-renders the games of the chosen chiamante
        page.click("button:has-text('Aggiorna')")
        page.wait_for_load_state()
        page.check(f"input[name=game][value='{sm.game}']")
        if sm.trump:
            page.check(f"input[name=trump][value='{sm.trump}']")
        for i, name in enumerate(PLAYERS):
            page.fill(f"input[name=count_{i}]", str(sm.result[name]))
        page.click(f"button:has-text('Registra la smazzata {number}')")
        page.wait_for_load_state()
        assert Smazzata.objects.filter(turno_id=pk).count() == number
    shot(page, "no-js-three-smazzate")
    assert page_totals(page) == dict(
        score_turno(
            caf(),
            type(record)(**{**record.__dict__, "smazzate": record.smazzate[:3]}),
            require_complete=False,
        ).totals
    )
    context.close()
