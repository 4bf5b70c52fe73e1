"""The Verbale countersigned in a browser: a player confirms from a phone, another contests, the
segretario sees the flag on the dashboard and the Classifica, reopens the turno and the flag
goes."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User

from scoring.models import Player, VerbaleConfirmation
from scoring.services.season import season_create
from tests.helpers import play_turno

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
PASSWORD = "pw-kingclub-1"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def club(transactional_db):
    for name in PLAYERS:
        player = Player.objects.create(name=name)
        if name in ("Anna", "Bruno"):
            player.user = User.objects.create_user(name.lower(), password=PASSWORD)
            player.save()
    maria = User.objects.create_user("maria", password=PASSWORD, first_name="Maria")
    maria.groups.add(Group.objects.get_or_create(name="Segretario")[0])
    season = season_create(name="2026-27")
    turno, _record = play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=3)
    return turno


def login(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/login" not in page.url


def test_players_confirm_and_contest_and_a_reopen_clears_the_flag(browser, live_server, club, shot):
    base = live_server.url
    verbale_url = f"{base}/turni/{club.pk}/"

    # Anna, on her phone, confirms the Verbale
    anna = browser.new_context(locale="it-IT", **PHONE).new_page()
    login(anna, base, "anna")
    anna.goto(verbale_url)
    anna.click("button:has-text('Confermo il verbale')")
    anna.wait_for_load_state()
    block = anna.locator("#conferme")
    assert "Confermato da Anna il" in block.inner_text()
    assert block.get_attribute("data-contested") == "0"
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390, "page scrolls sideways"
    block.scroll_into_view_if_needed()
    shot(anna, "anna-confirmed", full_page=False)

    # Bruno, on his phone, contests it with a comment
    bruno = browser.new_context(locale="it-IT", **PHONE).new_page()
    login(bruno, base, "bruno")
    bruno.goto(verbale_url)
    bruno.fill("#contest-comment", "la smazzata 5 era una scazzata")
    bruno.click("button:has-text('Contesto il verbale')")
    bruno.wait_for_load_state()
    block = bruno.locator("#conferme")
    assert block.get_attribute("data-contested") == "1"
    assert "Contestato da Bruno il" in block.inner_text()
    assert "la smazzata 5 era una scazzata" in block.inner_text()
    assert bruno.locator("button:has-text('Ritira la mia contestazione')").count() == 1
    assert list(
        VerbaleConfirmation.objects.order_by("at").values_list("player__name", "verdict")
    ) == [("Anna", "confermato"), ("Bruno", "contestato")]

    # the segretario sees the flag on the dashboard and in the Classifica
    desk = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 900}).new_page()
    login(desk, base, "maria")
    desk.goto(f"{base}/segreteria/")
    flag = desk.locator(f"[data-contested-turno='{club.pk}']")
    assert flag.count() == 1
    shot(desk, "dashboard-flag", full_page=False)
    desk.goto(f"{base}/classifica/")
    assert desk.locator(f".contested-note [data-contested-turno='{club.pk}']").count() == 1
    desk.goto(verbale_url)
    desk.locator("#conferme").scroll_into_view_if_needed()
    path = shot(desk, "verbale-confirmed-contested", full_page=True)
    if os.environ.get("KINGCLUB_README_SHOTS"):  # the README's picture, only when asked
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / "verbale-confirmed.png")

    # the segretario reopens the turno with a reason: confirmations and flag go
    desk.goto(f"{base}/segreteria/turni/{club.pk}/")
    desk.fill("form.reopen textarea[name=reason]", "verificare la smazzata 5")
    desk.click("form.reopen button:has-text('Riapri')")
    desk.wait_for_load_state()
    desk.goto(f"{base}/segreteria/")
    assert desk.locator("[data-contested-turno]").count() == 0
    desk.goto(f"{base}/classifica/")
    assert desk.locator(".contested-note").count() == 0
    assert not VerbaleConfirmation.objects.exists()
    bruno.goto(verbale_url)
    assert bruno.locator("#conferme").count() == 0  # an open turno: nothing to confirm yet
