"""``Result.count`` goes (issue 24, one ledger): King C.A.F.'s counts are kept once, in each
smazzata's record, as every game's deal is.

Since 0019-0020 every C.A.F. smazzata, and every past version of it in the audit history, keeps
its record (``{"game", "caller", "trump"?, "result": {seat: count}}``); the engine's replay, the
Verbale, ``check_ledger`` and the change trail read the counts there. The column
``Result.count`` (and its past versions, ``HistoricalResult.count``) is dropped. Nothing else
changes: records, points, standings, Verbale numbers and closing times stay as they are.

Backwards: the columns come back and are filled from the records, for the C.A.F. seasons (the
other games kept no count): each result's count is its player's in the smazzata's record, and
each past version of a result gets the count of the smazzata's version it was written with
(the smazzata's latest version at or before it, the first one for a result written before any;
a deal is saved, then its results). A record that names a player not seated at the turno names
them by name (as 0019 wrote it); a count that is no integer 0-52 (a record edited by hand) is
left empty.
"""

from __future__ import annotations

import bisect
from collections import defaultdict

from django.db import connection, migrations

CODES = ("caf",)  # the rule sets whose results kept a count until this migration
BATCH = 1000


def _count(record, key):
    """The count ``record`` keeps under ``key`` (a seat as text, or a name), when it is one."""
    counts = record.get("result") if isinstance(record, dict) else None
    value = counts.get(key) if isinstance(counts, dict) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 52:
        return value
    return None


def _update(model, rows):
    """``UPDATE ... SET count = %s WHERE pk = %s``, sent with executemany (as 0019)."""
    field, pk = model._meta.get_field("count"), model._meta.pk
    table, qn = model._meta.db_table, connection.ops.quote_name
    sql = f"UPDATE {qn(table)} SET {qn(field.column)} = %s WHERE {qn(pk.column)} = %s"
    rows = [(count, row_pk) for row_pk, count in rows if count is not None]
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])


def _refill_season(apps, season_id, names):
    Seat = apps.get_model("scoring", "Seat")
    Smazzata = apps.get_model("scoring", "Smazzata")
    Result = apps.get_model("scoring", "Result")
    History = apps.get_model("scoring", "HistoricalSmazzata")
    ResultHistory = apps.get_model("scoring", "HistoricalResult")
    seat = {
        (turno, player): str(position)
        for turno, player, position in Seat.objects.filter(turno__season_id=season_id).values_list(
            "turno_id", "player_id", "position"
        )
    }

    def key(turno, player):  # how the record names the player: seat, else name
        return seat.get((turno, player), names.get(player))

    records = {
        pk: (turno, record)
        for pk, turno, record in Smazzata.objects.filter(turno__season_id=season_id)
        .values_list("pk", "turno_id", "record")
        .iterator(chunk_size=BATCH)
    }
    _update(
        Result,
        (
            (pk, _count(records[sm][1], key(records[sm][0], player)))
            for pk, sm, player in Result.objects.filter(smazzata__turno__season_id=season_id)
            .values_list("pk", "smazzata_id", "player_id")
            .iterator(chunk_size=BATCH)
        ),
    )
    # the past versions: each smazzata's in the order they were written
    versions = defaultdict(list)  # smazzata -> [(date, history id, turno, record)]
    for hid, sm, turno, date, record in (
        History.objects.filter(turno__season_id=season_id)
        .values_list("history_id", "id", "turno_id", "history_date", "record")
        .iterator(chunk_size=BATCH)
    ):
        versions[sm].append((date, hid, turno, record))
    for kept in versions.values():
        kept.sort(key=lambda v: (v[0], v[1]))
    dates = {sm: [v[0] for v in kept] for sm, kept in versions.items()}

    def past(sm, player, date):
        """The count of the smazzata's version at or before ``date`` (else its first)."""
        at = max(bisect.bisect_right(dates[sm], date) - 1, 0)
        _date, _hid, turno, record = versions[sm][at]
        return _count(record, key(turno, player))

    ids = list(versions)  # a deleted smazzata's results too: by id, a batch at a time
    _update(
        ResultHistory,
        (
            (hid, past(sm, player, date))
            for start in range(0, len(ids), BATCH)
            for hid, sm, player, date in ResultHistory.objects.filter(
                smazzata_id__in=ids[start : start + BATCH]
            ).values_list("history_id", "smazzata_id", "player_id", "history_date")
        ),
    )


def refill(apps, schema_editor):
    Season = apps.get_model("scoring", "Season")
    Player = apps.get_model("scoring", "Player")
    names = dict(Player.objects.values_list("pk", "name"))
    for season_id in (
        Season.objects.filter(ruleset_code__in=CODES).order_by("pk").values_list("pk", flat=True)
    ):
        _refill_season(apps, season_id, names)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0020_caf_history_records"),
    ]

    operations = [
        # backwards this runs last: the columns are back, and filled from the records
        migrations.RunPython(migrations.RunPython.noop, refill, elidable=False),
        migrations.RemoveConstraint(model_name="result", name="result_count_range"),
        migrations.RemoveField(model_name="historicalresult", name="count"),
        migrations.RemoveField(model_name="result", name="count"),
    ]
