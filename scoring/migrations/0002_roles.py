"""The role groups: Segretario (records, closes, reopens) and Socio (reads)."""

from django.db import migrations

SEGRETARIO_MODELS = ["turno", "seat", "smazzata", "result", "penalita", "sanction", "giornata"]


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ContentType = apps.get_model("contenttypes", "ContentType")
    segretario, _ = Group.objects.get_or_create(name="Segretario")
    Group.objects.get_or_create(name="Socio")
    cts = []
    for model in SEGRETARIO_MODELS:
        ct, _ = ContentType.objects.get_or_create(app_label="scoring", model=model)
        cts.append(ct)
        for action in ("add", "change", "delete", "view"):
            perm, _ = Permission.objects.get_or_create(
                content_type=ct,
                codename=f"{action}_{model}",
                defaults={"name": f"Can {action} {model}"},
            )
            segretario.permissions.add(perm)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["Segretario", "Socio"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
