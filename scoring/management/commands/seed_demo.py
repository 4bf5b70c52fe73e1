"""Fill an empty database with a living demo club (simulated card by card).

Its messages are in the reader's language (:mod:`._language`); the club's data in the club's
(``LANGUAGE_CODE``), whoever seeds it."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext

from scoring import api
from scoring.demo import DEMO_MEMBERS, HAND_TO_DEMO, demo_calendar, renamed, simulated_season
from scoring.demo_games import game_season
from scoring.management.commands._language import ReaderCommand
from scoring.management.commands._output import members_counted
from scoring.models import Giornata, Player, Season
from scoring.problem_text import engine_text
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

# each demo account's role, as the command names it to the reader
ROLES = {
    None: gettext_noop("amministratore"),
    "Segretario": gettext_noop("Segretario"),
    "Socio": gettext_noop("Socio"),
}

DEMO_USERS = [
    # username, password, group, superuser
    ("admin", "admin-kingclub", None, True),
    ("segretario", "segretario-kingclub", "Segretario", False),
    ("socio", "socio-kingclub", "Socio", False),
]


class Command(ReaderCommand):
    help = gettext_noop(
        "Crea il circolo dimostrativo: soci, utenti, una stagione di turni giocati e uno in corso."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help=gettext("non fa nulla se esiste già una stagione"),
        )
        parser.add_argument(
            "--giornate", type=int, default=14, help=gettext("le giornate della stagione in corso")
        )
        parser.add_argument(
            "--seed", type=int, default=2026, help=gettext("il seme della simulazione")
        )
        parser.add_argument(
            "--today",
            type=dt.date.fromisoformat,
            default=None,
            help=gettext("la data a cui finisce il calendario (predefinita: oggi)"),
        )

    def handle(self, *args, **options) -> None:
        if options["if_empty"] and Season.objects.exists():
            self.stdout.write(
                gettext("circolo dimostrativo non caricato: il database ha già una stagione")
            )
            return
        # the club's data in the club's language, whatever the reader's
        with translation.override(settings.LANGUAGE_CODE), transaction.atomic():
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
        loaded = gettext(
            "circolo dimostrativo caricato: %(members)s, stagione %(season)s, "
            "%(turni)s e uno in corso; %(others)s"
        )
        others_said = ", ".join(f"{s.name} ({engine_text(s.system.label)})" for s in others)
        closed = len(doc["turni"])
        said = {
            "members": members_counted(len(DEMO_MEMBERS)),
            "season": season.name,
            "turni": ngettext("%(n)s turno chiuso", "%(n)s turni chiusi", closed) % {"n": closed},
            "others": others_said,
        }
        self.stdout.write(self.style.SUCCESS(loaded % said))
        self.stdout.write(gettext("account dimostrativi (da cambiare prima dell'uso reale):"))
        for username, password, group, _ in DEMO_USERS:
            role = gettext(ROLES[group])
            self.stdout.write(f"  {username} / {password}  ({role})")

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
