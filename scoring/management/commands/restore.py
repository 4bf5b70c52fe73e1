"""Restore a backup written by ``manage.py backup``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.rules import RuleViolation
from scoring.services.interchange import backup_restore, read_document


class Command(BaseCommand):
    help = "Restore a backup into an empty database (--force wipes a non-empty one first)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--force", action="store_true", help="delete every season and member first"
        )

    def handle(self, *args, **options) -> None:
        try:
            raw = Path(options["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {options['file']}: {exc.strerror}") from None
        try:
            seasons = backup_restore(data=read_document(raw), force=options["force"])
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(problem.describe())
            raise CommandError("nothing restored") from None
        self.stdout.write(f"restored {len(seasons)} season(s)")
