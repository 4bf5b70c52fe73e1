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
from django.utils import timezone

from scoring import api
from scoring.demo import DEMO_MEMBERS, HAND_TO_DEMO, demo_calendar, renamed, simulated_season
from scoring.demo_games import game_season
from scoring.models import Giornata, Player, Season
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.interchange import season_import
from scoring.services.seasons_close import season_close

DEMO_GAMES = [
    # rule-set code, season name (before the year), members who play it, table sizes
    ("king-classico", "King classico", 8, (4,)),
    ("king-internazionale", "King internazionale", 8, (4,)),
    ("le-king", "Le King", 7, (4, 3)),
    ("skat-isko", "Skat", 7, (4, 3)),
    ("ramino-101", "Ramino", 9, (5, 4, 3)),
]

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
        parser.add_argument(
            "--today",
            type=dt.date.fromisoformat,
            default=None,
            help="the date the demo's calendar ends at (default: today)",
        )

    def handle(self, *args, **options) -> None:
        if options["if_empty"] and Season.objects.exists():
            self.stdout.write("demo data not loaded: the database already has a season")
            return
        with transaction.atomic():
            self._users()
            # last season: the small season checked by hand (fixtures/season-hand.json),
            # played by the demo's own members
            hand = Path(settings.BASE_DIR) / "fixtures" / "season-hand.json"
            previous = renamed(json.loads(hand.read_text(encoding="utf-8")), HAND_TO_DEMO)
            last = season_import(data=previous, current=False)
            # ... and closed, as a club closes a season: its Classifica is final (albo d'oro)
            season_close(
                season=last,
                user=get_user_model().objects.filter(username="segretario").first(),
                reason="stagione conclusa",
            )
            start, name = demo_calendar(
                options["today"] or timezone.localdate(), options["giornate"]
            )
            doc = simulated_season(
                name=name,
                start=start,
                players=DEMO_MEMBERS,
                giornate=options["giornate"],
                seed=options["seed"],
                table_sizes=(6, 5, 4),
                penalty_chance=0.03,
                sanction_chance=0.03,
            )
            season = season_import(data=doc, current=True)
            self._turno_in_progress(season, options["seed"])
            segretario = get_user_model().objects.filter(username="segretario").first()
            # the club's other evenings: a season of each game kept by the generic ledger
            # up to six weekly evenings ending three days before the championship's last giornata
            evenings = min(6, options["giornate"])
            game_start = start + dt.timedelta(days=7 * (options["giornate"] - evenings) - 3)
            others = [
                game_season(
                    code=code,
                    name=f"{game} {season.name}",
                    start=game_start,
                    players=DEMO_MEMBERS[:size],
                    giornate=evenings,
                    seed=options["seed"],
                    table_sizes=tables,
                    user=segretario,
                )
                for code, game, size, tables in DEMO_GAMES
            ]
        self.stdout.write(
            self.style.SUCCESS(
                f"demo club loaded: {len(DEMO_MEMBERS)} members, season {season.name}, "
                f"{len(doc['turni'])} closed turni and one in progress; "
                + ", ".join(f"{s.name} ({s.system.label})" for s in others)
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
        """A turno at the next date (today) with half its smazzate recorded: the live screen's
        demo."""
        last = Giornata.objects.filter(season=season).order_by("-date").first()
        date = (last.date if last else timezone.localdate()) + dt.timedelta(days=7)
        rng = random.Random(seed)
        players = rng.sample(DEMO_MEMBERS, 4)
        record = simulate_turno(season.ruleset, players, rng)
        segretario = get_user_model().objects.filter(username="segretario").first()
        turno = api.turno_start(
            season=season,
            date=date,
            players=players,
            first_dealer=record.first_dealer,
            table="Tavolo 1",
            user=segretario,
        )
        for i, deal in enumerate(turno_to_input(record)["smazzate"][:9], start=1):
            api.smazzata_record(turno=turno, record=deal, number=i, user=segretario)
        assert Player.objects.filter(name__in=players).count() == 4
