"""King C.A.F. read through the one input path (issue 24, "One ledger"): every C.A.F. turno read
by :func:`scoring.selectors_games.game_record`, as every other game's, is exactly what the second
input path (the engine's ``TurnoRecord`` from :func:`scoring.selectors.turno_record`, written by
the interchange's own ``turno_to_input``) gave, on random seasons: turni closed and open, with
penalità, sanctions and a spareggio, one reopened; and the season's streaming export
(``export_season``, with and without the open turni), ``check_ledger`` and the close request's
fingerprint are what they were on the second path, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import random
from itertools import count

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scoring import api
from scoring.demo import simulated_season
from scoring.models import Season, Turno
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation
from scoring.selectors import turno_record, turno_with_everything
from scoring.selectors_games import game_record
from scoring.services import recording
from scoring.services.interchange import season_export_stream, season_import
from scoring.services.jsonstream import write_json
from scoring.services.ledger import ledger_differences
from scoring.services.season_rules import season_rules_update

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
LATE = "Gino"  # seated on the last giornata only: absent from the ones before
SEASONS = count(1)

seasons = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10**6),
        "giornate": st.integers(1, 4),
        "sizes": st.sampled_from([(4,), (5,), (6,), (3, 3)]),
        "sanctions": st.sampled_from([0.0, 0.5]),
        "penalties": st.sampled_from([0.0, 0.5]),
        "dealt": st.integers(0, 12),  # deals recorded on the turno left open
        "reopen": st.booleans(),
    }
)


def _season(draw) -> Season:
    """A season imported in bulk, then a turno played deal by deal through ``scoring.api`` (with
    penalità and its spareggio) and closed, one left open after ``dealt`` deals (a penalità and a
    sanction on it), and (``reopen``) the first turno reopened with a sanction added."""
    name = f"I{next(SEASONS)}"
    doc = simulated_season(
        name=name,
        players=PLAYERS,
        giornate=draw["giornate"],
        seed=draw["seed"],
        table_sizes=draw["sizes"],
        attendance=0.9,
        penalty_chance=draw["penalties"],
        sanction_chance=draw["sanctions"],
    )
    season = season_import(data=doc, current=False)
    api.member_enroll(season=season, player=LATE)
    rng, rules = random.Random(draw["seed"]), caf()
    date = dt.date(2026, 9, 4) + dt.timedelta(days=7 * draw["giornate"])
    tables = rng.sample([*PLAYERS, LATE], 7)
    for number, dealt in enumerate([None, draw["dealt"]], start=1):
        seated = tables[:4] if number == 1 else tables[4:]
        game = simulate_turno(rules, seated, rng, date=date, number=number, penalty_chance=0.5)
        turno = api.turno_start(
            season=season, date=date, players=seated, first_dealer=seated[0], number=number
        )
        record = turno_to_input(game)
        for sm in record["smazzate"][:dealt]:
            api.smazzata_record(turno=turno, record=sm)
        for pen in record["penalties"]:
            api.penalita_add(turno=turno, **{k: pen[k] for k in ("player", "points", "article")})
        if dealt is None:
            api.turno_close(turno=turno, tiebreak=record["tiebreak"] or None)
        else:
            api.sanction_add(turno=turno, player=seated[1], reason="contatore")
    first = Turno.objects.filter(season=season).order_by("giornata__date", "number").first()
    if draw["reopen"] and first is not None and first.status == Turno.CHIUSO:
        api.turno_reopen(turno=first, reason="verifica del contatore")
        taken = first.sanctions.values_list("player_id", flat=True)
        free = first.seats.exclude(player_id__in=list(taken)).order_by("position").first()
        if free is not None:
            api.sanction_add(turno=first, player=free.player.name, reason="contatore")
        api.turno_close(turno=first)
    return season


def _second_path(monkeypatch) -> None:
    """The counts ledger's input as it was before issue 24: the engine's TurnoRecord."""

    def load(self, turni, system=None):
        return turno_with_everything(turni)

    def turno_document(self, turno):
        return turno_to_input(turno_record(turno))

    def turno_input(self, turno, tiebreak=None):
        full = turno_with_everything(Turno.objects.filter(pk=turno.pk)).get()
        return turno_record(full, tiebreak=tiebreak)

    for attr, value in (("load", load), ("turno_document", turno_document)):
        monkeypatch.setattr(recording.CountsLedger, attr, value, raising=False)
    monkeypatch.setattr(recording.CountsLedger, "turno_input", turno_input, raising=False)


def _outputs(season: Season, tmp_path, tag: str) -> dict[str, object]:
    """What the season's readers write: export_season (the file), the streaming export with
    the open turni, check_ledger's differences."""
    path = tmp_path / f"{tag}.json"
    call_command("export_season", season.name, str(path), stderr=io.StringIO())
    with_open = io.StringIO()
    write_json(with_open.write, season_export_stream(season=season, include_open=True), indent=2)
    return {
        "export_season": path.read_bytes(),
        "with_open": with_open.getvalue().encode(),
        "differences": ledger_differences(seasons=[season]),
    }


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a season through the database: no shrinking
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(draw=seasons)
def test_game_record_of_a_caf_turno_is_what_the_second_input_path_gave(draw):
    season = _season(draw)
    turni = list(turno_with_everything(Turno.objects.filter(season=season).order_by("pk")))
    assert {t.status for t in turni} == {Turno.CHIUSO, Turno.IN_CORSO}
    ledger = recording.ledger_of(season)
    for turno in turni:
        old = turno_to_input(turno_record(turno))
        new = game_record(turno)
        assert new == old
        # the keys in the interchange's order: the export writes them so
        assert list(new) == list(old)
        document = ledger.turno_document(turno)
        assert json.dumps(document, ensure_ascii=False) == json.dumps(old, ensure_ascii=False)
        drawn = list(reversed(old["players"]))  # a spareggio given at the close
        assert game_record(turno, tiebreak=drawn) == turno_to_input(
            turno_record(turno, tiebreak=drawn)
        )
        assert ledger.turno_input(turno, drawn) == turno_to_input(
            turno_record(turno, tiebreak=drawn)
        )
    assert any(t["sanctions"] for t in map(game_record, turni))
    # the open turno's close refused with exactly the engine's problems (codes, fields, texts)
    rules = season.ruleset
    for turno in (t for t in turni if t.is_open):
        for tiebreak in (None, ["Nessuno"], list(reversed(game_record(turno)["players"]))):
            expected = score_turno(
                rules, turno_record(turno, tiebreak=tiebreak), require_complete=True
            ).problems
            with pytest.raises(RuleViolation) as exc:
                api.turno_close(turno=turno.pk, tiebreak=tiebreak)
            assert exc.value.problems == expected and expected
            assert Turno.objects.get(pk=turno.pk).status == Turno.IN_CORSO


# three seasons a test, the same draws on every run (each season builds a club through the api)
THREE_SEASONS = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@THREE_SEASONS
@given(draw=seasons)
def test_the_caf_season_s_export_and_check_are_byte_identical(draw, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("export")
    season = _season(draw)
    now = _outputs(season, tmp_path, "one")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _second_path(monkeypatch)
        before = _outputs(season, tmp_path, "two")
    assert now == before
    document = json.loads(now["export_season"])
    assert "rules" not in document  # C.A.F.'s export plays the standard rules (exports_rules)
    assert len(document["turni"]) == Turno.objects.filter(season=season, status="chiuso").count()
    assert now["differences"] == []


def _engine_rescore(season: Season) -> dict[int, dict[str, object]]:
    """What the rescore stored on the second input path: each turno's TurnoRecord scored by the
    engine with the season's rule set (closed turni as closed)."""
    rules = Season.objects.get(pk=season.pk).ruleset
    out = {}
    for turno in turno_with_everything(Turno.objects.filter(season=season)):
        score = score_turno(rules, turno_record(turno), require_complete=not turno.is_open)
        assert not score.problems
        out[turno.pk] = {
            "deals": [
                (sm.number, sm.forced, sm.scazzata, sm.cappotto, sm.points) for sm in score.smazzate
            ],
            "seats": {
                p: (
                    score.totals[p],
                    score.penalties[p],
                    None if score.places is None else score.places[p],
                    None if score.ratios is None else score.ratios[p],
                )
                for p in turno_record(turno).players
            },
        }
    return out


def _stored(season: Season) -> dict[int, dict[str, object]]:
    out = {}
    for turno in turno_with_everything(Turno.objects.filter(season=season)):
        out[turno.pk] = {
            "deals": [
                (
                    sm.number,
                    sm.forced,
                    sm.scazzata,
                    sm.cappotto.name if sm.cappotto else None,
                    {r.player.name: r.points for r in sm.results.all()},
                )
                for sm in turno.smazzate.all()
            ],
            "seats": {
                s.player.name: (s.total, s.penalty_total, s.place, s.ratio)
                for s in turno.seats.all()
            },
        }
        if turno.status == Turno.CHIUSO:
            winner = min(turno.seats.all(), key=lambda s: s.place).player
            assert turno.winner == winner
    return out


@THREE_SEASONS
@given(draw=seasons, per_unit=st.sampled_from([-10, -1, 7]))
def test_the_rescore_stores_what_the_engine_gave_the_turno_record(draw, per_unit):
    """A rule-set edit rescored (scoring.services.deals.turno_rescore, on game_record and
    the system's score_running / score_turno / seat_results): each deal's forced call,
    scazzata, cappotto and points, each seat's total, penalità, place and ratio, the winner are
    the engine's score of the turno's TurnoRecord under the new rules, open turni included."""
    season = _season(draw)
    rules = caf().to_dict()
    rules["games"]["NQS"]["per_unit"] = per_unit
    season_rules_update(season=season, rules=rules, recompute=True, reason="prova")
    expected = _engine_rescore(season)
    assert _stored(season) == expected
    assert ledger_differences(seasons=[Season.objects.get(pk=season.pk)]) == []  # new rules
