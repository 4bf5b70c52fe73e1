"""Fill an empty database with a living demo club (simulated card by card)."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring.demo import DEMO_MEMBERS, simulated_season
from scoring.models import Giornata, Player, Season
from scoring.rules.simulator import simulate_turno
from scoring.services.interchange import season_import
from scoring.services.turni import smazzata_record, turno_start

DEMO_USERS = [
    # username, password, group, superuser
    ("admin", "admin-kingclub", None, True),
    ("segretario", "segretario-kingclub", "Segretario", False),
    ("socio", "socio-kingclub", "Socio", False),
]


class Command(BaseCommand):
    help = "Create the demo club: members, users, a season of played turni and one in progress."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if a season already exists"
        )
        parser.add_argument("--giornate", type=int, default=14)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, **options) -> None:
        if options["if_empty"] and Season.objects.exists():
            self.stdout.write("demo data not loaded: the database already has a season")
            return
        with transaction.atomic():
            self._users()
            # last season: the small season checked by hand (fixtures/season-hand.json)
            hand = Path(settings.BASE_DIR) / "fixtures" / "season-hand.json"
            season_import(data=json.loads(hand.read_text(encoding="utf-8")), current=False)
            doc = simulated_season(
                name="2026-27",
                players=DEMO_MEMBERS,
                giornate=options["giornate"],
                seed=options["seed"],
                table_sizes=(6, 5, 4),
                penalty_chance=0.03,
                sanction_chance=0.03,
            )
            season = season_import(data=doc, current=True)
            self._turno_in_progress(season, options["seed"])
        self.stdout.write(
            self.style.SUCCESS(
                f"demo club loaded: {len(DEMO_MEMBERS)} members, season {season.name}, "
                f"{len(doc['turni'])} closed turni and one in progress"
            )
        )
        self.stdout.write("demo accounts (change them before real use):")
        for username, password, group, _ in DEMO_USERS:
            self.stdout.write(f"  {username} / {password}  ({group or 'amministratore'})")

    def _users(self) -> None:
        User = get_user_model()
        for username, password, group, superuser in DEMO_USERS:
            if User.objects.filter(username=username).exists():
                continue
            if superuser:
                User.objects.create_superuser(username, f"{username}@example.org", password)
            else:
                user = User.objects.create_user(username, password=password)
                user.groups.add(Group.objects.get(name=group))

    def _turno_in_progress(self, season: Season, seed: int) -> None:
        """A turno at the next date with half its smazzate recorded: the live screen's demo."""
        last = Giornata.objects.filter(season=season).order_by("-date").first()
        date = (last.date if last else dt.date.today()) + dt.timedelta(days=7)
        rng = random.Random(seed)
        players = rng.sample(DEMO_MEMBERS, 4)
        record = simulate_turno(season.ruleset, players, rng)
        segretario = get_user_model().objects.filter(username="segretario").first()
        turno = turno_start(
            season=season,
            date=date,
            players=players,
            first_dealer=record.first_dealer,
            table="Tavolo 1",
            user=segretario,
        )
        for i, sm in enumerate(record.smazzate[:9], start=1):
            smazzata_record(
                turno=turno,
                game=sm.game,
                caller=sm.caller,
                counts=sm.result,
                trump=sm.trump,
                number=i,
                user=segretario,
            )
        assert Player.objects.filter(name__in=players).count() == 4
