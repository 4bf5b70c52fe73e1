"""The smazzate of the five games kept by the generic ledger name their players by seat, not by
name (issue 24): a corrected name must never change a score (see :mod:`scoring.records`).

Every stored record (and every version of it in the audit history) is rewritten: each player it
names becomes that player's seat position at the turno. Nothing else changes: seats, results,
standings, Verbale numbers and closing times are untouched, and a replay gives what it gave.

A record written before the upgrade may already name a player by a name since corrected (the
bug this fixes: such a turno could no longer be replayed). The old name is recovered where the
turno proves it: the player recorded as the smazzata's caller (declarer, closer), or the one
seat of the table no record names while one name matches no seat. A name left unresolved stays
as it is, and ``check_ledger`` reports the turno.

Backwards: every seat becomes the player's current name again.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import connection, migrations

from scoring.rules.players import map_players

# where a record names a player, per rule set, as at this migration (``player_fields``)
FIELDS = {
    "king-classico": ("result.*", "sale.buyer", "last"),
    "king-internazionale": ("result.*", "sale.buyer", "last"),
    "le-king": ("result.*", "sale.buyer", "last"),
    "skat-isko": ("declarer",),
    "ramino-101": ("closer", "penalties.*", "reentries.[]"),
}
# the record's key for the player stored as Smazzata.caller (evidence for a corrected name)
CALLER = {"skat-isko": "declarer", "ramino-101": "closer"}
BATCH = 1000


def _names_in(fields, record):
    found = []

    def seen(ref):
        if isinstance(ref, str):
            found.append(ref)
        return ref

    map_players(fields, record, seen)
    return found


def _seat_of(code, table, rows):
    """name -> seat position for one turno: the current names, and the old names the turno
    proves (``rows``: (caller_id, record) of its smazzate)."""
    fields = FIELDS[code]
    by_name = {name: pos for pos, (_pid, name) in table.items()}
    by_player = {pid: pos for pos, (pid, _name) in table.items()}
    refs, alias, clash = set(), {}, set()
    for caller_id, record in rows:
        refs.update(_names_in(fields, record))
        ref = record.get(CALLER.get(code, "")) if isinstance(record, dict) else None
        if isinstance(ref, str) and ref not in by_name and caller_id in by_player:
            if alias.setdefault(ref, by_player[caller_id]) != by_player[caller_id]:
                clash.add(ref)
    for ref in clash:
        del alias[ref]
    unknown = {n for n in refs if n not in by_name and n not in alias}
    used = {by_name[n] for n in refs if n in by_name} | set(alias.values())
    free = [pos for pos in table if pos not in used]
    if len(unknown) == 1 and len(free) == 1:
        alias[unknown.pop()] = free[0]
    return {**alias, **by_name}


def _to_names(table):
    name = {pos: n for pos, (_pid, n) in table.items()}

    def convert(ref):
        if isinstance(ref, int) and not isinstance(ref, bool):
            return name.get(ref, ref)
        if isinstance(ref, str) and ref.isdigit() and ref.isascii():
            return name.get(int(ref), ref)
        return ref

    return convert


def _to_seats(code, table, smazzate):
    seat = _seat_of(code, table, [(s.caller_id, s.record) for s in smazzate])

    def convert(ref):
        return seat.get(ref, ref) if isinstance(ref, str) else ref

    return convert


def _rewrite(apps, forward):
    Season = apps.get_model("scoring", "Season")
    Seat = apps.get_model("scoring", "Seat")
    Smazzata = apps.get_model("scoring", "Smazzata")
    History = apps.get_model("scoring", "HistoricalSmazzata")
    seasons = Season.objects.filter(ruleset_code__in=list(FIELDS)).order_by("pk")
    for season_id, code in seasons.values_list("pk", "ruleset_code"):
        fields = FIELDS[code]
        tables = defaultdict(dict)  # turno -> seat position -> (player, name now)
        seats = Seat.objects.filter(turno__season_id=season_id).values_list(
            "turno_id", "position", "player_id", "player__name"
        )
        for turno_id, position, player_id, name in seats.iterator(chunk_size=BATCH):
            tables[turno_id][position] = (player_id, name)
        rows = defaultdict(list)  # turno -> its smazzate and their past versions
        for model, pk in ((Smazzata, "id"), (History, "history_id")):
            qs = model.objects.filter(turno__season_id=season_id).order_by("turno_id", pk)
            for row in qs.only(pk, "turno_id", "caller_id", "record").iterator(BATCH):
                rows[row.turno_id].append(row)
        changed = defaultdict(list)
        for turno_id, smazzate in rows.items():
            table = tables[turno_id]
            convert = _to_seats(code, table, smazzate) if forward else _to_names(table)
            for s in smazzate:
                if not isinstance(s.record, dict):
                    continue
                new = map_players(fields, s.record, convert)
                if new != s.record:
                    s.record = new
                    changed[type(s)].append(s)
        for model, objs in changed.items():
            _save_records(model, objs)


def _save_records(model, objs):
    """One UPDATE per row, sent with executemany (bulk_update's CASE took 1.5 ms a row)."""
    field, pk = model._meta.get_field("record"), model._meta.pk
    table, qn = model._meta.db_table, connection.ops.quote_name
    sql = f"UPDATE {qn(table)} SET {qn(field.column)} = %s WHERE {qn(pk.column)} = %s"
    with connection.cursor() as cursor:
        for start in range(0, len(objs), BATCH):
            cursor.executemany(
                sql,
                [
                    (field.get_db_prep_save(o.record, connection), o.pk)
                    for o in objs[start : start + BATCH]
                ],
            )


def forwards(apps, schema_editor):
    _rewrite(apps, forward=True)


def backwards(apps, schema_editor):
    _rewrite(apps, forward=False)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_player_figures"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
