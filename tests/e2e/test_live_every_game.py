"""The live screen of every game (issue 24 item 6, issue 25), driven by the keyboard alone.

For each of the six rule sets, in headless Chromium: the first field has the focus on load; Enter
in an empty form is refused, the error summary (``role="alert"``) takes the focus, the fields it
names are ``aria-invalid`` and the address stays the live screen's; the first deal of a valid
random turno is typed with Tab, arrows, Space and digits and recorded with Enter (the screen is
swapped by htmx, never reloaded); the correction of that deal is saved with Enter; the undo is
confirmed with the keyboard. Every step is checked against the database.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring import api
from scoring.models import Smazzata
from scoring.rules.systems import get_system
from tests.e2e.conftest import htmx_settled, logged_in

PASSWORD = "pw-e2e-every-game-1"
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
GAMES = ["caf", "king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]


@pytest.fixture
def desk(transactional_db):
    user = User.objects.create_user("teresa", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    return user


def _open(browser, live_server, viewport):
    # bypass_csp: Playwright's wait_for_function evaluates text, which the site's policy forbids
    context = browser.new_context(locale="it-IT", viewport=viewport, bypass_csp=True)
    logged_in(context, live_server.url, "teresa")
    return context, context.new_page()


def _quiet_turno(system, rules, players: list[str], seed: int) -> dict:
    """A random turno whose first deal asks nothing before it is stored (no "rientra?")."""
    for s in range(seed, seed + 100):
        record = system.random_turno(random.Random(s), players, rules)
        head = {**record, "smazzate": []}
        deal = system.parse_entry(
            rules, head, system.entry_data(rules, head, record["smazzate"][0])
        )
        if not system.questions(rules, head, deal):
            return record
    raise AssertionError("no turno without a question")


def _turno(code: str, seed: int):
    """A season of the game, a turno at a table of four (three for Skat), and the first deal of a
    valid random turno of that table, as the live screen's form data."""
    system = get_system(code)
    season = api.season_create(name=f"{code} 2026-27", ruleset=code)
    rules = season.ruleset if code == "caf" else season.game_rules
    players = NAMES[:3] if code == "skat-isko" else NAMES
    for name in players:
        api.member_enroll(season=season, player=name)
    record = _quiet_turno(system, rules, players, seed) if code != "caf" else None
    record = record or system.random_turno(random.Random(seed), players, rules)
    turno = api.turno_start(
        season=season,
        date=dt.date(2026, 11, 20),
        players=players,
        first_dealer=record["first_dealer"],
    )
    first = record["smazzate"][0]
    if code == "caf":  # C.A.F.'s own form: chiamante, game, trump, a count per player
        data = {"caller": first["caller"], "game": first["game"]}
        if first.get("trump"):
            data["trump"] = first["trump"]
        for i, name in enumerate(players):
            data[f"count_{i}"] = first["result"][name]
    else:
        head = {**record, "smazzate": []}
        data = system.entry_data(rules, head, first)
    return turno, data


def _focused(page) -> dict:
    return page.evaluate(
        """() => { const e = document.activeElement;
                   return {tag: e.tagName, id: e.id, name: e.name || '', type: e.type || '',
                           value: e.value || '', checked: !!e.checked,
                           inForm: !!e.closest('#smazzata-form'), text: e.textContent.trim()}; }"""
    )


def _settle(page) -> None:
    """Let an htmx request the last key started (a refresh of C.A.F.'s fields, a preview) end,
    its answer swapped in and settled."""
    htmx_settled(page)


def _swapped(page, action) -> None:
    """Do ``action`` and wait until htmx has put a new ``#live`` in place (no page load)."""
    page.evaluate("document.getElementById('live').dataset.old = '1'")
    action()
    page.wait_for_function(
        "document.getElementById('live') && !document.getElementById('live').dataset.old",
        timeout=15000,
    )
    _settle(page)


def _type_deal(page, data: dict) -> None:
    """From the focused first field, Tab through the form: a radio group is set with the arrow
    keys (Space when the wanted one has the focus), a box with Space, a number typed. Stops on
    the last field (the next Tab would reach a button)."""
    seen = 0
    while True:
        seen += 1
        assert seen < 80, "the form never ends"
        el = _focused(page)
        assert el["inForm"], el
        name, kind = el["name"], el["type"]
        want = data.get(name)
        if kind == "radio" and want is not None:
            values = page.locator(f"#smazzata-form input[name='{name}']").evaluate_all(
                "els => els.map(e => e.value)"
            )
            steps = (values.index(str(want)) - values.index(el["value"])) % len(values)
            if steps == 0 and not el["checked"]:
                page.keyboard.press("Space")
                _settle(page)
            for _ in range(steps):
                page.keyboard.press("ArrowRight")
                _settle(page)
        elif kind == "checkbox":
            chosen = [str(v) for v in want] if isinstance(want, list) else None
            wanted = el["value"] in chosen if chosen is not None else bool(want)
            if wanted != el["checked"]:
                page.keyboard.press("Space")
                _settle(page)
        elif kind == "number":
            page.keyboard.press("Control+A")
            page.keyboard.type("" if want is None else str(want))
        page.keyboard.press("Tab")
        if _focused(page)["tag"] != "INPUT":  # past the last field: back to it
            page.keyboard.press("Shift+Tab")
            _settle(page)
            return


def _tab_to(page, text: str, limit: int = 200) -> None:
    """Tab until the element whose text starts with ``text`` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if _focused(page)["text"].startswith(text):
            return
    raise AssertionError(f"no focusable {text!r}")


@pytest.mark.parametrize("code", GAMES)
def test_every_game_by_keyboard(browser, live_server, desk, shot, code):
    turno, data = _turno(code, seed=3)
    live = f"{live_server.url}{reverse('scoring:turno_live', args=[turno.pk])}"
    context, page = _open(browser, live_server, {"width": 1366, "height": 900})
    page.goto(live)
    _settle(page)

    # on load: the first field of the deal has the focus
    first = _focused(page)
    assert first["tag"] == "INPUT" and first["inForm"], first

    # Enter in the empty form: refused, the summary has the focus, the address is the same
    _swapped(page, lambda: page.keyboard.press("Enter"))
    assert Smazzata.objects.filter(turno=turno).count() == 0
    assert _focused(page)["id"] == "smazzata-errors"
    assert page.locator("#smazzata-errors [role=alert] li").count() >= 1
    assert page.locator("#smazzata-form [aria-invalid=true]").count() >= 1
    assert page.url == live
    shot(page, f"{code}-rejected")

    # the first deal by keyboard: Tab from the summary into the form, Enter records
    page.keyboard.press("Tab")  # the summary's first link
    while not _focused(page)["inForm"] or _focused(page)["tag"] != "INPUT":
        page.keyboard.press("Tab")
    _type_deal(page, data)
    _swapped(page, lambda: page.keyboard.press("Enter"))
    assert Smazzata.objects.filter(turno=turno).count() == 1, page.inner_text("#live")[:2000]
    assert page.url == live
    assert "Smazzata 1 registrata" in page.inner_text("#live")
    assert page.locator("h2").filter(has_text="Smazzata 2").count() == 1
    nxt = _focused(page)
    assert nxt["tag"] == "INPUT" and nxt["inForm"], nxt  # ready for the next deal
    shot(page, f"{code}-recorded")

    # correct the deal just recorded: its form comes back filled in, Enter saves it unchanged
    _tab_to(page, "Correggi l'ultima smazzata")
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    _settle(page)
    assert "Correggi la smazzata 1" in page.inner_text("#live")
    before = Smazzata.objects.get(turno=turno, number=1)
    fixed = _focused(page)
    assert fixed["tag"] == "INPUT" and fixed["inForm"], fixed
    _swapped(page, lambda: page.keyboard.press("Enter"))
    assert "Smazzata 1 corretta" in page.inner_text("#live")
    after = Smazzata.objects.get(turno=turno, number=1)
    assert Smazzata.objects.filter(turno=turno).count() == 1 and after.game == before.game

    # undo it: the confirmation opens and is answered with the keyboard
    _tab_to(page, "Annulla l'ultima smazzata")
    page.keyboard.press("Enter")  # opens the <details>
    _tab_to(page, "Sì, annulla la smazzata 1", limit=5)
    _swapped(page, lambda: page.keyboard.press("Enter"))
    assert Smazzata.objects.filter(turno=turno).count() == 0
    assert "Smazzata 1 annullata" in page.inner_text("#live")
    assert page.url.startswith(live)
    context.close()


def _fill(page, data: dict) -> None:
    """The deal typed by mouse and keys, each field as the form offers it (radio, box, number)."""
    for name, want in data.items():
        field = page.locator(f"#smazzata-form input[name='{name}']")
        kind = field.first.get_attribute("type")
        if kind == "radio":
            page.check(f"#smazzata-form input[name='{name}'][value='{want}']")
        elif kind == "checkbox":
            wanted = [str(v) for v in want] if isinstance(want, list) else ["1"] if want else []
            for box in field.all():
                box.set_checked(box.get_attribute("value") in wanted)
        else:
            field.fill(str(want))
        _settle(page)


def _typed(page) -> dict:
    """What the form shows: a radio group's checked value, a box's checked values, a number."""
    return page.evaluate(
        """() => { const out = {};
                   for (const e of document.querySelectorAll('#smazzata-form input[name]')) {
                     if (e.type === 'hidden' || e.type === 'submit') continue;
                     if (e.type === 'radio') { if (e.checked) out[e.name] = e.value; }
                     else if (e.type === 'checkbox') {
                       out[e.name] = (out[e.name] || []).concat(e.checked ? [e.value] : []); }
                     else out[e.name] = e.value; }
                   return out; }"""
    )


# the running check once a deal of each game is typed (the first deal of _turno's turno, seed 3):
# C.A.F.'s NU2 at four, King classico's dichiarazione and the forced NF of the other two (C = 13)
CHECKED = {
    "caf": "2 ultime due mani su 2",
    "king-classico": "13 prese su 13",
    "king-internazionale": "13 prese su 13",
    "le-king": "13 prese su 13",
}


def test_a_reload_keeps_the_typed_deal_of_every_game(browser, live_server, desk):
    """Issue 25: a deal of each of the six games typed, the page reloaded (a phone that slept, a
    wrong key): every field comes back as typed, and the running check with it (the King family's
    from the rules' data, as C.A.F.'s)."""
    context, page = _open(browser, live_server, {"width": 1366, "height": 900})
    for code in GAMES:
        turno, data = _turno(code, seed=3)
        page.goto(f"{live_server.url}{reverse('scoring:turno_live', args=[turno.pk])}")
        _settle(page)
        _fill(page, data)
        typed = _typed(page)
        for name, want in data.items():
            shown = typed[name]
            assert shown == ([str(want)] if isinstance(shown, list) else str(want)), (code, name)
        assert page.locator("#count-check").all_inner_texts() == (
            [CHECKED[code]] if code in CHECKED else []
        )
        page.reload()
        _settle(page)
        assert _typed(page) == typed, code
        if code not in CHECKED:
            continue
        check = page.locator("#count-check")
        assert check.inner_text() == CHECKED[code] and check.get_attribute("data-state") == "ok"
        if code != "caf":  # one trick too many, said as C.A.F. says it
            first = page.locator("#smazzata-form input[name='result-0']")
            first.fill(str(int(data["result-0"]) + 1))
            assert check.inner_text() == "14 prese su 13 · 1 prese di troppo", code
            assert check.get_attribute("data-state") == "bad"
    assert Smazzata.objects.count() == 0
    context.close()
