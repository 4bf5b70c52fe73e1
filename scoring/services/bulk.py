"""Fast row writes for the services that touch thousands of rows (import, season recompute).

``QuerySet.bulk_create`` builds a model instance per row and ``bulk_update`` compiles one
``CASE WHEN`` per row and field: at tens of thousands of rows both cost milliseconds per row in
Python. These helpers send the rows as they are:

- SQLite: plain ``INSERT``/``UPDATE`` statements with ``executemany`` (a C loop, the statement
  is compiled once);
- PostgreSQL: ``COPY ... FROM STDIN`` for inserts, and for large updates ``COPY`` into a
  temporary table followed by one ``UPDATE ... FROM`` (one statement per row would make the
  server parse every row: Django binds parameters on the client).

Values are prepared by the model fields only where the backend needs it (JSON, decimals, dates);
ints, strings and bools go as they are. Like ``bulk_create``/``bulk_update`` they send no
signals and write no history rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet

_PREPARED = {"JSONField", "DecimalField", "DateTimeField", "DateField"}
# below this many rows an update is a plain executemany on every backend
COPY_UPDATE_MIN_ROWS = 200


def _columns(model: type[Model], fields: Sequence[str]):
    meta = model._meta
    flds = [meta.get_field(f) for f in fields]
    prepare = [(i, f) for i, f in enumerate(flds) if f.get_internal_type() in _PREPARED]
    return flds, prepare


def _prepared(rows: Iterable[Sequence[Any]], prepare, connection) -> list[list[Any]]:
    if not prepare:
        return [list(r) for r in rows]
    out = []
    last: dict[int, tuple[Any, Any]] = {}  # column -> (value, prepared): one timestamp per import
    for r in rows:
        r = list(r)
        for i, f in prepare:
            value = r[i]
            seen = last.get(i)
            if seen is not None and seen[0] is value:
                r[i] = seen[1]
            else:
                r[i] = f.get_db_prep_save(value, connection)
                last[i] = (value, r[i])
        out.append(r)
    return out


def _copy(cursor, table: str, columns: Sequence[str], params: list[list[Any]]) -> None:
    """PostgreSQL (psycopg 3): stream the rows with COPY."""
    sql = "COPY {} ({}) FROM STDIN".format(table, ", ".join(columns))
    with cursor.cursor.copy(sql) as copy:
        for row in params:
            copy.write_row(row)


def insert_rows(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """INSERT one row per tuple of values (in the order of ``fields``; FKs as ids)."""
    connection = connections[router.db_for_write(model)]
    qn = connection.ops.quote_name
    flds, prepare = _columns(model, fields)
    params = _prepared(rows, prepare, connection)
    if not params:
        return 0
    table, columns = qn(model._meta.db_table), [qn(f.column) for f in flds]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            _copy(cursor, table, columns, params)
        else:
            cursor.executemany(
                "INSERT INTO {} ({}) VALUES ({})".format(
                    table, ", ".join(columns), ", ".join(["%s"] * len(columns))
                ),
                params,
            )
    return len(params)


def pks_by(rows: QuerySet, *key: str) -> dict[tuple[Any, ...], int]:
    """The ids of rows written without returning them (:func:`insert_rows`, ``bulk_create`` on a
    backend that gives none back), by their natural ``key``: one query."""
    return {tuple(row[:-1]): row[-1] for row in rows.values_list(*key, "pk")}


def update_rows(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """UPDATE ``fields`` by primary key (what ``bulk_update`` does): each row is the new values
    in the order of ``fields``, then the primary key."""
    connection = connections[router.db_for_write(model)]
    qn = connection.ops.quote_name
    flds, prepare = _columns(model, fields)
    params = _prepared(rows, prepare, connection)
    if not params:
        return 0
    table, pk = qn(model._meta.db_table), qn(model._meta.pk.column)
    columns = [qn(f.column) for f in flds]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(params) >= COPY_UPDATE_MIN_ROWS:
            tmp = qn(f"_bulk_update_{model._meta.db_table}")
            cursor.execute(f"DROP TABLE IF EXISTS {tmp}")
            cursor.execute(
                f"CREATE TEMPORARY TABLE {tmp} ON COMMIT DROP AS "
                f"SELECT {', '.join(columns)}, {pk} FROM {table} WITH NO DATA"
            )
            _copy(cursor, tmp, [*columns, pk], params)
            cursor.execute(
                f"UPDATE {table} SET {', '.join(f'{c} = u.{c}' for c in columns)} "
                f"FROM {tmp} u WHERE {table}.{pk} = u.{pk}"
            )
            cursor.execute(f"DROP TABLE {tmp}")
        else:
            cursor.executemany(
                "UPDATE {} SET {} WHERE {} = %s".format(
                    table, ", ".join(f"{c} = %s" for c in columns), pk
                ),
                params,
            )
    return len(params)


def delete_ids(model: type[Model], ids: Sequence[int], batch: int = 900) -> int:
    """DELETE rows by primary key, in batches (SQLite limits the parameters of a query)."""
    done = 0
    for i in range(0, len(ids), batch):
        done += model._base_manager.filter(pk__in=ids[i : i + batch]).delete()[0]
    return done


def _defaults(model: type[Model], given: Sequence[str]) -> tuple[list[str], list[Any]]:
    """The other concrete fields of ``model`` and the value a new row takes (its default, or
    now for ``auto_now``/``auto_now_add``): what ``bulk_create`` would have filled in."""
    from django.utils import timezone

    names, values = [], []
    for f in model._meta.concrete_fields:
        if f.primary_key or f.name in given:
            continue
        names.append(f.name)
        auto = getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        values.append(timezone.now() if auto else f.get_default())
    return names, values


def ids_by_name(model: type[Model], names: Sequence[str], batch: int = 900) -> dict[str, int]:
    """``{name: id}`` of the rows of ``model`` (unique ``name``) with these names, the missing
    ones inserted first (:func:`insert_rows`, the other fields at their defaults): a few
    queries per ``batch`` names (an ``IN`` of 100,000 names is over SQLite's variable limit; one
    ``get_or_create`` per name was one round trip each, a model instance per name ~0.1 ms)."""
    found: dict[str, int] = {}
    others, defaults = _defaults(model, ["name"])
    for start in range(0, len(names), batch):
        chunk = list(names[start : start + batch])
        found.update(model._base_manager.filter(name__in=chunk).values_list("name", "pk"))
        missing = [n for n in chunk if n not in found]
        if missing:
            insert_rows(model, ["name", *others], ([n, *defaults] for n in missing))
            found.update(model._base_manager.filter(name__in=missing).values_list("name", "pk"))
    return found
