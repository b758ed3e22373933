"""A real browser against `signin serve`'s pages: headless Chromium, driven by Selenium.

    python browser_handler_peer.py PATH_TO_SIGNIN [SCREENSHOT_FOLDER]

Starts `signin serve --in-memory --port 0` and serves Tests/Peers/handler_page on another loopback
origin (http://127.0.0.1:PAGE_PORT). From that page, Chromium signs up and in by `fetch` (CORS as
the browser enforces it) and signs in with a fake Microsoft account through the hosted handler in
a popup. The accounts page (`/emulator/auth/accounts`) then lists both users, and the emailed
verification link it shows works when clicked. The same page served under a name Chromium maps to
127.0.0.1 (`--host-resolver-rules`), an origin the server does not allow, is refused by the
browser. Screenshots of the handler and accounts pages go to SCREENSHOT_FOLDER. One line per
check; exits non-zero when any check fails.
"""

import functools
import http.server
import json
import os
import sys
import threading
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from serve_peer import check, expect, finish, start_server, stop

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "handler_page")
# Generous: the machine may be busy; each wait ends as soon as its condition holds.
WAIT = 60


def serve_page():
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=PAGE))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def browser(*flags):
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1000,900",
                 "--disable-popup-blocking") + flags:
        options.add_argument(flag)
    options.binary_location = os.environ.get("SIGNINKIT_CHROMIUM", "/usr/bin/chromium")
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("SIGNINKIT_CHROMEDRIVER",
                                                                                "/usr/bin/chromedriver")))
    driver.set_script_timeout(WAIT)
    return driver


def run(driver, script):
    """Runs the page's async `script`; returns its value, or 'ERROR …' with the page's error."""
    return driver.execute_async_script(
        f"const done = arguments[arguments.length - 1]; Promise.resolve({script}).then(done, (e) => done('ERROR ' + e));")


def admin_users(host, project):
    """The project's users, as the Admin SDKs list them."""
    request = urllib.request.Request(
        f"http://{host}/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:query",
        data=json.dumps({"returnUserInfo": True}).encode(), method="POST",
        headers={"Authorization": "Bearer owner", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=WAIT) as reply:
        return json.load(reply).get("userInfo", [])


def open_handler_popup(driver):
    """Starts a Microsoft sign-in in a popup and switches to it; returns the main window."""
    main_window = driver.current_window_handle
    expect(driver.execute_script("return startPopupSignIn('microsoft.com')") == "opened", "the popup opened")
    WebDriverWait(driver, WAIT).until(lambda d: len(d.window_handles) == 2)
    driver.switch_to.window(next(handle for handle in driver.window_handles if handle != main_window))
    return main_window


def sign_up_over_the_api(host, email, password):
    """A user made by a client's call, not by the page."""
    request = urllib.request.Request(
        f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key",
        data=json.dumps({"email": email, "password": password}).encode(), method="POST",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=WAIT) as reply:
        return json.load(reply)["localId"]


def main():
    project = "demo-browser-handler"
    server, host = start_server(sys.argv[1], project)
    shots = sys.argv[2] if len(sys.argv) > 2 else None
    if shots:
        os.makedirs(shots, exist_ok=True)
    page, port = serve_page()
    driver = browser()
    state = {}
    try:
        driver.get(f"http://127.0.0.1:{port}/index.html?emulator={host}")

        @check("from another loopback origin, Chromium signs up and in by fetch, CORS enforced")
        def _():
            uid = run(driver, "signUp('ada@example.com', 'correct horse')")
            expect(isinstance(uid, str) and not uid.startswith("ERROR"), uid)
            account = run(driver, "signIn('ada@example.com', 'correct horse')")
            expect(isinstance(account, dict) and account["localId"] == uid, account)
            state["ada"] = uid

        @check("a popup signs in through the handler page with a fake Microsoft account")
        def _():
            main_window = open_handler_popup(driver)
            WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.ID, "new-account"))
            expect("Sign in with Microsoft" in driver.page_source, "the page names the provider")
            driver.find_element(By.ID, "email").send_keys("grace@contoso.example")
            driver.find_element(By.ID, "displayName").send_keys("Grace Hopper")
            if shots:
                driver.save_screenshot(os.path.join(shots, "handler-page.png"))
            driver.find_element(By.ID, "sign-in-new").click()
            WebDriverWait(driver, WAIT).until(lambda d: len(d.window_handles) == 1)
            driver.switch_to.window(main_window)
            result = run(driver, "window.popupResult")
            expect(isinstance(result, dict), result)
            expect(result["providerId"] == "microsoft.com" and result["email"] == "grace@contoso.example", result)
            expect(result["isNewUser"] is True, result)
            state["grace"] = result["uid"]

        @check("the handler page's auto-generate makes up a new account, and it signs in")
        def _():
            main_window = open_handler_popup(driver)
            WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.ID, "auto-generate"))
            driver.find_element(By.ID, "auto-generate").click()
            email = driver.find_element(By.ID, "email").get_attribute("value")
            name = driver.find_element(By.ID, "displayName").get_attribute("value")
            expect(email.endswith("@example.com") and name, (email, name))
            driver.find_element(By.ID, "sign-in-new").click()
            WebDriverWait(driver, WAIT).until(lambda d: len(d.window_handles) == 1)
            driver.switch_to.window(main_window)
            result = run(driver, "window.popupResult")
            expect(isinstance(result, dict) and result["email"] == email and result["isNewUser"] is True, result)

        @check("the accounts page lists both users; the emailed link it shows verifies the address")
        def _():
            expect(run(driver, "sendVerification('ada@example.com', 'correct horse')") == "sent", "a link was emailed")
            driver.get(f"http://{host}/emulator/auth/accounts")
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded"))
            rows = {row.get_attribute("data-uid"): row.text for row in driver.find_elements(By.CSS_SELECTOR, "#users tr")}
            expect(state["ada"] in rows and "ada@example.com" in rows[state["ada"]], rows)
            expect(state["grace"] in rows and "microsoft.com" in rows[state["grace"]], rows)
            links = driver.find_elements(By.CSS_SELECTOR, "#oob-codes a")
            expect(len(links) == 1 and "ada@example.com" in links[0].text, [link.text for link in links])
            if shots:
                driver.save_screenshot(os.path.join(shots, "accounts-page.png"))
            links[0].click()
            WebDriverWait(driver, WAIT).until(lambda d: "is verified" in d.page_source)
            ada = next(user for user in admin_users(host, project) if user["localId"] == state["ada"])
            expect(ada.get("emailVerified") is True, ada)

        @check("the accounts page adds a user, finds it by search, and deletes it")
        def _():
            driver.get(f"http://{host}/emulator/auth/accounts")
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded"))
            driver.find_element(By.ID, "create-email").send_keys("lin@example.com")
            driver.find_element(By.ID, "create-password").send_keys("correct horse")
            driver.find_element(By.ID, "create-name").send_keys("<b>Lin</b>")
            driver.find_element(By.CSS_SELECTOR, "#create button").click()
            rows = "return [...document.querySelectorAll('#users tr')].map((r) => r.textContent)"
            WebDriverWait(driver, WAIT).until(lambda d: any("lin@example.com" in row for row in d.execute_script(rows)))
            expect(any("<b>Lin</b>" in row for row in driver.execute_script(rows)), "the name is shown as text")
            driver.find_element(By.ID, "search").send_keys("lin@")
            shown = driver.execute_script(rows)
            expect(len(shown) == 1 and "lin@example.com" in shown[0], shown)
            lin = next(user for user in admin_users(host, project) if user.get("email") == "lin@example.com")
            driver.find_element(By.CSS_SELECTOR, f"#users tr[data-uid='{lin['localId']}']").find_element(
                By.XPATH, ".//button[text()='Delete']").click()
            WebDriverWait(driver, WAIT).until(lambda d: d.switch_to.alert).accept()
            WebDriverWait(driver, WAIT).until(lambda d: not d.execute_script(rows))
            emails = [user.get("email") for user in admin_users(host, project)]
            expect("lin@example.com" not in emails and "ada@example.com" in emails, emails)

        @check("the accounts page disables a user; that user's password sign-in is then refused")
        def _():
            driver.get(f"http://{host}/emulator/auth/accounts")
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded"))
            row = driver.find_element(By.CSS_SELECTOR, f"#users tr[data-uid='{state['ada']}']")
            row.find_element(By.XPATH, ".//button[text()='Disable']").click()
            # The table is drawn again after the change: read it afresh each time.
            row_text = f"return document.querySelector(\"#users tr[data-uid='{state['ada']}']\")?.textContent || ''"
            WebDriverWait(driver, WAIT).until(lambda d: "disabled" in d.execute_script(row_text))
            ada = next(user for user in admin_users(host, project) if user["localId"] == state["ada"])
            expect(ada.get("disabled") is True, ada)
            driver.get(f"http://127.0.0.1:{port}/index.html?emulator={host}")
            refused = run(driver, "signIn('ada@example.com', 'correct horse')")
            expect(isinstance(refused, str) and "USER_DISABLED" in refused, refused)

        @check("the accounts page shows a user made over the API without a reload, newest first")
        def _():
            driver.get(f"http://{host}/emulator/auth/accounts")
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded"))
            marker = "window.__notReloaded = true"
            driver.execute_script(marker)
            uid = sign_up_over_the_api(host, "live@example.com", "correct horse")
            rows = "return [...document.querySelectorAll('#users tr')].map((r) => r.dataset.uid)"
            WebDriverWait(driver, WAIT).until(lambda d: uid in d.execute_script(rows))
            expect(driver.execute_script("return window.__notReloaded === true"), "the page was not reloaded")
            expect(driver.execute_script(rows)[0] == uid, "the newest user comes first")
            header = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "thead th")]
            for column in ["Name", "Email or phone", "Sign-in methods", "Created", "Last sign-in", "UID"]:
                expect(column in header, header)
            state["live"] = uid

        @check("the edit form refuses a weak password in words, then sets custom claims and the phone")
        def _():
            row = driver.find_element(By.CSS_SELECTOR, f"#users tr[data-uid='{state['live']}']")
            row.find_element(By.XPATH, ".//button[text()='Edit']").click()
            form = WebDriverWait(driver, WAIT).until(
                lambda d: d.find_element(By.CSS_SELECTOR, f"tr[data-edits='{state['live']}'] form"))
            form.find_element(By.NAME, "password").send_keys("x")
            form.find_element(By.XPATH, ".//button[text()='Save']").click()
            problem = "return document.getElementById('problem').textContent"
            WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(problem))
            said = driver.execute_script(problem)
            expect("The password is too weak" in said and "WEAK_PASSWORD" not in said, said)
            form.find_element(By.NAME, "password").clear()
            form.find_element(By.NAME, "customAttributes").send_keys("not json")
            form.find_element(By.XPATH, ".//button[text()='Save']").click()
            WebDriverWait(driver, WAIT).until(lambda d: "must be a JSON object" in d.execute_script(problem))
            claims = form.find_element(By.NAME, "customAttributes")
            claims.clear()
            claims.send_keys('{"role": "admin"}')
            form.find_element(By.NAME, "phoneNumber").send_keys("+15555550142")
            form.find_element(By.NAME, "emailVerified").click()
            if shots:
                driver.save_screenshot(os.path.join(shots, "accounts-edit.png"))
            form.find_element(By.XPATH, ".//button[text()='Save']").click()
            WebDriverWait(driver, WAIT).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "tr.editing"))
            live = next(user for user in admin_users(host, project) if user["localId"] == state["live"])
            expect(json.loads(live.get("customAttributes", "{}")) == {"role": "admin"}, live)
            expect(live.get("phoneNumber") == "+15555550142" and live.get("emailVerified") is True, live)

        @check("a tenant that does not exist is said so, and viewing its page makes none")
        def _():
            driver.get(f"http://{host}/emulator/auth/accounts?project={project}&tenant=ghost-team")
            said = driver.find_element(By.ID, "problem").text
            expect("There is no tenant ghost-team" in said, said)
            if shots:
                driver.save_screenshot(os.path.join(shots, "accounts-missing-tenant.png"))
            request = urllib.request.Request(
                f"http://{host}/identitytoolkit.googleapis.com/v2/projects/{project}/tenants",
                headers={"Authorization": "Bearer owner"})
            with urllib.request.urlopen(request, timeout=WAIT) as reply:
                tenants = json.load(reply).get("tenants", [])
            expect(all(t.get("tenantId") != "ghost-team" for t in tenants), tenants)
    finally:
        driver.quit()

    # A page on a name the server does not serve: Chromium resolves it to 127.0.0.1, but the
    # server refuses the origin, and the browser then refuses the page the reply.
    foreign = browser("--host-resolver-rules=MAP app.not-allowed.test 127.0.0.1")
    try:
        foreign.get(f"http://app.not-allowed.test:{port}/index.html?emulator={host}")

        @check("a page on an origin the server does not allow is refused, and nothing is made")
        def _():
            result = run(foreign, "signUp('mallory@example.com', 'correct horse')")
            expect(isinstance(result, str) and result.startswith("ERROR"), result)
            emails = [user.get("email") for user in admin_users(host, project)]
            expect("mallory@example.com" not in emails, emails)
    finally:
        foreign.quit()
        page.shutdown()
        stop(server)
    finish()


if __name__ == "__main__":
    main()
