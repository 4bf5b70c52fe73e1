"""King C.A.F.'s deals keep their record, as every other game's (issue 24, the switch).

Every C.A.F. smazzata gets ``Smazzata.record``, the interchange record of the deal as the
segretario recorded it (``{"game", "caller", "trump"?, "result": {player: count}}``, SPEC §10)
with its players by **seat** (:mod:`scoring.records`): written from what the counts ledger
stored, the game, the chiamante, the trump and each player's ``Result.count``. Nothing else
changes: seats, results, standings, Verbale numbers and closing times are untouched, and a
replay (which now reads the record) gives what it gave.

The past versions of the smazzate in the audit history get theirs in 0020.

A chiamante or a count of a player not seated at the turno (a database edited by hand) is kept
by the player's name, which the engine refuses: ``check_ledger`` reports the turno.

Backwards: the records of the C.A.F. smazzate are emptied again (the counts are still there).
"""

from __future__ import annotations

from collections import defaultdict

from django.db import connection, migrations

CODES = ("caf",)  # the rule sets kept by counts until this migration
BATCH = 1000


def _records(apps, season_id):
    """(smazzata id, record) of every smazzata of one season."""
    Seat = apps.get_model("scoring", "Seat")
    Smazzata = apps.get_model("scoring", "Smazzata")
    Result = apps.get_model("scoring", "Result")
    Player = apps.get_model("scoring", "Player")
    seats = defaultdict(dict)  # turno -> player -> seat position
    for turno_id, player_id, position in (
        Seat.objects.filter(turno__season_id=season_id)
        .values_list("turno_id", "player_id", "position")
        .iterator(chunk_size=BATCH)
    ):
        seats[turno_id][player_id] = position
    counts = defaultdict(list)  # smazzata -> (player, count)
    for smazzata_id, player_id, count in (
        Result.objects.filter(smazzata__turno__season_id=season_id)
        .order_by("smazzata_id", "player_id")
        .values_list("smazzata_id", "player_id", "count")
        .iterator(chunk_size=BATCH)
    ):
        counts[smazzata_id].append((player_id, count))
    names = {}

    def ref(table, player_id):
        if player_id in table:
            return table[player_id]
        if player_id not in names:
            names[player_id] = Player.objects.filter(pk=player_id).values_list(
                "name", flat=True
            ).first()
        return names[player_id]

    for pk, turno_id, game, caller_id, trump in (
        Smazzata.objects.filter(turno__season_id=season_id)
        .order_by("pk")
        .values_list("pk", "turno_id", "game", "caller_id", "trump")
        .iterator(chunk_size=BATCH)
    ):
        table = seats[turno_id]
        # in seat order (a player not seated, by name, last)
        result = sorted(
            ((ref(table, player_id), count) for player_id, count in counts[pk]),
            key=lambda rc: str(rc[0]).zfill(4),
        )
        record = {
            "game": game,
            "caller": None if caller_id is None else ref(table, caller_id),
            **({"trump": trump} if trump else {}),
            "result": {str(seat): count for seat, count in result},
        }
        yield pk, record


def _save(apps, rows):
    """One UPDATE per row, sent with executemany (as 0014)."""
    model = apps.get_model("scoring", "Smazzata")
    field, pk = model._meta.get_field("record"), model._meta.pk
    table, qn = model._meta.db_table, connection.ops.quote_name
    sql = f"UPDATE {qn(table)} SET {qn(field.column)} = %s WHERE {qn(pk.column)} = %s"
    with connection.cursor() as cursor:
        batch = []
        for row_pk, record in rows:
            batch.append((field.get_db_prep_save(record, connection), row_pk))
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def forwards(apps, schema_editor):
    Season = apps.get_model("scoring", "Season")
    for season_id in Season.objects.filter(ruleset_code__in=CODES).order_by("pk").values_list(
        "pk", flat=True
    ):
        _save(apps, list(_records(apps, season_id)))


def backwards(apps, schema_editor):
    Smazzata = apps.get_model("scoring", "Smazzata")
    Smazzata.objects.filter(turno__season__ruleset_code__in=CODES).update(record={})


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0018_giornata_totals"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
