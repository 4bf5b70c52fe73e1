"""King C.A.F.'s Classifica rows keep their figures in ``Standing.extra``, as every game's
(issue 24, one ledger): ``scoring.api.season_standing`` reads every game's rows the same way.

Forwards: each row of a C.A.F. season whose ``extra`` is empty (every row the older code wrote)
gets the figures ``kingscore`` prints after place and player, copied from its own columns:
``{"league_points": score with two decimals as text, "series", "turni", "absences",
"scudetti"}``. A pure copy: nothing is replayed, no other value changes.

Backwards: the rows whose ``extra`` is exactly that copy of their columns are emptied again (the
older code keeps C.A.F.'s ``extra`` empty); any other value is left as it is.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import migrations

CODES = ("caf",)  # the rule sets whose Classifica kept its figures in columns only until now
BATCH = 1000
CENT = Decimal("0.01")
COLUMNS = ("pk", "score", "series", "turni", "absences", "scudetti", "extra")


def _figures(score, series, turni, absences, scudetti):
    """A row's figures as kingscore prints them (``classifica_figures`` of the engine, copied
    here as it is today: a migration imports no engine)."""
    return {
        "league_points": str(Decimal(score).quantize(CENT)),
        "series": series,
        "turni": turni,
        "absences": absences,
        "scudetti": scudetti,
    }


def _rewrite(apps, pick):
    """Set ``extra`` of the C.A.F. rows to ``pick(figures, extra)`` where that is not None."""
    standing = apps.get_model("scoring", "Standing")
    rows = standing.objects.filter(season__ruleset_code__in=CODES).order_by("pk")
    changed = []
    for pk, *columns, extra in rows.values_list(*COLUMNS).iterator(chunk_size=BATCH):
        new = pick(_figures(*columns), extra)
        if new is not None:
            changed.append(standing(pk=pk, extra=new))
    standing.objects.bulk_update(changed, ["extra"], batch_size=BATCH)


def fill(apps, schema_editor):
    _rewrite(apps, lambda figures, extra: None if extra else figures)


def empty(apps, schema_editor):
    _rewrite(apps, lambda figures, extra: {} if extra == figures else None)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0021_drop_result_count"),
    ]

    operations = [
        migrations.RunPython(fill, empty, elidable=False),
    ]
