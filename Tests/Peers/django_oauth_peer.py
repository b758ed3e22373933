"""A django-oauth-toolkit OpenID provider for SignInKit's peer tests.

Usage: python django_oauth_peer.py PORT DATA_FOLDER

Serves http://127.0.0.1:PORT/o as an OpenID issuer (code flow with PKCE, refresh tokens,
revocation at /o/revoke_token/, the scopes openid, email, profile and address) with one
confidential client, `signinkit-peer-test` / `peer-secret`, whose redirect URI is the loopback
`http://127.0.0.1/callback` on any port (RFC 8252). Users sign in at /accounts/login/ with the
password `peer-password`; any username that looks like an email is made on first use.
The database and the signing key live in DATA_FOLDER, made afresh at each start.
"""

import os
import secrets
import shutil
import sys

import django
from django.conf import settings

PORT = int(sys.argv[1])
DATA = sys.argv[2]
CLIENT_ID = "signinkit-peer-test"
CLIENT_SECRET = "peer-secret"
PASSWORD = "peer-password"

LOGIN_TEMPLATE = """<!doctype html><title>Sign in</title>
<form method="post" action="">{% csrf_token %}{{ form.as_p }}
<input type="hidden" name="next" value="{{ next }}"><button>Sign in</button></form>"""


def signing_key():
    from jwcrypto import jwk

    return jwk.JWK.generate(kty="RSA", size=2048).export_to_pem(private_key=True, password=None).decode()


shutil.rmtree(DATA, ignore_errors=True)
os.makedirs(DATA)
settings.configure(
    DEBUG=False,
    SECRET_KEY=secrets.token_hex(32),
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=[
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "oauth2_provider",
    ],
    MIDDLEWARE=[
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    ],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(DATA, "db.sqlite3")}},
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "OPTIONS": {
                "loaders": [
                    ("django.template.loaders.locmem.Loader", {"registration/login.html": LOGIN_TEMPLATE}),
                    "django.template.loaders.app_directories.Loader",
                ],
                "context_processors": ["django.template.context_processors.request"],
            },
        }
    ],
    LOGIN_URL="/accounts/login/",
    USE_TZ=True,
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    OAUTH2_PROVIDER={
        "OIDC_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": signing_key(),
        "SCOPES": {
            "openid": "OpenID Connect",
            "email": "Email address",
            "profile": "Name",
            "address": "Postal address",
        },
        "DEFAULT_SCOPES": ["openid"],
        "PKCE_REQUIRED": True,
        "OAUTH2_VALIDATOR_CLASS": "__main__.PeerValidator",
    },
)
django.setup()

from django.contrib.auth import views as auth_views  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.urls import include, path  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402
from oauth2_provider.oauth2_validators import OAuth2Validator  # noqa: E402


class PeerValidator(OAuth2Validator):
    """Puts the user's email and name in the ID token and userinfo, whatever the scopes."""

    oidc_claim_scope = None

    def get_additional_claims(self, request):
        user = request.user
        return {"email": user.email, "email_verified": True, "name": user.username}


class FirstUseLogin(auth_views.LoginView):
    """The login form; an unknown email-like username is made with the peer password first."""

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        if "@" in username and not User.objects.filter(username=username).exists():
            User.objects.create_user(username=username, email=username, password=PASSWORD)
        return super().post(request, *args, **kwargs)


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", FirstUseLogin.as_view()),
]

call_command("migrate", verbosity=0)
get_application_model().objects.create(
    name="SignInKit peer tests",
    client_id=CLIENT_ID,
    client_secret=CLIENT_SECRET,
    client_type="confidential",
    authorization_grant_type="authorization-code",
    redirect_uris="http://127.0.0.1/callback",
    algorithm="RS256",
    skip_authorization=True,
)
call_command("runserver", f"127.0.0.1:{PORT}", use_reloader=False, use_threading=True)
