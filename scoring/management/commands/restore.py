"""Restore a backup written by ``manage.py backup``.

Its messages are in the reader's language (:mod:`._language`), as the import's."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.management.commands._input import read_input
from scoring.management.commands._language import ReaderCommand
from scoring.problem_text import described
from scoring.rules.problems import RuleViolation
from scoring.services.backup import backup_restore
from scoring.services.interchange import read_document


class Command(ReaderCommand):
    help = gettext_noop(
        "Ripristina un backup in un database vuoto (--force cancella prima quello che c'è)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help=gettext("il backup ('-' per lo standard input)"))
        parser.add_argument(
            "--force",
            action="store_true",
            help=gettext("cancella prima ogni stagione e ogni socio"),
        )

    def handle(self, *args, **options) -> None:
        raw = read_input(options["file"])
        try:
            seasons = backup_restore(
                data=read_document(raw, limit=None, max_values=None), force=options["force"]
            )
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(described(problem))
            raise CommandError(gettext("nulla ripristinato"), returncode=2) from None
        count = len(seasons)
        restored = ngettext(
            "%(count)s stagione ripristinata", "%(count)s stagioni ripristinate", count
        )
        self.stdout.write(restored % {"count": count})
