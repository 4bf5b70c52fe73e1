"""The Skat rule-set options (issue 25) where a club sets a season's rules: the new-season form
offers them from the rules (``system.rule_options()``), in Italian and English, with the SPEC's
default chosen; the season stores the choice and its live screen scores with it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from scoring import api
from scoring.models import Player, Season
from scoring.services.turni import turno_start
from tests.helpers import grand_hand

pytestmark = pytest.mark.django_db
P3 = ["Anna", "Bruno", "Carla"]
URL = "scoring:season_new"
MISSED = "regola-skat-isko-missed_announcement"
NULL = "regola-skat-isko-null_below_bid"


def test_the_new_season_form_offers_the_skat_options_with_the_specs_default(segretario_client):
    page = segretario_client.get(reverse(URL)).content.decode()
    assert "Skat: gioco perso con schneider o schwarz annunciato e non raggiunto" in page
    assert (
        f'name="{MISSED}" value="double" ' in page
        and "checked" in page.split(f'name="{MISSED}" value="double"')[1].split(">")[0]
    )
    assert f'name="{NULL}" value="invalid"' in page and f'name="{NULL}" value="overbid"' in page
    english = segretario_client.get(reverse(URL), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Skat: a game lost with schneider or schwarz announced and not reached" in english
    assert "counts once" in english and "conta una volta sola" not in english
    assert "Null announced below the bid" in english


def _new(client, code, **options):
    data = {"name": f"{code} 2026-27", "ruleset_code": code, "series_origin": "reset"}
    response = client.post(reverse(URL), {**data, **options})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Season.objects.get(name=data["name"])


def test_the_season_keeps_the_options_chosen_and_scores_with_them(segretario_client):
    for name in P3:
        Player.objects.create(name=name)
    season = _new(segretario_client, "skat-isko", **{MISSED: "single", NULL: "overbid"})
    assert (season.rules["missed_announcement"], season.rules["null_below_bid"]) == (
        "single",
        "overbid",
    )
    turno = turno_start(season=season, date=dt.date(2026, 11, 20), players=P3, first_dealer="Anna")
    # preisskat.org's Grand hand with 4, schneider announced, declarer 89: 8 × 24 = 192,
    # counted once: −192, list −192 − 50 = −242, opponents +40
    api.smazzata_record(turno=turno, record=grand_hand())
    # a Null ouvert (46) at a bid of 48, no trick: an overbid, −2 × 46 = −92, list −142
    null = {"declarer": "Carla", "game": "NULL", "bid": 48, "ouvert": True, "declarer_tricks": 0}
    api.smazzata_record(turno=turno, record=null)
    rows = {
        sm.number: {r.player.name: r.points for r in sm.results.all()}
        for sm in turno.smazzate.all()
    }
    assert rows[1] == {"Anna": 40, "Bruno": -242, "Carla": 40}
    assert rows[2] == {"Anna": 40, "Bruno": 40, "Carla": -142}


def test_the_defaults_are_stored_when_nothing_is_changed_and_other_games_ignore_them(
    segretario_client,
):
    skat = _new(segretario_client, "skat-isko")
    assert (skat.rules["missed_announcement"], skat.rules["null_below_bid"]) == (
        "double",
        "invalid",
    )
    caf = _new(segretario_client, "caf", **{MISSED: "single"})
    assert "missed_announcement" not in caf.rules


def test_a_bad_skat_rule_table_is_told_in_the_readers_language():
    from django.utils import translation

    from scoring.problem_text import localized
    from scoring.rules import RuleViolation
    from scoring.rules.skat import skat_rules

    with pytest.raises(RuleViolation) as exc:
        skat_rules({"missed_announcement": "triple", "lost_bonus": 5, "colour": 1})
    with translation.override("en"):
        english = [localized(p).message for p in exc.value.problems]
    with translation.override("it"):
        italian = [localized(p).message for p in exc.value.problems]
    assert english == [
        "colour: unknown key",
        "lost_bonus: must be ≤ 0 (found 5)",
        "missed_announcement: must be one of double, single (found 'triple')",
    ]
    assert italian == [
        "colour: chiave sconosciuta",
        "lost_bonus: deve essere ≤ 0 (trovato 5)",
        "missed_announcement: deve essere uno di double, single (trovato 'triple')",
    ]
