"""axe-core (WCAG 2.1 A/AA) on every page, public and segreteria, at 1366 px and at 390 px.

axe-core comes from the npm registry (``package.json``/``package-lock.json``, installed into the
git-ignored ``node_modules/`` by ``make install``); it is injected from disk, never from a CDN.
Any serious or critical violation fails the test, and so does a page that scrolls sideways on a
390 px phone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Player, Season, Turno

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}

pytestmark = pytest.mark.skipif(
    not AXE.exists(), reason=f"axe-core not installed at {AXE} (make install needs npm)"
)


@pytest.fixture
def demo(transactional_db):
    """The demo club (a short season, one turno in progress), a member linked to a player."""
    for name in ("Segretario", "Socio"):  # a flushed database has lost the migration's groups
        Group.objects.get_or_create(name=name)
    call_command("seed_demo", giornate=3, seed=7, verbosity=0)
    season = Season.objects.get(is_current=True)
    socio = User.objects.get(username="socio")
    member = Player.objects.filter(enrollments__season=season).order_by("name").first()
    member.user = socio
    member.save(update_fields=["user"])
    return season, member


def _pages(season: Season, member: Player) -> tuple[list[str], list[str]]:
    """(public pages, segreteria pages) of the demo club."""
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO).first()
    open_ = Turno.objects.filter(season=season, status=Turno.IN_CORSO).first()
    other = Season.objects.exclude(pk=season.pk).first()
    public = [
        reverse("scoring:home"),
        reverse("scoring:classifica", args=[season.pk]),
        reverse("scoring:serie"),
        reverse("scoring:turni"),
        reverse("scoring:turno", args=[closed.pk]),
        reverse("scoring:turno", args=[open_.pk]),
        reverse("scoring:players"),
        reverse("scoring:player", args=[member.pk]),
        reverse("scoring:home") + f"?stagione={other.pk}",
        reverse("login"),
    ]
    segreteria = [
        reverse("scoring:segreteria"),
        reverse("scoring:turno_new"),
        reverse("scoring:turno_live", args=[open_.pk]),
        reverse("scoring:turno_live", args=[closed.pk]),
        reverse("scoring:turno_correct", args=[open_.pk]),
    ]
    return public, segreteria


def _login(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/login" not in page.url


def _audit(page, label: str) -> list[str]:
    """axe's serious and critical violations of the page, and a sideways scroll, as text."""
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
def test_every_page_passes_axe(browser, live_server, demo, viewport, shot):
    season, member = demo
    public, segreteria = _pages(season, member)
    width, height = VIEWPORTS[viewport]
    # bypass_csp: the page's policy (script-src 'self') would refuse the test's own injected axe.
    context = browser.new_context(
        locale="it-IT", viewport={"width": width, "height": height}, bypass_csp=True
    )
    page = context.new_page()
    base = live_server.url
    problems: list[str] = []
    for url in public:
        page.goto(base + url)
        problems += _audit(page, f"{url} (anonimo)")

    _login(page, base, "socio", "socio-kingclub")
    page.goto(base + reverse("scoring:home"))
    problems += _audit(page, "/ (socio)")
    page.context.clear_cookies()

    _login(page, base, "segretario", "segretario-kingclub")
    for url in segreteria:
        page.goto(base + url)
        problems += _audit(page, url)

    # the live screen in its error state: "Registra" with nothing chosen
    open_ = Turno.objects.get(season=season, status=Turno.IN_CORSO)
    page.goto(base + reverse("scoring:turno_live", args=[open_.pk]))
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("button:has-text('Registra la smazzata')")
    page.wait_for_timeout(100)
    assert page.locator(".errorlist").count() >= 1
    shot(page, "live-error")
    problems += _audit(page, "live screen, rejected smazzata")

    # the new-turno form with its errors
    page.goto(base + reverse("scoring:turno_new"))
    page.click("button:has-text('Inizia il turno')")
    page.wait_for_load_state()
    problems += _audit(page, "new turno, rejected")
    context.close()
    assert not problems, "\n".join(problems)
