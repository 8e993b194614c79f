-- Sign-in, ownership and the audit trail (SQLite). Times are UTC RFC 3339 text.
-- Keep in step with ../postgres/0002_accounts.sql: same tables, columns and indexes.

-- The service user who submitted the claim; '' for claims from before sign-in or with it off.
ALTER TABLE claims ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX claims_owner ON claims (owner);

CREATE TABLE users (
    username      TEXT    NOT NULL PRIMARY KEY CHECK (username <> ''),
    display_name  TEXT    NOT NULL,
    -- The hash as the caller made it (algorithm and salt included); never the password.
    password_hash TEXT    NOT NULL CHECK (password_hash <> ''),
    finance       INTEGER NOT NULL DEFAULT 0 CHECK (finance IN (0, 1)),
    disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
) STRICT;

-- Sign-in sessions, by the hash of their token (the token itself is never stored).
CREATE TABLE logins (
    token_hash TEXT NOT NULL PRIMARY KEY,
    username   TEXT NOT NULL REFERENCES users (username) ON DELETE CASCADE,
    address    TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT;

CREATE INDEX logins_username ON logins (username);

-- Per-user defaults, a JSON document the ledger does not read. No foreign key: users signed in
-- by a proxy have no row in users.
CREATE TABLE user_defaults (
    username   TEXT NOT NULL PRIMARY KEY,
    config     TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

-- Who did what, from where, when: appended, never changed.
CREATE TABLE audit (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         TEXT    NOT NULL,
    username   TEXT    NOT NULL,
    address    TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    session_id TEXT    NOT NULL DEFAULT '',
    detail     TEXT    NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX audit_newest ON audit (at DESC, id DESC);
CREATE INDEX audit_username ON audit (username);
