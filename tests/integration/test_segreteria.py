"""The segretario's screens: start a turno, record it live, undo, penalità, close, reopen.

Everything goes through the test client as a browser without JavaScript would (plain POST, then
a redirect or a re-render with errors), and a few requests as htmx would send them.
"""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.urls import reverse

from scoring import api
from scoring.models import Penalita, Player, Sanction, Seat, Smazzata, Turno, TurnoEvent
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.records import TurnoRecord
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.helpers import deal_counts, deal_record

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
DAY = dt.date(2026, 11, 20)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def season():
    for name in [*PLAYERS, "Elena", "Franco"]:
        Player.objects.create(name=name)
    return season_create(name="2026-27")


def _live(turno) -> str:
    return reverse("scoring:turno_live", args=[turno.pk])


def _url(name: str, turno, *args) -> str:
    return reverse(f"scoring:{name}", args=[turno.pk, *args])


def _start_data(season, names, *, dealer_seat=1, date=DAY, new=None) -> dict:
    data = {
        "season": season.pk,
        "date": date.isoformat(),
        "table": "Tavolo 1",
        "first_dealer_seat": dealer_seat,
    }
    by_name = {p.name: p.pk for p in Player.objects.all()}
    for i, name in enumerate(names, start=1):
        data[f"seat_{i}"] = by_name[name]
    for seat, name in (new or {}).items():
        data[f"seat_{seat}_new"] = name
    return data


def _smazzata_data(sm, number: int, players=PLAYERS) -> dict:
    data = {
        "number": number,
        "caller": sm.caller,
        "game": sm.game,
        "trump": sm.trump or "",
    }
    for i, p in enumerate(players):
        data[f"count_{i}"] = sm.result[p]
    return data


def _record(seed: int = 7) -> TurnoRecord:
    return simulate_turno(caf(), PLAYERS, random.Random(seed), first_dealer=PLAYERS[0])


def _turno(season, smazzate=(), date=DAY) -> Turno:
    turno = turno_start(season=season, date=date, players=PLAYERS, first_dealer=PLAYERS[0])
    for i, sm in enumerate(smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno


def _page_totals(html: str) -> dict[str, int]:
    return {
        name: int(value)
        for name, value in re.findall(
            r'class="total-box[^"]*" data-player="([^"]+)" data-total="(-?\d+)"', html
        )
    }


def _field_block(html: str, field_id: str) -> str:
    """The markup of the `.field` div holding the input ``field_id`` (label, input, errors)."""
    i = html.index(f'id="{field_id}"')
    start = html.rindex('<div class="field', 0, i)
    depth, pos = 0, start
    for m in re.finditer(r"<div\b|</div>", html[start:]):
        depth += 1 if m.group() == "<div" else -1
        pos = start + m.end()
        if depth == 0:
            break
    return html[start:pos]


# -- start a turno -------------------------------------------------------------------------------
def test_start_a_four_player_turno(segretario_client, season):
    r = segretario_client.get(reverse("scoring:turno_new"))
    assert r.status_code == 200
    html = r.content.decode()
    for i in range(1, 8):
        assert f'name="seat_{i}"' in html and f'for="id_seat_{i}"' in html
    assert f'value="{season.pk}" selected' in html  # current season by default

    r = segretario_client.post(
        reverse("scoring:turno_new"), _start_data(season, PLAYERS, dealer_seat=2)
    )
    turno = Turno.objects.get()
    assert r.status_code == 302 and r["Location"] == _live(turno)
    assert [s.player.name for s in turno.seats.order_by("position")] == PLAYERS
    assert turno.first_dealer.name == "Bruno"
    assert turno.table == "Tavolo 1" and turno.giornata.date == DAY
    assert turno.segretario.username == "segretario"

    html = segretario_client.get(_live(turno)).content.decode()
    assert "Smazzata 1 di 19" in html
    assert 'class="total-box dealer" data-player="Bruno"' in html
    assert "Ordine di chiamata: <strong>Carla</strong> → <strong>Dario</strong> → " in html


def test_start_with_a_new_member_typed_inline_and_empty_seats_skipped(segretario_client, season):
    data = _start_data(season, ["Anna", "Bruno"])
    data["seat_4"] = Player.objects.get(name="Carla").pk  # seat 3 left empty
    data["seat_6_new"] = "  Gino   Rossi "
    r = segretario_client.post(reverse("scoring:turno_new"), data)
    assert r.status_code == 302
    turno = Turno.objects.get()
    assert [s.player.name for s in turno.seats.order_by("position")] == [
        "Anna",
        "Bruno",
        "Carla",
        "Gino Rossi",
    ]
    assert Player.objects.filter(name="Gino Rossi").exists()


def test_start_errors_are_shown_next_to_the_seats_and_nothing_is_saved(segretario_client, season):
    url = reverse("scoring:turno_new")
    players_before = Player.objects.count()

    data = _start_data(season, ["Anna", "Bruno", "Anna", "Dario"], new={5: "Nuovo Socio"})
    r = segretario_client.post(url, data)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Anna compare due volte al tavolo" in html
    # next to seat 3, the second Anna
    seat3 = html[html.index('for="id_seat_3"') : html.index('for="id_seat_4"')]
    assert "Anna compare due volte al tavolo" in seat3

    r = segretario_client.post(url, _start_data(season, ["Anna", "Bruno"]))
    assert r.status_code == 200
    html = r.content.decode()
    seats = html[html.index('<fieldset class="seats">') : html.index('for="id_seat_1"')]
    assert "un turno ha da 3 a 7 giocatori, non 2" in seats

    r = segretario_client.post(url, _start_data(season, PLAYERS, dealer_seat=6))
    assert r.status_code == 200
    assert "il posto 6 è vuoto" in r.content.decode()

    assert Turno.objects.count() == 0
    assert Player.objects.count() == players_before  # "Nuovo Socio" was not created

    # a player already at another table the same day
    _turno(season)
    r = segretario_client.post(url, _start_data(season, ["Elena", "Franco", "Carla"]))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Carla gioca già il turno #1 del 20/11/2026" in html
    seat3 = html[html.index('for="id_seat_3"') : html.index('for="id_seat_4"')]
    assert "gioca già" in seat3
    assert Turno.objects.count() == 1


# -- the live screen -----------------------------------------------------------------------------
def test_record_a_whole_turno_via_post_shows_the_engine_totals(segretario_client, season):
    record = _record(seed=11)
    segretario_client.post(reverse("scoring:turno_new"), _start_data(season, PLAYERS))
    turno = Turno.objects.get()
    rules = caf()
    for i, sm in enumerate(record.smazzate, start=1):
        r = segretario_client.post(_url("turno_smazzata", turno), _smazzata_data(sm, i))
        assert r.status_code == 302, r.content.decode()[:2000]
        assert r["Location"] == _live(turno)
        if i in (1, 7, 12, 19):
            partial = TurnoRecord(
                players=record.players,
                first_dealer=record.first_dealer,
                smazzate=record.smazzate[:i],
            )
            expected = score_turno(rules, partial, require_complete=False).totals
            html = segretario_client.get(_live(turno)).content.decode()
            assert _page_totals(html) == dict(expected)
            assert f"<strong>{i}</strong>/19 smazzate" in html
    assert Smazzata.objects.filter(turno=turno).count() == 19
    score = score_turno(rules, record, require_complete=False)
    html = segretario_client.get(_live(turno)).content.decode()
    assert _page_totals(html) == dict(score.totals)
    # every smazzata in the grid, with the engine's points per player
    for scored in score.smazzate:
        row = html[html.index(f'<tr data-number="{scored.number}">') :]
        row = row[: row.index("</tr>")]
        for p in PLAYERS:
            cell = row[row.index(f'data-player="{p}"') :]
            points = scored.points[p]
            # "(count) points", the order and the true minus sign of every other output
            sign = "+" if points > 0 else "\u2212" if points < 0 else ""
            shown = re.search(r'\((\d+)\)</span> <span class="pts[^"]*">([^<]+)</span>', cell)
            assert shown.group(2) == f"{sign}{abs(points)}"
        if scored.forced:
            assert "obbligata" in row
        if scored.scazzata:
            assert "badge-scazzata" in row
        if scored.cappotto:
            assert "badge-cappotto" in row
    assert "Chiusura del turno" in html
    assert 'name="caller"' not in html  # no more smazzate to record
    seats = {s.player.name: s.total for s in Seat.objects.filter(turno=turno)}
    assert seats == dict(score.totals)


def test_live_screen_shows_who_deals_who_may_call_and_forced_calls(segretario_client, season):
    turno = _turno(season)
    html = segretario_client.get(_live(turno)).content.decode()
    # the dealer calls last; in the negative phase their call is obbligata
    assert "Mazziere: <strong>Anna</strong>" in html
    callers = re.findall(r'name="caller" id="caller-\d" value="([^"]+)"', html)
    assert callers == ["Bruno", "Carla", "Dario", "Anna"]
    anna = html[html.index('value="Anna"') :]
    assert "badge-forced" in anna[: anna.index("</label>")]
    bruno = html[html.index('id="caller-0" value="Bruno"') :]
    assert "badge-forced" not in bruno[: bruno.index("</label>")]
    games = re.findall(r'name="game" id="game-(\w+)"', html)
    assert games == ["NJ", "NK", "NJK", "NQS", "NH", "NU2", "NF"]
    assert "NQ♠" in html and 'N<span class="red">♥</span>' in html
    assert (
        "autofocus" in html[html.index('id="caller-0"') - 200 : html.index('id="caller-0"') + 200]
    )
    assert 'inputmode="numeric"' in html
    # counts in seat order, each with a label
    assert re.findall(r'<label for="id_count_(\d)">', html) == ["0", "1", "2", "3"]
    assert "Chi può chiamare" in html


def test_impossible_counts_rerender_with_the_error_next_to_the_field(segretario_client, season):
    turno = _turno(season)
    data = {"number": 1, "caller": "Bruno", "game": "NJ", "count_0": 1, "count_1": 1}
    data |= {"count_2": 1, "count_3": 0}
    r = segretario_client.post(_url("turno_smazzata", turno), data)
    assert r.status_code == 422
    html = r.content.decode()
    assert "Non fare J: la somma dei risultati è 3, ma deve essere 4" in html
    counts = html[html.index('class="counts-set') :]
    assert "la somma dei risultati è 3" in counts[: counts.index('class="counts"')]
    assert Smazzata.objects.count() == 0
    # the input is kept
    assert 'name="count_0" value="1"' in html or 'value="1" name="count_0"' in html

    # one count out of range: the error is next to that player's input
    data |= {"count_2": 5}
    r = segretario_client.post(_url("turno_smazzata", turno), data)
    assert r.status_code == 422
    block = _field_block(r.content.decode(), "id_count_2")
    assert "Non fare J: Carla ha 5 fanti, ma il massimo è 4" in block
    assert "field-error" in block
    assert Smazzata.objects.count() == 0

    # a missing count
    r = segretario_client.post(_url("turno_smazzata", turno), {**data, "count_2": ""})
    assert "manca il risultato di Carla" in _field_block(r.content.decode(), "id_count_2")
    assert Smazzata.objects.count() == 0


def test_illegal_game_for_the_phase_is_rejected(segretario_client, season):
    turno = _turno(season)
    data = {"number": 1, "caller": "Bruno", "game": "SEMPLICE"}
    data |= {"count_0": 4, "count_1": 3, "count_2": 3, "count_3": 3}
    r = segretario_client.post(_url("turno_smazzata", turno), data)
    assert r.status_code == 422
    html = r.content.decode()
    games = html[html.index('<fieldset class="games') :]
    games = games[: games.index("</fieldset>")]
    assert "Semplice (SEMPLICE) non si può chiamare finché restano giochi alla meno" in games
    assert Smazzata.objects.count() == 0

    # a game already played, and a missing trump for Briscola later on
    record = _record()
    turno.refresh_from_db()
    first = record.smazzate[0]
    segretario_client.post(_url("turno_smazzata", turno), _smazzata_data(first, 1))
    assert Smazzata.objects.count() == 1
    r = segretario_client.post(_url("turno_smazzata", turno), _smazzata_data(first, 2))
    assert "è già stato giocato in questo turno" in r.content.decode()
    assert Smazzata.objects.count() == 1


def test_a_stale_number_is_refused(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:1])
    r = segretario_client.post(
        _url("turno_smazzata", turno), _smazzata_data(record.smazzate[1], 1), follow=True
    )
    assert "la smazzata 1 è già stata registrata" in r.content.decode()
    assert Smazzata.objects.count() == 1


def test_briscola_needs_its_trump(segretario_client, season):
    record = _record(seed=3)
    n = next(i for i, sm in enumerate(record.smazzate) if sm.game == "BRISCOLA")
    turno = _turno(season, record.smazzate[:n])
    sm = record.smazzate[n]
    data = _smazzata_data(sm, n + 1) | {"trump": ""}
    r = segretario_client.post(_url("turno_smazzata", turno), data)
    html = r.content.decode()
    trumps = html[html.index('<fieldset class="trumps') :]
    assert "Briscola: manca il seme di briscola" in trumps[: trumps.index("</fieldset>")]
    assert Smazzata.objects.count() == n
    r = segretario_client.post(_url("turno_smazzata", turno), data | {"trump": sm.trump})
    assert r.status_code == 302
    html = segretario_client.get(_live(turno)).content.decode()
    assert f'class="suit suit-{sm.trump}"' in html


def test_undo_the_last_smazzata(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:2])
    html = segretario_client.get(_live(turno)).content.decode()
    assert "Annulla l&#x27;ultima smazzata" in html or "Annulla l'ultima smazzata" in html

    # only the last one
    r = segretario_client.post(_url("turno_undo", turno), {"number": 1}, follow=True)
    assert "si può annullare solo l&#x27;ultima smazzata (la 2)" in r.content.decode()
    assert Smazzata.objects.count() == 2

    r = segretario_client.post(_url("turno_undo", turno), {"number": 2})
    assert r.status_code == 302
    assert list(Smazzata.objects.values_list("number", flat=True)) == [1]
    html = segretario_client.get(_live(turno)).content.decode()
    partial = TurnoRecord(PLAYERS, PLAYERS[0], record.smazzate[:1])
    assert _page_totals(html) == dict(score_turno(caf(), partial, require_complete=False).totals)
    assert "Smazzata 1 annullata" not in html  # the message was shown once, after the redirect
    assert "Smazzata 2 di 19" in html


def test_correct_the_last_smazzata(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:1])
    r = segretario_client.get(_url("turno_correct", turno))
    html = r.content.decode()
    assert "Correggi la smazzata 1" in html
    first = record.smazzate[0]
    assert f'value="{first.caller}" checked' in html and f'value="{first.game}" checked' in html
    # swap the counts of two players: same total, different points
    counts = dict(first.result)
    a, b = next((p, q) for p in PLAYERS for q in PLAYERS if counts[p] != counts[q])
    counts[a], counts[b] = counts[b], counts[a]
    data = {"number": 1, "caller": first.caller, "game": first.game, "trump": first.trump or ""}
    data |= {f"count_{i}": counts[p] for i, p in enumerate(PLAYERS)}
    r = segretario_client.post(_url("turno_correct", turno), data)
    assert r.status_code == 302
    sm = Smazzata.objects.get()
    assert deal_counts(sm) == counts
    # the htmx refresh of a correction keeps the correction's choices
    url = _url("turno_smazzata_form", turno)
    html = segretario_client.get(url, {"correggi": "1", "caller": "Bruno"}, **HTMX).content
    assert b'name="correggi" value="1"' in html and b'value="Bruno" checked' in html

    # an impossible correction changes nothing
    r = segretario_client.post(_url("turno_correct", turno), data | {"count_0": 9})
    assert r.status_code == 422
    assert "Correggi la smazzata 1" in r.content.decode()
    assert deal_counts(Smazzata.objects.get()) == counts


def test_penalita_add_and_remove_change_the_totals(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:3])
    before = _page_totals(segretario_client.get(_live(turno)).content.decode())
    data = {"pen-player": "Carla", "pen-points": -5, "pen-article": "9", "pen-reason": "carte"}
    r = segretario_client.post(_url("turno_penalita_add", turno), data)
    assert r.status_code == 302
    html = segretario_client.get(_live(turno)).content.decode()
    after = _page_totals(html)
    assert after == before | {"Carla": before["Carla"] - 5}
    assert "art. 9: carte" in html
    assert "Penalità di −5 punti a Carla registrata." in html  # U+2212, the formatting's minus

    # zero points: the engine's message next to the field, nothing saved
    r = segretario_client.post(_url("turno_penalita_add", turno), data | {"pen-points": 0})
    assert r.status_code == 422
    block = _field_block(r.content.decode(), "id_pen-points")
    assert "i punti di una penalità sono un numero intero diverso da zero" in block
    assert Penalita.objects.count() == 1

    pen = Penalita.objects.get()
    r = segretario_client.post(_url("turno_penalita_remove", turno, pen.pk))
    assert r.status_code == 302
    assert Penalita.objects.count() == 0
    html = segretario_client.get(_live(turno)).content.decode()
    assert _page_totals(html) == before
    assert "Penalità di −5 punti a Carla eliminata." in html

    # a penalità of positive points (a bonus) is signed too
    segretario_client.post(_url("turno_penalita_add", turno), data | {"pen-points": 3})
    html = segretario_client.get(_live(turno)).content.decode()
    assert "Penalità di +3 punti a Carla registrata." in html

    # one point: the singular
    segretario_client.post(_url("turno_penalita_add", turno), data | {"pen-points": -1})
    html = segretario_client.get(_live(turno)).content.decode()
    assert "Penalità di −1 punto a Carla registrata." in html


def test_retrocessione_per_contatore_add_and_remove(segretario_client, season):
    turno = _turno(season)
    r = segretario_client.post(_url("turno_sanction_add", turno), {"san-player": "Dario"})
    assert r.status_code == 422
    assert "la retrocessione per contatore richiede una motivazione" in r.content.decode()
    assert Sanction.objects.count() == 0
    data = {"san-player": "Dario", "san-reason": "decisione del consiglio"}
    assert segretario_client.post(_url("turno_sanction_add", turno), data).status_code == 302
    r = segretario_client.post(_url("turno_sanction_add", turno), data)
    assert "Dario ha già una retrocessione per contatore" in r.content.decode()
    sanction = Sanction.objects.get()
    assert "decisione del consiglio" in segretario_client.get(_live(turno)).content.decode()
    r = segretario_client.post(_url("turno_sanction_remove", turno, sanction.pk))
    assert r.status_code == 302 and Sanction.objects.count() == 0


def _complete_with_tie(season, seed=5) -> tuple[Turno, tuple[str, str]]:
    """A complete turno where a penalità puts two players level."""
    record = _record(seed)
    turno = _turno(season, record.smazzate)
    totals = score_turno(caf(), record, require_complete=False).totals
    high, low = next((p, q) for p in PLAYERS for q in PLAYERS if totals[p] > totals[q])
    api.penalita_add(turno=turno, player=high, points=totals[low] - totals[high], article="6")
    return turno, (high, low)


def test_a_tie_needs_the_spareggio_to_close(segretario_client, season):
    turno, (high, low) = _complete_with_tie(season)
    html = segretario_client.get(_live(turno)).content.decode()
    assert "Spareggio: parità a" in html
    assert 'name="tie_0_0"' in html and 'name="tie_0_1"' in html

    r = segretario_client.post(_url("turno_close", turno), {})
    assert r.status_code == 422
    html = r.content.decode()
    assert "registrare lo spareggio (carta più alta al meglio delle 5 prove)" in html
    turno.refresh_from_db()
    assert turno.is_open and turno.verbale_number is None

    r = segretario_client.post(_url("turno_close", turno), {"tie_0_0": low, "tie_0_1": high})
    assert r.status_code == 302
    turno.refresh_from_db()
    assert not turno.is_open and turno.verbale_number == 1
    places = {s.player.name: s.place for s in turno.seats.all()}
    assert places[low] == places[high] - 1
    html = segretario_client.get(_live(turno)).content.decode()
    assert "Risultati" in html and "Riapri" in html
    assert "Verbale n. 1" in html
    assert 'name="caller"' not in html  # read-only
    for seat in turno.seats.all():
        row = html[html.index(f'<tr data-player="{seat.player.name}">') :]
        row = row[: row.index("</tr>")]

        # decimals in the Italian format, a true minus before a negative number
        def italian(d) -> str:
            return str(d).replace(".", ",").replace("-", "\N{MINUS SIGN}")

        assert f"{seat.place}º" in row and italian(seat.ratio) in row
        assert italian(seat.league_points) in row


def _selected_spareggio(html: str) -> dict[str, str]:
    """The spareggio's selects as the page presents them: field name -> the option selected."""
    chosen = {}
    for m in re.finditer(r'<select name="(tie_\d+_\d+)"[^>]*>(.*?)</select>', html, re.S):
        option = re.search(r'<option value="([^"]*)"[^>]*\bselected\b', m.group(2))
        chosen[m.group(1)] = option.group(1) if option else ""
    return chosen


def test_a_reopened_tied_turno_keeps_its_spareggio(segretario_client, season):
    # #25 friction: after a reopen the close form showed the spareggio blank, so closing again
    # as the page stood was refused (TIE_UNRESOLVED) and the draw had to be entered again
    turno, (high, low) = _complete_with_tie(season)
    # the draw goes against the seat order: low, then high
    segretario_client.post(_url("turno_close", turno), {"tie_0_0": low, "tie_0_1": high})
    turno.refresh_from_db()
    places = {s.player.name: s.place for s in turno.seats.all()}
    assert places[low] == places[high] - 1
    r = segretario_client.post(_url("turno_reopen", turno), {"reason": "conteggio da rivedere"})
    assert r.status_code == 302

    html = segretario_client.get(_live(turno)).content.decode()
    assert _selected_spareggio(html) == {"tie_0_0": low, "tie_0_1": high}
    r = segretario_client.post(_url("turno_close", turno), _selected_spareggio(html))
    assert r.status_code == 302
    turno.refresh_from_db()
    assert not turno.is_open and turno.verbale_number == 1
    assert {s.player.name: s.place for s in turno.seats.all()} == places


def test_a_closed_turno_cannot_be_edited(segretario_client, season):
    record = _record(seed=2)
    turno = _turno(season, record.smazzate)
    tied = score_turno(caf(), record, require_complete=False).tied
    tiebreak = {f"tie_{g}_{k}": p for g, grp in enumerate(tied) for k, p in enumerate(grp)}
    assert segretario_client.post(_url("turno_close", turno), tiebreak).status_code == 302
    turno.refresh_from_db()
    assert not turno.is_open
    totals = {s.player.name: s.total for s in Seat.objects.filter(turno=turno)}

    sm = record.smazzate[-1]
    r = segretario_client.post(_url("turno_smazzata", turno), _smazzata_data(sm, 20))
    assert r.status_code == 422
    assert "è chiuso: per modificarlo va riaperto" in r.content.decode()
    r = segretario_client.post(_url("turno_undo", turno), {"number": 19}, follow=True)
    assert "è chiuso: per modificarlo va riaperto" in r.content.decode()
    data = {"pen-player": "Anna", "pen-points": -3, "pen-article": "6"}
    r = segretario_client.post(_url("turno_penalita_add", turno), data)
    assert r.status_code == 422
    assert "è chiuso: per modificarlo va riaperto" in r.content.decode()
    r = segretario_client.post(_url("turno_delete", turno))
    assert "è chiuso" in r.content.decode()

    assert Smazzata.objects.filter(turno=turno).count() == 19
    assert Penalita.objects.count() == 0
    assert {s.player.name: s.total for s in Seat.objects.filter(turno=turno)} == totals
    turno.refresh_from_db()
    assert not turno.is_open


def test_reopen_needs_a_reason(segretario_client, season):
    record = _record(seed=2)
    turno = _turno(season, record.smazzate)
    tied = score_turno(caf(), record, require_complete=False).tied
    tiebreak = {f"tie_{g}_{k}": p for g, grp in enumerate(tied) for k, p in enumerate(grp)}
    segretario_client.post(_url("turno_close", turno), tiebreak)

    r = segretario_client.post(_url("turno_reopen", turno), {"reason": "   "})
    assert r.status_code == 422
    block = _field_block(r.content.decode(), "id_reason")
    assert "per riaprire un turno chiuso serve una motivazione" in block
    turno.refresh_from_db()
    assert not turno.is_open

    r = segretario_client.post(_url("turno_reopen", turno), {"reason": "conteggio sbagliato"})
    assert r.status_code == 302
    turno.refresh_from_db()
    assert turno.is_open
    event = TurnoEvent.objects.get(turno=turno, kind=TurnoEvent.REOPEN)
    assert event.reason == "conteggio sbagliato"
    html = segretario_client.get(_live(turno)).content.decode()
    assert "Chiusura del turno" in html
    # the change trail (read when opened): who reopened, with the reason
    trail = segretario_client.get(reverse("scoring:turno_history", args=[turno.pk])).content
    assert re.search(
        r"<td>segretario</td><td>turno</td><td>riapertura</td><td[^>]*>conteggio sbagliato</td>",
        trail.decode(),
    )


def test_close_or_reopen_at_the_wrong_time_shows_the_error(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:3])
    r = segretario_client.post(_url("turno_close", turno), {})
    assert r.status_code == 422
    assert "il turno ha 3 smazzate su 19" in r.content.decode()
    r = segretario_client.post(_url("turno_reopen", turno), {"reason": "prova"})
    assert r.status_code == 422
    assert "è già aperto" in r.content.decode()
    turno.refresh_from_db()
    assert turno.is_open and Smazzata.objects.count() == 3


def test_delete_an_empty_turno(segretario_client, season):
    record = _record()
    turno = _turno(season, record.smazzate[:1])
    r = segretario_client.post(_url("turno_delete", turno))
    assert r.status_code == 422
    assert "si può eliminare solo un turno senza smazzate" in r.content.decode()
    segretario_client.post(_url("turno_undo", turno), {"number": 1})
    r = segretario_client.post(_url("turno_delete", turno))
    assert r.status_code == 302 and r["Location"] == reverse("scoring:segreteria")
    assert Turno.objects.count() == 0


def test_dashboard_lists_open_and_closed_turni(segretario_client, season):
    record = _record()
    open_turno = _turno(season, record.smazzate[:5])
    html = segretario_client.get(reverse("scoring:segreteria")).content.decode()
    assert "Nuovo turno" in html and reverse("scoring:turno_new") in html
    assert "5/19" in html and _live(open_turno) in html
    assert "Nessun turno chiuso" in html
    season_create(name="2025-26", current=False)
    html = segretario_client.get(reverse("scoring:segreteria")).content.decode()
    assert 'name="stagione"' in html  # the picker, with several seasons


# -- htmx ------------------------------------------------------------------------------------
def test_htmx_requests_get_the_partial(segretario_client, season):
    record = _record()
    turno = _turno(season)
    sm = record.smazzate[0]
    r = segretario_client.post(_url("turno_smazzata", turno), _smazzata_data(sm, 1), **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="live"') and "<html" not in html
    assert "Smazzata 1 registrata" in html
    assert "Smazzata 2 di 19" in html
    assert Smazzata.objects.count() == 1

    # an error: the partial with the message next to the field, nothing saved
    bad = _smazzata_data(record.smazzate[1], 2) | {"count_0": 40}
    r = segretario_client.post(_url("turno_smazzata", turno), bad, **HTMX)
    assert r.status_code == 200 and "<html" not in r.content.decode()
    assert "field-error" in _field_block(r.content.decode(), "id_count_0")
    assert Smazzata.objects.count() == 1

    # the chiamante refreshes the games and the forced status
    # (the caller of smazzata 1 deals now: in the negative phase their call is obbligata)
    url = _url("turno_smazzata_form", turno)
    other = next(p for p in PLAYERS if p != sm.caller)
    r = segretario_client.get(url, {"caller": other, "count_1": "2"}, **HTMX)
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="smazzata-fields"') and "<html" not in html
    assert "Chiamata volontaria" in html
    assert f'value="{other}" checked' in html and 'name="count_1" value="2"' in html
    assert sm.game not in re.findall(r'name="game" id="game-(\w+)"', html)
    r = segretario_client.get(url, {"caller": sm.caller}, **HTMX)
    assert "Chiamata obbligata" in r.content.decode()

    # undo
    r = segretario_client.post(_url("turno_undo", turno), {"number": 1}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="live"') and "Smazzata 1 annullata" in html
    assert Smazzata.objects.count() == 0


def test_positive_phase_offers_only_the_callers_games(segretario_client, season):
    record = _record(seed=4)
    turno = _turno(season, record.smazzate[:9])  # 7 negatives + 2 positives played
    url = _url("turno_smazzata_form", turno)
    caller = record.smazzate[7].caller  # called a positive game already
    called = record.smazzate[7].game
    html = segretario_client.get(url, {"caller": caller}, **HTMX).content.decode()
    games = re.findall(r'name="game" id="game-(\w+)"', html)
    assert called not in games and games
    # without JS the same choice is a plain GET that re-renders the whole page
    r = segretario_client.get(url, {"caller": caller})
    assert r.status_code == 200 and "<html" in r.content.decode()
    assert re.findall(r'name="game" id="game-(\w+)"', r.content.decode()) == games
    # and the server refuses the combination anyway
    data = _smazzata_data(record.smazzate[9], 10) | {"caller": caller, "game": called}
    r = segretario_client.post(_url("turno_smazzata", turno), data)
    assert "ha già chiamato" in r.content.decode()
    assert Smazzata.objects.count() == 9


def test_live_screen_query_count_is_bounded(
    segretario_client, season, django_assert_max_num_queries
):
    record = _record(seed=9)
    turno = _turno(season, record.smazzate)
    api.penalita_add(turno=turno, player="Anna", points=-2, article="16", reason="ritardo")
    # 20: + the close waiting for the players' confirmation (issue 17)
    with django_assert_max_num_queries(20):
        r = segretario_client.get(_live(turno))
    assert r.status_code == 200 and "Chiusura del turno" in r.content.decode()
    # the same bound for a turno just started: nothing grows with the smazzate
    other = turno_start(
        season=season, date=DAY + dt.timedelta(days=7), players=PLAYERS, first_dealer="Anna"
    )
    with django_assert_max_num_queries(20):
        assert segretario_client.get(_live(other)).status_code == 200


# -- the menu (who may open which URL: tests/integration/test_permissions.py) ------------------
def test_the_live_screen_link_is_in_the_menu_for_the_segretario_only(
    client, segretario_client, season
):
    html = segretario_client.get(reverse("scoring:segreteria")).content.decode()
    assert 'class="nav-seg"' in html


def test_login_page_is_italian(client):
    r = client.get(reverse("login"))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Accedi" in html and 'name="username"' in html and 'name="password"' in html
    r = client.post(reverse("login"), {"username": "nessuno", "password": "x"})
    assert r.status_code == 200
    assert "Nome utente o password non corretti" in r.content.decode()
