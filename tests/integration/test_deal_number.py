"""The one reader of a recorded deal's number (``views.entry.deal_number``): the correction's
``numero``/``correggi`` and the undo's ``number`` read the same way, and every number that names
no deal of the turno (0, negative, not a number, beyond the last) gets the same clear message,
in Italian and in English, with nothing changed."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from scoring.models import Player, Smazzata
from scoring.problem_text import localized
from scoring.rules.caf import caf
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from scoring.views.entry import deal_number
from tests.helpers import deal_record

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
NOT_A_NUMBER = "il numero della smazzata va scritto in cifre"

# (typed, its problem's code, the message in Italian, in English) for a turno of 3 deals
REFUSED = [
    ("0", "DEAL_NOT_PLAYED", "la smazzata 0 non esiste: il turno ne ha 3",
     "Smazzata 0 does not exist: the turno has 3."),
    ("-2", "DEAL_NOT_PLAYED", "la smazzata -2 non esiste: il turno ne ha 3",
     "Smazzata -2 does not exist: the turno has 3."),
    ("4", "DEAL_NOT_PLAYED", "la smazzata 4 non esiste: il turno ne ha 3",
     "Smazzata 4 does not exist: the turno has 3."),
    ("abc", "DEAL_NUMBER", NOT_A_NUMBER, "Smazzata: the number must be written in digits."),
    ("²", "DEAL_NUMBER", NOT_A_NUMBER, "Smazzata: the number must be written in digits."),
    ("1_0", "DEAL_NUMBER", NOT_A_NUMBER, "Smazzata: the number must be written in digits."),
    ("9" * 40, "DEAL_NUMBER", NOT_A_NUMBER, "Smazzata: the number must be written in digits."),
]  # fmt: skip


@pytest.mark.parametrize(("typed", "code", "italian", "english"), REFUSED)
def test_a_number_naming_no_deal_is_refused_with_a_clear_message(typed, code, italian, english):
    with pytest.raises(RuleViolation) as caught:
        deal_number(typed, 3)
    [problem] = caught.value.problems
    assert (problem.code, problem.field, problem.message) == (code, "number", italian)
    with translation.override("en"):
        assert localized(problem).message == english


@pytest.mark.parametrize(("typed", "number"), [("1", 1), (" 3 ", 3), ("03", 3), (2, 2)])
def test_a_played_deal_is_its_number(typed, number):
    assert deal_number(typed, 3) == number


@pytest.mark.parametrize("typed", [None, "", "   "])
def test_nothing_typed_asks_no_deal(typed):
    assert deal_number(typed, 3) is None


@pytest.fixture
def turno(db):
    for name in PLAYERS:
        Player.objects.create(name=name)
    season = season_create(name="2026-27")
    record = simulate_turno(caf(), PLAYERS, random.Random(7), first_dealer="Anna")
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    for i, sm in enumerate(record.smazzate[:3], start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno


def _deals(turno) -> list[tuple[int, str, str]]:
    rows = Smazzata.objects.filter(turno=turno).order_by("number")
    return list(rows.values_list("number", "game", "caller__name"))


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(("typed", "code", "italian", "english"), REFUSED)
def test_the_undo_and_the_correction_say_the_same(
    segretario_client, turno, lang, typed, code, italian, english
):
    said = italian if lang == "it" else english
    before = _deals(turno)
    undo = segretario_client.post(
        reverse("scoring:turno_undo", args=[turno.pk]), {"number": typed},
        HTTP_ACCEPT_LANGUAGE=lang,
    )  # fmt: skip
    assert undo.status_code == 422
    assert [str(m) for m in get_messages(undo.wsgi_request)] == []
    assert said in undo.content.decode().replace("&#x27;", "'")
    url = reverse("scoring:turno_correct", args=[turno.pk])
    for method in (segretario_client.get, segretario_client.post):
        r = method(url, {"numero": typed}, HTTP_ACCEPT_LANGUAGE=lang, follow=True)
        assert r.redirect_chain == [(f"/segreteria/turni/{turno.pk}/", 302)]
        assert r.content.decode().replace("&#x27;", "'").count(said) == 1
        assert 'name="correggi"' not in r.content.decode()  # no deal on the form
    live = reverse("scoring:turno_live", args=[turno.pk])
    assert segretario_client.get(live, {"correggi": typed}).status_code == 404
    assert _deals(turno) == before


def test_a_played_deal_is_undone_or_corrected(segretario_client, turno):
    url = reverse("scoring:turno_correct", args=[turno.pk])
    page = segretario_client.get(url, {"numero": "2"}).content.decode()
    assert 'name="correggi" value="2"' in page
    page = segretario_client.get(url).content.decode()  # none asked: the last one
    assert 'name="correggi" value="3"' in page
    undo = reverse("scoring:turno_undo", args=[turno.pk])
    r = segretario_client.post(undo, {"number": "2"})
    assert r.status_code == 422
    assert "si può annullare solo l'ultima smazzata (la 3), non la 2" in r.content.decode().replace(
        "&#x27;", "'"
    )
    assert segretario_client.post(undo, {"number": " 3 "}).status_code == 302
    assert [n for n, _, _ in _deals(turno)] == [1, 2]
