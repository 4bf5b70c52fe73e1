"""What a reopen resets on a turno's Verbale countersigned: the pending close request and every
confirmation or contestation (the audit trail keeps their events). Below the close and reopen
services, which call it inside their transaction, and below :mod:`scoring.services.confirmations`,
which closes a turno once its players have confirmed it.
"""

from __future__ import annotations

from scoring.models import CloseRequest, Turno, VerbaleConfirmation


def confirmations_clear(*, turno: Turno) -> int:
    """Called by the reopen services inside their transaction: the Verbale will change, so every
    confirmation and contestation goes (the audit trail keeps their events)."""
    CloseRequest.objects.filter(turno=turno).delete()  # left by a close made directly
    deleted, _by_model = VerbaleConfirmation.objects.filter(turno=turno).delete()
    return deleted
