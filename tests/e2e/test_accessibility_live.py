"""axe-core (WCAG 2.1 A/AA) on the live screen of every game, at 1366 px and at 390 px.

For each of the six rule sets: the screen of a turno in progress (a few deals recorded), the
same screen after a rejected deal (the error summary, the fields marked invalid), the correction
of a deal, and the screen of a closed turno. Any serious or critical violation fails, and so does
a page that scrolls sideways on a 390 px phone (tests/e2e/test_accessibility.py does the same for
the other pages).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring import api
from scoring.rules.systems import get_system

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}
PASSWORD = "pw-e2e-axe-live-1"
NAMES = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi"]
GAMES = ["caf", "king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]

pytestmark = pytest.mark.skipif(
    not AXE.exists(), reason=f"axe-core not installed at {AXE} (make install needs npm)"
)


def _turni(code: str) -> tuple:
    """A season of the game: a turno in progress with three deals, and a closed one."""
    system = get_system(code)
    season = api.season_create(name=f"{code} 2026-27", ruleset=code)
    rules = season.ruleset if code == "caf" else season.game_rules
    players = NAMES[:3] if code == "skat-isko" else NAMES
    for name in players:
        api.member_enroll(season=season, player=name)
    closed_record = system.random_turno(random.Random(1), players, rules)
    closed = api.turno_start(
        season=season,
        date=dt.date(2026, 11, 13),
        players=players,
        first_dealer=closed_record["first_dealer"],
    )
    for deal in closed_record["smazzate"]:
        api.smazzata_record(turno=closed, record=deal)
    api.turno_close(turno=closed, tiebreak=closed_record.get("tiebreak"))
    open_record = system.random_turno(random.Random(2), players, rules)
    open_ = api.turno_start(
        season=season,
        date=dt.date(2026, 11, 20),
        players=players,
        first_dealer=open_record["first_dealer"],
    )
    for deal in open_record["smazzate"][:3]:
        api.smazzata_record(turno=open_, record=deal)
    return open_, closed


def _audit(page, label: str) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS
    )
    found = []
    for v in result["violations"]:
        if v["impact"] in BLOCKING:
            targets = [json.dumps(n["target"]) for n in v["nodes"][:3]]
            found.append(
                f"{label}: {v['impact']} {v['id']} ({len(v['nodes'])}×) {v['help']} {targets}"
            )
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if width < 800 and scroll > width:
        found.append(f"{label}: scrolls sideways ({scroll} px wide on a {width} px screen)")
    return found


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_games_live_screen_passes_axe(browser, live_server, transactional_db, viewport, shot):
    user = User.objects.create_user("ada", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    turni = {code: _turni(code) for code in GAMES}
    width, height = VIEWPORTS[viewport]
    # bypass_csp: the page's policy (script-src 'self') would refuse the test's own injected axe
    context = browser.new_context(
        locale="it-IT", viewport={"width": width, "height": height}, bypass_csp=True
    )
    page = context.new_page()
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    problems: list[str] = []
    for code, (open_, closed) in turni.items():
        live = base + reverse("scoring:turno_live", args=[open_.pk])
        page.goto(live)
        problems += _audit(page, f"{code} live")
        # a rejected deal: Enter in the empty form
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator("#smazzata-form button.big").click()
        page.wait_for_selector("#smazzata-errors")
        page.wait_for_timeout(100)
        assert page.locator("#smazzata-form [aria-invalid=true]").count() >= 1
        shot(page, f"{code}-rejected")
        problems += _audit(page, f"{code} live, rejected deal")
        page.goto(base + reverse("scoring:turno_correct", args=[open_.pk]) + "?numero=2")
        problems += _audit(page, f"{code} correction of deal 2")
        page.goto(base + reverse("scoring:turno_live", args=[closed.pk]))
        problems += _audit(page, f"{code} closed turno")
        shot(page, f"{code}-closed")
    context.close()
    assert not problems, "\n".join(problems)
