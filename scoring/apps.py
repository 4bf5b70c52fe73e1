from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "King C.A.F."
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the scoreboards' cache listens to the writes it shows (scoring.selectors_live)
        from scoring import selectors_live  # noqa: F401
