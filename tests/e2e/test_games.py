"""The games kept by the generic ledger, recorded in a real browser: a Le King and an
international King turno at the desk, a 3-player Skat list and a Ramino match on a phone.

Each turno is a valid random one from the game's own generator; the test types into the live
screen's form (the fields the system asks for) the first smazzata of each form (the fields asked
and the game chosen), every one that asks "rientra?" and the last two, answers "rientra?"; the
others, forms already typed, are recorded through ``scoring.api`` and the screen read again. It
closes, opens the Verbale, and compares what was stored with the engine's own score of the same
record."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring import api
from scoring.models import Player, Seat, Turno
from scoring.rules.systems import get_system
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.e2e.conftest import htmx_settled, logged_in

PASSWORD = "pw-e2e-games-1"
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def _fill(page, data: dict) -> None:
    """Type a smazzata's form data as a person would: click the radios and boxes, type numbers."""
    for name, value in data.items():
        if isinstance(value, list):
            for v in value:
                page.check(f"input[name='{name}'][value='{v}']")
            continue
        field = page.locator(f"input[name='{name}']")
        kind = field.first.get_attribute("type")
        if kind == "radio":
            page.check(f"input[name='{name}'][value='{value}']")
        elif kind == "checkbox":
            page.check(f"input[name='{name}']")
        else:
            page.fill(f"input[name='{name}']", str(value))


def _swapped(page, action) -> None:
    """Do ``action`` and wait until htmx has put a new ``#live`` in place (no page load)."""
    page.evaluate("document.getElementById('live').dataset.old = '1'")
    action()
    page.wait_for_function(
        "document.getElementById('live') && !document.getElementById('live').dataset.old",
        timeout=15000,
    )
    htmx_settled(page)


@pytest.fixture
def desk(transactional_db):
    for name in NAMES:
        Player.objects.create(name=name)
    user = User.objects.create_user("giulia", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return user


def _typed(system, rules, record: dict) -> set[int]:
    """The smazzate the test types: the first of each form (the fields the system asks for and
    the game chosen), every one that asks a question before it is stored ("rientra?") and the
    last two."""
    head = {**record, "smazzate": []}
    forms, typed = set(), set()
    last = len(record["smazzate"])
    for k, smazzata in enumerate(record["smazzate"], start=1):
        data = system.entry_data(rules, head, smazzata)
        form = (tuple(sorted(data)), str(data.get("game", "")))
        asks = system.questions(rules, head, system.parse_entry(rules, head, data))
        if form not in forms or asks or k >= last - 1:
            typed.add(k)
        forms.add(form)
        head["smazzate"].append(smazzata)
    return typed


def _play(browser, live_server, shot, code: str, players: list[str], size, seed: int, typed=None):
    season = season_create(name=f"{code} 2026-27", ruleset_code=code, current=False)
    system, rules = season.system, season.game_rules
    record = system.random_turno(random.Random(seed), players, rules)
    turno = turno_start(
        season=season,
        date=dt.date(2026, 11, 20),
        players=players,
        first_dealer=record["first_dealer"],
    )
    # bypass_csp: Playwright's wait_for_function evaluates text, which the site's policy forbids
    context = browser.new_context(
        locale="it-IT", viewport={"width": size[0], "height": size[1]}, bypass_csp=True
    )
    base = live_server.url
    logged_in(context, base, "giulia")
    page = context.new_page()
    live = f"{base}{reverse('scoring:turno_live', args=[turno.pk])}"
    page.goto(live)
    head = {**record, "smazzate": []}
    typed_ones = _typed(system, rules, record)
    for k, smazzata in enumerate(record["smazzate"], start=1):
        if k not in typed_ones:  # a form already typed: through the services
            api.smazzata_record(turno=turno, record=smazzata, number=k)
            head["smazzate"].append(smazzata)
            if k + 1 in typed_ones:  # the screen read again, with what the services stored
                page.goto(live)
            continue
        assert re.fullmatch(rf"Smazzata {k}( di \d+)?", page.locator("#entry-h").inner_text())
        data = system.entry_data(rules, head, smazzata)
        answers = data.pop("reentries", None)
        _fill(page, data)
        if typed:
            typed(page, k, system.preview(rules, head, data))
        _swapped(page, page.locator("#smazzata-form button.big").click)
        if page.locator("input[name='risposte']").count():  # "rientra?"
            assert "Rientra?" in page.content()
            shot(page, f"rientra-{k}")
            for who in answers or []:
                page.check(f"input[name='reentries'][value='{who}']")
            _swapped(page, page.locator("#smazzata-form button.big").click)
        assert page.url == live, page.content()[:3000]
        head["smazzate"].append(smazzata)
        if k == 1:
            shot(page, "first")
    shot(page, "complete")
    for i, name in enumerate(record.get("tiebreak") or []):
        page.select_option(f"select[name='spareggio-{i}']", value=name)
    page.locator("#chiusura button[type=submit]").click()
    page.wait_for_load_state()
    assert "Verbale n. 1" in page.content()
    scored = system.score_turno(rules, {**record, "date": "2026-11-20"})
    figures = system.seat_results(scored)
    stored = {s.player.name: (s.total, s.place) for s in Seat.objects.filter(turno=turno)}
    assert stored == {p: (f["total"], f["place"]) for p, f in figures.items()}
    assert Turno.objects.get(pk=turno.pk).verbale_number == 1
    page.goto(f"{base}{reverse('scoring:turno', args=[turno.pk])}")
    shot(page, "verbale")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"the page scrolls sideways: {width} px"
    context.close()
    return turno


def test_le_king_at_the_desk(browser, live_server, desk, shot):
    _play(browser, live_server, shot, "le-king", NAMES, (1366, 900), seed=3)


def test_international_king_at_the_desk(browser, live_server, desk, shot):
    _play(browser, live_server, shot, "king-internazionale", NAMES, (1366, 900), seed=4)


def test_skat_list_of_three_on_a_phone(browser, live_server, desk, shot):
    from playwright.sync_api import expect

    def value_as_typed(page, k, preview):
        """Before each game is saved the screen shows what the engine makes of it (the value,
        won or lost, the list points) and the opponents' 120 − x next to the card points."""
        assert preview["facts"] and not preview["problems"]
        box = page.locator("#anteprima")
        for label, text in preview["facts"]:
            expect(box).to_contain_text(f"{label}")
            # the page prints a true minus before a negative number ("perso −54")
            expect(box).to_contain_text(re.sub(r"-(?=\d)", "\N{MINUS SIGN}", text))
        for name, points in preview["points"].items():
            expect(box.locator(f"tr[data-player='{name}'] td[data-points]")).to_have_attribute(
                "data-points", str(points)
            )
        expect(page.locator("#eco-declarer_points")).to_have_text(
            preview["echo"].get("declarer_points", "")
        )
        if k == 1:
            shot(page, "value-as-typed")

    _play(
        browser, live_server, shot, "skat-isko", NAMES[:3], (390, 844), seed=5,
        typed=value_as_typed,
    )  # fmt: skip


def test_ramino_match_with_a_reentry_on_a_phone(browser, live_server, desk, shot):
    # a seed whose match has a re-entry (the "rientra?" question is answered in the browser)
    system = get_system("ramino-101")
    seed = next(
        s
        for s in range(100)
        if any(
            h.get("reentries")
            for h in system.random_turno(random.Random(s), NAMES, system.rules())["smazzate"]
        )
    )
    turno = _play(browser, live_server, shot, "ramino-101", NAMES, (390, 844), seed=seed)
    assert sum(s.extra["reentries"] for s in Seat.objects.filter(turno=turno)) >= 1
