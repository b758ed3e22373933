import Foundation
import SignInKitEmbedded
import SignInWire

/// `GET /emulator/auth/accounts[?project=P][&tenant=T]`: the Emulator Suite's Auth tab for
/// `signin serve`. It lists the users of a project or tenant (search by email, uid, name or
/// phone), creates, edits, disables and deletes them, shows the codes the server would have
/// emailed (each link clickable) and texted, and deletes every account.
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
      <table><thead><tr><th>User</th><th>Sign-in methods</th><th>Status</th><th></th></tr></thead>
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
      b.addEventListener('click', function () { problem(''); action().then(refresh, function (e) { problem(e.message); }); });
      parent.appendChild(b); parent.appendChild(document.createTextNode(' ')); return b;
    }
    function render() {
      var term = $('search').value.trim().toLowerCase();
      var shown = users.filter(function (u) {
        return !term || [u.email, u.localId, u.displayName, u.phoneNumber].some(function (v) {
          return v && v.toLowerCase().indexOf(term) >= 0; });
      });
      var body = $('users'); body.textContent = '';
      shown.forEach(function (u) {
        var row = document.createElement('tr'); row.dataset.uid = u.localId;
        var who = cell(row, u.email || u.phoneNumber || '(anonymous)');
        var detail = document.createElement('div'); detail.className = 'muted';
        detail.textContent = (u.displayName ? u.displayName + ' · ' : '') + u.localId; who.appendChild(detail);
        cell(row, (u.providerUserInfo || []).map(function (p) { return p.providerId; }).join(', ') || 'anonymous');
        cell(row, u.disabled ? 'disabled' : (u.emailVerified ? 'email verified' : 'active'));
        var actions = cell(row, '');
        button(actions, 'Edit', function () {
          var name = window.prompt('Display name', u.displayName || ''); if (name === null) { return Promise.resolve(); }
          var email = window.prompt('Email', u.email || ''); if (email === null) { return Promise.resolve(); }
          var change = {localId: u.localId, displayName: name};
          if (email !== (u.email || '')) { change.email = email; }
          return call('POST', settings.update, change);
        });
        button(actions, u.disabled ? 'Enable' : 'Disable', function () {
          return call('POST', settings.update, {localId: u.localId, disableUser: !u.disabled}); });
        button(actions, 'Delete', function () {
          if (!window.confirm('Delete ' + (u.email || u.localId) + '?')) { return Promise.resolve(); }
          return call('POST', settings.delete, {localId: u.localId}); });
        body.appendChild(row);
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
    function refresh() {
      return Promise.all([
        call('POST', settings.query, {returnUserInfo: true, limit: '500'}),
        call('GET', settings.oobCodes), call('GET', settings.verificationCodes)
      ]).then(function (replies) {
        users = replies[0].userInfo || []; render();
        var oob = $('oob-codes'); oob.textContent = '';
        (replies[1].oobCodes || []).forEach(function (c) {
          link(oob, c.requestType + ' for ' + c.email + ': ' + c.oobCode, c.oobLink); });
        var sms = $('sms-codes'); sms.textContent = '';
        (replies[2].verificationCodes || []).forEach(function (c) {
          var li = document.createElement('li'); li.textContent = c.phoneNumber + ': ' + c.code; sms.appendChild(li); });
        document.body.dataset.loaded = 'true';
      }, function (e) { problem(e.message); });
    }
    $('search').addEventListener('input', render);
    $('create').addEventListener('submit', function (event) {
      event.preventDefault(); problem('');
      var form = new FormData(event.target), body = {};
      form.forEach(function (value, key) { if (value) { body[key] = value; } });
      call('POST', settings.create, body).then(function () { event.target.reset(); return refresh(); },
        function (e) { problem(e.message); });
    });
    $('reset').addEventListener('click', function () {
      if (!window.confirm('Delete every account of ' + $('scope').textContent + '?')) { return; }
      call('DELETE', settings.reset).then(refresh, function (e) { problem(e.message); });
    });
    refresh();
    """
}
