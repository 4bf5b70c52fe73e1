"""The Verbale countersigned: the players of a closed turno confirm it or contest it.

A player confirms from their own login (their ``User`` is ``Player.user``) or at the table, on the
segretario's device, with their personal 4-digit PIN (hashed with Django's password hashers; 5
wrong tries lock it for 15 minutes). A contestation carries a comment and flags the turno for the
club (segreteria dashboard, Classifica footnote) until its author withdraws it or the segretario
reopens the turno: a reopen clears every confirmation (:func:`confirmations_clear`, called by the
reopen services). Each step is a :class:`TurnoEvent` of the audit trail.

A season chooses whether confirmation is optional (the default: a turno counts in the
Classifica from its close, confirmed or not) or required (``Season.confirmation_required``). When
required, the segretario's close only *asks* for it (:func:`turno_close_request`): the engine
checks the turno would close, a :class:`CloseRequest` keeps the spareggio and a fingerprint of the
turno, and the turno stays open ("in attesa di conferma"), so it is not in the Classifica and the
ledger still holds only closed turni. When the last player of the table confirms, the real close
service runs in the same transaction; a turno changed since the request is not closed (the request
is dropped with its confirmations). The segretario may cancel a request to correct the turno.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import (
    CloseRequest,
    Player,
    PlayerPin,
    Seat,
    Turno,
    TurnoEvent,
    VerbaleConfirmation,
)
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.selectors_confirmations import pending_close
from scoring.services.close_requests import confirmations_clear  # noqa: F401 (its old home)
from scoring.services.locks import season_lock_of_turno
from scoring.services.recording import ledger_of
from scoring.services.season import season_version_bump
from scoring.services.turno_frame import turno_problem

PIN_LENGTH = 4
PIN_MAX_TRIES = 5
PIN_LOCK = dt.timedelta(minutes=15)


def _fail(
    code: str, message: str, params: Mapping[str, Any] | None = None, **kw: Any
) -> RuleViolation:
    """A refusal in the reader's language (``message`` marked with ``gettext_noop``)."""
    return RuleViolation([Problem.said(code, message, params, **kw)])


def _said(code: str, template: str, **params: Any) -> RuleViolation:
    """A problem of the PIN field, said in the reader's language."""
    return RuleViolation([Problem.said(code, template, params, field="pin")])


def _user(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _closed_turno_with_player(turno: Turno | int, player: Player) -> Turno:
    """The turno, locked; it must be closed (or waiting for the players' confirmation) and
    ``player`` must have played it."""
    pk = turno.pk if isinstance(turno, Turno) else turno
    season_lock_of_turno(pk)  # as every close and reopen: the season first, then the turno
    found = (
        Turno.objects.select_for_update(of=("self",)).filter(pk=pk).select_related("season").first()
    )
    if found is None:
        raise _fail("TURNO_MISSING", gettext_noop("turno inesistente"))
    if found.is_open and not CloseRequest.objects.filter(turno=found).exists():
        raise turno_problem(
            "TURNO_OPEN",
            gettext_noop(
                "il turno %(turno)s è in corso: si conferma il verbale solo dopo la chiusura"
            ),
            found,
        )
    if not Seat.objects.filter(turno=found, player=player).exists():
        label = formatting.turno_label(found.date, found.number)
        raise RuleViolation(
            [
                Problem.said(
                    "NOT_AT_TABLE",
                    gettext_noop(
                        "%(player)s non ha giocato il turno %(turno)s: "
                        "non può confermarne il verbale"
                    ),
                    {"player": player.name, "turno": label},
                    player=player.name,
                )
            ]
        )
    return found


def player_of(user: Any) -> Player | None:
    """The club member a login belongs to (``Player.user``), or None."""
    if _user(user) is None:
        return None
    return Player.objects.filter(user=user).first()


# -- confirm, contest, withdraw ------------------------------------------------------------------
@transaction.atomic
def verbale_confirm(
    *, turno: Turno | int, player: Player, user: Any = None, via: str = VerbaleConfirmation.WEB
) -> VerbaleConfirmation:
    """``player`` confirms the closed turno's Verbale (again after a withdrawn contestation)."""
    season_lock_of_turno(turno)  # the season's version is bumped: locks in the usual order
    t = _closed_turno_with_player(turno, player)
    mine = VerbaleConfirmation.objects.filter(turno=t, player=player).first()
    if mine is not None and mine.verdict == VerbaleConfirmation.CONFIRMED:
        raise _fail(
            "ALREADY_CONFIRMED",
            gettext_noop("%(player)s ha già confermato questo verbale"),
            {"player": player.name},
        )
    if mine is not None:
        raise _fail(
            "CONTESTED_BY_PLAYER",
            gettext_noop(
                "%(player)s ha contestato questo verbale: ritirare prima la contestazione"
            ),
            {"player": player.name},
        )
    if t.is_open:
        _require_unchanged(t)
    row = VerbaleConfirmation.objects.create(
        turno=t,
        player=player,
        verdict=VerbaleConfirmation.CONFIRMED,
        via=via,
        user=_user(user),
        at=timezone.now(),
    )
    TurnoEvent.objects.create(
        turno=t, kind=TurnoEvent.CONFIRM, reason=_detail(player, via), user=_user(user)
    )
    if t.is_open:
        _close_when_confirmed(t)
    else:  # the Verbale prints its confirmations: its stored documents are no longer current
        _flags_changed(t)
    return row


@transaction.atomic
def verbale_contest(
    *,
    turno: Turno | int,
    player: Player,
    comment: str,
    user: Any = None,
    via: str = VerbaleConfirmation.WEB,
) -> VerbaleConfirmation:
    """``player`` contests the Verbale with a comment (replacing their confirmation, if any)."""
    comment = user_text(
        comment,
        field="comment",
        label="commento",
        max_length=500,
        code="CONTEST_COMMENT",
        empty=gettext_noop("per contestare il verbale serve un commento che dica che cosa non va"),
    )
    season_lock_of_turno(turno)  # the season's version is bumped: locks in the usual order
    t = _closed_turno_with_player(turno, player)
    mine = VerbaleConfirmation.objects.filter(turno=t, player=player).first()
    if mine is not None and mine.verdict == VerbaleConfirmation.CONTESTED:
        raise _fail(
            "ALREADY_CONTESTED",
            gettext_noop("%(player)s ha già contestato questo verbale"),
            {"player": player.name},
        )
    if mine is not None:
        mine.delete()
    row = VerbaleConfirmation.objects.create(
        turno=t,
        player=player,
        verdict=VerbaleConfirmation.CONTESTED,
        comment=comment,
        via=via,
        user=_user(user),
        at=timezone.now(),
    )
    TurnoEvent.objects.create(
        turno=t,
        kind=TurnoEvent.CONTEST,
        reason=f"{_detail(player, via)}: {comment}",
        user=_user(user),
    )
    _flags_changed(t)
    return row


@transaction.atomic
def verbale_contest_withdraw(*, turno: Turno | int, player: Player, user: Any = None) -> None:
    """The author withdraws their contestation: the flag goes (if nobody else contests)."""
    season_lock_of_turno(turno)
    t = _closed_turno_with_player(turno, player)
    mine = VerbaleConfirmation.objects.filter(
        turno=t, player=player, verdict=VerbaleConfirmation.CONTESTED
    ).first()
    if mine is None:
        raise _fail(
            "NOT_CONTESTED",
            gettext_noop("%(player)s non ha contestazioni da ritirare"),
            {"player": player.name},
        )
    mine.delete()
    TurnoEvent.objects.create(
        turno=t,
        kind=TurnoEvent.WITHDRAW,
        reason=f"{player.name}: {mine.comment}",
        user=_user(user),
    )
    _flags_changed(t)


def _flags_changed(t: Turno) -> None:
    """The Classifica's footnote lists the contested turni and those waiting for confirmation,
    the Verbale prints its confirmations: a new version of the season, so no worker serves a
    page or a stored document kept under the old one."""
    season_version_bump(season=t.season)


def _detail(player: Player, via: str) -> str:
    if via == VerbaleConfirmation.PIN:
        return f"{player.name} (al tavolo con il PIN)"
    return player.name


# -- required confirmation: the close waits for the players -------------------------------------
def _record(turno: Turno, tiebreak: list[str] | None) -> Any:
    """The engine's input of the turno, loaded by the ledger that keeps it."""
    return ledger_of(turno.season).turno_input(turno, tiebreak)


def _by_player(data: Any, ids: dict[str, int]) -> Any:
    """``data`` with every text that is the name of a player at the table written ``#pk``."""
    if isinstance(data, dict):
        return {_by_player(k, ids): _by_player(v, ids) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_by_player(v, ids) for v in data]
    if isinstance(data, str) and data in ids:
        return f"#{ids[data]}"
    return data


def turno_fingerprint(turno: Turno, *, by_name: bool = False, every_key: bool = False) -> str:
    """A hash of everything recorded on the turno (smazzate, counts, penalità, sanctions), the
    players by who they are, not by name: a name corrected while the players confirm leaves the
    turno unchanged. ``by_name``: the hash as written before (a request made before the upgrade
    is still honoured). ``every_key``: as a request made before every game's input was its
    interchange record (issue 24) hashed a turno of a game whose deals may name a trump: each
    deal with every key, ``"trump": null`` where it has none."""
    data = _record(turno, [])
    if every_key:
        data = {
            **data,
            "smazzate": [
                {"trump": None, **sm} if isinstance(sm, dict) else sm for sm in data["smazzate"]
            ],
        }
    if not by_name:
        ids = dict(Seat.objects.filter(turno=turno).values_list("player__name", "player_id"))
        data = _by_player(data, ids)
    text = json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@transaction.atomic
def turno_close_request(
    *, turno: Turno | int, tiebreak: list[str] | None = None, user: Any = None
) -> CloseRequest:
    """The segretario closes a turno of a season where the players must confirm: the engine
    checks the close would succeed, nothing is closed yet; the turno waits for the players."""
    pk = turno.pk if isinstance(turno, Turno) else turno
    season_lock_of_turno(pk)
    t = Turno.objects.select_for_update(of=("self",)).filter(pk=pk).select_related("season").first()
    if t is None:
        raise _fail("TURNO_MISSING", gettext_noop("turno inesistente"))
    if not t.is_open:
        raise turno_problem("TURNO_CLOSED", gettext_noop("il turno %(turno)s è già chiuso"), t)
    if not t.season.confirmation_required:
        raise _fail(
            "CONFIRMATION_OPTIONAL",
            gettext_noop(
                "in questa stagione la conferma dei giocatori è facoltativa: chiudere il turno"
            ),
        )
    if CloseRequest.objects.filter(turno=t).exists():
        raise turno_problem(
            "CLOSE_PENDING", gettext_noop("il turno %(turno)s è già in attesa di conferma"), t
        )
    order = None if tiebreak is None else list(tiebreak)
    ledger_of(t.season).check_closable(t.season, _record(t, order))
    VerbaleConfirmation.objects.filter(turno=t).delete()
    ids = dict(Seat.objects.filter(turno=t).values_list("player__name", "player_id"))
    request = CloseRequest.objects.create(
        turno=t,
        # the spareggio by player (primary keys): a name corrected meanwhile keeps it
        tiebreak=None if order is None else [ids.get(n, n) for n in order],
        fingerprint=turno_fingerprint(t),
        requested_by=_user(user),
    )
    TurnoEvent.objects.create(turno=t, kind=TurnoEvent.CLOSE_REQUEST, user=_user(user))
    _flags_changed(t)
    return request


def _cancel(t: Turno, reason: str, user: Any) -> None:
    CloseRequest.objects.filter(turno=t).delete()
    VerbaleConfirmation.objects.filter(turno=t).delete()
    TurnoEvent.objects.create(turno=t, kind=TurnoEvent.CLOSE_CANCEL, reason=reason, user=user)
    _flags_changed(t)


@transaction.atomic
def turno_close_request_cancel(*, turno: Turno | int, user: Any = None) -> None:
    """The segretario withdraws the close request (to correct the turno): the confirmations go."""
    pk = turno.pk if isinstance(turno, Turno) else turno
    season_lock_of_turno(pk)
    t = Turno.objects.select_for_update().filter(pk=pk).first()
    if t is None or not CloseRequest.objects.filter(turno=t).exists():
        raise _fail("NO_CLOSE_PENDING", gettext_noop("il turno non è in attesa di conferma"))
    _cancel(t, "richiesta annullata dal segretario", _user(user))


def _require_unchanged(t: Turno) -> None:
    """A turno changed since the close request is never closed by the players' confirmations:
    the segretario cancels the request and closes again."""
    request = pending_close(t)
    if request is not None and not any(
        request.fingerprint == turno_fingerprint(t, by_name=by_name, every_key=every_key)
        # a request made before players were hashed by key (by_name), before issue 24
        # (every_key): each hash only when the ones before it differ
        for by_name, every_key in ((False, False), (True, False), (False, True), (True, True))
    ):
        raise turno_problem(
            "CLOSE_REQUEST_STALE",
            gettext_noop(
                "il turno %(turno)s è cambiato dopo la richiesta di chiusura: il segretario "
                "deve annullare la richiesta e chiuderlo di nuovo"
            ),
            t,
        )


def _close_when_confirmed(t: Turno) -> None:
    """Every player of the table confirmed: the real close runs (same transaction)."""
    request = pending_close(t)
    if request is None:
        return
    seated = set(Seat.objects.filter(turno=t).values_list("player_id", flat=True))
    confirmed = set(
        VerbaleConfirmation.objects.filter(
            turno=t, verdict=VerbaleConfirmation.CONFIRMED
        ).values_list("player_id", flat=True)
    )
    if not seated <= confirmed:
        return
    by = request.requested_by
    names = dict(Seat.objects.filter(turno=t).values_list("player_id", "player__name"))
    tiebreak = (  # players by key (a request made before the upgrade: by name)
        None if request.tiebreak is None else [names.get(p, p) for p in request.tiebreak]
    )
    request.delete()
    ledger_of(t.season).turno_close(turno=t.pk, tiebreak=tiebreak, user=by)


# -- the PIN -------------------------------------------------------------------------------------
def _clean_pin(pin: object) -> str:
    text = str(pin or "").strip()
    if len(text) != PIN_LENGTH or not text.isascii() or not text.isdigit():
        raise _fail("PIN_FORMAT", gettext_noop("il PIN deve essere di 4 cifre"), field="pin")
    return text


def trivial_pin(text: str) -> bool:
    """A PIN anyone tries first (issue 26, item 6d): one digit repeated (``0000``), a run up or
    down by one or two (``1234``, ``7890``, ``4321``, ``1357``, ``8642``), two digits alternating
    (``1212``)."""
    digits = [int(c) for c in text]
    pairs = list(itertools.pairwise(digits))
    steps = {b - a for a, b in pairs}
    wrapped = {(b - a) % 10 for a, b in pairs}  # 7890, 0987: the keypad's run goes on
    alternating = len(set(digits)) == 2 and all(d == digits[i % 2] for i, d in enumerate(digits))
    return (len(steps) == 1 and abs(steps.pop()) <= 2) or wrapped in ({1}, {9}) or alternating


@transaction.atomic
def pin_set(*, player: Player, pin: object) -> PlayerPin:
    """Set (or change) ``player``'s PIN; a new PIN also lifts a lock. A trivial PIN
    (:func:`trivial_pin`) is refused: it would confirm a Verbale in anybody's name."""
    text = _clean_pin(pin)
    if trivial_pin(text):
        raise _fail(
            "PIN_TRIVIAL",
            _(
                "PIN troppo facile da indovinare: niente cifre tutte uguali (0000), "
                "sequenze (1234, 4321) o coppie ripetute (1212)"
            ),
            field="pin",
        )
    row, _created = PlayerPin.objects.select_for_update().get_or_create(
        player=player, defaults={"pin_hash": make_password(text)}
    )
    row.pin_hash = make_password(text)
    row.failed_attempts = 0
    row.locked_until = None
    row.save()
    return row


def _pin_verify(turno: Turno, player: Player, pin: object, user: Any) -> str:
    """'ok', 'wrong', 'locked' or 'none'. The wrong try is counted in its own transaction, so it
    stays counted when the caller then refuses the confirmation."""
    now = timezone.now()
    with transaction.atomic():
        row = PlayerPin.objects.select_for_update().filter(player=player).first()
        if row is None:
            return "none"
        if row.locked_until is not None and row.locked_until > now:
            return "locked"
        if check_password(str(pin or "").strip(), row.pin_hash):
            row.failed_attempts = 0
            row.locked_until = None
            row.save(update_fields=["failed_attempts", "locked_until"])
            return "ok"
        row.failed_attempts += 1
        if row.failed_attempts >= PIN_MAX_TRIES:
            row.failed_attempts = 0
            row.locked_until = now + PIN_LOCK
            TurnoEvent.objects.create(
                turno=turno,
                kind=TurnoEvent.PIN_LOCKED,
                reason=f"{player.name}: {PIN_MAX_TRIES} PIN errati",
                user=_user(user),
            )
        row.save(update_fields=["failed_attempts", "locked_until"])
        return "locked" if row.locked_until and row.locked_until > now else "wrong"


def verbale_confirm_at_table(
    *,
    turno: Turno | int,
    player: Player,
    pin: object,
    contest: bool = False,
    comment: str = "",
    user: Any = None,
) -> VerbaleConfirmation:
    """The segretario's device: ``player`` types their PIN and confirms (or contests)."""
    t = turno if isinstance(turno, Turno) else Turno.objects.filter(pk=turno).first()
    if t is None:
        raise _fail("TURNO_MISSING", gettext_noop("turno inesistente"))
    with transaction.atomic():  # who may confirm, before any PIN is tried
        _closed_turno_with_player(t, player)
    outcome = _pin_verify(t, player, pin, user)
    if outcome == "none":
        raise _said(
            "PIN_MISSING",
            gettext_noop("%(player)s non ha ancora un PIN: lo imposta dal proprio profilo"),
            player=player.name,
        )
    if outcome == "locked":
        until = PlayerPin.objects.get(player=player).locked_until
        raise _said(
            "PIN_LOCKED",
            gettext_noop("troppi PIN errati per %(player)s: riprovare dopo le %(time)s"),
            player=player.name,
            time=f"{timezone.localtime(until):%H:%M}",
        )
    if outcome == "wrong":
        left = PIN_MAX_TRIES - PlayerPin.objects.get(player=player).failed_attempts
        raise _said(
            "PIN_WRONG",
            gettext_noop("PIN errato per %(player)s (ancora %(left)s tentativi)"),
            player=player.name,
            left=left,
        )
    via = VerbaleConfirmation.PIN
    if contest:
        return verbale_contest(turno=t, player=player, comment=comment, user=user, via=via)
    return verbale_confirm(turno=t, player=player, user=user, via=via)
