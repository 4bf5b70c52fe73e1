"""Write every member and season to one JSON file (kingclub/v1 seasons inside)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from scoring.services.interchange import backup_document


class Command(BaseCommand):
    help = "Back up all members and seasons (closed and open turni) to FILE."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        doc = backup_document()
        Path(options["file"]).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        turni = sum(len(s["turni"]) + len(s["open_turni"]) for s in doc["seasons"])
        self.stdout.write(
            f"backup written to {options['file']}: {len(doc['members'])} members, "
            f"{len(doc['seasons'])} seasons, {turni} turni"
        )
