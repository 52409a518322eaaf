"""The browser pass's live stack: the site's own settings, with passwords hashed the quick way.

Every browser test logs in through the login form, well over a hundred logins a pass, and
PBKDF2 (Django's default, 1,000,000 iterations) costs ~0.5 s of CPU for each, more on a busy
host, besides the demo's ten people hashed once a worker. What the login form, the session and
the throttle do is the same whatever the hasher; the production hasher stays listed, so a
password hashed by it (a process run without these settings) still verifies."""

from django.conf import global_settings

from frenzy_site.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
