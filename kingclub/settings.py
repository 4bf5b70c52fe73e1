"""Settings of kingclub, read from the environment.

SECRET_KEY, DEBUG, ALLOWED_HOSTS, DATABASE_URL; see README.md "Production".
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [v.strip() for v in value.split(",") if v.strip()]


DEBUG = env_bool("DEBUG", True)
TESTING = "pytest" in sys.modules or (len(sys.argv) > 1 and sys.argv[1] == "test")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG=0 kingclub refuses to start without it: "
            "export SECRET_KEY to a long random string (python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "django_htmx",
    "simple_history",
    "axes",
    "csp",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# failed logins: after AXES_FAILURE_LIMIT failures the username+address pair waits an hour
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", 1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
# Behind reverse proxies the lockout must key on the client, not on the proxy's address:
# KINGCLUB_TRUSTED_PROXIES is how many proxies in front of kingclub append to X-Forwarded-For
# (0: none, REMOTE_ADDR is the client). See kingclub/proxy.py and README "Production".
KINGCLUB_TRUSTED_PROXIES = int(os.environ.get("KINGCLUB_TRUSTED_PROXIES", 0))
AXES_CLIENT_IP_CALLABLE = "kingclub.proxy.client_ip"

# Content-Security-Policy (django-csp): scripts, styles, images and fonts from this site only,
# no inline script or event handler; htmx runs with allowEval off (meta htmx-config in base.html)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# The admin shows the history of the ledger's rows; reverting one would go around the engine.
SIMPLE_HISTORY_REVERT_DISABLED = True

ROOT_URLCONF = "kingclub.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "scoring.context_processors.club",
            ],
        },
    },
]

WSGI_APPLICATION = "kingclub.wsgi.application"

# -- database: SQLite in the project by default, DATABASE_URL overrides --------------------------
SQLITE_PATH = BASE_DIR / "db.sqlite3"
SQLITE_OPTIONS = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
        "PRAGMA busy_timeout=20000;"
    ),
}
# an empty DATABASE_URL (``DATABASE_URL=`` in a shell or an env file) is not set
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{SQLITE_PATH}"
# PostgreSQL keeps a worker's connection 60 s by default (checked before each request reuses it,
# CONN_HEALTH_CHECKS): a connection the server dropped (pg_terminate_backend, a restart) is
# replaced instead of answering 500 (issue 26, item 7); SQLite opens its file per request
_PERSISTENT = DATABASE_URL.startswith(("postgres://", "postgresql://", "pgsql://"))
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "").strip() or (60 if _PERSISTENT else 0)),
        # a kept connection is checked before each request reuses it (a restarted server)
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)


def db_pool_options(value: str) -> dict[str, int] | bool:
    """``DB_POOL``: ``1`` for psycopg's pool with its defaults, ``MIN,MAX`` (``2,8``) or ``MAX``
    for its sizes; PostgreSQL only (Django's pool, which needs ``CONN_MAX_AGE=0``)."""
    value = value.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    try:
        sizes = [int(v) for v in value.split(",")]
    except ValueError:
        raise ImproperlyConfigured(f"DB_POOL={value!r}: expected 1, MAX or MIN,MAX") from None
    if len(sizes) == 1:
        sizes = [min(2, sizes[0]), sizes[0]]
    if len(sizes) != 2 or sizes[1] <= 0 or not 0 <= sizes[0] <= sizes[1]:
        raise ImproperlyConfigured(f"DB_POOL={value!r}: expected 1, MAX or MIN,MAX")
    return {"min_size": sizes[0], "max_size": sizes[1], "timeout": 10}


DB_POOL = os.environ.get("DB_POOL", "").strip()
if DB_POOL and DB_POOL.lower() not in {"0", "false", "no", "off"}:
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DB_POOL needs a PostgreSQL DATABASE_URL")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = db_pool_options(DB_POOL)
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections, not Django

# -- cache: shared by every worker, so one close invalidates the pages everywhere at once --------
# Redis when REDIS_URL is set, else the database's own table (``manage.py createcachetable``,
# run by ``make run``; the test database gets it from Django's test set-up).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, every failure answered as a miss (the page is then built
            # from the database) and logged once per burst: kingclub/cache.py
            "BACKEND": "kingclub.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "kingclub",
            # a Redis that does not answer costs a request at most this long, then 5 s of
            # nothing tried (RETRY_SECONDS)
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("REDIS_TIMEOUT", 0.5)),
                "socket_timeout": float(os.environ.get("REDIS_TIMEOUT", 0.5)),
            },
            "RETRY_SECONDS": float(os.environ.get("REDIS_RETRY_SECONDS", 5)),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "kingclub_cache",
            "KEY_PREFIX": "kingclub",
            # a page per season, sort, language and member: room for a club's worth
            "OPTIONS": {"MAX_ENTRIES": 20000, "CULL_FREQUENCY": 4},
        }
    }
# The live scoreboard's polls (one every 2 s per screen) read a board's version and its rendered
# HTML from each process's own memory: no query per poll. A write in another worker reaches it
# when the 1-second version expires (scoring/views/live.py).
CACHES["live"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "live"}
# Public pages kept whole per process for anonymous visitors (scoring/views/pagecache.py): how
# many (least recently used out; 0 turns it off). A Classifica of 300 members is ~400 kB.
KINGCLUB_PAGE_CACHE = int(os.environ.get("KINGCLUB_PAGE_CACHE", 64))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# -- i18n: Italian first, English available ------------------------------------------------------
LANGUAGE_CODE = "it"
LANGUAGES = [("it", "Italiano"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Rome"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Stored documents (a closed turno's Verbale PDF and XLSX, rendered once): never served from
# MEDIA_URL, only through the members' views, which check that the document is still current.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap4.html"

# -- the club --------------------------------------------------------------------------------------
CLUB_NAME = os.environ.get("KINGCLUB_CLUB_NAME", "Circolo del King C.A.F. — Lucca")
# Standings, turni and player pages are public unless this is on.
KINGCLUB_MEMBERS_ONLY = env_bool("KINGCLUB_MEMBERS_ONLY", False)
# Largest JSON document import/restore accept, in bytes.
KINGCLUB_MAX_IMPORT_BYTES = int(os.environ.get("KINGCLUB_MAX_IMPORT_BYTES", 50 * 1024 * 1024))
# Most values (objects, lists, numbers, texts) in a JSON document import and kingscore accept: a
# real season has about one value per 18 bytes (50 MB: ~3 million); 50 MB of "[0,0,..." or
# "[{},{},..." would be 17-25 million, over a GB once read whole.
KINGCLUB_MAX_JSON_VALUES = int(os.environ.get("KINGCLUB_MAX_JSON_VALUES", 10_000_000))

# -- production hardening: on by default when DEBUG is off, each switchable off ----------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# a monitor on the local network probes /healthz over plain HTTP
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env_bool("USE_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Password-reset mail: printed to the log unless the club configures SMTP (EMAIL_HOST...).
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "kingclub@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
KINGCLUB_SITE_URL = os.environ.get("KINGCLUB_SITE_URL", "http://127.0.0.1:8000")  # links in mails
