"""A real browser's WebAuthn against `signin serve`: headless Chromium, driven by Selenium, with
a WebDriver virtual authenticator (CTAP2, internal, resident keys, user verification).

    python browser_passkey_peer.py PATH_TO_SIGNIN [SCREENSHOT.png]

Starts `signin serve --in-memory --port 0`, serves Tests/Peers/passkey_page on
http://localhost:PORT (a secure context, the relying party `localhost`), and in the page signs up,
enrols a passkey and signs in with it (the page calls the server across origins, as a web app
calls the emulator: CORS as the browser enforces it). One line per check; exits non-zero when any
check fails. A screenshot of the page is kept.
"""

import functools
import http.server
import os
import socket
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions

from serve_peer import check, expect, finish, start_server, stop

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "passkey_page")


def serve_page():
    """The page folder on a free port of 127.0.0.1, in a thread; returns the server and port."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=PAGE)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def browser():
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    options.binary_location = os.environ.get("SIGNINKIT_CHROMIUM", "/usr/bin/chromium")
    return webdriver.Chrome(options=options, service=Service(os.environ.get("SIGNINKIT_CHROMEDRIVER",
                                                                            "/usr/bin/chromedriver")))


def run(driver, script):
    """Runs the page's async `script`; returns its value, or raises with the page's error."""
    result = driver.execute_async_script(
        f"const done = arguments[arguments.length - 1]; {script}.then(done, (e) => done('ERROR ' + e));")
    expect(not (isinstance(result, str) and result.startswith("ERROR")), result)
    return result


def main():
    server, host = start_server(sys.argv[1], "demo-browser")
    page, port = serve_page()
    driver = browser()
    driver.set_script_timeout(60)
    state = {}
    try:
        options = VirtualAuthenticatorOptions()
        options.protocol = Protocol.CTAP2
        options.transport = Transport.INTERNAL
        options.has_resident_key = True
        options.has_user_verification = True
        options.is_user_verified = True
        driver.add_virtual_authenticator(options)
        driver.get(f"http://localhost:{port}/index.html?emulator={host}")

        @check("Chromium enrols a passkey through the preview's enrolment calls, across origins")
        def _():
            state["uid"] = run(driver, "enrol('ada@example.com')")
            credentials = driver.get_credentials()
            expect(len(credentials) == 1 and credentials[0].rp_id == "localhost", credentials)
            expect(credentials[0].is_resident_credential, "the passkey is discoverable")

        @check("Chromium signs in with it, no email typed, as the same account")
        def _():
            expect(run(driver, "signIn()") == state["uid"], "the passkey's account signed in")

        @check("the virtual authenticator's counter went up once per sign-in")
        def _():
            before = driver.get_credentials()[0].sign_count
            run(driver, "signIn()")
            expect(driver.get_credentials()[0].sign_count == before + 1, "one more signature")

        if len(sys.argv) > 2:
            driver.save_screenshot(sys.argv[2])
    finally:
        driver.quit()
        page.shutdown()
        stop(server)
    finish()


if __name__ == "__main__":
    main()
