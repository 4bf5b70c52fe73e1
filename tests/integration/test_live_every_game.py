"""The live screen of every game (issue 24 item 6, issue 25): one behaviour for the six rule sets.

A deal posted by htmx gets the ``#live`` partial back (status 200: htmx swaps no 4xx answer), a
rejected one with its error summary (``role="alert"``, the fields ``aria-invalid``), a recorded one
with the next deal's form and its progress ("Smazzata 2 di 20" where the rules fix the number of
deals); without JavaScript the same posts answer with the whole page (422) or a redirect (PRG).
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse

from scoring import api
from scoring.models import Smazzata

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HTTP_HX_REQUEST": "true"}
# the deals of a turno of four (three for Skat) where the rules fix them; None: the game decides
DEALS = {
    "caf": 19,
    "king-classico": 20,
    "king-internazionale": 10,
    "le-king": 10,
    "skat-isko": 36,
    "ramino-101": None,
}


def _turno(code: str):
    season = api.season_create(name=f"{code} 2026-27", ruleset=code)
    players = NAMES[:3] if code == "skat-isko" else NAMES
    for name in NAMES:
        api.member_enroll(season=season, player=name)
    return api.turno_start(
        season=season, date=dt.date(2026, 11, 20), players=players, first_dealer=players[0]
    )


def _first_deal(turno) -> dict:
    """The first deal of a valid random turno of this table as the form posts it."""
    season = turno.season
    system = season.system
    players = [s.player.name for s in turno.seats.order_by("position")]
    if season.ruleset_code == "caf":
        rules = season.ruleset
        for seed in range(50):
            record = system.random_turno(random.Random(seed), players, rules)
            if record["first_dealer"] == players[0]:
                break
        first = record["smazzate"][0]
        data = {"caller": first["caller"], "game": first["game"], "number": "1"}
        if first.get("trump"):
            data["trump"] = first["trump"]
        for i, name in enumerate(players):
            data[f"count_{i}"] = str(first["result"][name])
        return data
    rules = season.game_rules
    for seed in range(200):
        record = system.random_turno(random.Random(seed), players, rules)
        head = {**record, "smazzate": []}
        data = system.entry_data(rules, head, record["smazzate"][0])
        deal = system.parse_entry(rules, head, data)
        if record["first_dealer"] == players[0] and not system.questions(rules, head, deal):
            return {**data, "numero": "1"}
    raise AssertionError("no deal")


def _smazzata_url(turno) -> str:
    return reverse("scoring:turno_smazzata", args=[turno.pk])  # one address for every game


@pytest.mark.parametrize("code", sorted(DEALS))
def test_a_rejected_deal_by_htmx_gets_the_partial_with_its_error_summary(segretario_client, code):
    turno = _turno(code)
    r = segretario_client.post(_smazzata_url(turno), {"numero": "1", "number": "1"}, **HTMX)
    html = r.content.decode()
    assert r.status_code == 200
    assert html.lstrip().startswith('<div id="live"') and "<html" not in html
    assert 'id="smazzata-errors"' in html and "data-error-summary" in html
    assert '<div role="alert">' in html
    assert 'aria-invalid="true"' in html
    assert 'id="smazzata-form"' in html and "implicit-submit" in html
    assert "smazzata 1:" not in html  # the deal on the form is not named again in its summary
    # the calling order and its table only where deals are called (C.A.F.'s form)
    calls = turno.season.system.entry_form == "calls"
    assert ("Chi può chiamare" in html) == calls and ("Ordine di chiamata" in html) == calls
    assert not Smazzata.objects.filter(turno=turno).exists()


@pytest.mark.parametrize("code", sorted(DEALS))
def test_a_deal_by_htmx_gets_the_next_form_with_its_progress(segretario_client, code):
    turno = _turno(code)
    page = segretario_client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    total = DEALS[code]
    first = f"Smazzata 1 di {total}</h2>" if total else "Smazzata 1</h2>"
    assert first in page
    assert page.count(" autofocus") == 1  # the first field of the deal
    r = segretario_client.post(_smazzata_url(turno), _first_deal(turno), **HTMX)
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html
    assert Smazzata.objects.filter(turno=turno).count() == 1
    assert "Smazzata 1 registrata" in html
    assert (f"Smazzata 2 di {total}</h2>" if total else "Smazzata 2</h2>") in html
    assert "data-error-summary" not in html


@pytest.mark.parametrize("code", ["king-classico", "ramino-101"])
def test_without_javascript_a_rejected_deal_is_the_whole_page_and_a_good_one_redirects(
    segretario_client, code
):
    turno = _turno(code)
    live = reverse("scoring:turno_live", args=[turno.pk])
    bad = segretario_client.post(_smazzata_url(turno), {"numero": "1"})
    assert bad.status_code == 422
    assert "<html" in bad.content.decode() and 'id="smazzata-errors"' in bad.content.decode()
    good = segretario_client.post(_smazzata_url(turno), _first_deal(turno))
    assert good.status_code == 302 and good["Location"] == live


def test_a_closed_turno_offers_its_verbale_for_download(segretario_client):
    turno = _turno("le-king")
    system, rules = turno.season.system, turno.season.game_rules
    record = system.random_turno(random.Random(1), NAMES, rules)
    turno = api.turno_start(
        season=turno.season,
        date=dt.date(2026, 11, 21),
        players=NAMES,
        first_dealer=record["first_dealer"],
    )
    for deal in record["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    api.turno_close(turno=turno, tiebreak=record.get("tiebreak"))
    for url in ("scoring:turno_live", "scoring:turno"):  # the live screen, the Verbale page
        page = segretario_client.get(reverse(url, args=[turno.pk])).content.decode()
        assert reverse("scoring:turno_pdf", args=[turno.pk]) in page, url
        assert reverse("scoring:turno_xlsx", args=[turno.pk]) in page, url


# -- the old addresses of the five games' screens --------------------------------------------------
MOVED = [
    ("smazzata/", "turno_smazzata"),
    ("anteprima/", "turno_preview"),
    ("annulla/", "turno_undo"),
    ("chiudi/", "turno_close"),
    ("riapri/", "turno_reopen"),
    ("penalita/", "turno_penalita_add"),
    ("elimina/", "turno_delete"),
]


@pytest.mark.parametrize(("old", "name"), MOVED)
def test_the_old_partite_addresses_redirect_to_the_one_set(segretario_client, old, name):
    turno = _turno("ramino-101")
    url = f"/segreteria/partite/{turno.pk}/{old}"
    posted = segretario_client.post(url, {"numero": "1"})
    assert posted.status_code == 308  # permanent, the method and the body kept
    assert posted["Location"] == reverse(f"scoring:{name}", args=[turno.pk])
    got = segretario_client.get(url)
    assert got.status_code == 301
    assert got["Location"] == reverse("scoring:turno_live", args=[turno.pk])


def test_the_old_penalita_removal_address_keeps_both_keys(segretario_client):
    turno = _turno("le-king")
    url = f"/segreteria/partite/{turno.pk}/penalita/7/elimina/"
    moved = segretario_client.post(url)
    assert moved.status_code == 308
    assert moved["Location"] == reverse("scoring:turno_penalita_remove", args=[turno.pk, 7])


def test_a_stale_form_posted_to_the_old_address_records_the_deal(segretario_client):
    """A page loaded before the upgrade still records: the client follows the 308 with the
    same POST."""
    turno = _turno("king-classico")
    r = segretario_client.post(
        f"/segreteria/partite/{turno.pk}/smazzata/", _first_deal(turno), follow=True
    )
    assert r.redirect_chain[0] == (reverse("scoring:turno_smazzata", args=[turno.pk]), 308)
    assert Smazzata.objects.filter(turno=turno).count() == 1


@pytest.mark.parametrize("code", sorted(DEALS))
def test_every_game_is_served_at_the_same_addresses(segretario_client, code):
    """The one set: the live screen, the correction of the last deal and the delete of a turno
    opened by mistake answer for every game."""
    turno = _turno(code)
    live = reverse("scoring:turno_live", args=[turno.pk])
    assert segretario_client.get(live).status_code == 200
    segretario_client.post(_smazzata_url(turno), _first_deal(turno))
    assert Smazzata.objects.filter(turno=turno).count() == 1
    page = segretario_client.get(reverse("scoring:turno_correct", args=[turno.pk]))
    assert page.status_code == 200 and "Correggi la smazzata 1" in page.content.decode()
    segretario_client.post(reverse("scoring:turno_undo", args=[turno.pk]), {"number": "1"})
    assert not Smazzata.objects.filter(turno=turno).exists()
    gone = segretario_client.post(reverse("scoring:turno_delete", args=[turno.pk]))
    assert gone.status_code == 302 and gone["Location"] == reverse("scoring:segreteria")
    assert not type(turno).objects.filter(pk=turno.pk).exists()


@pytest.mark.parametrize("code", sorted(DEALS))
def test_a_penalita_is_recorded_only_where_the_rules_have_penalties(segretario_client, code):
    """A game without penalità (Ramino) has no such action: 404, not a 422 with a form its
    screen does not show (and so no message)."""
    turno = _turno(code)
    takes = turno.season.system.takes_penalties
    assert takes is (code != "ramino-101")
    player = turno.seats.order_by("position").first().player
    r = segretario_client.post(
        reverse("scoring:turno_penalita_add", args=[turno.pk]),
        {"pen-player": player.name, "pen-points": "-1", "pen-article": "16"},
    )
    if not takes:
        assert r.status_code == 404, (code, r.status_code)
        assert not turno.penalita.exists()
        return
    # recorded: back to the live screen (PRG), the one penalità as posted
    assert r.status_code == 302, (code, r.status_code)
    assert r["Location"] == reverse("scoring:turno_live", args=[turno.pk])
    assert list(turno.penalita.values_list("player", "points", "article")) == [
        (player.pk, -1, "16")
    ]
