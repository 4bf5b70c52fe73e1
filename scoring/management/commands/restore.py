"""Restore a backup written by ``manage.py backup``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.management.commands._input import read_input
from scoring.rules.problems import RuleViolation
from scoring.services.backup import backup_restore
from scoring.services.interchange import read_document


class Command(BaseCommand):
    help = "Restore a backup into an empty database (--force wipes a non-empty one first)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the backup ('-' for stdin)")
        parser.add_argument(
            "--force", action="store_true", help="delete every season and member first"
        )

    def handle(self, *args, **options) -> None:
        raw = read_input(options["file"])
        try:
            seasons = backup_restore(
                data=read_document(raw, limit=None, max_values=None), force=options["force"]
            )
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(problem.describe())
            raise CommandError("nothing restored", returncode=2) from None
        self.stdout.write(f"restored {len(seasons)} season(s)")
