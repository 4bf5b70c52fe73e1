"""The ledger equals a replay of its facts: the recompute never starts from an empty state,
and ``check_ledger`` finds every stored number that differs."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.management import call_command

from scoring.models import Giornata, Player, Seat, Standing, TitleAward, Turno
from scoring.rules.caf import caf, play_season
from scoring.services.ledger import ledger_differences
from scoring.services.season import season_create
from scoring.services.turni import turno_close
from tests.helpers import play_turno as _play

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
D1, D2, D3, D4 = (dt.date(2026, 11, d) for d in (6, 13, 20, 27))


def _season():
    for n in PLAYERS:
        Player.objects.get_or_create(name=n)
    return season_create(name="2026-27")


def test_a_close_after_a_giornata_with_only_open_turni_keeps_the_ladder():
    season = _season()
    _, r1 = _play(season, D1, PLAYERS[:4], seed=1)
    _, r2 = _play(season, D2, PLAYERS[1:], seed=2)
    _play(season, D3, PLAYERS[:4], seed=3, close=False)  # left in progress
    # the giornata of the open turno holds no closed turno: its state is not the season's
    assert Giornata.objects.get(season=season, date=D3).lowest is None
    _, r4 = _play(season, D4, PLAYERS[1:], seed=4)

    # the engine's season over the three closed turni, by hand-free replay
    from scoring.rules.caf import TableResult, score_turno

    tables = []
    for date, record in ((D1, r1), (D2, r2), (D4, r4)):
        score = score_turno(caf(), record)
        tables.append(TableResult(date, date, 1, score.order(), dict(score.ratios)))
    expected = play_season(caf(), PLAYERS, tables)
    # the open turno's players on D3 are not absent: only Elena is
    stored = {s.player.name: s.series for s in Standing.objects.filter(season=season)}
    assert stored == {p: expected.state.series[p] for p in PLAYERS}
    assert set(stored.values()) != {"A"}  # two relegations happened, nobody reset to A
    assert ledger_differences() == []


def test_check_ledger_lists_a_changed_number_and_exits_1(ledger_unchecked):
    season = _season()
    turno, _ = _play(season, D1, PLAYERS[:4], seed=1)
    out = io.StringIO()
    call_command("check_ledger", stdout=out)
    assert out.getvalue() == "check_ledger: nessuna differenza (1 stagione, 1 turno)\n"

    seat = Seat.objects.filter(turno=turno, place=4).select_related("player").get()
    Seat.objects.filter(pk=seat.pk).update(league_points=Decimal("5.00"))
    TitleAward.objects.filter(seat=seat).delete()
    found = [str(d) for d in ledger_differences()]
    assert f"2026-27 · turno {turno.label}, {seat.player.name} · punti di lega: " in found[0]
    assert any(
        "titolo RETROCESSIONE" in line and "registrato 0, atteso 1" in line for line in found
    )
    with pytest.raises(SystemExit) as exc:
        call_command("check_ledger", stdout=io.StringIO(), stderr=io.StringIO())
    assert exc.value.code == 1


def test_check_ledger_names_an_unknown_season():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError) as exc:
        call_command("check_ledger", "--season", "x")
    assert str(exc.value) == "stagione sconosciuta: 'x'"  # no season yet (English: its own test)


def _flipped_rules(season):
    """The season's rules with the positive games scoring per trick negatively: the winners
    change."""
    import copy

    rules = copy.deepcopy(season.rules)
    for game in ("SEMPLICE", "BRISCOLA"):
        rules["games"][game]["per_unit"] = -rules["games"][game]["per_unit"]
    return rules


def test_a_rule_change_with_recompute_stores_the_new_winner_titles_and_reason():
    from scoring.models import SeasonEvent
    from scoring.rules.caf import RuleSet, score_turno
    from scoring.services.season_rules import season_rules_update

    season = _season()
    t1, r1 = _play(season, D1, PLAYERS[:4], seed=1)
    t2, r2 = _play(season, D2, PLAYERS[:4], seed=5)
    rules = _flipped_rules(season)
    new = RuleSet.from_dict(rules)
    winners = {}
    for turno, record in ((t1, r1), (t2, r2)):
        old_order = score_turno(caf(), record).order()
        new_order = score_turno(new, record).order()
        assert old_order[0] != new_order[0]  # the change moves the winner
        winners[turno.pk] = new_order[0]
    season_rules_update(season=season, rules=rules, reason="SEMPLICE al contrario", recompute=True)
    for turno in Turno.objects.filter(season=season):
        assert turno.winner.name == winners[turno.pk]
        scudetto = TitleAward.objects.get(seat__turno=turno, code="SCUDETTO")
        assert scudetto.player.name == winners[turno.pk]
    assert TitleAward.objects.filter(season=season, code="SCUDETTO").count() == 2
    events = list(SeasonEvent.objects.filter(season=season).values_list("kind", "reason"))
    assert events == [
        ("rules_update", "SEMPLICE al contrario"),
        ("recompute", "SEMPLICE al contrario"),
    ]
    assert ledger_differences() == []


def test_a_recompute_without_a_reason_still_says_why():
    from scoring.models import SeasonEvent
    from scoring.services.season_rules import season_rescore, season_rules_update

    season = _season()
    _play(season, D1, PLAYERS[:4], seed=1)
    season_rules_update(season=season, rules=_flipped_rules(season), recompute=True)
    season_rescore(season=season, reason="  ")
    reasons = list(
        SeasonEvent.objects.filter(season=season, kind="recompute").values_list("reason", flat=True)
    )
    assert reasons == ["cambio del regolamento", "ricalcolo della stagione"]


def test_a_back_dated_close_deletes_the_titles_the_later_giornata_no_longer_wins():
    """D2 closed first (everybody in A); D1, closed later, relegates Bruno: at D2 he was in
    Serie B, so the UEFA he won there must go."""
    season = _season()
    t2, _ = _play(season, D2, PLAYERS[1:], seed=2)
    assert TitleAward.objects.filter(seat__turno=t2, code="SCUDETTO").count() == 1
    before = sorted(TitleAward.objects.filter(seat__turno=t2).values_list("player__name", "code"))
    _play(season, D1, PLAYERS[:4], seed=1)
    # every award of D2 is the engine's now, none left over from before
    stored = sorted(TitleAward.objects.filter(seat__turno=t2).values_list("player__name", "code"))
    expected = sorted(
        (s.player.name, code)
        for s in Seat.objects.filter(turno=t2).select_related("player")
        for code in s.titles
    )
    assert stored == expected
    # Bruno, last at D1, played D2 in Serie B: his UEFA award is gone
    assert ("Bruno", "UEFA") in before
    assert stored == [("Carla", "RETROCESSIONE"), ("Dario", "SCUDETTO"), ("Elena", "COPPA_ITALIA")]
    assert Seat.objects.get(turno=t2, player__name="Bruno").series_before == "B"
    assert ledger_differences() == []


def test_a_recompute_with_a_seated_player_off_the_roster_enrols_them_again():
    from scoring.models import Absence, Enrollment
    from scoring.services.season import season_recompute

    season = _season()
    _play(season, D1, PLAYERS[:4], seed=1)
    _play(season, D2, PLAYERS[1:], seed=2)
    Enrollment.objects.filter(season=season, player__name="Anna").delete()
    assert "giocatori seduti non iscritti: registrato ['Anna'], atteso []" in str(
        ledger_differences()[0]
    )
    season_recompute(season=season)
    assert Enrollment.objects.filter(season=season, player__name="Anna").exists()
    # Anna sat at D1 and was absent on D2: she takes D2's lowest score
    assert Absence.objects.filter(season=season, player__name="Anna").count() == 1
    assert Standing.objects.filter(season=season, player__name="Anna").count() == 1
    assert ledger_differences() == []


def test_the_spareggio_ranks_are_stored_from_one():
    """A tie settled by the spareggio: the ranks stored are 1, 2, ... in the order given."""
    season = _season()
    turno, record = _play(season, D1, PLAYERS[:4], seed=1, close=False)
    from scoring import api
    from scoring.rules.caf import score_turno

    totals = score_turno(caf(), record).totals
    first, second = sorted(totals, key=lambda p: -totals[p])[:2]
    gap = totals[first] - totals[second]
    if gap:
        api.penalita_add(turno=turno, player=first, points=-gap, article="9")
    turno_close(turno=turno, tiebreak=[second, first])
    ranks = dict(Seat.objects.filter(turno=turno).values_list("player__name", "tiebreak_rank"))
    assert ranks[second] == 1 and ranks[first] == 2
    assert Seat.objects.get(turno=turno, player__name=second).place == 1


def test_check_ledger_finds_every_kind_of_stored_number_that_differs(ledger_unchecked):
    """One season (two closed giornate, an absentee, an open turno), then each stored field
    changed by hand in turn: the check names exactly that field, and nothing once undone."""
    from django.db import transaction
    from django.db.models import F

    from scoring.models import Absence, Enrollment, Result, SeasonEvent, Smazzata

    season = _season()
    t1, r1 = _play(season, D1, PLAYERS[:4], seed=1)
    _play(season, D2, PLAYERS[1:], seed=2)
    open_turno, _ = _play(season, D3, PLAYERS[:4], seed=3, close=False)
    assert ledger_differences() == []
    seat = Seat.objects.filter(turno=t1, place=2)
    last = Seat.objects.filter(turno=t1, place=4)
    standing = Standing.objects.filter(season=season, player__name="Bruno")
    g1 = Giornata.objects.filter(season=season, date=D1)
    corruptions = {
        "punti": lambda: Result.objects.filter(smazzata__turno=t1, smazzata__number=1).update(
            points=F("points") + 1
        ),
        "mazziere": lambda: Smazzata.objects.filter(turno=t1, number=2).update(dealer=F("caller")),
        "obbligata": lambda: Smazzata.objects.filter(turno=t1, number=1).update(
            forced=~F("forced")
        ),
        "scazzata": lambda: Smazzata.objects.filter(turno=t1, number=1).update(
            scazzata=~F("scazzata")
        ),
        "cappotto": lambda: Smazzata.objects.filter(turno=t1, number=1).update(
            cappotto=F("caller")
        ),
        "totale": lambda: seat.update(total=F("total") + 1),
        "penalità": lambda: seat.update(penalty_total=3),
        "posto": lambda: (seat.update(place=None), last.update(place=2)),
        "rapporto": lambda: seat.update(ratio=Decimal("0.01")),
        "spareggio (posizioni)": lambda: seat.update(tiebreak_rank=2),
        "vincitore": lambda: Turno.objects.filter(pk=t1.pk).update(winner=seat.get().player),
        "serie prima": lambda: seat.update(series_before="B"),
        "serie dopo": lambda: seat.update(series_after="C1"),
        "titoli": lambda: seat.update(titles=[]),
        "punti di lega": lambda: seat.update(league_points=Decimal("9.99")),
        "assegnazioni": lambda: TitleAward.objects.filter(seat__turno=t1, code="UEFA").delete(),
        "titoli assegnati a un'altra stagione": lambda: TitleAward.objects.filter(
            seat__turno=t1
        ).update(season=season_create(name="altra", current=False)),
        "assenza": lambda: Absence.objects.filter(season=season).update(
            league_points=Decimal("7.00")
        ),
        "punteggio più basso": lambda: g1.update(lowest=Decimal("-5.00")),
        "stato dopo": lambda: g1.update(state_after={}),
        "esito di un turno aperto": lambda: Seat.objects.filter(
            turno=open_turno, position=0
        ).update(series_after="A"),
        "vincitore di un turno aperto": lambda: Turno.objects.filter(pk=open_turno.pk).update(
            winner=seat.get().player
        ),
        "numerazione": lambda: Turno.objects.filter(pk=t1.pk).update(verbale_number=7),
        "verbale assegnato": lambda: Turno.objects.filter(pk=t1.pk).update(verbale_number=None),
        "giocatori seduti non iscritti": lambda: Enrollment.objects.filter(
            season=season, player__name="Elena"
        ).delete(),
        "punteggio": lambda: standing.update(score=F("score") + 1),
        "serie": lambda: standing.update(series="3CAT"),
        "serie precedente": lambda: standing.update(previous_series="3CAT"),
        "posto precedente": lambda: standing.update(previous_place=99),
        "turni": lambda: standing.update(turni=9),
        "assenze": lambda: standing.update(absences=9),
        "scudetti": lambda: standing.update(scudetti=9),
        "serie di scudetti": lambda: standing.update(streak=9),
        "riga": lambda: standing.delete(),
        "motivazione presente": lambda: SeasonEvent.objects.create(
            season=season, kind="recompute", reason=" "
        ),
        "turno chiuso valido": lambda: Smazzata.objects.filter(
            turno=t1, number=len(r1.smazzate)
        ).delete(),
    }
    for field, corrupt in corruptions.items():
        with transaction.atomic():
            corrupt()
            fields = {d.field for d in ledger_differences()}
            assert field in fields, (field, fields)
            transaction.set_rollback(True)
    assert ledger_differences() == []
