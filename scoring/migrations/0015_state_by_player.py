"""C.A.F.: the state after each giornata (series and Scudetto streak per player) names each
player by primary key, not by name (issue 24): a close or reopen replays the season from the
state before its giornata, and a corrected name must keep the player's series.

Forwards, every name that is a member's name now becomes that member's primary key (text, as
``Season.start_series``); a name no member has any more (corrected before the upgrade) stays as
it is: it is read as before, and the season's next full recompute writes it by key. Backwards,
every key becomes the member's name again, and the five other games' season checkpoints
(``fold``, written by later code, which the older code does not know) are dropped: they are
derived, and the first close or reopen after the next upgrade computes them again from the
stored seats. Nothing else changes.
"""

from __future__ import annotations

from django.db import migrations

BATCH = 500
PARTS = ("series", "streak")
FOLD = "fold"  # the five other games' checkpoint (services.games), kept by member id


def _rewrite(apps, forward):
    Giornata = apps.get_model("scoring", "Giornata")
    Player = apps.get_model("scoring", "Player")
    if forward:
        key = {name: str(pk) for pk, name in Player.objects.values_list("pk", "name")}
    else:
        key = {str(pk): name for pk, name in Player.objects.values_list("pk", "name")}
    changed = []
    for g in list(Giornata.objects.only("pk", "state_after").order_by("pk")):
        state = g.state_after
        if not isinstance(state, dict) or not state:
            continue
        new = {
            part: (
                {key.get(k, k): v for k, v in value.items()} if isinstance(value, dict) else value
            )
            for part, value in state.items()
            if forward or part != FOLD
        }
        if new != state:
            g.state_after = new
            changed.append(g)
    Giornata.objects.bulk_update(changed, ["state_after"], batch_size=BATCH)


def forwards(apps, schema_editor):
    _rewrite(apps, forward=True)


def backwards(apps, schema_editor):
    _rewrite(apps, forward=False)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_records_by_seat"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
