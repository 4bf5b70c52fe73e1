"""Write the whole club to one JSON file (``kingclub/v2-backup``): see scoring.services.backup.

Rows are read in chunks and written as they come: memory does not grow with the club's size.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.management.commands.export_season import indent_option
from scoring.services.backup import backup_stream
from scoring.services.jsonstream import write_json


class Command(BaseCommand):
    help = "Back up the whole club (accounts, members, seasons, turni, events, history) to FILE."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        indent_option(parser)

    def handle(self, *args, **options) -> None:
        indent = options["indent"]
        if indent is not None and not 0 <= indent <= 8:
            raise CommandError("--indent: from 0 to 8 spaces")
        doc = backup_stream()
        try:
            with Path(options["file"]).open("w", encoding="utf-8") as fh:
                write_json(fh.write, doc, indent=indent)
        except OSError as exc:
            raise CommandError(f"cannot write {options['file']}: {exc.strerror}") from None
        tables = doc["tables"]
        self.stdout.write(
            f"backup written to {options['file']}: {len(doc['users'])} accounts, "
            f"{tables['scoring.player']['rows'].count} members, "
            f"{tables['scoring.season']['rows'].count} seasons, "
            f"{tables['scoring.turno']['rows'].count} turni"
        )
