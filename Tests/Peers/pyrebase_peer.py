"""Pyrebase4 (a Python client of the v3 relying-party API) against `signin serve`.

    python pyrebase_peer.py PATH_TO_SIGNIN

Pyrebase4 has no emulator setting: it posts to https://www.googleapis.com/identitytoolkit/v3/...,
https://identitytoolkit.googleapis.com/v1/... and https://securetoken.googleapis.com/v1/token
through `requests`. The emulator's host convention maps each to http://HOST/<google host>/<path>,
so this script gives `requests` a transport adapter that makes exactly that rewrite, and nothing
else: the bodies, replies and errors are the library's own.

Starts `signin serve --in-memory --port 0 --project demo-pyrebase` trusting a service account
made here (for Pyrebase's own custom tokens), runs one check per Pyrebase auth call, prints one
line per check, stops the server with SIGTERM, and exits non-zero when any check fails or the
server cannot start.
"""

import base64
import json
import os
import sys
import tempfile
import urllib.parse
import urllib.request

import requests
import requests.adapters
import requests.sessions

from serve_peer import check, expect, finish, start_server, stop

PROJECT = "demo-pyrebase"
GOOGLE_HOSTS = ("www.googleapis.com", "identitytoolkit.googleapis.com", "securetoken.googleapis.com")


def emulator_adapter(host):
    """A `requests` adapter that sends Google's API hosts to the emulator at `host`."""

    class EmulatorAdapter(requests.adapters.HTTPAdapter):
        def send(self, request, **kwargs):
            url = urllib.parse.urlsplit(request.url)
            if url.scheme == "https" and url.hostname in GOOGLE_HOSTS:
                request.url = urllib.parse.urlunsplit(
                    ("http", host, f"/{url.hostname}{url.path}", url.query, url.fragment))
            return super().send(request, **kwargs)

    return EmulatorAdapter


def refused(call, message):
    """Runs `call`, which must fail with Firebase's error `message` (Pyrebase raises HTTPError)."""
    try:
        call()
    except requests.exceptions.HTTPError as error:
        reply = json.loads(error.args[1])
        expect(reply["error"]["message"].startswith(message), f"refused with {reply['error']['message']}")
        return
    raise AssertionError(f"accepted; expected {message}")


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def service_account(folder):
    """A service-account key file like the console's, with a new RSA key (pycryptodome)."""
    from Crypto.PublicKey import RSA
    pem = RSA.generate(2048).export_key(pkcs=8).decode()
    info = {
        "type": "service_account", "project_id": PROJECT, "private_key_id": "pyrebase-key-1",
        "private_key": pem, "client_email": f"pyrebase@{PROJECT}.iam.gserviceaccount.com",
        "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
    }
    path = os.path.join(folder, "service-account.json")
    with open(path, "w") as file:
        json.dump(info, file)
    return path, info


def main():
    signin = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="pyrebase-peer-")
    key_file, key_info = service_account(folder)
    server, host = start_server(signin, PROJECT, key_file)
    print(f"signin serve at {host}", flush=True)
    requests.sessions.HTTPAdapter = emulator_adapter(host)

    import pyrebase
    app = pyrebase.initialize_app({
        "apiKey": "fake-api-key", "authDomain": f"{PROJECT}.firebaseapp.com",
        "databaseURL": f"https://{PROJECT}.firebaseio.com", "storageBucket": f"{PROJECT}.appspot.com",
        "serviceAccount": key_info,
    })
    auth = app.auth()

    def codes(kind, email):
        url = f"http://{host}/emulator/v1/projects/{PROJECT}/oobCodes"
        with urllib.request.urlopen(url, timeout=30) as reply:
            listed = json.loads(reply.read())["oobCodes"]
        return [code["oobCode"] for code in listed if code["requestType"] == kind and code["email"] == email]

    @check("create_user_with_email_and_password (signupNewUser); a second one is EMAIL_EXISTS")
    def _():
        user = auth.create_user_with_email_and_password("ada@example.com", "correct horse")
        expect(user["email"] == "ada@example.com" and user["localId"], f"signed up {sorted(user)}")
        expect(user["idToken"].count(".") == 2 and user["refreshToken"], "no tokens")
        refused(lambda: auth.create_user_with_email_and_password("ada@example.com", "other pass"), "EMAIL_EXISTS")
        refused(lambda: auth.create_user_with_email_and_password("bob@example.com", "123"), "WEAK_PASSWORD")

    @check("sign_in_with_email_and_password (verifyPassword); a wrong password and an unknown email")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.com", "correct horse")
        expect(user["registered"] is True and user["email"] == "ada@example.com", f"signed in {sorted(user)}")
        expect(auth.current_user["localId"] == user["localId"], "current_user not kept")
        refused(lambda: auth.sign_in_with_email_and_password("ada@example.com", "wrong horse"), "INVALID_PASSWORD")
        refused(lambda: auth.sign_in_with_email_and_password("nobody@example.com", "x" * 8), "EMAIL_NOT_FOUND")

    @check("refresh (securetoken): a new ID token for the same user")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.com", "correct horse")
        fresh = auth.refresh(user["refreshToken"])
        expect(fresh["userId"] == user["localId"] and fresh["idToken"].count(".") == 2, f"refreshed {fresh}")
        refused(lambda: auth.refresh("not-a-refresh-token"), "INVALID_REFRESH_TOKEN")

    @check("get_account_info (getAccountInfo), the password entry with its federatedId")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.com", "correct horse")
        info = auth.get_account_info(user["idToken"])
        account = info["users"][0]
        expect(info["kind"] == "identitytoolkit#GetAccountInfoResponse", f"kind {info.get('kind')}")
        expect(account["localId"] == user["localId"] and account["email"] == "ada@example.com", f"{account}")
        expect(account["emailVerified"] is False, "verified before any mail")
        expect([p["providerId"] for p in account["providerUserInfo"]] == ["password"], f"{account}")
        # The password entry's federatedId is its email, as the Firebase emulator gives it.
        expect(account["providerUserInfo"][0].get("federatedId") == "ada@example.com", f"{account}")
        refused(lambda: auth.get_account_info("not.a.token"), "INVALID_ID_TOKEN")

    @check("send_email_verification (getOobConfirmationCode VERIFY_EMAIL), applied from the outbox")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.com", "correct horse")
        sent = auth.send_email_verification(user["idToken"])
        expect(sent["email"] == "ada@example.com", f"sent {sent}")
        [code] = codes("VERIFY_EMAIL", "ada@example.com")
        applied = requests.post(
            "https://identitytoolkit.googleapis.com/v1/accounts:update?key=fake-api-key", json={"oobCode": code})
        expect(applied.status_code == 200, f"applying the code: {applied.status_code} {applied.text}")
        expect(auth.get_account_info(user["idToken"])["users"][0]["emailVerified"] is True, "not verified")

    @check("send_password_reset_email and verify_password_reset_code (resetPassword)")
    def _():
        auth.send_password_reset_email("ada@example.com")
        [code] = codes("PASSWORD_RESET", "ada@example.com")
        reset = auth.verify_password_reset_code(code, "battery staple")
        expect(reset["email"] == "ada@example.com" and reset["requestType"] == "PASSWORD_RESET", f"{reset}")
        auth.sign_in_with_email_and_password("ada@example.com", "battery staple")
        refused(lambda: auth.sign_in_with_email_and_password("ada@example.com", "correct horse"), "INVALID_PASSWORD")
        refused(lambda: auth.verify_password_reset_code(code, "used twice"), "INVALID_OOB_CODE")

    @check("update_profile (v1 update with nulls), then delete_attribute")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.com", "battery staple")
        updated = auth.update_profile(user["idToken"], display_name="Ada", photo_url="https://example.com/ada.png")
        expect(updated["displayName"] == "Ada" and updated["photoUrl"] == "https://example.com/ada.png", f"{updated}")
        account = auth.get_account_info(user["idToken"])["users"][0]
        expect(account["displayName"] == "Ada", f"stored {account}")
        auth.update_profile(user["idToken"], delete_attribute=["DISPLAY_NAME", "PHOTO_URL"])
        account = auth.get_account_info(user["idToken"])["users"][0]
        expect("displayName" not in account and "photoUrl" not in account, f"kept {account}")

    @check("change_email and change_password (v1 update), each with fresh tokens")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.com", "battery staple")
        moved = auth.change_email(user["idToken"], "ada@example.org")
        expect(moved["email"] == "ada@example.org" and moved["idToken"], f"changed email {sorted(moved)}")
        changed = auth.change_password(moved["idToken"], "new horse staple")
        expect(changed["localId"] == user["localId"] and changed["refreshToken"], f"{sorted(changed)}")
        auth.sign_in_with_email_and_password("ada@example.org", "new horse staple")
        refused(lambda: auth.sign_in_with_email_and_password("ada@example.com", "new horse staple"), "EMAIL_NOT_FOUND")

    @check("sign_in_anonymous (signupNewUser without an email)")
    def _():
        user = auth.sign_in_anonymous()
        account = auth.get_account_info(user["idToken"])["users"][0]
        expect(account["localId"] == user["localId"] and "email" not in account, f"{account}")

    @check("sign_in_with_custom_token (verifyCustomToken) with a token the service account signed")
    def _():
        # Pyrebase 4.9.0's own create_custom_token hands a pycryptodome key to python_jwt 4,
        # which takes only jwcrypto keys ("key is not a JWK object"), so the token is signed here
        # with the same claims and the libraries Pyrebase installs.
        import datetime
        import jwcrypto.jwk
        import python_jwt
        key = jwcrypto.jwk.JWK.from_pem(key_info["private_key"].encode())
        token = python_jwt.generate_jwt({
            "iss": key_info["client_email"], "sub": key_info["client_email"], "uid": "pyrebase-uid",
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
            "claims": {"role": "admin"},
        }, key, "RS256", datetime.timedelta(minutes=60))
        user = auth.sign_in_with_custom_token(token)
        expect(user["isNewUser"] is True, f"custom sign-in {sorted(user)}")
        account = auth.get_account_info(user["idToken"])["users"][0]
        expect(account["localId"] == "pyrebase-uid", f"uid {account['localId']}")
        # The token's `claims` go into the tokens it signs in to, not onto the account (as the
        # emulator does), and they outlive a refresh.
        expect(claims_of(user["idToken"]).get("role") == "admin", "the ID token lacks the claim")
        expect(claims_of(auth.refresh(user["refreshToken"])["idToken"]).get("role") == "admin", "lost on refresh")
        expect("customAttributes" not in account, f"stored as custom attributes: {account}")
        forged = token[: token.rindex(".") + 1] + "AAAA"
        refused(lambda: auth.sign_in_with_custom_token(forged), "INVALID_CUSTOM_TOKEN")

    @check("delete_user_account (deleteAccount); the user cannot sign in again")
    def _():
        user = auth.sign_in_with_email_and_password("ada@example.org", "new horse staple")
        auth.delete_user_account(user["idToken"])
        refused(lambda: auth.sign_in_with_email_and_password("ada@example.org", "new horse staple"), "EMAIL_NOT_FOUND")
        # The emulator's answer too: the refresh token names no account now.
        refused(lambda: auth.refresh(user["refreshToken"]), "INVALID_REFRESH_TOKEN")

    def hosted_answer(provider, email, name, tenant=None):
        """The URL `signin serve`'s hosted handler finishes on for a new fake account, as a web
        SDK's page gets it (here through the loopback answer, read without following it)."""
        fields = {"apiKey": "fake-api-key", "appName": "[DEFAULT]", "authType": "signInWithRedirect",
                  "redirectUrl": "http://127.0.0.1:9/callback", "eventId": "E1", "providerId": provider,
                  "email": email, "displayName": name}
        if tenant:
            fields["tid"] = tenant
        reply = requests.get(f"http://{host}/emulator/auth/handler/choose", params=fields, allow_redirects=False,
                             timeout=30)
        expect(reply.status_code == 303, f"the handler answered {reply.status_code}: {reply.text[:200]}")
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(reply.headers["Location"]).query)
        return query["link"][0]

    def verify_assertion(body):
        reply = requests.post(
            "https://www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=fake-api-key",
            json=body, timeout=30)
        return reply.status_code, reply.json()

    @check("verifyAssertion with the hosted handler's answer as requestUri: the IdP fields the emulator returns")
    def _():
        link = hosted_answer("microsoft.com", "grace@contoso.example", "Grace Hopper")
        status, body = verify_assertion({"requestUri": link, "returnSecureToken": True, "returnIdpCredential": True})
        expect(status == 200 and body.get("isNewUser") is True, f"{status} {body.get('error')}")
        expect(body["providerId"] == "microsoft.com" and body["email"] == "grace@contoso.example", f"{body}")
        expect(body["displayName"] == "Grace Hopper" and body["fullName"] == "Grace Hopper", f"{body}")
        raw = json.loads(body["rawUserInfo"])
        expect(raw["email"] == "grace@contoso.example" and raw["sub"], f"rawUserInfo {raw}")
        expect(body["emailVerified"] is True and body["federatedId"] == raw["sub"], f"{sorted(body)}")
        expect(body["oauthAccessToken"] == "FirebaseAuthEmulatorFakeAccessToken_microsoft.com", f"{body}")
        expect(json.loads(body["oauthIdToken"])["sub"] == raw["sub"], "the IdP's token comes back")

    @check("verifyAssertion for an email a password account has: 200, needConfirmation, the email and IdP tokens")
    def _():
        auth.create_user_with_email_and_password("hopper@example.com", "correct horse")
        link = hosted_answer("github.com", "hopper@example.com", "Grace")
        status, body = verify_assertion({"requestUri": link, "returnSecureToken": True, "returnIdpCredential": True})
        expect(status == 200 and body.get("needConfirmation") is True, f"{status} {sorted(body)}")
        expect(body["email"] == "hopper@example.com" and body["providerId"] == "github.com", f"{sorted(body)}")
        expect("idToken" not in body and body.get("oauthIdToken"), f"{sorted(body)}")

    @check("GET v2/recaptchaConfig and v2/passwordPolicy, which the JS SDK calls at start")
    def _():
        reply = requests.get(
            "https://identitytoolkit.googleapis.com/v2/recaptchaConfig",
            params={"key": "fake-api-key", "clientType": "CLIENT_TYPE_WEB", "version": "RECAPTCHA_ENTERPRISE"},
            timeout=30)
        expect(reply.status_code == 200, f"recaptchaConfig {reply.status_code} {reply.text[:200]}")
        policy = requests.get(
            "https://identitytoolkit.googleapis.com/v2/passwordPolicy", params={"key": "fake-api-key"}, timeout=30)
        expect(policy.status_code == 200, f"passwordPolicy {policy.status_code} {policy.text[:200]}")
        body = policy.json()
        expect("customStrengthOptions" in body and "schemaVersion" in body, f"{body}")

    stop(server)
    finish()


if __name__ == "__main__":
    main()
