"""The segretario's screens in both languages: Italian by default, English on request.

The club's own words (turno, smazzata, chiamante, mazziere, obbligata, penalità...) stay Italian in
the English screens; the sentences around them are translated. The engine's messages stay Italian.
"""

from __future__ import annotations

import datetime as dt
import html
import random
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring.models import Player
from scoring.rules.caf import caf
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.season import season_create
from scoring.services.turni import turno_start

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
DAY = dt.date(2026, 11, 20)


@pytest.fixture(autouse=True)
def _back_to_italian():
    """LocaleMiddleware leaves the last request's language active: restore the default."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def season():
    for name in [*PLAYERS, "Elena"]:
        Player.objects.create(name=name)
    return season_create(name="2026-27")


@pytest.fixture
def turno(season):
    return turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")


def _english(client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302


def _page(client, url: str, **extra) -> str:
    response = client.get(url, **extra)
    assert response.status_code == 200, url
    return response.content.decode()


def _live(turno) -> str:
    return reverse("scoring:turno_live", args=[turno.pk])


# -- the live screen ----------------------------------------------------------------------------
def test_live_screen_in_english(segretario_client, turno):
    _english(segretario_client)
    page = _page(segretario_client, _live(turno))
    assert 'lang="en"' in page
    assert '<h2 id="smazzata-h">Smazzata 1 of 19</h2>' in page
    assert '<h2 id="callable-h">Who can call</h2>' in page
    assert "<span>Calling order: " in page
    assert "<span>Mazziere: <strong>Anna</strong></span>" in page
    assert '<button type="submit" class="big">Record smazzata 1</button>' in page
    assert "<summary>Add a penalità</summary>" in page
    assert '<button type="submit">Add the penalità</button>' in page
    assert '<h2 id="san-h">Disciplinary relegation</h2>' in page
    assert '<p class="muted">No smazzata recorded yet.</p>' in page
    assert '<button type="submit" class="danger">Delete the turno</button>' in page
    assert "back to the secretary's screens" in page
    # the club's words stay as they are
    assert '<h2 id="pen-h">Penalità</h2>' in page
    assert '<h2 id="rows-h">Smazzate</h2>' in page
    # no Italian sentence left behind
    for italian in ("Chi può chiamare", "Registra la smazzata", "Aggiungi la", "Ordine di"):
        assert italian not in page


def test_live_screen_in_italian(segretario_client, turno):
    page = _page(segretario_client, _live(turno))
    assert 'lang="it"' in page
    assert '<h2 id="smazzata-h">Smazzata 1 di 19</h2>' in page
    assert '<h2 id="callable-h">Chi può chiamare</h2>' in page
    assert "<span>Ordine di chiamata: " in page
    assert '<button type="submit" class="big">Registra la smazzata 1</button>' in page
    assert '<button type="submit">Aggiungi la penalità</button>' in page
    assert '<p class="muted">Nessuna smazzata registrata.</p>' in page
    for english in ("Who can call", "Record smazzata", "Add the penalità", "Calling order"):
        assert english not in page


def test_recorded_smazzata_message_and_closing_in_english(segretario_client, turno):
    _english(segretario_client)
    record = simulate_turno(caf(), PLAYERS, random.Random(7), first_dealer="Anna")
    kinds = set()
    for number, sm in enumerate(record.smazzate, start=1):
        data = {"number": number, "caller": sm.caller, "game": sm.game, "trump": sm.trump or ""}
        data |= {f"count_{i}": sm.result[p] for i, p in enumerate(PLAYERS)}
        response = segretario_client.post(
            reverse("scoring:turno_smazzata", args=[turno.pk]), data, follow=True
        )
        assert response.status_code == 200
        page = response.content.decode()
        message = re.search(r'<li class="msg-success">([^<]*)</li>', page).group(1)
        match = re.fullmatch(
            rf"Smazzata {number} recorded: \S+ called by {sm.caller} \((obbligata|voluntary)\)\.",
            html.unescape(message),
        )
        assert match, message
        kinds.add(match.group(1))
    assert kinds == {"obbligata", "voluntary"}  # both kinds of call, each in its own words
    assert '<h2 id="close-h">Closing the turno</h2>' in page
    assert '<button type="submit">Close the turno</button>' in page
    assert "All 19 smazzate are recorded." in page


def test_form_errors_in_english(segretario_client, turno):
    _english(segretario_client)
    page = segretario_client.post(
        reverse("scoring:turno_penalita_add", args=[turno.pk]),
        {"pen-player": "Anna", "pen-article": "16"},
    ).content.decode()
    assert "This field is required." in page  # Django's own message, in English too
    page = segretario_client.post(
        reverse("scoring:turno_smazzata", args=[turno.pk]), {"number": 1, "count_0": "x"}
    ).content.decode()
    assert "choose the chiamante" in page
    assert "choose the game" in page
    assert "the result of Anna must be a whole number" in page


# -- the new-turno page, the dashboard, the login -----------------------------------------------
def test_new_turno_page_in_english(segretario_client, season):
    _english(segretario_client)
    url = reverse("scoring:turno_new")
    page = _page(segretario_client, url)
    assert "<h1>New turno</h1>" in page
    legend = "Players in seat order (counterclockwise), 3 to 7"
    assert f'<legend class="table-legend">{legend}</legend>' in page
    assert 'class="seat-label">Seat 1</label>' in page
    assert 'placeholder="or a new member"' in page
    assert ">First mazziere:</label>" in page
    assert '<button type="submit">Start the turno</button>' in page
    assert ">Cancel</a>" in page
    anna = Player.objects.get(name="Anna")
    data = {"season": season.pk, "date": DAY.isoformat(), "first_dealer_seat": 5}
    data |= {"seat_1": anna.pk, "seat_1_new": "Zeno"}
    page = segretario_client.post(url, data).content.decode()
    assert "choose a member from the list or type a new name, not both" in page
    assert "seat 5 is empty: choose the first mazziere" in page


def test_new_turno_page_in_italian(segretario_client, season):
    page = _page(segretario_client, reverse("scoring:turno_new"))
    assert "<h1>Nuovo turno</h1>" in page
    assert 'class="seat-label">Posto 1</label>' in page
    assert ">Primo mazziere:</label>" in page
    assert '<button type="submit">Inizia il turno</button>' in page
    assert "New turno" not in page and "Start the turno" not in page


def test_started_turno_message_in_both_languages(segretario_client, season):
    url = reverse("scoring:turno_new")
    data = {"season": season.pk, "date": DAY.isoformat(), "first_dealer_seat": 2}
    data |= {f"seat_{i}": Player.objects.get(name=p).pk for i, p in enumerate(PLAYERS, start=1)}
    page = segretario_client.post(url, data, follow=True).content.decode()
    assert "Turno 20/11/2026 #1 iniziato: mazziere Bruno." in page
    _english(segretario_client)
    data["date"] = (DAY + dt.timedelta(days=7)).isoformat()
    page = segretario_client.post(url, data, follow=True).content.decode()
    assert "Turno 27/11/2026 #1 started: mazziere Bruno." in page


def test_dashboard_follows_the_browser_language(segretario_client, turno):
    page = _page(segretario_client, reverse("scoring:segreteria"), HTTP_ACCEPT_LANGUAGE="en")
    assert "<h1>Secretary · season 2026-27</h1>" in page
    assert '<h2 id="open-h">Turni in progress</h2>' in page
    assert ">New turno</a>" in page
    page = _page(segretario_client, reverse("scoring:segreteria"))
    assert "<h1>Segreteria · stagione 2026-27</h1>" in page
    assert '<h2 id="open-h">Turni in corso</h2>' in page


def test_login_page_in_both_languages(client):
    url = reverse("login") + "?next=/segreteria/"
    page = _page(client, url, HTTP_ACCEPT_LANGUAGE="en")
    assert "<h1>Log in</h1>" in page and ">Username</label>" in page
    assert "Please log in to continue." in page
    page = _page(client, url)
    assert "<h1>Accedi</h1>" in page and ">Nome utente</label>" in page
    assert "Per continuare è necessario accedere." in page
