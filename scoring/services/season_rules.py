"""A season's rule set edited, and every turno scored again with it.

A rescore scores each turno with the ledger that keeps the season
(:meth:`scoring.services.recording.Ledger.rescore`), then the season's standing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.models import Season, SeasonEvent
from scoring.rules.problems import Problem, RuleViolation, gettext_noop
from scoring.rules.text import user_text
from scoring.services.locks import season_lock, season_require_open
from scoring.services.recording import ledger_of
from scoring.services.season import season_version_bump


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
                Problem.said(
                    "RULESET_LOCKED",
                    gettext_noop(
                        "la stagione ha già turni chiusi: il regolamento si cambia solo con un "
                        "ricalcolo esplicito"
                    ),
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
    ledger_of(season).rescore(season)
