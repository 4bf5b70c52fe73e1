"""The README's screenshots, retaken from a running demo club.

    make run                                   # another terminal: the demo on 127.0.0.1:8000
    .venv/bin/python -m tools.screenshots      # writes docs/screenshots/*.png

It reads the demo's database (same settings as the server) only to find which turno is open
and which is closed, then drives Debian's Chromium with Playwright as a member and as the
segretario would. A page that does not exist in this build (404) is skipped with a note.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def _targets() -> dict[str, object]:
    """Primary keys of the demo's pages, read from the database the server uses."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from scoring.models import Season, Standing, Turno

    season = Season.objects.get(is_current=True)
    open_ = Turno.objects.filter(season=season, status=Turno.IN_CORSO).order_by("pk").first()
    closed = (
        Turno.objects.filter(season=season, status=Turno.CHIUSO)
        .order_by("-giornata__date", "-pk")
        .first()
    )
    leader = Standing.objects.filter(season=season).order_by("place").first()
    return {"season": season.pk, "open": open_.pk, "closed": closed.pk, "player": leader.player_id}


def _login(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def _shoot(page, base: str, url: str, name: str, *, full: bool = False) -> None:
    response = page.goto(base + url)
    if response is None or response.status >= 400:
        print(f"skipped {name}: {url} answered {response.status if response else 'nothing'}")
        return
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=full)
    print(f"docs/screenshots/{name}.png  <- {url}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument(
        "--chromium", default=os.environ.get("KINGCLUB_CHROMIUM", "/usr/bin/chromium")
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    t = _targets()
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        desk = browser.new_context(locale="it-IT", viewport=DESKTOP)
        page = desk.new_page()
        _shoot(page, args.base, "/", "classifica")
        _shoot(page, args.base, "/serie/", "serie")
        _shoot(page, args.base, f"/turni/{t['closed']}/", "verbale")
        _shoot(page, args.base, f"/giocatori/{t['player']}/", "giocatore")
        _shoot(page, args.base, "/live/", "scoreboard")
        _shoot(page, args.base, "/albo/", "albo-doro", full=True)
        _login(page, args.base, "segretario", "segretario-kingclub")
        live = f"/segreteria/turni/{t['open']}/"
        _shoot(page, args.base, live, "turno-live")
        # an impossible result: a game chosen, no counts typed, "Registra"
        page.goto(args.base + live)
        caller = page.locator("#smazzata-form input[name=caller]").first
        if caller.count():
            caller.check()
            page.locator("#smazzata-form input[name=game]").first.check()
            page.locator("#smazzata-form button.big").click()
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(OUT / "turno-errore.png"))
            print("docs/screenshots/turno-errore.png  <- a rejected smazzata")
        phone = browser.new_context(locale="it-IT", viewport=PHONE, is_mobile=True)
        ppage = phone.new_page()
        _login(ppage, args.base, "segretario", "segretario-kingclub")
        _shoot(ppage, args.base, live, "turno-telefono")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
