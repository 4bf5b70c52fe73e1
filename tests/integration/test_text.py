"""Invisible and hostile text: one normalisation wherever people type (forms, services, import,
admin); names and reasons rendered isolated (<bdi>)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from scoring import api
from scoring.models import Player, Season, Turno, TurnoEvent
from scoring.rules.caf.ruleset import default_ruleset_dict
from scoring.rules.problems import RuleViolation
from scoring.rules.text import TextError, clean_text
from scoring.services.season import season_create
from scoring.services.turni import turno_reopen, turno_start

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Anna   Maria ", "Anna Maria"),
        ("Mari\u0301a", "María"),  # NFC
        ("An\u200bna\u200d", "Anna"),  # zero-width space and joiner
        ("\u202eanna\u202c", "anna"),  # right-to-left override, pop
        ("\u2067x\u2069", "x"),  # isolates
        ("\ufeffBOM", "BOM"),
        ("a\x00b\x07c", "abc"),  # NUL and other controls
        ("a\tb\nc\u00a0d\u3000e", "a b c d e"),  # every space is one space
        ("שלום", "שלום"),  # right-to-left letters are letters
    ],
)
def test_clean_text_normalises(raw, clean):
    assert clean_text(raw) == clean


@pytest.mark.parametrize(
    "raw", ["", "   ", "   \u200b  ", "\u200b", "\u202e\u202c", "\u3164", "\x00"]
)
def test_clean_text_requires_a_visible_character(raw):
    with pytest.raises(TextError, match="almeno un carattere visibile"):
        clean_text(raw)
    assert clean_text(raw, required=False) == ""


def test_clean_text_counts_after_normalising():
    assert clean_text("a\u200b" * 60, max_length=60) == "a" * 60
    with pytest.raises(TextError, match="al massimo 60 caratteri \\(sono 61\\)"):
        clean_text("a" * 61, max_length=60)


@pytest.fixture
def season():
    for n in PLAYERS:
        Player.objects.create(name=n)
    return season_create(name="2026-27")


@pytest.fixture
def closed_turno(make_season):
    make_season(giornate=1, seed=2, attendance=1.0)
    return Turno.objects.filter(status=Turno.CHIUSO).first()


def test_an_invisible_reopen_reason_is_refused(closed_turno, segretario):
    for reason in ("   \u200b  ", "\u202e", "\u3164"):
        with pytest.raises(RuleViolation) as exc:
            turno_reopen(turno=closed_turno, reason=reason, user=segretario)
        assert exc.value.problems[0].code == "REOPEN_REASON"
        assert exc.value.problems[0].message == "per riaprire un turno chiuso serve una motivazione"
    closed_turno.refresh_from_db()
    assert closed_turno.status == Turno.CHIUSO
    turno_reopen(turno=closed_turno, reason="  errore\u200b  nel\tconteggio ", user=segretario)
    assert TurnoEvent.objects.get(kind=TurnoEvent.REOPEN).reason == "errore nel conteggio"


def test_the_reopen_form_refuses_an_invisible_reason(closed_turno, segretario_client):
    response = segretario_client.post(
        f"/segreteria/turni/{closed_turno.pk}/riapri/", {"reason": "   \u200b  "}
    )
    assert response.status_code == 422  # a refused change, for every game (the one set of views)
    assert "serve una motivazione" in response.content.decode()
    closed_turno.refresh_from_db()
    assert closed_turno.status == Turno.CHIUSO


def test_a_member_named_with_invisible_characters_is_refused(season, segretario_client):
    data = {
        "season": season.pk,
        "date": "2026-11-20",
        "first_dealer_seat": 1,
        "seat_1_new": "\u200b",
        "seat_2": Player.objects.get(name="Bruno").pk,
        "seat_3": Player.objects.get(name="Carla").pk,
        "seat_4": Player.objects.get(name="Dario").pk,
    }
    response = segretario_client.post("/segreteria/turni/nuovo/", data)
    assert response.status_code in (200, 400)
    assert not Player.objects.filter(name__in=["\u200b", ""]).exists()
    assert Turno.objects.count() == 0
    data["seat_1_new"] = " Zeno\u200b  Rossi "
    segretario_client.post("/segreteria/turni/nuovo/", data)
    assert Player.objects.filter(name="Zeno Rossi").exists()
    assert Turno.objects.get().seats.count() == 4


def test_services_normalise_penalita_and_sanction_texts(season, segretario):
    turno = turno_start(
        season=season,
        date=dt.date(2026, 11, 20),
        players=PLAYERS,
        first_dealer="Anna",
        table=" Tavolo\u200b 2 ",
    )
    assert turno.table == "Tavolo 2"
    pen = api.penalita_add(
        turno=turno, player="Bruno", points=-5, article="9", reason="r\u202eitardo"
    )
    assert pen.reason == "ritardo"
    with pytest.raises(RuleViolation) as exc:
        api.sanction_add(turno=turno, player="Carla", reason="\u200b \u200b")
    assert exc.value.problems[0].code == "SANCTION_REASON"
    with pytest.raises(RuleViolation) as exc:
        api.penalita_add(turno=turno, player="Bruno", points=-5, article="9", reason="x" * 301)
    assert exc.value.problems[0].message == "motivo: al massimo 300 caratteri (sono 301)"


def test_names_and_reasons_are_rendered_isolated(make_season, client):
    make_season(giornate=1, seed=2, attendance=1.0, players=["Anna", "Bruno", "Carla", "שרה"])
    turno = Turno.objects.first()
    html = client.get(f"/turni/{turno.pk}/").content.decode()
    assert "<bdi>שרה</bdi>" in html
    assert "<bdi><a" in client.get("/").content.decode()


def test_the_admin_normalises_and_refuses_invisible_names(admin_client):
    response = admin_client.post("/admin/scoring/player/add/", {"name": "\u200b", "active": "on"})
    assert response.status_code == 200
    assert not Player.objects.exists()
    admin_client.post("/admin/scoring/player/add/", {"name": " Zeno\u200b ", "active": "on"})
    assert list(Player.objects.values_list("name", flat=True)) == ["Zeno"]


@pytest.mark.parametrize(
    "rules",
    [
        "[1]",
        '"caf"',
        "null",
        json.dumps({**default_ruleset_dict(), "ratio": "x"}),
        json.dumps({**default_ruleset_dict(), "decks": {"4": "none"}}),
        json.dumps({**default_ruleset_dict(), "games": {"NJ": 3}}),
        json.dumps({**default_ruleset_dict(), "league": {"series": "A"}}),
    ],
)
def test_the_admin_refuses_malformed_rules_without_a_500(admin_client, rules):
    data = {
        "name": "nuova",
        "ruleset_code": "caf",
        "rules": rules,
        "enrollments-TOTAL_FORMS": "0",
        "enrollments-INITIAL_FORMS": "0",
    }
    response = admin_client.post("/admin/scoring/season/add/", data)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not Season.objects.exists()
