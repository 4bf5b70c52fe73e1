"""History rows for rows written in bulk (import, seats of a new turno, results of a smazzata).

``bulk_create`` and the fast writers of :mod:`scoring.services.bulk` send no signals, so
django-simple-history records nothing for them and the audit trail would start at the first
change. :func:`history_created` copies the rows into their history table as "created", in one
``INSERT ... SELECT`` on the database (no row travels through Python: an import of thousands of
turni stays fast).
"""

from __future__ import annotations

import datetime as dt

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.utils import timezone

from scoring.models import Penalita, Result, Sanction, Seat, Smazzata, Turno

HISTORY_FIELDS = ("history_date", "history_change_reason", "history_type", "history_user_id")


def history_created(
    rows: QuerySet, *, user=None, when: dt.datetime | None = None, reason: str = ""
) -> int:
    """Record each row of ``rows`` as created (``+``) by ``user`` at ``when``."""
    model: type[Model] = rows.model
    historical = model.history.model  # type: ignore[attr-defined]
    connection = connections[router.db_for_write(model)]
    qn = connection.ops.quote_name
    source = [
        f.column for f in historical._meta.concrete_fields if not f.name.startswith("history_")
    ]
    sub_sql, sub_params = rows.order_by().values("pk").query.sql_with_params()
    sql = (
        "INSERT INTO {hist} ({cols}, {extra}) SELECT {cols}, %s, %s, %s, %s FROM {table} "
        "WHERE {pk} IN ({sub})".format(
            hist=qn(historical._meta.db_table),
            cols=", ".join(qn(c) for c in source),
            extra=", ".join(qn(c) for c in HISTORY_FIELDS),
            table=qn(model._meta.db_table),
            pk=qn(model._meta.pk.column),
            sub=sub_sql,
        )
    )
    date = connection.ops.adapt_datetimefield_value(when or timezone.now())
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    with connection.cursor() as cursor:
        cursor.execute(sql, [date, reason or None, "+", user_id, *sub_params])
        return cursor.rowcount


def history_for_import(turno_ids: list[int], *, user=None, when: dt.datetime | None = None) -> None:
    """The history of imported turni: each turno, seat, smazzata, result, penalità and sanction
    as created by the import."""
    when = when or timezone.now()
    for rows in (
        Turno.objects.filter(pk__in=turno_ids),
        Seat.objects.filter(turno_id__in=turno_ids),
        Smazzata.objects.filter(turno_id__in=turno_ids),
        Result.objects.filter(smazzata__turno_id__in=turno_ids),
        Penalita.objects.filter(turno_id__in=turno_ids),
        Sanction.objects.filter(turno_id__in=turno_ids),
    ):
        history_created(rows, user=user, when=when, reason="importazione")
