"""Durability of `signin serve` on a data folder, from outside: sign-ups under load, to the project
and to two tenants (whose rows share the project's database file), while

1. the server is killed with SIGKILL again and again and started again on the same folder, and
2. two servers run on one folder at once, each taking half the sign-ups, and both are asked for
   the same address at the same moment.

Every sign-up the server acknowledged (HTTP 200) must be there afterwards with the same uid
(lost: 0), no address may have two accounts in one project or tenant (duplicated: 0), and the
database must pass SQLite's integrity check. Prints the figures. Standard library only.

    python3 Tests/Peers/durability_peer.py SIGNIN [KILLS] [SECONDS_PER_ROUND]
"""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from serve_peer import check, expect, finish

SIGNIN = sys.argv[1]
KILLS = int(sys.argv[2]) if len(sys.argv) > 2 else 8
ROUND = float(sys.argv[3]) if len(sys.argv) > 3 else 1.5
PROJECT = "signinkit-local"
SCOPES = [None, "tenant-a", "tenant-b"]
WRITERS = 4


def start(data):
    server = subprocess.Popen(
        [SIGNIN, "serve", "--port", "0", "--data-dir", data, "--hash-cost", "test"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    if not line.startswith("FIREBASE_AUTH_EMULATOR_HOST="):
        server.kill()
        sys.exit(f"signin serve did not start: {line!r}")
    # What it prints at start, storage warnings among it, is read so that its pipe never fills.
    threading.Thread(target=server.stdout.read, daemon=True).start()
    return server, line.strip().split("=", 1)[1]


def post(host, path, body, admin=False, timeout=30):
    headers = {"Content-Type": "application/json"}
    if admin:
        headers["Authorization"] = "Bearer owner"
    request = urllib.request.Request(f"http://{host}{path}", json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sign_up(host, scope, email):
    body = {"email": email, "password": "hunter2-pass"}
    if scope:
        body["tenantId"] = scope
    return post(host, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", body)


def accounts(host, scope):
    """Every account of `scope` as (email, uid) pairs, through the Admin API's paged batchGet."""
    base = f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}"
    if scope:
        base += f"/tenants/{scope}"
    found, token = [], ""
    while True:
        url = f"http://{host}{base}/accounts:batchGet?maxResults=1000&nextPageToken={token}"
        request = urllib.request.Request(url, headers={"Authorization": "Bearer owner"})
        with urllib.request.urlopen(request, timeout=60) as reply:
            page = json.loads(reply.read())
        found += [(user.get("email"), user["localId"]) for user in page.get("users", [])]
        token = page.get("nextPageToken", "")
        if not token:
            return found


class Load:
    """Writer threads signing up new addresses at whichever host `hosts()` gives, recording what
    was acknowledged."""

    def __init__(self, hosts):
        self.hosts = hosts
        self.lock = threading.Lock()
        self.acknowledged = {}  # (scope, email) -> uid
        self.failed = 0
        self.running = True
        self.threads = [threading.Thread(target=self.write, args=(n,)) for n in range(WRITERS)]

    def write(self, writer):
        number = 0
        while self.running:
            number += 1
            scope = SCOPES[number % len(SCOPES)]
            email = f"w{writer}-{number}@example.com"
            hosts = self.hosts()
            try:
                status, reply = sign_up(random.choice(hosts), scope, email)
            except (OSError, urllib.error.URLError, ValueError):
                with self.lock:
                    self.failed += 1
                continue
            with self.lock:
                if status == 200:
                    self.acknowledged[(scope, email)] = reply["localId"]
                else:
                    self.failed += 1

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_):
        self.running = False
        for thread in self.threads:
            thread.join()


def tally(host, acknowledged):
    """(acknowledged, lost, duplicated, stored) over every scope."""
    lost = duplicated = stored = 0
    for scope in SCOPES:
        pairs = accounts(host, scope)
        stored += len(pairs)
        emails = [email for email, _ in pairs]
        duplicated += len(emails) - len(set(emails))
        kept = dict(pairs)
        lost += sum(1 for (s, email), uid in acknowledged.items() if s == scope and kept.get(email) != uid)
    return len(acknowledged), lost, duplicated, stored


def integrity(data):
    database = os.path.join(data, "backend", "accounts.sqlite")
    with sqlite3.connect(database) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


@check(f"{KILLS} SIGKILLs under load lose no acknowledged sign-up and duplicate none")
def kills():
    data = tempfile.mkdtemp(prefix="signin-durability-")
    current = {}
    current["server"], current["host"] = start(data)
    with Load(lambda: [current["host"]]) as load:
        for _ in range(KILLS):
            deadline = time.monotonic() + ROUND
            while time.monotonic() < deadline and load.running:
                time.sleep(0.05)  # the load runs; this thread only picks the moment to kill
            current["server"].send_signal(signal.SIGKILL)
            current["server"].wait()
            current["server"], current["host"] = start(data)
    acknowledged, lost, duplicated, stored = tally(current["host"], load.acknowledged)
    current["server"].send_signal(signal.SIGTERM)
    current["server"].wait(timeout=60)
    verdict = integrity(data)
    print(f"      kills: {KILLS}; acknowledged {acknowledged}, lost {lost}, duplicated {duplicated}, "
          f"stored {stored} (acknowledged or cut off by a kill), refused or cut off {load.failed}; "
          f"integrity {verdict}", flush=True)
    expect(acknowledged > 0, "nothing was acknowledged")
    expect(lost == 0 and duplicated == 0, f"lost {lost}, duplicated {duplicated}")
    expect(verdict == "ok", verdict)


@check("two servers on one folder lose nothing and give an address one account")
def two_servers():
    data = tempfile.mkdtemp(prefix="signin-durability-")
    first, first_host = start(data)
    second, second_host = start(data)
    hosts = [first_host, second_host]
    with Load(lambda: hosts) as load:
        time.sleep(ROUND * 2)  # the load runs meanwhile
    # The same address at both servers at the same moment: one account, one acknowledgement.
    races = won = 0
    for number in range(60):
        scope = SCOPES[number % len(SCOPES)]
        email = f"race-{number}@example.com"
        outcomes = []
        threads = [threading.Thread(target=lambda h=h: outcomes.append(sign_up(h, scope, email))) for h in hosts]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        races += 1
        winners = [reply for status, reply in outcomes if status == 200]
        won += len(winners)
        for reply in winners:
            load.acknowledged[(scope, email)] = reply["localId"]
    acknowledged, lost, duplicated, stored = tally(second_host, load.acknowledged)
    for server in (first, second):
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    verdict = integrity(data)
    print(f"      two servers: acknowledged {acknowledged}, lost {lost}, duplicated {duplicated}, stored {stored}; "
          f"{races} same-address races, {won} acknowledged; integrity {verdict}", flush=True)
    expect(lost == 0 and duplicated == 0, f"lost {lost}, duplicated {duplicated}")
    expect(won == races, f"{won} of {races} races acknowledged, expected exactly one each")
    expect(verdict == "ok", verdict)


finish()
