"""An edited derived row in a backup is refused for the four games that
``test_restore_derived`` does not edit (issue 26 item 3: "for every game"): the King family's
three rule sets and Ramino, a Classifica row and a seat's result each."""

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
GAMES = {
    "king-classico": "king-classico-sample.json",
    "king-internazionale": "king-internazionale-sample.json",
    "le-king": "le-king-sample.json",
    "ramino-101": "ramino-sample.json",
}


@pytest.fixture
def four_games() -> dict:
    for sample in GAMES.values():
        season_import(data=json.loads((FIXTURES / sample).read_text(encoding="utf-8")))
    return backup_document()


def _rows_of(backup: dict, table: str, ruleset: str) -> tuple[list, list]:
    seasons = backup["tables"]["scoring.season"]
    cols = seasons["columns"]
    season = next(
        r[cols.index("id")] for r in seasons["rows"] if r[cols.index("ruleset_code")] == ruleset
    )
    rows = backup["tables"][table]
    columns = rows["columns"]
    if "season" in columns:
        return columns, [r for r in rows["rows"] if r[columns.index("season")] == season]
    turni = backup["tables"]["scoring.turno"]
    tc = turni["columns"]
    ids = {t[tc.index("id")] for t in turni["rows"] if t[tc.index("season")] == season}
    return columns, [r for r in rows["rows"] if r[columns.index("turno")] in ids]


def _stored() -> tuple:
    return (
        sorted(Standing.objects.values_list("pk", "place", "score", "turni")),
        sorted(Seat.objects.values_list("pk", "place", "total")),
    )


@pytest.mark.parametrize("ruleset", list(GAMES))
@pytest.mark.parametrize(
    ("table", "values"),
    [("scoring.standing", {"score": "99.99", "place": 1}), ("scoring.seat", {"total": 999})],
)
def test_an_edited_result_of_any_game_is_refused(four_games, ruleset, table, values):
    edited = copy.deepcopy(four_games)
    columns, rows = _rows_of(edited, table, ruleset)
    row = rows[-1]  # the last: not already first
    for name, value in values.items():
        row[columns.index(name)] = value
    before = _stored()
    with pytest.raises(RuleViolation) as exc:
        backup_restore(data=edited, force=True)
    assert {p.code for p in exc.value.problems} == {"LEDGER"}, exc.value.problems
    assert _stored() == before
