"""The past versions of King C.A.F.'s smazzate keep their record too (issue 24, the switch).

0019 gave every C.A.F. smazzata its record; the audit history kept the versions written before
it without one, their counts only on the past versions of the ``Result`` rows. Each such
version gets the record it had (:func:`scoring.records.history_records`: its game, chiamante and
trump, and the counts written after it and before the smazzata's next version, players by
seat), so the change trail keeps every count once ``Result.count`` goes. A version that already
has a record (written from 0019 on) is left as it is.

Backwards: the records of the C.A.F. versions are emptied again.
"""

from __future__ import annotations

from django.db import connection, migrations

from scoring.records import history_records

CODES = ("caf",)
BATCH = 1000


def forwards(apps, schema_editor):
    Season = apps.get_model("scoring", "Season")
    Seat = apps.get_model("scoring", "Seat")
    Player = apps.get_model("scoring", "Player")
    History = apps.get_model("scoring", "HistoricalSmazzata")
    ResultHistory = apps.get_model("scoring", "HistoricalResult")
    field, pk = History._meta.get_field("record"), History._meta.pk
    table, qn = History._meta.db_table, connection.ops.quote_name
    sql = f"UPDATE {qn(table)} SET {qn(field.column)} = %s WHERE {qn(pk.column)} = %s"
    for season_id in Season.objects.filter(ruleset_code__in=CODES).values_list("pk", flat=True):
        seat = {
            (turno, player): position
            for turno, player, position in Seat.objects.filter(
                turno__season_id=season_id
            ).values_list("turno_id", "player_id", "position")
        }
        versions = [
            v
            for v in History.objects.filter(turno__season_id=season_id)
            .order_by("history_id")
            .values_list(
                "history_id", "id", "turno_id", "history_date", "game", "caller_id", "trump",
                "record",
            )  # fmt: skip
            if not v[-1]
        ]
        if not versions:
            continue
        smazzate = {v[1] for v in versions}
        results = [
            r
            for r in ResultHistory.objects.filter(smazzata_id__in=list(smazzate))
            .order_by("history_id")
            .values_list("smazzata_id", "player_id", "count", "history_date", "history_id")
            .iterator(chunk_size=BATCH)
        ]
        names = dict(Player.objects.values_list("pk", "name"))
        filled = history_records(
            [v[:-1] for v in versions],
            results,
            lambda turno, player: seat.get((turno, player), names.get(player)),
        )
        rows = [(field.get_db_prep_save(r, connection), hid) for hid, r in filled.items()]
        with connection.cursor() as cursor:
            for start in range(0, len(rows), BATCH):
                cursor.executemany(sql, rows[start : start + BATCH])


def backwards(apps, schema_editor):
    History = apps.get_model("scoring", "HistoricalSmazzata")
    History.objects.filter(turno__season__ruleset_code__in=CODES).update(record={})


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0019_caf_records"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
