import SignInStorage

extension EmbeddedStore {
  /// The schema, oldest migration first. Never edit one that shipped: add another.
  static let schema = SQLiteSchema(migrations: [
    """
    CREATE TABLE accounts (
      uid TEXT PRIMARY KEY NOT NULL,
      email TEXT UNIQUE,
      record TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE provider_links (
      provider TEXT NOT NULL,
      raw_id TEXT NOT NULL,
      uid TEXT NOT NULL REFERENCES accounts (uid) ON DELETE CASCADE,
      email TEXT,
      PRIMARY KEY (provider, raw_id)
    ) WITHOUT ROWID;
    CREATE INDEX provider_links_uid ON provider_links (uid);
    CREATE TABLE refresh_tokens (
      digest TEXT PRIMARY KEY NOT NULL,
      uid TEXT NOT NULL REFERENCES accounts (uid) ON DELETE CASCADE,
      record TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX refresh_tokens_uid ON refresh_tokens (uid);
    CREATE TABLE action_codes (
      digest TEXT UNIQUE NOT NULL,
      uid TEXT NOT NULL,
      kind TEXT NOT NULL,
      email TEXT NOT NULL,
      expires_at REAL NOT NULL,
      record TEXT NOT NULL
    );
    CREATE INDEX action_codes_address ON action_codes (email, kind);
    CREATE INDEX action_codes_uid ON action_codes (uid);
    CREATE INDEX action_codes_expiry ON action_codes (expires_at);
    CREATE TABLE mail (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      code_digest TEXT NOT NULL REFERENCES action_codes (digest) ON DELETE CASCADE,
      recipient TEXT NOT NULL,
      record TEXT NOT NULL
    );
    CREATE INDEX mail_recipient ON mail (recipient);
    CREATE INDEX mail_code ON mail (code_digest);
    CREATE TABLE used_provider_codes (
      digest TEXT PRIMARY KEY NOT NULL,
      expires_at REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX used_provider_codes_expiry ON used_provider_codes (expires_at);
    """,
    // Pending second-factor steps, so that one process can finish what another started.
    """
    CREATE TABLE pending_second_factors (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      uid TEXT NOT NULL,
      expires_at REAL NOT NULL,
      record TEXT NOT NULL,
      UNIQUE (kind, key)
    );
    CREATE INDEX pending_second_factors_uid ON pending_second_factors (kind, uid);
    CREATE INDEX pending_second_factors_expiry ON pending_second_factors (expires_at);
    """,
    // Phone numbers, each on one account at most, looked up by number.
    """
    ALTER TABLE accounts ADD COLUMN phone TEXT;
    CREATE UNIQUE INDEX accounts_phone ON accounts (phone) WHERE phone IS NOT NULL;
    """,
    // Passkeys: each credential on one account at most, found by its id at sign-in.
    """
    CREATE TABLE passkeys (
      credential_id TEXT PRIMARY KEY NOT NULL,
      uid TEXT NOT NULL REFERENCES accounts (uid) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE INDEX passkeys_uid ON passkeys (uid);
    """,
    // Wrong passwords and codes by throttle key, so that several processes on one folder
    // throttle as one server.
    """
    CREATE TABLE login_failures (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      key TEXT NOT NULL,
      at REAL NOT NULL
    );
    CREATE INDEX login_failures_key ON login_failures (key, at);
    CREATE INDEX login_failures_at ON login_failures (at);
    """,
    // Settings a server keeps beside the accounts (signin serve's tenants and provider
    // configurations), as JSON by kind and key, so that several processes share them.
    """
    CREATE TABLE settings (
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (kind, key)
    ) WITHOUT ROWID;
    """,
    // Tenants in the project's file: every row names its tenant ('' for the project's own), and
    // every key and index starts with it, so a tenant costs no file of its own. The tables are
    // rebuilt, because SQLite cannot change a key in place; what they held is the project's.
    """
    CREATE TEMP TABLE old_accounts AS SELECT * FROM accounts;
    CREATE TEMP TABLE old_provider_links AS SELECT * FROM provider_links;
    CREATE TEMP TABLE old_refresh_tokens AS SELECT * FROM refresh_tokens;
    CREATE TEMP TABLE old_action_codes AS SELECT rowid AS id, * FROM action_codes;
    CREATE TEMP TABLE old_mail AS SELECT * FROM mail;
    CREATE TEMP TABLE old_used_provider_codes AS SELECT * FROM used_provider_codes;
    CREATE TEMP TABLE old_pending_second_factors AS SELECT * FROM pending_second_factors;
    CREATE TEMP TABLE old_passkeys AS SELECT * FROM passkeys;
    CREATE TEMP TABLE old_login_failures AS SELECT * FROM login_failures;
    CREATE TEMP TABLE old_settings AS SELECT * FROM settings;
    DROP TABLE mail;
    DROP TABLE refresh_tokens;
    DROP TABLE provider_links;
    DROP TABLE passkeys;
    DROP TABLE action_codes;
    DROP TABLE used_provider_codes;
    DROP TABLE pending_second_factors;
    DROP TABLE login_failures;
    DROP TABLE settings;
    DROP TABLE accounts;
    CREATE TABLE accounts (
      tenant TEXT NOT NULL,
      uid TEXT NOT NULL,
      email TEXT,
      phone TEXT,
      record TEXT NOT NULL,
      PRIMARY KEY (tenant, uid),
      UNIQUE (tenant, email)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX accounts_phone ON accounts (tenant, phone) WHERE phone IS NOT NULL;
    CREATE TABLE provider_links (
      tenant TEXT NOT NULL,
      provider TEXT NOT NULL,
      raw_id TEXT NOT NULL,
      uid TEXT NOT NULL,
      email TEXT,
      PRIMARY KEY (tenant, provider, raw_id),
      FOREIGN KEY (tenant, uid) REFERENCES accounts (tenant, uid) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE INDEX provider_links_uid ON provider_links (tenant, uid);
    CREATE TABLE refresh_tokens (
      digest TEXT PRIMARY KEY NOT NULL,
      tenant TEXT NOT NULL,
      uid TEXT NOT NULL,
      record TEXT NOT NULL,
      FOREIGN KEY (tenant, uid) REFERENCES accounts (tenant, uid) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE INDEX refresh_tokens_uid ON refresh_tokens (tenant, uid);
    CREATE TABLE action_codes (
      id INTEGER PRIMARY KEY,
      digest TEXT UNIQUE NOT NULL,
      tenant TEXT NOT NULL,
      uid TEXT NOT NULL,
      kind TEXT NOT NULL,
      email TEXT NOT NULL,
      expires_at REAL NOT NULL,
      record TEXT NOT NULL
    );
    CREATE INDEX action_codes_address ON action_codes (tenant, email, kind);
    CREATE INDEX action_codes_uid ON action_codes (tenant, uid);
    CREATE INDEX action_codes_expiry ON action_codes (tenant, expires_at);
    CREATE TABLE mail (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      tenant TEXT NOT NULL,
      code_digest TEXT NOT NULL REFERENCES action_codes (digest) ON DELETE CASCADE,
      recipient TEXT NOT NULL,
      record TEXT NOT NULL
    );
    CREATE INDEX mail_recipient ON mail (tenant, recipient);
    CREATE INDEX mail_code ON mail (code_digest);
    CREATE TABLE used_provider_codes (
      tenant TEXT NOT NULL,
      digest TEXT NOT NULL,
      expires_at REAL NOT NULL,
      PRIMARY KEY (tenant, digest)
    ) WITHOUT ROWID;
    CREATE INDEX used_provider_codes_expiry ON used_provider_codes (tenant, expires_at);
    CREATE TABLE pending_second_factors (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      tenant TEXT NOT NULL,
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      uid TEXT NOT NULL,
      expires_at REAL NOT NULL,
      record TEXT NOT NULL,
      UNIQUE (tenant, kind, key)
    );
    CREATE INDEX pending_second_factors_uid ON pending_second_factors (tenant, kind, uid);
    CREATE INDEX pending_second_factors_expiry ON pending_second_factors (tenant, expires_at);
    CREATE TABLE passkeys (
      tenant TEXT NOT NULL,
      credential_id TEXT NOT NULL,
      uid TEXT NOT NULL,
      PRIMARY KEY (tenant, credential_id),
      FOREIGN KEY (tenant, uid) REFERENCES accounts (tenant, uid) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE INDEX passkeys_uid ON passkeys (tenant, uid);
    CREATE TABLE login_failures (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      tenant TEXT NOT NULL,
      key TEXT NOT NULL,
      at REAL NOT NULL
    );
    CREATE INDEX login_failures_key ON login_failures (tenant, key, at);
    CREATE INDEX login_failures_at ON login_failures (tenant, at);
    CREATE TABLE settings (
      tenant TEXT NOT NULL,
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (tenant, kind, key)
    ) WITHOUT ROWID;
    INSERT INTO accounts SELECT '', uid, email, phone, record FROM old_accounts;
    INSERT INTO provider_links SELECT '', provider, raw_id, uid, email FROM old_provider_links;
    INSERT INTO refresh_tokens SELECT digest, '', uid, record FROM old_refresh_tokens;
    INSERT INTO action_codes SELECT id, digest, '', uid, kind, email, expires_at, record FROM old_action_codes;
    INSERT INTO mail SELECT id, '', code_digest, recipient, record FROM old_mail;
    INSERT INTO used_provider_codes SELECT '', digest, expires_at FROM old_used_provider_codes;
    INSERT INTO pending_second_factors SELECT id, '', kind, key, uid, expires_at, record
      FROM old_pending_second_factors;
    INSERT INTO passkeys SELECT '', credential_id, uid FROM old_passkeys;
    INSERT INTO login_failures SELECT id, '', key, at FROM old_login_failures;
    INSERT INTO settings SELECT '', kind, key, value FROM old_settings;
    DROP TABLE old_accounts;
    DROP TABLE old_provider_links;
    DROP TABLE old_refresh_tokens;
    DROP TABLE old_action_codes;
    DROP TABLE old_mail;
    DROP TABLE old_used_provider_codes;
    DROP TABLE old_pending_second_factors;
    DROP TABLE old_passkeys;
    DROP TABLE old_login_failures;
    DROP TABLE old_settings;
    """,
    // A passkey's counter and last use in its own row: a sign-in updates one row, read and
    // written in its transaction, so two processes cannot both accept one counter value.
    """
    ALTER TABLE passkeys ADD COLUMN sign_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE passkeys ADD COLUMN last_used_at REAL;
    UPDATE passkeys SET sign_count = coalesce((
      SELECT json_extract(entry.value, '$.signCount')
      FROM accounts a, json_each(a.record, '$.passkeys') entry
      WHERE a.tenant = passkeys.tenant AND a.uid = passkeys.uid
        AND json_extract(entry.value, '$.credentialID') = passkeys.credential_id), 0);
    """,
    // Pending steps under the SHA-256 of their keys, and a texted code as an HMAC keyed with its
    // sessionInfo: nothing that finishes a step is kept in clear. The steps pending at the
    // upgrade were kept under their keys, so they go (each lived minutes: whoever was halfway
    // asks for a new code). Text messages get an outbox of their own, as mail has, deleted with
    // their steps.
    """
    DELETE FROM pending_second_factors;
    CREATE TABLE texts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      tenant TEXT NOT NULL,
      pending_id INTEGER NOT NULL REFERENCES pending_second_factors (id) ON DELETE CASCADE,
      recipient TEXT NOT NULL,
      record TEXT NOT NULL
    );
    CREATE INDEX texts_pending ON texts (pending_id);
    CREATE INDEX texts_tenant ON texts (tenant, id);
    """,
  ])
}
