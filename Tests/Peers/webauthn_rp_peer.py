"""Two relying parties we did not write, py_webauthn (`webauthn`) and python-fido2's
`Fido2Server`, checking what SignInKit's development authenticator makes.

    python webauthn_rp_peer.py

A line-based JSON exchange on stdin/stdout, one request per line, one reply per line, so a Swift
test can hand each ceremony to its own authenticator in between:

    {"op": "register-options", "lib": "py_webauthn" | "fido2"}
        -> {"rp": ..., "challenge": B64URL, "user": B64URL}
    {"op": "register-verify", "credential": {...WebAuthn JSON...}}
        -> {"ok": true, "credentialId": B64URL, "signCount": N} | {"ok": false, "error": "..."}
    {"op": "authenticate-options"}
        -> {"rp": ..., "challenge": B64URL}
    {"op": "authenticate-verify", "credential": {...}}
        -> {"ok": true, "signCount": N} | {"ok": false, "error": "..."}

Each library keeps its own state (the challenge, the registered key) between the steps.
"""

import base64
import json
import os
import sys

RP_ID = "localhost"
ORIGIN = "http://localhost"


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PyWebAuthn:
    def __init__(self):
        import webauthn
        self.webauthn = webauthn
        self.challenge = None
        self.credential = None

    def register_options(self):
        options = self.webauthn.generate_registration_options(
            rp_id=RP_ID, rp_name="SignInKit peer", user_id=b"peer-user", user_name="ada@example.com")
        self.challenge = options.challenge
        return {"rp": RP_ID, "challenge": b64url(options.challenge), "user": b64url(options.user.id)}

    def register_verify(self, credential):
        verified = self.webauthn.verify_registration_response(
            credential=credential, expected_challenge=self.challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
            require_user_verification=True)
        self.credential = verified
        return {"credentialId": b64url(verified.credential_id), "signCount": verified.sign_count}

    def authenticate_options(self):
        options = self.webauthn.generate_authentication_options(rp_id=RP_ID)
        self.challenge = options.challenge
        return {"rp": RP_ID, "challenge": b64url(options.challenge)}

    def authenticate_verify(self, credential):
        verified = self.webauthn.verify_authentication_response(
            credential=credential, expected_challenge=self.challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
            credential_public_key=self.credential.credential_public_key,
            credential_current_sign_count=self.credential.sign_count, require_user_verification=True)
        self.credential.sign_count = verified.new_sign_count
        return {"signCount": verified.new_sign_count}


class Fido2:
    def __init__(self):
        from fido2.server import Fido2Server
        from fido2.webauthn import PublicKeyCredentialRpEntity
        self.server = Fido2Server(PublicKeyCredentialRpEntity(RP_ID, "SignInKit peer"), verify_origin=lambda o: o == ORIGIN)
        self.state = None
        self.credentials = []

    def register_options(self):
        options, self.state = self.server.register_begin(
            {"id": b"peer-user", "name": "ada@example.com", "displayName": "Ada"}, user_verification="required")
        public_key = options["publicKey"]
        return {"rp": RP_ID, "challenge": b64url(public_key["challenge"]), "user": b64url(public_key["user"]["id"])}

    def register_verify(self, credential):
        from fido2.client import ClientData
        from fido2.ctap2 import AttestationObject
        response = credential["response"]
        auth_data = self.server.register_complete(
            self.state, ClientData(unb64url(response["clientDataJSON"])),
            AttestationObject(unb64url(response["attestationObject"])))
        self.credentials = [auth_data.credential_data]
        return {"credentialId": b64url(auth_data.credential_data.credential_id), "signCount": auth_data.counter}

    def authenticate_options(self):
        options, self.state = self.server.authenticate_begin(self.credentials, user_verification="required")
        return {"rp": RP_ID, "challenge": b64url(options["publicKey"]["challenge"])}

    def authenticate_verify(self, credential):
        from fido2.client import ClientData
        from fido2.ctap2 import AuthenticatorData
        response = credential["response"]
        self.server.authenticate_complete(
            self.state, self.credentials, unb64url(credential["rawId"]), ClientData(unb64url(response["clientDataJSON"])),
            AuthenticatorData(unb64url(response["authenticatorData"])), unb64url(response["signature"]))
        return {"signCount": AuthenticatorData(unb64url(response["authenticatorData"])).counter}


def main():
    party = None
    for line in sys.stdin:
        request = json.loads(line)
        try:
            op = request["op"]
            if op == "register-options":
                party = {"py_webauthn": PyWebAuthn, "fido2": Fido2}[request["lib"]]()
                reply = party.register_options()
            elif op == "register-verify":
                reply = {"ok": True, **party.register_verify(request["credential"])}
            elif op == "authenticate-options":
                reply = party.authenticate_options()
            elif op == "authenticate-verify":
                reply = {"ok": True, **party.authenticate_verify(request["credential"])}
            else:
                reply = {"ok": False, "error": f"unknown op {op}"}
        except Exception as error:
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
