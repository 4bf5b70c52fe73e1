"""The Segretario group holds no model permission (issue 12, item 3).

The segretario's screens check membership of the group (``scoring.permissions``); the admin's
add/change/delete permissions on the ledger tables were never used by them and let a segretario
with ``is_staff`` change the official record around the engine. Every change goes through the
services now (the live screen: record, correct, close, reopen with a reason).
"""

from django.db import migrations

LEDGER_MODELS = ["turno", "seat", "smazzata", "result", "penalita", "sanction", "giornata"]


def strip_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name__in=["Segretario", "Socio"]):
        group.permissions.clear()


def restore_permissions(apps, schema_editor):
    """Back to 0002: add/change/delete/view on the ledger tables."""
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    segretario = Group.objects.filter(name="Segretario").first()
    if segretario is None:
        return
    codenames = [
        f"{action}_{model}"
        for model in LEDGER_MODELS
        for action in ("add", "change", "delete", "view")
    ]
    segretario.permissions.add(
        *Permission.objects.filter(content_type__app_label="scoring", codename__in=codenames)
    )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_admin_history_and_names"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(strip_permissions, restore_permissions)]
