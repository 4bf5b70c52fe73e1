"""Replay every season with the engine and list every stored number that differs."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Season, Turno
from scoring.services.ledger import ledger_differences


class Command(BaseCommand):
    help = (
        "Replay every season's closed turni with the rules engine and list every stored number "
        "that differs (exit 1); prints a one-line summary and exits 0 when the ledger is clean."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--season", help="check only this season (its name, e.g. 2026-27)")

    def handle(self, *args, **options) -> None:
        seasons = Season.objects.order_by("pk")
        if options["season"]:
            seasons = seasons.filter(name=options["season"])
            if not seasons.exists():
                names = ", ".join(Season.objects.values_list("name", flat=True)) or "none"
                raise CommandError(f"unknown season {options['season']!r} (seasons: {names})")
        seasons = list(seasons)
        found = ledger_differences(seasons=seasons)
        for difference in found:
            self.stdout.write(str(difference))
        turni = Turno.objects.filter(season__in=seasons).count()
        if found:
            self.stderr.write(
                f"check_ledger: {len(found)} differenze in {len(seasons)} stagioni ({turni} turni)"
            )
            sys.exit(1)
        self.stdout.write(
            f"check_ledger: nessuna differenza ({len(seasons)} stagioni, {turni} turni)"
        )
