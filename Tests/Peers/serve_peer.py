"""What the peer scripts that drive `signin serve` share: one line per check, and starting and
stopping the server. Standard library only, so each peer's own venv can import it.
"""

import signal
import subprocess
import sys
import traceback

results = []


def check(name):
    """Runs the decorated function now as the check `name`; a failure is reported, and the
    rest still run."""
    def wrap(body):
        try:
            body()
            results.append((name, True, ""))
            print(f"pass  {name}", flush=True)
        except Exception as error:
            results.append((name, False, repr(error)))
            print(f"FAIL  {name}: {error!r}", flush=True)
            traceback.print_exc()
        return body
    return wrap


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def start_server(signin, project, key_file=None):
    """`signin serve --in-memory` on a free port for `project`, trusting the service account in
    `key_file` when given; returns the process and its host:port, or exits when it cannot start."""
    trust = ["--service-account", key_file] if key_file else []
    server = subprocess.Popen(
        [signin, "serve", "--in-memory", "--port", "0", "--project", project] + trust,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()  # blocks until the server prints its address, or exits
    if not line.startswith("FIREBASE_AUTH_EMULATOR_HOST="):
        server.kill()
        sys.exit(f"signin serve did not start: {line!r} {server.stderr.read()}")
    return server, line.strip().split("=", 1)[1]


def stop(server):
    """Stops the server with SIGTERM; a clean exit within 60 s is one more check."""
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "still running after 60 s"
    results.append(("the server stops cleanly on SIGTERM", code == 0, f"exit {code}"))
    print(f"{'pass' if code == 0 else 'FAIL'}  the server stops cleanly on SIGTERM (exit {code})", flush=True)


def finish():
    """Prints the tally and exits non-zero when any check failed."""
    failed = [name for name, passed, _ in results if not passed]
    print(f"{len(results) - len(failed)} of {len(results)} checks passed", flush=True)
    sys.exit(1 if failed else 0)
