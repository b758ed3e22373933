import Foundation
import SignInKitEmbedded
import SignInWire

/// `GET /emulator/auth/accounts[?project=P][&tenant=T]`: the Emulator Suite's Auth tab for
/// `signin serve`. It lists the users of a project or tenant, newest first (name, email or
/// phone, sign-in methods with second factors and passkeys, created, last sign-in, uid; search
/// by email, uid, name or phone), creates them, edits every field the admin API sets (password,
/// phone, verified, disabled, custom claims) with errors in words, disables and deletes them,
/// shows the codes the server would have emailed (each link clickable) and texted, and deletes
/// every account. It follows changes as they happen, whoever makes them, without a reload.
///
/// A project or tenant that does not exist is said so: viewing the page never makes one.
///
/// The page is plain HTML and one short script with no build step. The script calls this server
/// only, through the same administrator's endpoints the Admin SDKs use (`Authorization: Bearer
/// owner`), and every value it shows goes in as text, never as markup. The paths it calls are
/// the wire layer's, written into the page.
enum AccountsPage {
  static func page(_ query: EmulatorAccountsPageQuery, _ context: EmulatorPageContext) async throws -> EmulatorWebPage {
    let project = query.project.flatMap { $0.isEmpty ? nil : $0 } ?? context.project.configuration.projectID
    let tenant = query.tenant.flatMap { $0.isEmpty ? nil : $0 }
    guard ServiceProjects.isProjectID(project), tenant.map(ServiceProjects.isProjectID) ?? true else {
      return EmulatorWebPage(
        html: EmulatorPageHTML.document(
          title: "Accounts",
          body: "<h1>Accounts</h1><p class=\"error\">Name a project and tenant with lowercase letters, digits and "
            + "hyphens (?project=demo-app&amp;tenant=team-a).</p>"),
        status: 400)
    }
    let projects = context.service.projects
    guard projects.holds(project) else {
      return missing(
        "There is no project \(project) on this server. A project is made by the first admin or /emulator call "
          + "that names it, never by viewing this page.", served: context.project.configuration.projectID)
    }
    if let tenant,
      try await projects.tenants(of: try projects.backend(for: project, creating: false)).tenant(tenant) == nil
    {
      return missing(
        "There is no tenant \(tenant) in project \(project). Make it with the admin API (POST "
          + "v2/projects/\(project)/tenants), or name it in a client call.", served: project)
    }
    var values = ["project": project]
    values["tenant"] = tenant
    func path(_ endpoint: some EndpointDescription) -> String {
      let wanted = tenant != nil
      let found = endpoint.paths.first { path in
        path.callers.contains(.admin) || path.service == .emulator
          ? path.template.description.contains("{tenant}") == wanted
            && path.template.description.contains("{project}") : false
      }
      return found.map { "/" + $0.service.prefix + $0.template.filled(values) } ?? ""
    }
    let settings = Settings(
      query: path(FirebaseAPI.queryAccounts), create: path(FirebaseAPI.signUp), update: path(FirebaseAPI.update),
      delete: path(FirebaseAPI.delete), reset: path(FirebaseAPI.clearAccounts), oobCodes: path(FirebaseAPI.oobCodes),
      verificationCodes: path(FirebaseAPI.verificationCodes), origin: context.baseURL.absoluteString)
    let scope = tenant.map { "tenant \($0) of \(project)" } ?? project
    let body = """
      <h1>Accounts of <span id="scope">\(EmulatorPageHTML.escape(scope))</span></h1>
      <p class="muted">The users of this \(tenant == nil ? "project" : "tenant"). Nothing here is sent anywhere: \
      codes are shown instead of emailed or texted.</p>
      <p class="error" id="problem" hidden></p>
      <label>Search <input id="search" type="search" placeholder="email, uid, name or phone"></label>
      <table><thead><tr><th>Name</th><th>Email or phone</th><th>Sign-in methods</th><th>Created</th>\
      <th>Last sign-in</th><th>UID</th><th>Status</th><th></th></tr></thead>
      <tbody id="users"></tbody></table>
      <p class="muted" id="empty" hidden>No users.</p>
      <h2>Add a user</h2>
      <form id="create">
      <label>Email <input type="email" name="email" id="create-email"></label>
      <label>Password <input type="password" name="password" id="create-password" autocomplete="new-password"></label>
      <label>Display name <input name="displayName" id="create-name"></label>
      <label>Phone number <input name="phoneNumber" id="create-phone" placeholder="+15555550100"></label>
      <button type="submit">Add user</button></form>
      <h2>Emailed codes</h2><ul id="oob-codes"></ul>
      <h2>Texted codes</h2><ul id="sms-codes"></ul>
      <h2>Reset</h2><p><button id="reset" type="button">Delete every account</button></p>
      <script type="application/json" id="settings">\(EmulatorPageHTML.json(settings))</script>
      """
    return EmulatorWebPage(html: EmulatorPageHTML.document(title: "Accounts of \(scope)", body: body, script: script))
  }

  /// The page for a project or tenant that does not exist, with a link to one that does.
  private static func missing(_ message: String, served project: String) -> EmulatorWebPage {
    let link = "/emulator/auth/accounts?project=\(project)"
    return EmulatorWebPage(
      html: EmulatorPageHTML.document(
        title: "No such accounts",
        body: "<h1>Accounts</h1><p class=\"error\" id=\"problem\">\(EmulatorPageHTML.escape(message))</p>"
          + "<p><a href=\"\(EmulatorPageHTML.escape(link))\">The accounts of \(EmulatorPageHTML.escape(project))</a></p>"
      ),
      status: 404)
  }

  /// Where the page's script sends its calls.
  private struct Settings: Encodable {
    var query: String
    var create: String
    var update: String
    var delete: String
    var reset: String
    var oobCodes: String
    var verificationCodes: String
    var origin: String
  }

  private static let script = """
    var settings = JSON.parse(document.getElementById('settings').textContent);
    var users = [];
    function $(id) { return document.getElementById(id); }
    function problem(text) { var p = $('problem'); p.textContent = text || ''; p.hidden = !text; }
    function call(method, path, body) {
      return fetch(path, {method: method, headers: {'Authorization': 'Bearer owner', 'Content-Type': 'application/json'},
        body: body === undefined ? undefined : JSON.stringify(body)}).then(function (response) {
        return response.text().then(function (text) {
          var json = text ? JSON.parse(text) : {};
          if (!response.ok) { throw new Error((json.error && json.error.message) || ('HTTP ' + response.status)); }
          return json;
        });
      });
    }
    function cell(row, text, className) {
      var td = document.createElement('td'); td.textContent = text; if (className) { td.className = className; }
      row.appendChild(td); return td;
    }
    function button(parent, text, action) {
      var b = document.createElement('button'); b.type = 'button'; b.textContent = text;
      b.addEventListener('click', function () {
        problem(''); action().then(refresh, function (e) { problem(inWords(e.message)); }); });
      parent.appendChild(b); parent.appendChild(document.createTextNode(' ')); return b;
    }
    var editing = null;
    // Firebase's error codes, in words a person can act on.
    var words = {
      EMAIL_EXISTS: 'That email belongs to another user.', INVALID_EMAIL: 'That is not an email address.',
      WEAK_PASSWORD: 'The password is too weak', MISSING_PASSWORD: 'Type a password.',
      PHONE_NUMBER_EXISTS: 'That phone number belongs to another user.',
      INVALID_PHONE_NUMBER: 'Type the phone number with its country code, like +15555550100.',
      USER_NOT_FOUND: 'That user no longer exists; the list is up to date now.',
      INVALID_CLAIMS: 'The custom claims are not a JSON object.', CLAIMS_TOO_LARGE: 'The custom claims are too large (1000 characters at most).',
      FORBIDDEN_CLAIM: 'A custom claim uses a name Firebase keeps for itself',
      INVALID_DISPLAY_NAME: 'That display name cannot be used.', INVALID_PHOTO_URL: 'That photo URL is not one.'
    };
    function inWords(message) {
      var match = /^([A-Z_]+)(?: : (.*))?$/.exec(message || '');
      if (!match) { return message; }
      var said = words[match[1]];
      if (!said) { return (match[2] || match[1].toLowerCase().replace(/_/g, ' ')); }
      return match[2] && said.slice(-1) !== '.' ? said + ': ' + match[2] : said;
    }
    function date(ms) { return ms ? new Date(Number(ms)).toISOString().replace('T', ' ').slice(0, 16) : ''; }
    function methods(u) {
      var list = (u.providerUserInfo || []).map(function (p) { return p.providerId; });
      (u.mfaInfo || []).forEach(function (f) {
        list.push(f.totpInfo ? 'authenticator app (2nd factor)' : 'SMS ' + (f.phoneInfo || '') + ' (2nd factor)'); });
      (u.passkeyInfo || []).forEach(function (k) { list.push('passkey' + (k.name ? ' ' + k.name : '')); });
      return list.join(', ') || 'anonymous';
    }
    function editRow(u) {
      var row = document.createElement('tr'); row.className = 'editing'; row.dataset.edits = u.localId;
      var td = document.createElement('td'); td.colSpan = 8; row.appendChild(td);
      var form = document.createElement('form'); td.appendChild(form);
      function field(label, name, value, type) {
        var l = document.createElement('label'); l.textContent = label + ' ';
        var input = document.createElement(type === 'textarea' ? 'textarea' : 'input');
        input.name = name;
        if (type === 'checkbox') { input.type = 'checkbox'; input.checked = !!value; } else {
          if (type) { input.type = type; } input.value = value || ''; }
        l.appendChild(input); form.appendChild(l); form.appendChild(document.createTextNode(' ')); return input;
      }
      var name = field('Display name', 'displayName', u.displayName);
      var email = field('Email', 'email', u.email, 'email');
      var password = field('New password', 'password', '', 'password'); password.placeholder = 'unchanged';
      var phone = field('Phone', 'phoneNumber', u.phoneNumber); phone.placeholder = '+15555550100';
      var verified = field('Email verified', 'emailVerified', u.emailVerified, 'checkbox');
      var disabled = field('Disabled', 'disableUser', u.disabled, 'checkbox');
      var claims = field('Custom claims (JSON)', 'customAttributes', u.customAttributes || '', 'textarea');
      claims.placeholder = '{"role": "admin"}';
      var save = document.createElement('button'); save.type = 'submit'; save.textContent = 'Save'; form.appendChild(save);
      var cancel = document.createElement('button'); cancel.type = 'button'; cancel.textContent = 'Cancel';
      cancel.addEventListener('click', function () { editing = null; render(); }); form.appendChild(cancel);
      form.addEventListener('submit', function (event) {
        event.preventDefault(); problem('');
        var change = {localId: u.localId, displayName: name.value, emailVerified: verified.checked,
          disableUser: disabled.checked};
        if (email.value !== (u.email || '')) { change.email = email.value; }
        if (password.value) { change.password = password.value; }
        if (phone.value !== (u.phoneNumber || '')) {
          if (phone.value) { change.phoneNumber = phone.value; } else { change.deleteProvider = ['phone']; } }
        var text = claims.value.trim();
        if (text) {
          var parsed;
          try { parsed = JSON.parse(text); } catch (e) { parsed = null; }
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
            problem('Custom claims must be a JSON object, like {"role": "admin"}; nothing was saved.'); return; }
        }
        if (text !== (u.customAttributes || '')) { change.customAttributes = text || '{}'; }
        call('POST', settings.update, change).then(function () { editing = null; render(); return refresh(); },
          function (e) { problem(inWords(e.message) + ' Nothing was saved.'); });
      });
      return row;
    }
    function render() {
      var term = $('search').value.trim().toLowerCase();
      var shown = users.filter(function (u) {
        return !term || [u.email, u.localId, u.displayName, u.phoneNumber].some(function (v) {
          return v && v.toLowerCase().indexOf(term) >= 0; });
      }).sort(function (a, b) { return Number(b.createdAt || 0) - Number(a.createdAt || 0); });
      var body = $('users'); body.textContent = '';
      shown.forEach(function (u) {
        var row = document.createElement('tr'); row.dataset.uid = u.localId;
        cell(row, u.displayName || '');
        cell(row, u.email || u.phoneNumber || '(anonymous)');
        cell(row, methods(u));
        cell(row, date(u.createdAt));
        cell(row, date(u.lastLoginAt));
        cell(row, u.localId, 'muted');
        cell(row, u.disabled ? 'disabled' : (u.emailVerified ? 'email verified' : 'active'));
        var actions = cell(row, '');
        var edit = document.createElement('button'); edit.type = 'button'; edit.textContent = 'Edit';
        edit.addEventListener('click', function () { problem(''); editing = u.localId; render(); });
        actions.appendChild(edit); actions.appendChild(document.createTextNode(' '));
        button(actions, u.disabled ? 'Enable' : 'Disable', function () {
          return call('POST', settings.update, {localId: u.localId, disableUser: !u.disabled}); });
        button(actions, 'Delete', function () {
          if (!window.confirm('Delete ' + (u.email || u.localId) + '?')) { return Promise.resolve(); }
          return call('POST', settings.delete, {localId: u.localId}); });
        body.appendChild(row);
        if (editing === u.localId) { body.appendChild(editRow(u)); }
      });
      $('empty').hidden = shown.length > 0;
    }
    function link(parent, text, href) {
      var li = document.createElement('li');
      if (href && href.indexOf(settings.origin) === 0) {
        var a = document.createElement('a'); a.href = href; a.textContent = text; li.appendChild(a);
      } else { li.textContent = text; }
      parent.appendChild(li);
    }
    var lastSeen = '';
    function refresh() {
      return Promise.all([
        call('POST', settings.query, {returnUserInfo: true, limit: '500'}),
        call('GET', settings.oobCodes), call('GET', settings.verificationCodes)
      ]).then(function (replies) {
        // Drawn again only when something changed, and never under an open edit form.
        var seen = JSON.stringify(replies);
        if (seen === lastSeen && document.body.dataset.loaded) { return; }
        lastSeen = seen;
        users = replies[0].userInfo || [];
        if (editing === null || !users.some(function (u) { return u.localId === editing; })) { editing = null; render(); }
        var oob = $('oob-codes'); oob.textContent = '';
        (replies[1].oobCodes || []).forEach(function (c) {
          link(oob, c.requestType + ' for ' + c.email + ': ' + c.oobCode, c.oobLink); });
        var sms = $('sms-codes'); sms.textContent = '';
        (replies[2].verificationCodes || []).forEach(function (c) {
          var li = document.createElement('li'); li.textContent = c.phoneNumber + ': ' + c.code; sms.appendChild(li); });
        document.body.dataset.loaded = 'true';
        document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
      }, function (e) { problem(inWords(e.message)); });
    }
    $('search').addEventListener('input', render);
    $('create').addEventListener('submit', function (event) {
      event.preventDefault(); problem('');
      var form = new FormData(event.target), body = {};
      form.forEach(function (value, key) { if (value) { body[key] = value; } });
      call('POST', settings.create, body).then(function () { event.target.reset(); return refresh(); },
        function (e) { problem(inWords(e.message)); });
    });
    $('reset').addEventListener('click', function () {
      if (!window.confirm('Delete every account of ' + $('scope').textContent + '?')) { return; }
      call('DELETE', settings.reset).then(refresh, function (e) { problem(e.message); });
    });
    refresh();
    // Follows changes made anywhere (the API, another page, another process) without a reload.
    setInterval(refresh, 1000);
    """
}
