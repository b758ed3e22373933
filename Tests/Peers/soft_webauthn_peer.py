"""soft-webauthn (a software authenticator we did not write) against `signin serve`'s passkeys.

    python soft_webauthn_peer.py PATH_TO_SIGNIN

Starts `signin serve --in-memory --port 0`, signs up an account over REST, enrols a passkey made
by soft_webauthn.SoftWebauthnDevice through `accounts/passkeyEnrollment:start|finalize`, signs in
with it through `accounts/passkeySignIn:start|finalize`, and checks what the relying party must
refuse (a replayed assertion, a page of another origin, a registration sent twice). One line per
check; exits non-zero when any check fails.
"""

import base64
import json
import sys
import urllib.error
import urllib.request

from soft_webauthn import SoftWebauthnDevice

from serve_peer import check, expect, finish, start_server, stop

ORIGIN = "http://localhost"


def b64(data):
    return base64.b64encode(data).decode()


def unb64(text):
    return base64.urlsafe_b64decode(text.replace("+", "-").replace("/", "_") + "=" * (-len(text) % 4))


def claims_of(token):
    return json.loads(unb64(token.split(".")[1]))


class Client:
    def __init__(self, host):
        self.host = host

    def post(self, path, body):
        """POSTs `body` to Google's path on the emulator; returns (status, reply)."""
        request = urllib.request.Request(
            f"http://{self.host}/identitytoolkit.googleapis.com/{path}?key=fake-api-key",
            data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def ok(self, path, body):
        status, reply = self.post(path, body)
        expect(status == 200, f"{path}: {status} {reply}")
        return reply

    def refused(self, path, body, code):
        status, reply = self.post(path, body)
        message = reply.get("error", {}).get("message", "")
        expect(status == 400 and message.startswith(code), f"{path}: expected {code}, got {status} {message}")
        return message


def creation_options(reply):
    """The server's creation options as soft-webauthn takes them (WebAuthn's browser shape)."""
    options = reply["credentialCreationOptions"]
    return {"publicKey": {
        "rp": {"id": options["rp"]["id"], "name": options["rp"].get("name", "")},
        "user": {"id": unb64(options["user"]["id"]), "name": options["user"].get("name", "")},
        "challenge": unb64(options["challenge"]),
        "pubKeyCredParams": [{"alg": int(p["alg"]), "type": p["credentialType"]} for p in options["pubKeyCredParams"]],
    }}


def request_options(reply):
    options = reply["credentialRequestOptions"]
    return {"publicKey": {"rpId": options["rpId"], "challenge": unb64(options["challenge"])}}


def registration_body(id_token, name, credential):
    return {"idToken": id_token, "name": name, "authenticatorRegistrationResponse": {
        "id": b64(credential["rawId"]),
        "response": {"clientDataJSON": b64(credential["response"]["clientDataJSON"]),
                     "attestationObject": b64(credential["response"]["attestationObject"])}}}


def assertion_body(assertion):
    response = assertion["response"]
    return {"authenticatorAuthenticationResponse": {
        "id": b64(assertion["rawId"]),
        "response": {"clientDataJSON": b64(response["clientDataJSON"]),
                     "authenticatorData": b64(response["authenticatorData"]),
                     "signature": b64(response["signature"]), "userHandle": b64(response["userHandle"])}}}


def main():
    server, host = start_server(sys.argv[1], "demo-passkeys")
    client = Client(host)
    device = SoftWebauthnDevice()
    account = {}

    try:
        @check("soft-webauthn's passkey is enrolled through passkeyEnrollment:start and :finalize")
        def _():
            signed_up = client.ok("v1/accounts:signUp",
                                  {"email": "ada@example.com", "password": "correct horse", "returnSecureToken": True})
            account.update(signed_up)
            options = creation_options(client.ok("v2/accounts/passkeyEnrollment:start",
                                                 {"idToken": signed_up["idToken"]}))
            expect(options["publicKey"]["rp"]["id"] == "localhost", options)
            credential = device.create(options, ORIGIN)
            account["registration"] = credential
            client.ok("v2/accounts/passkeyEnrollment:finalize", registration_body(signed_up["idToken"], "Soft key", credential))
            users = client.ok("v1/accounts:lookup", {"idToken": signed_up["idToken"]})["users"]
            listed = users[0].get("passkeyInfo", [])
            expect([p["name"] for p in listed] == ["Soft key"], listed)
            expect(unb64(listed[0]["credentialId"]) == credential["rawId"], "the listed id is the credential's")

        @check("the same passkey signs in through passkeySignIn:start and :finalize")
        def _():
            assertion = device.get(request_options(client.ok("v2/accounts/passkeySignIn:start", {})), ORIGIN)
            account["assertion"] = assertion
            signed_in = client.ok("v2/accounts/passkeySignIn:finalize", assertion_body(assertion))
            claims = claims_of(signed_in["idToken"])
            expect(claims["sub"] == account["localId"], claims)
            expect(claims["firebase"]["sign_in_provider"] == "passkey", claims)

        @check("a replayed assertion is refused (its challenge was spent)")
        def _():
            client.refused("v2/accounts/passkeySignIn:finalize", assertion_body(account["assertion"]),
                           "INVALID_AUTHENTICATOR_RESPONSE")

        @check("an assertion from a page of another origin is refused")
        def _():
            options = request_options(client.ok("v2/accounts/passkeySignIn:start", {}))
            message = client.refused("v2/accounts/passkeySignIn:finalize",
                                     assertion_body(device.get(options, "https://evil.example")),
                                     "INVALID_AUTHENTICATOR_RESPONSE")
            expect("origin" in message, message)

        @check("a registration sent a second time is refused")
        def _():
            client.refused("v2/accounts/passkeyEnrollment:finalize",
                           registration_body(account["idToken"], "Again", account["registration"]),
                           "INVALID_AUTHENTICATOR_RESPONSE")

        @check("an unknown credential is PASSKEY_ENROLLMENT_NOT_FOUND")
        def _():
            stranger = SoftWebauthnDevice()
            stranger.cred_init("localhost", b"nobody")
            options = request_options(client.ok("v2/accounts/passkeySignIn:start", {}))
            client.refused("v2/accounts/passkeySignIn:finalize", assertion_body(stranger.get(options, ORIGIN)),
                           "PASSKEY_ENROLLMENT_NOT_FOUND")
    finally:
        stop(server)
    finish()


if __name__ == "__main__":
    main()
