"""The live screen at the table (issue 11, items 1-4, 19): correcting any smazzata, the default
button, the running check's numbers, the error summary, the partial refresh that never blanks."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.audit import turno_history
from scoring.models import Player, Result, Seat, Smazzata
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.records import TurnoRecord
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation
from scoring.services.season import season_create
from scoring.services.turni import turno_close, turno_start
from tests.helpers import deal_correct, deal_counts, deal_record

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
DAY = dt.date(2026, 11, 20)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def season():
    for name in PLAYERS:
        Player.objects.create(name=name)
    return season_create(name="2026-27")


def _record(seed: int = 7) -> TurnoRecord:
    return simulate_turno(caf(), PLAYERS, random.Random(seed), first_dealer=PLAYERS[0])


def _turno(season, smazzate=()):
    turno = turno_start(season=season, date=DAY, players=PLAYERS, first_dealer=PLAYERS[0])
    for i, sm in enumerate(smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno


def _url(name: str, turno) -> str:
    return reverse(f"scoring:{name}", args=[turno.pk])


def _stored_points(turno) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    for r in Result.objects.filter(smazzata__turno=turno).select_related("smazzata", "player"):
        out.setdefault(r.smazzata.number, {})[r.player.name] = r.points
    return out


def _swapped(result: dict[str, int]) -> dict[str, int]:
    """The same counts with two different values swapped: same sum, different points."""
    counts = dict(result)
    a, b = next((p, q) for p in PLAYERS for q in PLAYERS if counts[p] != counts[q])
    counts[a], counts[b] = counts[b], counts[a]
    return counts


# -- the service -------------------------------------------------------------------------------
def test_correct_smazzata_2_of_5_rescores_it_and_keeps_the_audit(season, segretario):
    record = _record()
    turno = _turno(season, record.smazzate[:5])
    second = record.smazzate[1]
    counts = _swapped(second.result)
    sm = deal_correct(
        turno=turno,
        number=2,
        game=second.game,
        caller=second.caller,
        counts=counts,
        trump=second.trump,
        user=segretario,
    )
    assert sm.number == 2 and sm.recorded_by == segretario
    fixed = list(record.smazzate[:5])
    fixed[1] = type(second)(**{**second.__dict__, "result": counts})
    engine = score_turno(
        caf(), TurnoRecord(PLAYERS, PLAYERS[0], tuple(fixed)), require_complete=False
    )
    assert _stored_points(turno) == {s.number: dict(s.points) for s in engine.smazzate}
    totals = dict(Seat.objects.filter(turno=turno).values_list("player__name", "total"))
    assert totals == dict(engine.totals)
    # every changed count is in the audit trail, as a change of smazzata 2
    changed = [e for e in turno_history(turno) if e.action == "modifica risultato"]
    assert {e.what for e in changed} == {"smazzata 2"}
    assert len(changed) == 2  # the two players whose counts were swapped


def test_a_correction_that_makes_a_later_smazzata_illegal_saves_nothing(season, db_dump):
    record = _record()
    turno = _turno(season, record.smazzate[:5])
    second, fourth = record.smazzate[1], record.smazzate[3]
    assert caf().games[second.game].phase == caf().games[fourth.game].phase == "negative"
    before = db_dump()
    # smazzata 2 now calls the game called at smazzata 4: the game would be called twice
    with pytest.raises(RuleViolation) as exc:
        deal_correct(
            turno=turno,
            number=2,
            game=fourth.game,
            caller=second.caller,
            counts=fourth.result,
            trump=fourth.trump,
        )
    first = exc.value.problems[0]
    assert first.code == "CORRECTION_BREAKS_LATER" and first.smazzata == 4
    assert first.message == (
        "con questa correzione la smazzata 4 non è più valida: correggere prima quella"
    )
    # each later problem names the smazzata by its number, once: not in its message too
    assert all(p.smazzata == 4 for p in exc.value.problems[1:])
    assert not any("smazzata 4" in p.message for p in exc.value.problems[1:])
    assert len(exc.value.problems) > 1
    assert db_dump() == before


def test_correct_rejects_a_missing_smazzata_and_a_closed_turno(season):
    record = _record()
    turno = _turno(season, record.smazzate[:3])
    first = record.smazzate[0]
    for number in (0, 4):
        with pytest.raises(RuleViolation) as exc:
            deal_correct(
                turno=turno, number=number, game=first.game, caller=first.caller, counts={}
            )
        assert exc.value.problems[0].code == "SMAZZATA_MISSING"
        assert exc.value.problems[0].message == f"la smazzata {number} non esiste: il turno ne ha 3"
    whole = _record(seed=3)
    closed = turno_start(
        season=season, date=DAY + dt.timedelta(days=7), players=PLAYERS, first_dealer="Anna"
    )
    for i, sm in enumerate(whole.smazzate, start=1):
        deal_record(
            turno=closed, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    ties = score_turno(caf(), whole).tied
    turno_close(turno=closed, tiebreak=[p for group in ties for p in group])
    with pytest.raises(RuleViolation) as exc:
        deal_correct(turno=closed, number=1, game=first.game, caller=first.caller, counts={})
    assert exc.value.problems[0].code == "TURNO_CLOSED"


def test_correcting_the_caller_moves_the_next_dealer(season):
    record = _record(seed=5)
    turno = _turno(season, record.smazzate[:3])
    second = record.smazzate[1]
    # who else could have called smazzata 2's game at that point, legally
    from scoring.rules.caf import Progress

    progress = Progress.after(
        caf(), PLAYERS, PLAYERS[0], [(s.game, s.caller) for s in record.smazzate[:1]]
    )
    other = next(
        p
        for p in progress.calling_order()
        if p != second.caller and second.game in progress.callable_games(p)
    )
    try:
        deal_correct(
            turno=turno,
            number=2,
            game=second.game,
            caller=other,
            counts=second.result,
            trump=second.trump,
        )
    except RuleViolation as exc:  # the new caller makes smazzata 3 illegal: then nothing moved
        assert exc.value.problems[0].code == "CORRECTION_BREAKS_LATER"
        assert Smazzata.objects.get(turno=turno, number=3).dealer.name == second.caller
        return
    assert Smazzata.objects.get(turno=turno, number=2).caller.name == other
    assert Smazzata.objects.get(turno=turno, number=3).dealer.name == other


# -- the views ---------------------------------------------------------------------------------
def test_correct_view_opens_and_saves_any_smazzata(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:5])
    html = segretario_client.get(_url("turno_correct", turno), {"numero": 2}).content.decode()
    second = record.smazzate[1]
    assert '<h2 id="smazzata-h">Correggi la smazzata 2</h2>' in html
    assert f'value="{second.caller}" checked' in html and f'value="{second.game}" checked' in html
    assert 'name="number" value="2"' in html
    # every row of the table links to its correction
    for n in range(1, 6):
        assert f'href="/segreteria/turni/{turno.pk}/correggi/?numero={n}"' in html
    counts = _swapped(second.result)
    data = {"number": 2, "caller": second.caller, "game": second.game, "trump": ""}
    data |= {f"count_{i}": counts[p] for i, p in enumerate(PLAYERS)}
    r = segretario_client.post(_url("turno_correct", turno), data, **HTMX)
    assert r.status_code == 200 and "Smazzata 2 corretta." in r.content.decode()
    assert deal_counts(Smazzata.objects.get(turno=turno, number=2)) == counts
    # a correction that breaks smazzata 4: reported by number, nothing saved
    fourth = record.smazzate[3]
    data = {"number": 2, "caller": second.caller, "game": fourth.game, "trump": ""}
    data |= {f"count_{i}": fourth.result[p] for i, p in enumerate(PLAYERS)}
    before = _stored_points(turno)
    r = segretario_client.post(_url("turno_correct", turno), data)
    html = r.content.decode()
    assert r.status_code == 422 and "Correggi la smazzata 2" in html
    assert "con questa correzione la smazzata 4 non è più valida" in html
    assert _stored_points(turno) == before


def test_enter_records_the_default_button_comes_first(segretario_client, season):
    turno = _turno(season)
    html = segretario_client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    form = html[html.index('<form id="smazzata-form"') :]
    form = form[: form.index("</form>")]
    buttons = re.findall(r"<button[^>]*>", form)
    # implicit submission (Enter) clicks the first submit button: it records the smazzata
    assert (
        buttons[0]
        == '<button type="submit" class="implicit-submit" tabindex="-1" aria-hidden="true">'
    )
    assert "formaction" not in buttons[0]
    # the htmx refresh of the fields carries no no-JS "Aggiorna" button at all (htmx parses
    # <noscript> content as elements: it became the form's default button)
    partial = segretario_client.get(
        _url("turno_smazzata_form", turno), {"caller": "Bruno"}, **HTMX
    ).content.decode()
    assert "<noscript>" not in partial and "formaction" not in partial
    assert "<noscript>" in html  # the page itself keeps it for browsers without JavaScript


def test_refresh_of_a_finished_turno_reloads_instead_of_swapping_a_page(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate)
    r = segretario_client.get(_url("turno_smazzata_form", turno), {"caller": "Anna"}, **HTMX)
    assert r.status_code == 200 and r["HX-Refresh"] == "true" and r.content == b""
    r = segretario_client.get(_url("turno_smazzata_form", turno), {"caller": "Anna"})
    assert r.status_code == 302  # without htmx: back to the live screen


def test_running_check_numbers_come_from_the_engine(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:7])  # the negative games are all played
    url = _url("turno_smazzata_form", turno)
    caller = next(p for p in PLAYERS if "DOMINO" in turno_state_games(segretario_client, url, p))
    html = segretario_client.get(url, {"caller": caller, "game": "DOMINO"}, **HTMX).content
    html = html.decode()
    assert 'data-check="one_zero" data-total="13" data-unit="carte in mano"' in html
    assert 'aria-live="polite" data-count-check' in html
    caller = next(p for p in PLAYERS if "SEMPLICE" in turno_state_games(segretario_client, url, p))
    html = segretario_client.get(url, {"caller": caller, "game": "SEMPLICE"}, **HTMX).content
    assert b'data-check="sum" data-total="13" data-unit="mani"' in html
    assert b'data-msg-missing="mancano {n} {unit}"' in html
    # the unit the system declares, said in the reader's language
    query = {"caller": caller, "game": "SEMPLICE"}
    html = segretario_client.get(url, query, HTTP_ACCEPT_LANGUAGE="en", **HTMX).content
    assert b'data-check="sum" data-total="13" data-unit="tricks"' in html


def turno_state_games(client, url: str, caller: str) -> list[str]:
    html = client.get(url, {"caller": caller}, **HTMX).content.decode()
    return re.findall(r'name="game" id="game-(\w+)"', html)


def test_rejected_smazzata_has_an_error_summary_with_the_focus(segretario_client, season):
    turno = _turno(season)
    r = segretario_client.post(_url("turno_smazzata", turno), {"number": 1, "count_0": 1}, **HTMX)
    html = r.content.decode()
    summary = html[html.index('<div id="smazzata-errors"') :]
    summary = summary[: summary.index("</form>")]
    assert 'tabindex="-1"' in summary and "autofocus" in summary.split(">")[0]
    # role="alert" wraps the list; the list keeps its list role
    assert '<div role="alert">\n      <ul class="errorlist">' in summary
    assert re.search(r"<ul[^>]*role=", html) is None
    for text, target in (
        ("scegliere il chiamante", "caller-fieldset"),
        ("scegliere il gioco", "game-fieldset"),
    ):
        assert f'<li><a href="#{target}">{text}</a></li>' in summary
    # the messages are tied to their fieldsets
    assert 'id="caller-fieldset" aria-describedby="caller-errors"' in html
    assert 'id="game-fieldset" aria-describedby="game-errors"' in html
    assert '<ul class="errorlist" id="caller-errors"><li>scegliere il chiamante</li></ul>' in html
    assert '<ul class="errorlist" id="game-errors"><li>scegliere il gioco</li></ul>' in html
    # the first chiamante no longer takes the focus
    assert not re.search(r'name="caller"[^>]*autofocus', html)


def test_count_errors_are_announced_with_their_field(segretario_client, season):
    record = _record()
    turno = _turno(season)
    first = record.smazzate[0]
    data = {"number": 1, "caller": first.caller, "game": first.game, "trump": ""}
    data |= {f"count_{i}": first.result[p] for i, p in enumerate(PLAYERS)}
    data["count_2"] = ""
    html = segretario_client.post(_url("turno_smazzata", turno), data, **HTMX).content.decode()
    field = re.search(r"<input[^>]*name=\"count_2\"[^>]*>", html).group(0)
    assert 'aria-invalid="true"' in field and 'aria-describedby="id_count_2_error"' in field
    assert (
        '<ul class="errorlist" id="id_count_2_error"><li>manca il risultato di Carla</li>' in html
    )
    assert '<li><a href="#id_count_2">manca il risultato di Carla</a></li>' in html
    assert Smazzata.objects.count() == 0


def test_recording_through_the_view_keeps_its_query_count(
    segretario_client, season, django_assert_num_queries
):
    record = _record()
    turno = _turno(season, record.smazzate[:4])
    sm = record.smazzate[4]
    data = {"number": 5, "caller": sm.caller, "game": sm.game, "trump": sm.trump or ""}
    data |= {f"count_{i}": sm.result[p] for i, p in enumerate(PLAYERS)}
    with django_assert_num_queries(QUERIES_TO_RECORD):
        r = segretario_client.post(_url("turno_smazzata", turno), data, **HTMX)
    assert r.status_code == 200 and Smazzata.objects.filter(turno=turno).count() == 5


# 42 before issue 16: the view loaded the whole turno before the service (7 queries) and after
# it (7 more), then 29 with the live screen's change trail. Now: session, user, the segretario's
# group (asked once), the turno with its season (its game system says how a deal is entered) and
# its players for the form (2), scoring.api's write (its savepoint and the season's lock: 3), the
# ledger (17 with its two savepoints: the turno locked and loaded, the smazzata and its history
# row, the results and theirs, the totals), then the live screen from the turno the ledger
# returns. The change trail (7 queries) is read when it is opened
# (test_the_change_trail_is_read_when_opened)
QUERIES_TO_RECORD = 25


def test_the_change_trail_is_read_when_opened(segretario_client, season):
    """The live screen's trail of changes (who did what and when) is read when the segretario
    opens it: htmx asks for the table alone, a plain link opens it as a page."""
    record = _record()
    turno = _turno(season, record.smazzate[:2])
    url = reverse("scoring:turno_history", args=[turno.pk])
    live = segretario_client.get(_url("turno_live", turno)).content.decode()
    assert f'hx-get="{url}" hx-trigger="toggle once"' in live
    assert f'<a href="{url}">Apri lo storico delle modifiche</a>' in live
    rows = turno_history(turno)
    table = segretario_client.get(url, **HTMX).content.decode()
    assert "<html" not in table and f"{len(rows)} modifiche" in table
    assert table.count("<tr><td>") == len(rows) == 3  # the turno's creation, two smazzate
    assert "smazzata 2" in table
    page = segretario_client.get(url).content.decode()
    label = f"{turno.giornata.date:%d/%m/%Y} #{turno.number}"  # the reader's date, not ISO
    assert "<html" in page and f"Storico del turno {label}" in page
    assert page.count("<tr><td>") == len(rows)
    # English, and a member without the segreteria's rights gets nothing
    english = segretario_client.get(url, HTTP_ACCEPT_LANGUAGE="en", **HTMX).content.decode()
    assert f"{len(rows)} changes" in english
    assert Client().get(url).status_code == 302
