"""The player page's figures of King C.A.F. (:class:`PlayerFigures`) after a reopen that moves
the series chain: a Retrocessione per contatore added on reopen to a turno of the first giornata
changes, at a later giornata, the league points of a player who never sat at that turno (the
step "nobody in the top series: everybody moves up one first", SPEC §8.2, reads the whole
table). Their points per giornata (``played``) and line must follow, as check_ledger replays
them; found by the long Hypothesis profile of tests/property/test_caf_records.py."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest

from scoring import api
from scoring.models import PlayerFigures, Seat
from scoring.rules.caf import caf
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.ledger import ledger_differences

pytestmark = pytest.mark.django_db
FIRST, SECOND, THIRD = dt.date(2026, 9, 4), dt.date(2026, 9, 11), dt.date(2026, 9, 18)


def _turno(season, date, players, seed):
    """A complete turno of ``players`` recorded through the api and closed (its seed's deals)."""
    record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
    turno = api.turno_start(season=season, date=date, players=players, first_dealer=players[0])
    for deal in turno_to_input(record)["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    return api.turno_close(turno=turno, tiebreak=list(record.tiebreak))


def _seats(turno) -> dict[str, tuple[int, str, str, Decimal]]:
    return {
        s.player.name: (s.place, s.series_before, s.series_after, s.league_points)
        for s in Seat.objects.filter(turno=turno).select_related("player")
    }


def _played(season, name: str) -> dict[str, str]:
    return PlayerFigures.objects.get(season=season, player__name=name).played


def test_a_reopen_that_moves_a_later_table_refreshes_its_players_points():
    season = api.season_create(name="riapertura", ruleset="caf", current=False)
    for name in ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]:
        api.member_enroll(season=season, player=name)
    first = _turno(season, FIRST, ["Anna", "Bruno", "Carla"], 1)
    other = _turno(season, FIRST, ["Dario", "Elena", "Fabio"], 2)
    # Anna stays in A, Carla and Elena go down to B
    assert _seats(first)["Anna"] == (2, "A", "A", Decimal("0.85"))
    assert _seats(other)["Elena"] == (3, "A", "B", Decimal("0.02"))
    later = _turno(season, SECOND, ["Anna", "Carla", "Elena"], 5)
    # Anna in A at the table: nobody moves up first; Elena wins in B (promoted, no Scudetto)
    assert _seats(later) == {
        "Anna": (2, "A", "A", Decimal("0.98")),
        "Carla": (3, "B", "C1", Decimal("0.54")),
        "Elena": (1, "B", "A", Decimal("1.20")),
    }
    assert _played(season, "Elena") == {"2026-09-04": "0.02", "2026-09-11": "1.20"}

    api.turno_reopen(turno=first, reason="verifica del contatore")
    api.sanction_add(turno=first, player="Anna", reason="contatore")
    api.turno_close(turno=first)
    # Anna relegated to B: nobody at the later table in A, everybody moves up first, and
    # Elena's win is a Scudetto; she never sat at the reopened turno
    assert _seats(later) == {
        "Anna": (2, "B", "A", Decimal("0.98")),
        "Carla": (3, "B", "B", Decimal("0.54")),
        "Elena": (1, "B", "A", Decimal("2.00")),
    }
    assert _played(season, "Elena") == {"2026-09-04": "0.02", "2026-09-11": "2.00"}
    line = PlayerFigures.objects.get(season=season, player__name="Elena").line
    assert line == {"start": 0, "points": ["0.02", "2.02"]}
    assert ledger_differences() == []

    # a later close sums from the checkpoints the reopen left: still the replay
    _turno(season, THIRD, ["Bruno", "Elena", "Fabio"], 3)
    assert _played(season, "Elena")["2026-09-11"] == "2.00"
    assert ledger_differences() == []
