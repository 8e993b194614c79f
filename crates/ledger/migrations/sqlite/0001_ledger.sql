-- The claims ledger (SQLite). Times are UTC RFC 3339 text, dates YYYY-MM-DD text (China).
-- Keep in step with ../postgres/0001_ledger.sql: same tables, columns and indexes.

CREATE TABLE claims (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    portal         TEXT    NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('general', 'travel')),
    staff_no       TEXT    NOT NULL,
    claimant       TEXT    NOT NULL,
    session_id     TEXT    NOT NULL,
    total_cents    INTEGER NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('pending', 'accepted', 'released', 'voided')),
    claim_no       TEXT    NOT NULL DEFAULT '',
    submitted_on   TEXT    NOT NULL,
    reserved_at    TEXT    NOT NULL,
    accepted_at    TEXT,
    released_at    TEXT,
    release_reason TEXT,
    voided_at      TEXT,
    void_reason    TEXT,
    voided_by      TEXT
) STRICT;

CREATE INDEX claims_newest ON claims (submitted_on DESC, id DESC);
CREATE INDEX claims_staff_no ON claims (staff_no);
CREATE INDEX claims_pending ON claims (id) WHERE status = 'pending';

CREATE TABLE claim_invoices (
    claim_id       INTEGER NOT NULL REFERENCES claims (id),
    seq            INTEGER NOT NULL,
    invoice_key    TEXT    NOT NULL CHECK (invoice_key <> ''),
    invoice_number TEXT    NOT NULL,
    invoice_code   TEXT    NOT NULL,
    invoice_date   TEXT    NOT NULL,
    amount_cents   INTEGER NOT NULL,
    seller         TEXT    NOT NULL,
    sha256         TEXT    NOT NULL,
    -- 1 while the claim is pending or accepted; 0 once released or voided.
    active         INTEGER NOT NULL CHECK (active IN (0, 1)),
    PRIMARY KEY (claim_id, seq)
) STRICT;

-- The guard: one active claim per invoice, enforced by the database.
CREATE UNIQUE INDEX claim_invoices_active_key ON claim_invoices (invoice_key) WHERE active;
CREATE INDEX claim_invoices_sha256 ON claim_invoices (sha256) WHERE active;
CREATE INDEX claim_invoices_near ON claim_invoices (seller, amount_cents, invoice_date) WHERE active;
CREATE INDEX claim_invoices_number ON claim_invoices (invoice_number);
