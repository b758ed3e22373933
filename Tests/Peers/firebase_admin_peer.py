"""firebase-admin (the Python Admin SDK, in emulator mode) against `signin serve`.

    python firebase_admin_peer.py PATH_TO_SIGNIN

Starts `signin serve --in-memory --port 0` with a service-account key it trusts, points
FIREBASE_AUTH_EMULATOR_HOST at it, runs each Admin SDK call the issue names plus the client REST
calls that go with them, prints one line per check, and exits non-zero when any check fails or
the server cannot start. It stops the server with SIGTERM and checks that it exits cleanly.

Then it starts `signin serve --data-dir` on a folder and runs the `signin` REPL on the same
folder at the same time: a REPL sign-up must be seen by firebase-admin, and a user firebase-admin
creates must sign in from the REPL.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from serve_peer import check, expect, finish, results, stop
import serve_peer

PROJECT = "demo-signinkit"


def post(path, body, host):
    request = urllib.request.Request(
        f"http://{host}/{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def problem(status, body):
    """The status and Firebase's error message of a reply, never its tokens."""
    return f"{status} {body.get('error', {}).get('message', '(no error)')}"


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def service_account_file(folder):
    """A service-account key file like the console's, with a new RSA key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    info = {
        "type": "service_account", "project_id": PROJECT, "private_key_id": "peer-key-1",
        "private_key": pem, "client_email": f"peer@{PROJECT}.iam.gserviceaccount.com",
        "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
    }
    path = os.path.join(folder, "service-account.json")
    with open(path, "w") as file:
        json.dump(info, file)
    return path, info


def start_server(signin, key_file):
    return serve_peer.start_server(signin, PROJECT, key_file)


def repl(signin, data, commands, stdin=""):
    """Runs the signin REPL on `data` with `commands`, feeding it `stdin`; returns its output."""
    run = subprocess.run(
        [signin, "--data-dir", data, "--project", PROJECT, "-c", commands],
        input=stdin, capture_output=True, text=True, timeout=120)
    expect(run.returncode == 0, f"signin -c {commands!r} exited {run.returncode}: {run.stdout}{run.stderr}")
    return run.stdout


def shared_folder_checks(signin, key_file, folder):
    """`signin serve` and the `signin` REPL on one data folder at once, each seeing the other."""
    from firebase_admin import auth
    data = os.path.join(folder, "shared-data")
    server = subprocess.Popen(
        [signin, "serve", "--data-dir", data, "--port", "0", "--project", PROJECT, "--service-account", key_file],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if not line.startswith("FIREBASE_AUTH_EMULATOR_HOST="):
        server.kill()
        results.append(("signin serve starts on a data folder", False, f"{line!r} {server.stderr.read()}"))
        return
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = line.strip().split("=", 1)[1]
    import firebase_admin
    # A new app: an app's auth client keeps the emulator address it was made with.
    app = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="shared-folder")

    @check("a REPL sign-up is seen by firebase-admin through signin serve on the same folder")
    def _():
        output = repl(signin, data, "signup repl@example.com", stdin="repl-secret-1\n")
        expect("signed up as repl@example.com" in output, f"REPL said {output!r}")
        user = auth.get_user_by_email("repl@example.com", app=app)
        expect(user.provider_data[0].provider_id == "password", f"{user.__dict__}")

    @check("a user firebase-admin creates signs in from a REPL on the same folder")
    def _():
        auth.create_user(uid="from-admin", email="admin-made@example.com", password="admin-secret-1", app=app)
        output = repl(signin, data, "signin admin-made@example.com; whoami", stdin="admin-secret-1\n")
        expect("signed in as admin-made@example.com" in output, f"REPL said {output!r}")

    stop(server)


def main():
    signin = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="firebase-admin-peer-")
    key_file, key_info = service_account_file(folder)
    server, host = start_server(signin, key_file)
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
    print(f"signin serve at {host}", flush=True)

    import firebase_admin
    from firebase_admin import auth, credentials
    print(f"firebase-admin {firebase_admin.__version__}", flush=True)
    app = firebase_admin.initialize_app(options={"projectId": PROJECT})
    client_key = "fake-api-key"
    state = {}

    def sign_in(email, password):
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key={client_key}",
            {"email": email, "password": password, "returnSecureToken": True}, host)
        expect(status == 200, f"sign-in answered {problem(status, body)}")
        return body

    def refresh(refresh_token):
        return post(
            f"securetoken.googleapis.com/v1/token?key={client_key}",
            {"grant_type": "refresh_token", "refresh_token": refresh_token}, host)

    @check("create_user")
    def _():
        user = auth.create_user(email="Ada@Example.com", password="correct horse", display_name="Ada")
        expect(len(user.uid) > 0 and user.email == "ada@example.com", f"unexpected record {user.__dict__}")
        expect(user.display_name == "Ada" and not user.disabled, "profile not kept")
        state["uid"] = user.uid
        fixed = auth.create_user(uid="fixed-uid-1", email="grace@example.com", password="another secret")
        expect(fixed.uid == "fixed-uid-1", "a chosen uid was not kept")
        try:
            auth.create_user(email="ada@example.com", password="whatever1")
            raise AssertionError("a second account with the same email was created")
        except auth.EmailAlreadyExistsError:
            pass

    @check("get_user_by_email")
    def _():
        user = auth.get_user_by_email("ada@example.com")
        expect(user.uid == state["uid"], "another uid")
        expect(user.provider_data[0].provider_id == "password", "no password provider")
        expect(user.user_metadata.creation_timestamp > 0, "no creation time")
        try:
            auth.get_user_by_email("nobody@example.com")
            raise AssertionError("an unknown email was found")
        except auth.UserNotFoundError:
            pass

    @check("update_user")
    def _():
        user = auth.update_user(state["uid"], display_name="Ada Lovelace", email_verified=True,
                                photo_url="https://example.com/ada.png")
        expect(user.display_name == "Ada Lovelace" and user.email_verified, f"not updated: {user.__dict__}")
        expect(user.photo_url == "https://example.com/ada.png", "photo not kept")
        user = auth.update_user(state["uid"], photo_url=auth.DELETE_ATTRIBUTE)
        expect(user.photo_url is None, "photo not deleted")
        user = auth.update_user(state["uid"], disabled=True)
        expect(user.disabled, "not disabled")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key={client_key}",
            {"email": "ada@example.com", "password": "correct horse", "returnSecureToken": True}, host)
        expect(status == 400 and body["error"]["message"] == "USER_DISABLED", f"disabled user: {problem(status, body)}")
        auth.update_user(state["uid"], disabled=False)
        state["session"] = sign_in("ada@example.com", "correct horse")

    @check("set_custom_user_claims (seen in a refreshed ID token); last_refresh_timestamp")
    def _():
        auth.set_custom_user_claims(state["uid"], {"admin": True, "level": 3})
        expect(auth.get_user(state["uid"]).custom_claims == {"admin": True, "level": 3}, "claims not stored")
        expect("admin" not in claims_of(state["session"]["idToken"]), "the old token already had the claim")
        status, body = refresh(state["session"]["refreshToken"])
        expect(status == 200, f"refresh answered {problem(status, body)}")
        claims = claims_of(body["id_token"])
        expect(claims.get("admin") is True and claims.get("level") == 3, f"claims missing: {claims}")
        decoded = auth.verify_id_token(body["id_token"])
        expect(decoded["admin"] is True and decoded["uid"] == state["uid"], f"verify_id_token: {decoded}")
        metadata = auth.get_user(state["uid"]).user_metadata
        expect(metadata.last_refresh_timestamp is not None
               and metadata.last_refresh_timestamp >= metadata.last_sign_in_timestamp, f"{metadata.__dict__}")
        try:
            auth.set_custom_user_claims(state["uid"], {"sub": "someone-else"})
            raise AssertionError("a reserved claim was accepted")
        except ValueError:
            pass  # the SDK refuses reserved names before it calls the server
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:update",
            {"localId": state["uid"], "customAttributes": json.dumps({"iss": "x"})}, host)
        expect(status == 401, "an update without the owner credential was not refused")

    @check("list_users (paged)")
    def _():
        for index in range(5):
            auth.create_user(email=f"user{index}@example.com", password="password123")
        seen = []
        page = auth.list_users(max_results=2)
        pages = 0
        while page:
            pages += 1
            seen.extend(user.uid for user in page.users)
            page = page.get_next_page()
        expect(len(seen) == 7 and len(set(seen)) == 7, f"listed {len(seen)} users: {seen}")
        expect(pages == 4, f"{pages} pages of 2 for 7 users")
        expect(state["uid"] in seen and "fixed-uid-1" in seen, "a user is missing")

    @check("verify_id_token with check_revoked")
    def _():
        token = state["session"]["idToken"]
        decoded = auth.verify_id_token(token, check_revoked=True)
        expect(decoded["uid"] == state["uid"] and decoded["firebase"]["sign_in_provider"] == "password",
               f"decoded {decoded}")
        try:
            auth.verify_id_token(token.replace(token.split(".")[1], base64.urlsafe_b64encode(
                json.dumps({**claims_of(token), "aud": "another-project"}).encode()).decode().rstrip("=")))
            raise AssertionError("a token for another project verified")
        except auth.InvalidIdTokenError:
            pass
        auth.update_user(state["uid"], disabled=True)
        try:
            auth.verify_id_token(token, check_revoked=True)
            raise AssertionError("a disabled user's token verified")
        except auth.UserDisabledError:
            pass
        auth.update_user(state["uid"], disabled=False)

    @check("revoke_refresh_tokens")
    def _():
        token = state["session"]["idToken"]
        # validSince has a granularity of one second: revoke in a later second than the token's iat.
        while int(time.time()) <= claims_of(token)["iat"]:
            time.sleep(0.05)
        auth.revoke_refresh_tokens(state["uid"])
        user = auth.get_user(state["uid"])
        expect(user.tokens_valid_after_timestamp >= claims_of(token)["iat"] * 1000, "validSince not moved")
        try:
            auth.verify_id_token(token, check_revoked=True)
            raise AssertionError("a revoked token verified")
        except auth.RevokedIdTokenError:
            pass
        status, body = refresh(state["session"]["refreshToken"])
        expect(status == 400, f"a revoked refresh token still refreshed: {problem(status, body)}")
        state["session"] = sign_in("ada@example.com", "correct horse")
        auth.verify_id_token(state["session"]["idToken"], check_revoked=True)

    @check("generate_password_reset_link")
    def _():
        link = auth.generate_password_reset_link("ada@example.com")
        expect(link.startswith(f"http://{host}/emulator/action?") and "mode=resetPassword" in link, link)
        code = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["oobCode"][0]
        with urllib.request.urlopen(link, timeout=30) as page:
            expect(page.status == 200 and b"ada@example.com" in page.read(), "the link's page is wrong")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:resetPassword?key={client_key}",
            {"oobCode": code, "newPassword": "a new password"}, host)
        expect(status == 200 and body["email"] == "ada@example.com", f"reset: {problem(status, body)}")
        sign_in("ada@example.com", "a new password")
        verify = auth.generate_email_verification_link("grace@example.com")
        with urllib.request.urlopen(verify, timeout=30) as page:
            expect(page.status == 200, "the verification link failed")
        expect(auth.get_user("fixed-uid-1").email_verified, "the verification link did not verify")

    @check("generate_sign_in_with_email_link -> signInWithEmailLink makes the user")
    def _():
        settings = auth.ActionCodeSettings(url="http://localhost/finish", handle_code_in_app=True)
        link = auth.generate_sign_in_with_email_link("mia@example.com", settings)
        query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
        expect(query["mode"] == ["signIn"] and query["continueUrl"] == ["http://localhost/finish"], link)
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key={client_key}",
            {"email": "mia@example.com", "oobCode": query["oobCode"][0]}, host)
        expect(status == 200 and body.get("isNewUser") is True, f"signInWithEmailLink: {problem(status, body)}")
        expect(auth.get_user_by_email("mia@example.com").email_verified, "a link sign-in did not verify the email")

    @check("create_custom_token -> signInWithCustomToken")
    def _():
        token = auth.create_custom_token("custom-user-1", {"premium": True}).decode()
        expect(token.endswith("."), "the emulator's custom tokens are unsigned")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key={client_key}",
            {"token": token, "returnSecureToken": True}, host)
        expect(status == 200 and body["isNewUser"] is True, f"custom sign-in: {problem(status, body)}")
        decoded = auth.verify_id_token(body["idToken"], check_revoked=True)
        expect(decoded["uid"] == "custom-user-1" and decoded["premium"] is True, f"decoded {decoded}")
        expect(decoded["firebase"]["sign_in_provider"] == "custom", f"provider {decoded['firebase']}")
        status, body = refresh(body["refreshToken"])
        expect(status == 200 and claims_of(body["id_token"]).get("premium") is True, "claim lost on refresh")

    @check("a custom token signed by a trusted service account")
    def _():
        signed_app = firebase_admin.initialize_app(
            credentials.Certificate(key_info), options={"projectId": PROJECT}, name="signed")
        # Outside emulator mode the SDK signs with the service account's key (RS256), as in production.
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        try:
            token = auth.create_custom_token("signed-user-1", app=signed_app).decode()
        finally:
            os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
        header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
        expect(header["alg"] == "RS256", f"header {header}")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key={client_key}",
            {"token": token, "returnSecureToken": True}, host)
        expect(status == 200, f"signed custom sign-in: {problem(status, body)}")
        expect(auth.verify_id_token(body["idToken"])["uid"] == "signed-user-1", "another uid")
        forged = token[: token.rindex(".") + 1] + base64.urlsafe_b64encode(b"\0" * 256).decode().rstrip("=")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key={client_key}",
            {"token": forged, "returnSecureToken": True}, host)
        expect(status == 400 and body["error"]["message"].startswith("INVALID_CUSTOM_TOKEN"), problem(status, body))

    @check("import_users (STANDARD_SCRYPT hashes, one upload, a refusal by index)")
    def _():
        import hashlib
        salt = b"peer-salt-16byte"
        digest = hashlib.scrypt(b"imported secret", salt=salt, n=1024, r=8, p=1, dklen=32)
        users = [
            auth.ImportUserRecord(uid="imported-1", email="imported@example.com", password_hash=digest,
                                  password_salt=salt, display_name="Imported"),
            auth.ImportUserRecord(uid="imported-2", provider_data=[
                auth.UserProvider(uid="google-sub-1", provider_id="google.com", email="g@example.com")]),
            auth.ImportUserRecord(uid="imported-3", email="grace@example.com"),  # grace has this email
        ]
        hash_alg = auth.UserImportHash.standard_scrypt(
            memory_cost=1024, parallelization=1, block_size=8, derived_key_length=32)
        result = auth.import_users(users, hash_alg=hash_alg)
        expect(result.success_count == 2 and result.failure_count == 1, f"import {result.__dict__}")
        expect([error.index for error in result.errors] == [2], f"refused {[e.__dict__ for e in result.errors]}")
        sign_in("imported@example.com", "imported secret")
        google = auth.get_user("imported-2").provider_data
        expect([(p.provider_id, p.uid) for p in google] == [("google.com", "google-sub-1")], f"providers {google}")
        try:
            auth.get_user("imported-3")
            raise AssertionError("a refused user was stored")
        except auth.UserNotFoundError:
            pass

    @check("import_users keeps phone numbers and disabled flags; a malformed number is refused by index")
    def _():
        users = [
            auth.ImportUserRecord(uid="imported-phone", phone_number="+15551230077", disabled=True),
            auth.ImportUserRecord(uid="imported-bad-phone", phone_number="+0"),
        ]
        result = auth.import_users(users)
        expect(result.success_count == 1 and [e.index for e in result.errors] == [1],
               f"import {[e.__dict__ for e in result.errors]}")
        user = auth.get_user("imported-phone")
        expect(user.phone_number == "+15551230077" and user.disabled, f"kept {user.__dict__}")
        auth.delete_user("imported-phone")

    @check("update_user(providers_to_delete=['password']) removes the email and password, as the emulator does")
    def _():
        user = auth.create_user(email="unlinked@example.com", password="secret-pass")
        password = [p for p in user.provider_data if p.provider_id == "password"]
        expect([p.uid for p in password] == ["unlinked@example.com"], f"providers {user.provider_data}")
        updated = auth.update_user(user.uid, providers_to_delete=["password"])
        expect(updated.email is None and updated.provider_data == [], f"kept {updated.__dict__}")
        auth.delete_user(user.uid)

    @check("import_users with Firebase's SCRYPT and HMAC_SHA256 hashes; each password signs in")
    def _():
        import hashlib
        import hmac
        # The example Firebase publishes with its modified scrypt (firebase/scrypt).
        firebase_scrypt = auth.UserImportHash.scrypt(
            key=base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="),
            rounds=8, memory_cost=14, salt_separator=base64.b64decode("Bw=="))
        result = auth.import_users([auth.ImportUserRecord(
            uid="firebase-migrated", email="migrated@example.com", password_salt=base64.b64decode("42xEC+ixf3L2lw=="),
            password_hash=base64.b64decode(
                "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="))],
            hash_alg=firebase_scrypt)
        expect(result.success_count == 1, f"SCRYPT import {[e.__dict__ for e in result.errors]}")
        expect(sign_in("migrated@example.com", "user1password")["localId"] == "firebase-migrated", "wrong user")
        key = b"peer hmac key"
        digest = hmac.new(key, b"hmac secret" + b"pepper", hashlib.sha256).digest()
        result = auth.import_users([auth.ImportUserRecord(
            uid="hmac-migrated", email="hmac@example.com", password_hash=digest, password_salt=b"pepper")],
            hash_alg=auth.UserImportHash.hmac_sha256(key=key))
        expect(result.success_count == 1, f"HMAC import {[e.__dict__ for e in result.errors]}")
        expect(sign_in("hmac@example.com", "hmac secret")["localId"] == "hmac-migrated", "wrong user")

    @check("create_session_cookie -> verify_session_cookie")
    def _():
        import datetime
        session = sign_in("ada@example.com", "a new password")
        cookie = auth.create_session_cookie(session["idToken"], expires_in=datetime.timedelta(days=5))
        decoded = auth.verify_session_cookie(cookie, check_revoked=True)
        expect(decoded["uid"] == state["uid"], f"the cookie names {decoded.get('uid')}")
        expect(decoded["iss"] == f"https://session.firebase.google.com/{PROJECT}", f"issuer {decoded['iss']}")
        expect(4 * 86400 < decoded["exp"] - decoded["iat"] <= 5 * 86400, "the cookie's lifetime")
        try:
            auth.create_session_cookie("not-a-token", expires_in=datetime.timedelta(days=1))
            raise AssertionError("a session cookie was made from a bad ID token")
        except auth.InvalidIdTokenError:
            pass

    @check("delete_user")
    def _():
        auth.delete_user(state["uid"])
        try:
            auth.get_user(state["uid"])
            raise AssertionError("a deleted user was found")
        except auth.UserNotFoundError:
            pass
        status, body = refresh(state["session"]["refreshToken"])
        expect(status == 400, f"a deleted user's session refreshed: {problem(status, body)}")
        result = auth.delete_users(["fixed-uid-1", "never-existed"])
        expect(result.success_count == 2 and result.failure_count == 0, f"delete_users {result.__dict__}")

    def emulator(method, path, body=None):
        request = urllib.request.Request(
            f"http://{host}/emulator/v1/projects/{PROJECT}/{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    @check("the emulator's config: email enumeration protection off and on (createAuthUri)")
    def _():
        auth.create_user(email="tim@example.com", password="correct horse")
        status, body = emulator("GET", "config")
        expect(status == 200 and body["emailPrivacyConfig"]["enableImprovedEmailPrivacy"] is False, f"{body}")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key={client_key}",
            {"identifier": "tim@example.com", "continueUri": "http://localhost/"}, host)
        expect(status == 200 and body.get("signinMethods") == ["password"], f"createAuthUri: {problem(status, body)}")
        status, body = emulator("PATCH", "config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}})
        expect(status == 200 and body["emailPrivacyConfig"]["enableImprovedEmailPrivacy"] is True, f"{body}")
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key={client_key}",
            {"identifier": "tim@example.com", "continueUri": "http://localhost/"}, host)
        expect(status == 200 and "signinMethods" not in body, f"createAuthUri told: {body}")
        emulator("PATCH", "config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}})

    @check("a fake IdP token signs in a federated user; get_users finds it by uid, email and provider uid")
    def _():
        fake = json.dumps({"sub": "g-123", "email": "lin@example.com", "email_verified": True, "name": "Lin"})
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key={client_key}",
            {"postBody": f"id_token={fake}&providerId=google.com", "requestUri": "http://localhost",
             "returnSecureToken": True}, host)
        expect(status == 200 and body.get("isNewUser") is True, f"signInWithIdp: {problem(status, body)}")
        user = auth.get_user(body["localId"])
        expect([p.provider_id for p in user.provider_data] == ["google.com"], f"providers {user.provider_data}")
        expect(user.email == "lin@example.com" and user.display_name == "Lin", f"profile {user.__dict__}")
        found = auth.get_users([
            auth.UidIdentifier("fixed-uid-missing"), auth.EmailIdentifier("tim@example.com"),
            auth.ProviderIdentifier("google.com", "g-123"), auth.UidIdentifier(body["localId"]),
        ])
        uids = sorted(u.uid for u in found.users)
        expect(uids == sorted({body["localId"], auth.get_user_by_email("tim@example.com").uid}), f"found {uids}")
        expect(len(found.not_found) == 1, f"not found {found.not_found}")
        user = auth.update_user(body["localId"], providers_to_delete=["google.com"])
        expect(user.provider_data == [], f"providers_to_delete kept {user.provider_data}")
        found = auth.get_users([auth.ProviderIdentifier("google.com", "g-123")])
        expect(found.users == [], "the unlinked identity still finds the user")

    @check("phone numbers: create_user, get_user_by_phone_number, PHONE_NUMBER_EXISTS, SMS sign-in, removal")
    def _():
        user = auth.create_user(phone_number="+15551230001", display_name="Pat")
        expect(auth.get_user_by_phone_number("+15551230001").uid == user.uid, "not found by phone number")
        expect([p.provider_id for p in user.provider_data] == ["phone"], f"providers {user.provider_data}")
        try:
            auth.create_user(phone_number="+15551230001")
            raise AssertionError("a second account with the same phone number was created")
        except auth.PhoneNumberAlreadyExistsError:
            pass
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key={client_key}",
            {"phoneNumber": "+15551230001", "recaptchaToken": "ignored"}, host)
        expect(status == 200 and body.get("sessionInfo"), f"sendVerificationCode: {problem(status, body)}")
        with urllib.request.urlopen(
                f"http://{host}/emulator/v1/projects/{PROJECT}/verificationCodes", timeout=30) as reply:
            codes = json.loads(reply.read())["verificationCodes"]
        [code] = [c["code"] for c in codes if c["sessionInfo"] == body["sessionInfo"]]
        status, signed_in = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key={client_key}",
            {"sessionInfo": body["sessionInfo"], "code": code}, host)
        expect(status == 200 and signed_in["localId"] == user.uid, f"signInWithPhoneNumber: {problem(status, signed_in)}")
        decoded = auth.verify_id_token(signed_in["idToken"])
        expect(decoded["phone_number"] == "+15551230001", f"claims {decoded}")
        expect(decoded["firebase"]["sign_in_provider"] == "phone", f"claims {decoded}")
        updated = auth.update_user(user.uid, phone_number=auth.DELETE_ATTRIBUTE)
        expect(updated.phone_number is None and updated.provider_data == [], f"kept {updated.__dict__}")
        try:
            auth.get_user_by_phone_number("+15551230001")
            raise AssertionError("a removed phone number still finds the user")
        except auth.UserNotFoundError:
            pass
        auth.delete_user(user.uid)

    @check("tenants: v2 create, get, update, list, delete; auth_for_tenant's own users and tokens")
    def _():
        # firebase-admin's tenant_mgt sends its tenant calls to Google even in emulator mode, so
        # they go as REST here, as the Node.js Admin SDK sends them to the emulator; the tenant's
        # users go through the SDK's own tenant client, which does honour the emulator.
        from firebase_admin import _utils, credentials, tenant_mgt

        class OwnerCredential(credentials.Base):
            def get_credential(self):
                return _utils.EmulatorAdminCredentials()

        def tenants(method, path="", body=None):
            request = urllib.request.Request(
                f"http://{host}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants{path}",
                data=None if body is None else json.dumps(body).encode(), method=method,
                headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
            try:
                with urllib.request.urlopen(request, timeout=30) as reply:
                    return reply.status, json.loads(reply.read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read())

        status, tenant = tenants("POST", body={"displayName": "acme", "allowPasswordSignup": True})
        expect(status == 200 and tenant["name"].endswith(tenant["tenantId"]), f"create: {problem(status, tenant)}")
        tenant_id = tenant["tenantId"]
        status, tenant = tenants("PATCH", f"/{tenant_id}?updateMask=displayName", {"displayName": "acme-ltd"})
        expect(tenant["displayName"] == "acme-ltd" and tenant["allowPasswordSignup"], f"update {tenant}")
        status, page = tenants("GET")
        expect(tenant_id in [t["tenantId"] for t in page["tenants"]], f"list {page}")

        tenant_app = firebase_admin.initialize_app(
            credential=OwnerCredential(), options={"projectId": PROJECT}, name="tenant-admin")
        client = tenant_mgt.auth_for_tenant(tenant_id, app=tenant_app)
        user = client.create_user(email="ada@example.com", password="tenant secret")
        expect(client.get_user_by_email("ada@example.com").uid == user.uid, "not found in its tenant")
        try:
            auth.get_user(user.uid)
            raise AssertionError("the project sees the tenant's user")
        except auth.UserNotFoundError:
            pass
        status, body = post(
            f"identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key={client_key}",
            {"email": "ada@example.com", "password": "tenant secret", "returnSecureToken": True,
             "tenantId": tenant_id}, host)
        expect(status == 200 and body["localId"] == user.uid, f"tenant sign-in: {problem(status, body)}")
        decoded = client.verify_id_token(body["idToken"])
        expect(decoded["firebase"]["tenant"] == tenant_id, f"claims {decoded}")
        status, _ = tenants("DELETE", f"/{tenant_id}")
        status, gone = tenants("GET", f"/{tenant_id}")
        expect(status == 404 or "TENANT_NOT_FOUND" in problem(status, gone), f"after delete: {problem(status, gone)}")
        firebase_admin.delete_app(tenant_app)

    @check("import_users with MD5, SHA1, SHA256 and SHA512 hashes with rounds; each password signs in")
    def _():
        import hashlib

        def digest(name, message, rounds):
            value = hashlib.new(name, message).digest()
            for _ in range(1, max(rounds, 1)):
                value = hashlib.new(name, value).digest()
            return value

        cases = [
            ("md5", auth.UserImportHash.md5(rounds=0), 0),
            ("sha1", auth.UserImportHash.sha1(rounds=3), 3),
            ("sha256", auth.UserImportHash.sha256(rounds=2), 2),
            ("sha512", auth.UserImportHash.sha512(rounds=1), 1),
        ]
        for name, algorithm, rounds in cases:
            salt = f"{name}-salt".encode()
            result = auth.import_users([auth.ImportUserRecord(
                uid=f"{name}-migrated", email=f"{name}@example.com", password_salt=salt,
                password_hash=digest(name, salt + b"digest secret", rounds))], hash_alg=algorithm)
            expect(result.success_count == 1, f"{name} import {[e.__dict__ for e in result.errors]}")
            expect(sign_in(f"{name}@example.com", "digest secret")["localId"] == f"{name}-migrated", name)
            status, body = post(
                f"identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key={client_key}",
                {"email": f"{name}@example.com", "password": "wrong secret", "returnSecureToken": True}, host)
            expect(status == 400 and "INVALID" in problem(status, body), f"{name} wrong password: {problem(status, body)}")

    @check("a tenant's call to a tenant not made yet makes it, as the emulator does")
    def _():
        from firebase_admin import _utils, credentials, tenant_mgt

        class OwnerCredential(credentials.Base):
            def get_credential(self):
                return _utils.EmulatorAdminCredentials()

        tenant_app = firebase_admin.initialize_app(
            credential=OwnerCredential(), options={"projectId": PROJECT}, name="unmade-tenant-admin")
        client = tenant_mgt.auth_for_tenant("never-made", app=tenant_app)
        user = client.create_user(email="first@example.com", password="first secret")
        expect(client.get_user(user.uid).tenant_id == "never-made", "the user is the tenant's")
        request = urllib.request.Request(
            f"http://{host}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants/never-made",
            headers={"Authorization": "Bearer owner"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            tenant = json.loads(reply.read())
        expect(tenant["tenantId"] == "never-made" and tenant.get("allowPasswordSignup"), f"tenant {tenant}")
        firebase_admin.delete_app(tenant_app)

    @check("accounts:query (the Admin API's user query): counts and lists, by email")
    def _():
        def query(body):
            request = urllib.request.Request(
                f"http://{host}/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:query",
                data=json.dumps(body).encode(), method="POST",
                headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
            with urllib.request.urlopen(request, timeout=30) as reply:
                return json.loads(reply.read())

        everyone = query({"returnUserInfo": True, "limit": "500"})
        expect(int(everyone["recordsCount"]) == len(everyone["userInfo"]) > 1, f"{everyone.get('recordsCount')}")
        one = query({"returnUserInfo": True, "expression": [{"email": "sha256@example.com"}]})
        expect([u["localId"] for u in one["userInfo"]] == ["sha256-migrated"], f"{one}")
        counted = query({"returnUserInfo": False})
        expect("userInfo" not in counted and int(counted["recordsCount"]) == len(everyone["userInfo"]), f"{counted}")

    @check("OIDC and SAML provider configs: create, get, update, list, delete")
    def _():
        oidc = auth.create_oidc_provider_config(
            "oidc.acme", client_id="acme-client", issuer="https://id.acme.test", display_name="Acme", enabled=True)
        expect(oidc.provider_id == "oidc.acme" and oidc.issuer == "https://id.acme.test", f"{oidc.__dict__}")
        oidc = auth.update_oidc_provider_config("oidc.acme", display_name="Acme SSO")
        expect(oidc.display_name == "Acme SSO" and oidc.client_id == "acme-client", f"{oidc.__dict__}")
        expect(auth.get_oidc_provider_config("oidc.acme").enabled, "not read back")
        listed = [c.provider_id for c in auth.list_oidc_provider_configs().iterate_all()]
        expect(listed == ["oidc.acme"], f"listed {listed}")
        saml = auth.create_saml_provider_config(
            "saml.acme", idp_entity_id="idp", sso_url="https://idp.test/sso", x509_certificates=["CERT"],
            rp_entity_id="sp", callback_url="https://app.test/__/auth/handler", display_name="Acme SAML")
        expect(saml.sso_url == "https://idp.test/sso" and saml.x509_certificates == ["CERT"], f"{saml.__dict__}")
        saml = auth.update_saml_provider_config("saml.acme", sso_url="https://idp.test/sso2")
        expect(saml.sso_url == "https://idp.test/sso2" and saml.idp_entity_id == "idp", f"{saml.__dict__}")
        auth.delete_oidc_provider_config("oidc.acme")
        auth.delete_saml_provider_config("saml.acme")
        try:
            auth.get_saml_provider_config("saml.acme")
            raise AssertionError("a deleted SAML config is still there")
        except auth.ConfigurationNotFoundError:
            pass

    @check("a second project in the same server: made on first use, with accounts of its own")
    def _():
        second = firebase_admin.initialize_app(options={"projectId": "demo-second"}, name="second-project")
        user = auth.create_user(email="tim@example.com", password="second secret", app=second)
        expect(auth.get_user_by_email("tim@example.com", app=second).uid == user.uid, "not found in its project")
        expect(auth.get_user_by_email("tim@example.com").uid != user.uid, "the served project sees it")
        link = auth.generate_password_reset_link("tim@example.com", app=second)
        expect("oobCode=" in link, f"link {link}")
        with urllib.request.urlopen(f"http://{host}/emulator/v1/projects/demo-second/oobCodes", timeout=30) as reply:
            codes = json.loads(reply.read())["oobCodes"]
        expect([c["email"] for c in codes] == ["tim@example.com"], f"its outbox {codes}")
        auth.delete_user(user.uid, app=second)
        firebase_admin.delete_app(second)

    @check("the emulator's reset between tests (DELETE accounts), and a call without an API key")
    def _():
        status, body = emulator("DELETE", "accounts")
        expect(status == 200, f"reset answered {problem(status, body)}")
        try:
            auth.get_user_by_email("tim@example.com")
            raise AssertionError("an account outlived the reset")
        except auth.UserNotFoundError:
            pass
        status, body = post(
            "identitytoolkit.googleapis.com/v1/accounts:signUp", {"returnSecureToken": True}, host)
        expect(status == 403 and body["error"]["status"] == "PERMISSION_DENIED", f"no key: {problem(status, body)}")

    stop(server)
    shared_folder_checks(signin, key_file, folder)

    finish()


if __name__ == "__main__":
    import urllib.parse
    main()
