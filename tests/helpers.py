"""Helpers shared by the database tests: turni played through the services, deals they type
(``tools.redteam`` posts the Skat one too)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from typing import Any

from scoring import api
from scoring.models import Result, Season, Smazzata, Turno
from scoring.rules.caf import SmazzataRecord, TurnoRecord, caf
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.turni import turno_close, turno_start


def caf_deal(game: Any, caller: Any, counts: Any, trump: Any = None) -> dict[str, Any]:
    """A C.A.F. deal as its record (``{"game", "caller", "trump"?, "result"}``, SPEC §10), from
    the live screen's fields (no trump key without one)."""
    return {
        "game": game,
        "caller": caller,
        **({"trump": trump} if trump else {}),
        "result": counts,
    }


def deal_record(
    *,
    turno: Turno | int,
    game: Any,
    caller: Any,
    counts: Any,
    trump: Any = None,
    number: int | None = None,
    user: Any = None,
) -> Smazzata:
    """Record a C.A.F. deal through :func:`scoring.api.smazzata_record`, given by its fields."""
    record = caf_deal(game, caller, counts, trump)
    return api.smazzata_record(turno=turno, record=record, number=number, user=user)


def deal_correct(
    *,
    turno: Turno | int,
    game: Any,
    caller: Any,
    counts: Any,
    trump: Any = None,
    number: int | None = None,
    user: Any = None,
) -> Smazzata:
    """Correct C.A.F. deal ``number`` (the last one when None) through
    :func:`scoring.api.smazzata_correct`."""
    record = caf_deal(game, caller, counts, trump)
    return api.smazzata_correct(turno=turno, number=number, record=record, user=user)


def record_smazzate(turno: Turno | int, smazzate: Iterable[SmazzataRecord], first: int = 1) -> None:
    """Record smazzate through :mod:`scoring.api`, numbered from ``first``."""
    for i, sm in enumerate(smazzate, start=first):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )


def play_turno(
    season: Season,
    date: dt.date,
    players: Sequence[str],
    seed: int,
    close: bool = True,
    deals: int | None = None,
) -> tuple[Turno, TurnoRecord]:
    """A turno simulated card by card (``seed``), recorded smazzata by smazzata, closed; or in
    corso (``close=False``) with only its first ``deals`` smazzate."""
    record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
    turno = turno_start(season=season, date=date, players=players, first_dealer=players[0])
    record_smazzate(turno, record.smazzate[:deals])
    if close:
        turno_close(turno=turno, tiebreak=record.tiebreak)
    return turno, record


def penalised_season() -> Season:
    """A C.A.F. season as the demo simulates it, imported: five members over two giornate
    (seed 3), a penalità and a sanction on every turno, every turno closed."""
    from scoring.demo import simulated_season
    from scoring.services.interchange import season_import

    return season_import(
        data=simulated_season(
            name="2026-27",
            players=["Anna", "Bruno", "Carla", "Dario", "Elena"],
            giornate=2,
            seed=3,
            penalty_chance=1.0,
            sanction_chance=1.0,
        )
    )


PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def every_model_world(admin_user, document: str = "pdf") -> dict[str, Any]:
    """A row in every table of the club (the admin walks and crawls): a season with closed
    turni (penalità, sanctions), one of them reopened with a reason and closed again, an open
    turno with smazzate, a member on the roster who never played, a row for each of the club
    room's tables (issue 17) and a stored Verbale (issue 16) of kind ``document``. Stored
    documents go to MEDIA_ROOT: build it under a MEDIA_ROOT of the test's."""
    from scoring.models import CloseRequest, NewsMail, NewsPreference, Player
    from scoring.services.confirmations import pin_set, verbale_confirm
    from scoring.services.documents import verbale_document
    from scoring.services.season import enrollment_add
    from scoring.services.turni import turno_reopen

    season = penalised_season()
    closed = Turno.objects.filter(status=Turno.CHIUSO).order_by("pk").first()
    turno_reopen(turno=closed, reason="errore di trascrizione", user=admin_user)
    turno_close(turno=closed, user=admin_user)
    open_turno, _ = play_turno(season, dt.date(2026, 10, 2), PLAYERS, seed=5, close=False, deals=2)
    franco = Player.objects.create(name="Franco")
    enrollment_add(season=season, player=franco)
    player = closed.seats.order_by("position").first().player
    verbale_confirm(turno=closed, player=player, user=admin_user)
    pin_set(player=player, pin="4329")
    NewsPreference.objects.create(user=admin_user, email="admin@example.org", each_turno=True)
    NewsMail.objects.create(
        kind=NewsMail.CLOSE, turno=closed, user=admin_user, to="admin@example.org", subject="s"
    )
    CloseRequest.objects.create(turno=open_turno, fingerprint="0" * 64, requested_by=admin_user)
    verbale_document(closed.pk, document)
    return {"season": season, "closed": closed, "open": open_turno, "franco": franco}


def grand_hand() -> dict[str, Any]:
    """SPEC-skat §13, preisskat.org's Grand hand with 4, schneider announced: the declarer Bruno
    takes 89 card points in 7 tricks (the opponents 31); 8 × 24 = 192, schneider missed: lost
    (−384 by default), as the engine records it."""
    return {
        "declarer": "Bruno",
        "game": "GRAND",
        "bid": 48,
        "matadors": 4,
        "with": True,
        "hand": True,
        "schneider_announced": True,
        "declarer_points": 89,
        "declarer_tricks": 7,
    }


# the same deal as the live screen's form posts it (a box ticked is "1")
GRAND_HAND_FORM = {k: "1" if v is True else str(v) for k, v in grand_hand().items()}


def bruno_closes() -> dict[str, Any]:
    """A Ramino deal of Anna, Bruno, Carla, Dario: Bruno closes normally (−10), Anna keeps 34
    points in hand, Carla 12, Dario 55."""
    return {
        "closer": "Bruno",
        "close": "NORMALE",
        "penalties": {"Anna": 34, "Carla": 12, "Dario": 55},
    }


def deal_counts(smazzata: Smazzata) -> dict[str, int]:
    """A stored C.A.F. deal's counts by player name: its record keeps them by seat."""
    names = {s.position: s.player.name for s in smazzata.turno.seats.select_related("player")}
    return {names[int(seat)]: count for seat, count in smazzata.record["result"].items()}


def took(smazzata: Smazzata, count: int) -> Result:
    """The result of the one player whose count in a stored C.A.F. deal is ``count``."""
    (name,) = [p for p, c in deal_counts(smazzata).items() if c == count]
    return smazzata.results.get(player__name=name)


def imported_game_season(
    *, code: str, name: str, players: Sequence[str], user: Any = None, **draws: Any
) -> Season:
    """The season :func:`scoring.demo_games.game_season` plays, imported as one ``kingclub/v1``
    document (:func:`scoring.demo_games.game_season_document`: the same draws of the same
    generator) instead of recorded deal by deal through the live screen's path: the same turni,
    seats, results and Classifica, each turno at its "Tavolo" as there. Only the turni's history
    differs (an import's events, not one per deal). The recording path costs about 0.03 s of CPU
    a deal; the modules that only read such a season (the accessibility audit's club, the
    formats, the document frame) import it."""
    from scoring.demo_games import game_season_document
    from scoring.models import Turno as TurnoModel
    from scoring.services.interchange import season_import

    document = game_season_document(code=code, name=name, players=players, **draws)
    season = season_import(data=document, user=user, current=False)
    for turno in TurnoModel.objects.filter(season=season):
        TurnoModel.objects.filter(pk=turno.pk).update(table=f"Tavolo {turno.number}")
    return season
