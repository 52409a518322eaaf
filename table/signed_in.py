"""The type of a request past ``login_required``: its user is a signed-in account, not
``AnonymousUser``. For the type checker (mypy --strict with django-stubs): a view imports it
under ``TYPE_CHECKING``; at run time the request is Django's ``HttpRequest`` as ever."""

from django.contrib.auth.models import User
from django.http import HttpRequest


class SignedInRequest(HttpRequest):
    user: User
