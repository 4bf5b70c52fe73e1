"""The end and the start of a season (issue 17, the club's history).

- :func:`season_close`: the segretario closes a season; its Classifica is final, its documents
  too, and every write to it is refused from then on (:func:`season_require_open`, the guard the
  turno and smazzata services call).
- :func:`season_new`: a new season, starting from the series its players reached at the end of
  a closed season ("carried", the Statuto's ladder goes on) or all from the top ("reset"); the
  choice and the series are recorded on the season.
- :func:`season_start_state`: the series a season starts from, as the engine's data
  (:func:`scoring.rules.starting_state`), for every replay of the season.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import Season, SeasonEvent, Standing, Turno
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.systems import DEFAULT_SYSTEM, get_system, systems
from scoring.rules.text import user_text
from scoring.selectors import CARRIED, season_start_state
from scoring.services.locks import season_lock
from scoring.services.season import season_create

RESET = "reset"
SERIES_ORIGINS = (CARRIED, RESET)


def _fail(
    code: str, message: str, params: Mapping[str, Any] | None = None, **kw: Any
) -> RuleViolation:
    """A refusal in the reader's language (``message`` marked with ``gettext_noop``)."""
    return RuleViolation([Problem.said(code, message, params, **kw)])


def _user(user):
    return user if user is not None and user.is_authenticated else None


def final_series(season: Season) -> dict[str, str]:
    """The series each player of a season ended in (its Classifica), player pk as text."""
    return {
        str(pk): series
        for pk, series in Standing.objects.filter(season=season)
        .exclude(series="")
        .values_list("player_id", "series")
    }


@transaction.atomic
def season_close(*, season: Season | int, user=None, reason: str) -> Season:
    """Close a season: every turno closed, then its Classifica and documents are final and the
    season refuses every further write. Recorded in the season's audit trail with the reason."""
    pk = season.pk if isinstance(season, Season) else season
    season_lock(pk)
    season = Season.objects.filter(pk=pk).first()
    if season is None:
        raise _fail("SEASON_MISSING", gettext_noop("stagione inesistente"))
    reason = user_text(
        reason or "",
        field="reason",
        label=gettext_noop("motivazione"),
        max_length=2000,
        code="SEASON_CLOSE_REASON",
        empty=gettext_noop("per chiudere la stagione serve una motivazione"),
    )
    if season.closed_at is not None:
        closed = formatting.date_short(timezone.localtime(season.closed_at).date())
        raise RuleViolation(
            [
                Problem.said(
                    "SEASON_ALREADY_CLOSED",
                    gettext_noop("la stagione %(season)s è già chiusa (il %(date)s)"),
                    {"season": season.name, "date": closed},
                )
            ]
        )
    open_turni = list(
        Turno.objects.filter(season=season, status=Turno.IN_CORSO)
        .select_related("giornata")
        .order_by("giornata__date", "number")
    )
    if open_turni:
        labels = ", ".join(formatting.turno_label(t.date, t.number) for t in open_turni)
        raise RuleViolation(
            [
                Problem.said(
                    "SEASON_TURNO_IN_PROGRESS",
                    gettext_noop(
                        "la stagione %(season)s ha ancora %(count)s turno/i in corso "
                        "(%(turni)s): chiuderli o eliminarli prima di chiudere la stagione"
                    ),
                    {"season": season.name, "count": len(open_turni), "turni": labels},
                )
            ]
        )
    if not Turno.objects.filter(season=season, status=Turno.CHIUSO).exists():
        raise _fail(
            "SEASON_EMPTY",
            gettext_noop(
                "la stagione %(season)s non ha turni chiusi: non c'è una classifica da chiudere"
            ),
            {"season": season.name},
        )
    season.closed_at = timezone.now()
    season.closed_by = _user(user)
    season.save(update_fields=["closed_at", "closed_by"])
    SeasonEvent.objects.create(season=season, kind="close", reason=reason, user=_user(user))
    return season


@transaction.atomic
def season_new(
    *,
    name: str,
    ruleset_code: str = DEFAULT_SYSTEM,
    series_origin: str = RESET,
    source: Season | int | None = None,
    current: bool = True,
    user=None,
    rule_edits: Mapping[str, Any] | None = None,
) -> Season:
    """A new season. ``series_origin`` ``"carried"``: each player starts in the series they
    ended ``source`` in (a closed C.A.F. season; its rule set is copied, so the ladder is the
    same); ``"reset"``: everybody starts from the top (``source``, if given, is recorded as the
    season it follows). ``rule_edits``: the options of a generic game's rule set chosen on the
    new-season form (``system.rule_options()``), checked by the system with the rest."""
    if series_origin not in SERIES_ORIGINS:
        raise _fail(
            "SERIES_ORIGIN",
            gettext_noop(
                "scegliere se riportare le serie della stagione precedente o ripartire dalla A"
            ),
            field="series_origin",
        )
    src = None
    if source is not None:
        src = Season.objects.filter(pk=source.pk if isinstance(source, Season) else source).first()
        if src is None:
            raise _fail(
                "SEASON_MISSING",
                gettext_noop("la stagione di provenienza non esiste"),
                field="source",
            )
    rules = None
    start: dict[str, str] = {}
    if series_origin == CARRIED:
        if src is None:
            raise _fail(
                "SERIES_SOURCE_MISSING",
                gettext_noop(
                    "per riportare le serie va indicata la stagione chiusa da cui riportarle"
                ),
                field="source",
            )
        if src.closed_at is None:
            raise _fail(
                "SERIES_SOURCE_OPEN",
                gettext_noop(
                    "la stagione %(season)s non è chiusa: si riportano solo le serie finali di "
                    "una stagione chiusa"
                ),
                {"season": src.name},
                field="source",
            )
        if not (src.system.series_ladder and get_system(ruleset_code).series_ladder):
            raise _fail(
                "SERIES_NOT_IN_GAME",
                gettext_noop(
                    "solo il %(game)s ha la scala delle serie: per questo gioco scegliere "
                    "«ripartire da zero»"
                ),
                {"game": " / ".join(s.label for s in systems() if s.series_ladder)},
                field="series_origin",
            )
        if ruleset_code == src.ruleset_code:
            rules = dict(src.rules)
        start = final_series(src)
    if rule_edits:  # the options chosen on the form (the game's ``rule_options``)
        rules = {**(rules or get_system(ruleset_code).default_rules()), **rule_edits}
    season = season_create(name=name, ruleset_code=ruleset_code, rules=rules, current=current)
    season.series_origin = series_origin
    season.series_source = src
    season.start_series = start
    if start:
        season_start_state(season)  # every carried series must exist on the season's ladder
    season.save(update_fields=["series_origin", "series_source", "start_series"])
    if series_origin == CARRIED:
        detail = f"serie riportate dalla stagione {src.name} ({len(start)} giocatori)"
    elif src is not None:
        detail = f"segue la stagione {src.name}: tutti ripartono dalla serie iniziale"
    else:
        detail = "tutti partono dalla serie iniziale"
    SeasonEvent.objects.create(season=season, kind="create", reason=detail, user=_user(user))
    return season
