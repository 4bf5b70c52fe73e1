"""Random walks through the services: after every step the stored ledger equals the engine's
replay of its facts (``check_ledger``).

A walk is a list of steps (start, record, complete, undo, correct, close, reopen, penalità,
sanction, roster changes, delete) on turni of a few giornate picked in random date order, so
open turni stay on earlier and later giornate while others close and reopen around them. A step
the services refuse (a player already seated that day, nothing to undo, a turno not complete)
is part of the walk too: the invariant is checked after every step, refused or not, that wrote
a row (rolled back or not: ``database_writes``); a step that wrote none left the database the
last check found equal to its replay.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring import api
from scoring.models import Enrollment, Penalita, Player, Sanction, Turno
from scoring.rules.caf import caf
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation
from scoring.selectors import turno_state
from scoring.services.ledger import ledger_differences
from scoring.services.season import enrollment_add, season_create
from scoring.services.turni import turno_close, turno_reopen, turno_start
from scoring.services.turno_frame import turno_delete
from tests.conftest import database_writes
from tests.helpers import deal_correct, record_smazzate

pytestmark = pytest.mark.django_db

MEMBERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina"]
DATES = [dt.date(2026, 11, 6) + dt.timedelta(days=7 * i) for i in range(5)]
ACTIONS = (
    *("start",) * 4,
    *("complete",) * 3,
    *("close",) * 4,
    "record",
    "undo",
    "correct",
    "reopen",
    "reopen",
    "penalita",
    "penalita_remove",
    "sanction",
    "sanction_remove",
    "enrol",
    "delete",
)
WALKS = settings(
    max_examples=int(os.environ.get("KINGCLUB_WALK_EXAMPLES", "12")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
steps = st.lists(
    st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), min_size=15, max_size=40
)


class Walk:
    """The services driven by plain numbers; each turno plays a deal simulated card by card."""

    def __init__(self) -> None:
        for name in MEMBERS[:5]:
            Player.objects.create(name=name)
        self.season = season_create(name="2026-27")
        self.plans: dict[int, list] = {}  # turno -> its simulated smazzate

    def _turno(self, arg: int, *, open_: bool | None = True) -> Turno | None:
        qs = Turno.objects.filter(season=self.season).order_by("pk")
        if open_ is not None:
            qs = qs.filter(status=Turno.IN_CORSO if open_ else Turno.CHIUSO)
        turni = list(qs)
        return turni[arg % len(turni)] if turni else None

    def _recorded(self, turno: Turno) -> int:
        return turno.smazzate.count()

    def _record_next(self, turno: Turno) -> None:
        plan = self.plans[turno.pk]
        n = self._recorded(turno)
        if n < len(plan):
            record_smazzate(turno, plan[n : n + 1], first=n + 1)

    def step(self, action: str, arg: int) -> None:
        rng = random.Random(arg)
        getattr(self, action)(arg, rng)

    def start(self, arg: int, rng: random.Random) -> None:
        names = list(Player.objects.order_by("name").values_list("name", flat=True))
        players = rng.sample(names, rng.choice([3, 4, 4, 5][: len(names) - 2]))
        date = DATES[arg % len(DATES)]
        turno = turno_start(season=self.season, date=date, players=players, first_dealer=players[0])
        record = simulate_turno(caf(), players, rng, first_dealer=players[0])
        self.plans[turno.pk] = list(record.smazzate)

    def record(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None:
            self._record_next(turno)

    def complete(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None:
            for _ in range(len(self.plans[turno.pk]) - self._recorded(turno)):
                self._record_next(turno)

    def undo(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None:
            api.smazzata_undo(turno=turno)

    def correct(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None and self._recorded(turno):
            sm = self.plans[turno.pk][self._recorded(turno) - 1]
            deal_correct(
                turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump
            )

    def close(self, arg: int, rng: random.Random) -> None:
        """Close a complete open turno (any open one when none is complete: refused)."""
        complete = [
            t
            for t in Turno.objects.filter(season=self.season, status=Turno.IN_CORSO).order_by("pk")
            if self._recorded(t) == len(self.plans[t.pk])
        ]
        turno = complete[arg % len(complete)] if complete else self._turno(arg)
        if turno is not None:
            totals = turno_state(turno.pk).score.totals
            order = sorted(totals, key=lambda p: (-totals[p], rng.random()))
            turno_close(turno=turno, tiebreak=order)

    def reopen(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg, open_=False)
        if turno is not None:
            turno_reopen(turno=turno, reason=f"verifica {arg}")

    def _player(self, turno: Turno, rng: random.Random) -> str:
        return rng.choice(sorted(s.player.name for s in turno.seats.select_related("player")))

    def penalita(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None:
            api.penalita_add(
                turno=turno,
                player=self._player(turno, rng),
                points=rng.choice([-10, -5, -3, -1, 2]),
                article=rng.choice(["6", "9", "15"]),
                reason="condotta",
            )

    def penalita_remove(self, arg: int, rng: random.Random) -> None:
        pens = list(Penalita.objects.filter(turno__season=self.season).order_by("pk"))
        if pens:
            api.penalita_remove(penalita=pens[arg % len(pens)])

    def sanction(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None:
            api.sanction_add(turno=turno, player=self._player(turno, rng), reason="contatore")

    def sanction_remove(self, arg: int, rng: random.Random) -> None:
        found = list(Sanction.objects.filter(turno__season=self.season).order_by("pk"))
        if found:
            api.sanction_remove(sanction=found[arg % len(found)])

    def enrol(self, arg: int, rng: random.Random) -> None:
        """A member joins: a new one, or an existing member not on this season's roster."""
        enrolled = set(Enrollment.objects.filter(season=self.season).values_list("player__name"))
        free = [n for n in MEMBERS if (n,) not in enrolled]
        if free:
            player, _ = Player.objects.get_or_create(name=free[arg % len(free)])
            enrollment_add(season=self.season, player=player)

    def delete(self, arg: int, rng: random.Random) -> None:
        turno = self._turno(arg)
        if turno is not None:
            turno_delete(turno=turno)


@WALKS
@given(walk=steps)
@example(  # found by the walk: a member joins at a turno after a recompute with nothing closed
    walk=[("start", 453), ("start", 21588), ("close", 2000), ("enrol", 7953), ("start", 146601)]
)
def test_every_step_of_a_random_walk_keeps_the_ledger_equal_to_its_replay(walk):
    with transaction.atomic():
        w = Walk()
        checked = None  # the database's writes when the ledger was last found equal
        for i, (action, arg) in enumerate(walk):
            with contextlib.suppress(RuleViolation):  # refused: the services say why
                w.step(action, arg)
            # a step that wrote no row (refused before writing, or nothing to act on) leaves the
            # database as it was at the last check: the same replay would find the same
            writes = database_writes()
            if writes is not None and writes == checked:
                continue
            found = ledger_differences()
            assert not found, f"step {i} {action}({arg}):\n" + "\n".join(map(str, found[:20]))
            checked = writes
        transaction.set_rollback(True)
