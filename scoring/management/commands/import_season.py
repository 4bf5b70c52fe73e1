"""Load a kingclub/v1 document into the database: all or nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.management.commands._input import read_input
from scoring.models import Turno
from scoring.rules import RuleViolation
from scoring.services.interchange import read_document, season_import


class Command(BaseCommand):
    help = (
        "Import a season from a kingclub/v1 JSON document (its turni closed), in one transaction."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the kingclub/v1 JSON document ('-' for stdin)")

    def handle(self, *args, **options) -> None:
        raw = read_input(options["file"])
        try:
            season = season_import(data=read_document(raw))
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(problem.describe())
            raise CommandError(
                f"nothing imported: {len(exc.problems)} problem(s)", returncode=2
            ) from None
        turni = Turno.objects.filter(season=season).count()
        self.stdout.write(f"imported season {season.name}: {turni} turni")
