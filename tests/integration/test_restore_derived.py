"""A backup whose stored (derived) results were edited is refused (issue 26 item 3): every
derived row is compared with the replay before the restore commits, for every game."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scoring.models import Seat, Standing
from scoring.rules.problems import RuleViolation
from scoring.services.backup import backup_document, backup_restore
from scoring.services.interchange import season_import

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def club_backup() -> dict:
    for sample in ("season-hand.json", "skat-sample.json"):
        season_import(data=json.loads((FIXTURES / sample).read_text(encoding="utf-8")))
    return backup_document()


def _edit(backup: dict, table: str, ruleset: str, **values) -> dict:
    """The backup with the first row of ``table`` of the ``ruleset`` season changed."""
    edited = copy.deepcopy(backup)
    seasons = edited["tables"]["scoring.season"]
    code_at, id_at = seasons["columns"].index("ruleset_code"), seasons["columns"].index("id")
    season = next(r[id_at] for r in seasons["rows"] if r[code_at] == ruleset)
    rows = edited["tables"][table]
    columns = rows["columns"]
    if "season" in columns:
        row = next(r for r in rows["rows"] if r[columns.index("season")] == season)
    else:  # a seat: of a turno of that season
        turni = edited["tables"]["scoring.turno"]
        ids = {
            t[turni["columns"].index("id")]
            for t in turni["rows"]
            if t[turni["columns"].index("season")] == season
        }
        row = next(r for r in rows["rows"] if r[columns.index("turno")] in ids)
    for name, value in values.items():
        row[columns.index(name)] = value
    return edited


def _stored() -> tuple:
    return (
        sorted(Standing.objects.values_list("season_id", "player_id", "place", "score", "turni")),
        sorted(Seat.objects.values_list("pk", "place", "ratio", "league_points")),
    )


@pytest.mark.parametrize(
    ("table", "ruleset", "values", "field"),
    [
        ("scoring.standing", "caf", {"score": "99.99", "place": 1}, "punteggio"),
        # the figures kingscore prints, kept beside the columns: one edited is a difference
        ("scoring.standing", "caf", {"extra": {"league_points": "99.99"}}, "colonne"),
        ("scoring.seat", "caf", {"ratio": "9.99"}, "rapporto"),
        ("scoring.seat", "caf", {"league_points": "9.99"}, "punti di lega"),
        ("scoring.standing", "skat-isko", {"score": "99.99", "place": 1}, "score"),
        ("scoring.standing", "skat-isko", {"turni": 42}, "turni"),
        ("scoring.standing", "skat-isko", {"extra": {"won": 99}}, "(colonne)"),
    ],
)
def test_an_edited_result_is_refused_and_nothing_is_restored(
    club_backup, table, ruleset, values, field
):
    before = _stored()
    with pytest.raises(RuleViolation) as exc:
        backup_restore(data=_edit(club_backup, table, ruleset, **values), force=True)
    ledger = [p for p in exc.value.problems if p.code == "LEDGER"]
    assert ledger and any(p.field.endswith(field) for p in ledger), exc.value.problems
    assert _stored() == before


def test_the_untouched_backup_restores(club_backup):
    backup_restore(data=copy.deepcopy(club_backup), force=True)
    assert backup_document() == club_backup


@pytest.mark.parametrize("old", ["empty", "no column"])
def test_a_backup_from_before_the_caf_rows_kept_their_figures_restores_them(old):
    """A backup taken before C.A.F.'s Classifica rows kept kingscore's figures in ``extra``
    (empty there, or a backup without the column) restores: the rows get them from their
    columns, as the refresh writes them, and the season reads as before."""
    from scoring import api

    season = season_import(data=json.loads((FIXTURES / "season-hand.json").read_text("utf-8")))
    kept = api.season_standing(season=season)
    assert kept[0] == {
        "place": 1,
        "player": "Carla",
        "league_points": "5.50",
        "series": "A",
        "turni": 2,
        "absences": 0,
        "scudetti": 2,
    }
    backup = backup_document()
    table = backup["tables"]["scoring.standing"]
    at = table["columns"].index("extra")
    assert [r[at] for r in table["rows"]] == [
        {k: v for k, v in r.items() if k not in ("place", "player")} for r in kept
    ]
    older = copy.deepcopy(backup)
    rows = older["tables"]["scoring.standing"]
    for row in rows["rows"]:
        if old == "empty":
            row[at] = {}
        else:
            row.pop(at)
    if old == "no column":
        rows["columns"].pop(at)
    backup_restore(data=older, force=True)
    assert api.season_standing(season=season.pk) == kept
    assert backup_document() == backup
