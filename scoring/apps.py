from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "King C.A.F."
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # <pk:...> in every URL of a row: out-of-range keys are 404, not OverflowError
        from django.urls import register_converter
        from django.urls.converters import get_converters

        from scoring.converters import PkConverter

        if "pk" not in get_converters():
            register_converter(PkConverter, "pk")
        # the scoreboards' cache listens to the writes it shows (scoring.selectors_live)
        from scoring import selectors_live  # noqa: F401
