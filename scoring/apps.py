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
        # the scoreboards' cache listens to the writes it shows (scoring.selectors_live); the
        # role groups come back after every migrate and every flush (a flushed database, as the
        # test runner leaves after a transactional test, keeps its users' roles meaningful)
        from django.db.models.signals import post_migrate

        from scoring import selectors_live  # noqa: F401

        post_migrate.connect(_roles, sender=self, dispatch_uid="scoring-roles")


def _roles(sender, using: str = "default", apps=None, **kwargs) -> None:
    """The groups Segretario and Socio, with no model permission (migrations 0002 and 0004):
    the screens check membership of the group, never an admin permission."""
    if apps is None:  # flush sends no registry: the project's own
        from django.apps import apps
    if not apps.is_installed("django.contrib.auth"):
        return
    from scoring.permissions import SEGRETARIO, SOCIO

    Group = apps.get_model("auth", "Group")
    for name in (SEGRETARIO, SOCIO):
        Group.objects.using(using).get_or_create(name=name)
