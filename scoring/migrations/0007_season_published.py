from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_season_close"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="published",
            field=models.BooleanField(
                default=True,
                help_text="Se spento, il pubblico e i soci non vedono classifica, turni e verbali.",
                verbose_name="risultati pubblicati",
            ),
        ),
    ]
