"""Write the whole club to one JSON file (``kingclub/v2-backup``): see scoring.services.backup."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.services.backup import backup_document


class Command(BaseCommand):
    help = "Back up the whole club (accounts, members, seasons, turni, events, history) to FILE."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        doc = backup_document()
        try:
            Path(options["file"]).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {options['file']}: {exc.strerror}") from None
        tables = doc["tables"]
        self.stdout.write(
            f"backup written to {options['file']}: {len(doc['users'])} accounts, "
            f"{len(tables['scoring.player']['rows'])} members, "
            f"{len(tables['scoring.season']['rows'])} seasons, "
            f"{len(tables['scoring.turno']['rows'])} turni"
        )
