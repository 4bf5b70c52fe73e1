"""A season's rule set edited, and every turno scored again with it.

Above both ledgers' turno services (C.A.F.'s :mod:`.turni`, the other games' :mod:`.games`):
a rescore scores each turno with its own ledger, then the season's standing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.models import Season, SeasonEvent, Turno
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.services.games import game_season_rescore
from scoring.services.locks import season_lock, season_require_open
from scoring.services.season import season_recompute, season_version_bump
from scoring.services.turni import rescore_turno


@transaction.atomic
def season_rules_update(
    *, season: Season, rules: dict[str, Any], user=None, reason: str = "", recompute: bool = False
) -> Season:
    """Edit the season's rule set: free before the first close; afterwards only with an
    explicit recompute, recorded in the audit trail (SPEC §9)."""
    season.system.rules(rules)  # the game's own checks (RuleViolation naming every key)
    reason = user_text(reason, field="reason", label="motivo", max_length=2000, required=False)
    season = Season.objects.select_for_update().get(pk=season.pk)
    season_require_open(season)
    if season.rules_locked and not recompute:
        raise RuleViolation(
            [
                Problem(
                    "RULESET_LOCKED",
                    "la stagione ha già turni chiusi: il regolamento si cambia solo con un "
                    "ricalcolo esplicito",
                )
            ]
        )
    season.rules = rules
    season.save(update_fields=["rules"])
    season_version_bump(season=season)  # the series' names are on the Classifica
    for cached in ("ruleset", "game_rules"):
        season.__dict__.pop(cached, None)
    SeasonEvent.objects.create(
        season=season,
        kind="rules_update",
        reason=reason,
        user=user if user is not None and user.is_authenticated else None,
    )
    if recompute:
        season_rescore(season=season, user=user, reason=reason or "cambio del regolamento")
    return season


@transaction.atomic
def season_rescore(*, season: Season, user=None, reason: str = "") -> None:
    """Score every turno again with the season's rule set, then recompute the season."""
    season_lock(season)
    season_require_open(season, fresh=True)
    SeasonEvent.objects.create(  # undone with the rest if a turno is refused
        season=season,
        kind="recompute",
        reason=reason.strip() or "ricalcolo della stagione",
        user=user if user is not None and user.is_authenticated else None,
    )
    if season.is_generic:
        game_season_rescore(season=season)  # its standing included
        return
    for turno in Turno.objects.filter(season=season).order_by("giornata__date", "number"):
        rescore_turno(turno=turno)
    season_recompute(season=season)
