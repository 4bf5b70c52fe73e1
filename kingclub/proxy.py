"""The client's address behind trusted reverse proxies (the login lockout keys on it).

With ``KINGCLUB_TRUSTED_PROXIES = N`` (N proxies in front of kingclub, each appending the address
it saw to ``X-Forwarded-For``), the client is the N-th address from the right of that header:
whatever a client writes into the header itself stays to the left and is ignored. With 0, or a
header shorter than N, the address of the connection (``REMOTE_ADDR``) is the client.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    trusted = settings.KINGCLUB_TRUSTED_PROXIES
    remote = request.META.get("REMOTE_ADDR")
    if trusted <= 0:
        return remote
    forwarded = [
        a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()
    ]
    if len(forwarded) < trusted:
        return remote
    return forwarded[-trusted]
