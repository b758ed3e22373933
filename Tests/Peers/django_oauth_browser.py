"""The browser for the django-oauth-toolkit peer: opens an authorization URL, signs in at the
login form as USERNAME, and follows the redirects to the app's loopback listener.

Usage: python django_oauth_browser.py AUTHORIZATION_URL USERNAME
Exits non-zero, saying why, when the issuer does not redirect back to the app.
"""

import re
import sys
from urllib.parse import urlsplit

import requests

url, username = sys.argv[1], sys.argv[2]
session = requests.Session()
login = session.get(url, timeout=30)
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text)
if token is None:
    sys.exit(f"no login form at {login.url} (HTTP {login.status_code}): {login.text[:300]}")
next_field = re.search(r'name="next" value="([^"]*)"', login.text)
reply = session.post(
    login.url,
    data={
        "csrfmiddlewaretoken": token.group(1),
        "username": username,
        "password": "peer-password",
        "next": next_field.group(1).replace("&amp;", "&") if next_field else "",
    },
    headers={"Referer": login.url},
    timeout=30,
)
if urlsplit(reply.url).path != "/callback":
    sys.exit(f"the issuer did not redirect to the app; it answered {reply.url} (HTTP {reply.status_code}): {reply.text[:300]}")
