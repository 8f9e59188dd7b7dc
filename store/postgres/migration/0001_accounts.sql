-- Accounts, users, sessions, API keys (hashes only), usage counts and the
-- audit log. Times are Unix microseconds.
CREATE TABLE accounts (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	created_at BIGINT NOT NULL
);

CREATE TABLE users (
	id            TEXT PRIMARY KEY,
	account_id    TEXT NOT NULL REFERENCES accounts (id),
	email         TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL DEFAULT '',
	created_at    BIGINT NOT NULL,
	disabled_at   BIGINT
);
CREATE INDEX users_account ON users (account_id);

CREATE TABLE setup_tokens (
	token_hash TEXT PRIMARY KEY,
	user_id    TEXT NOT NULL REFERENCES users (id),
	expires_at BIGINT NOT NULL
);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	user_id    TEXT NOT NULL REFERENCES users (id),
	csrf       TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE api_keys (
	id           TEXT PRIMARY KEY,
	account_id   TEXT NOT NULL REFERENCES accounts (id),
	name         TEXT NOT NULL,
	env          TEXT NOT NULL CHECK (env IN ('test', 'live')),
	prefix       TEXT NOT NULL,
	hash         TEXT NOT NULL UNIQUE,
	created_at   BIGINT NOT NULL,
	last_used_at BIGINT,
	expires_at   BIGINT,
	revoked_at   BIGINT,
	replaced_by  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- One row; every key change adds one in the same transaction.
CREATE TABLE key_version (
	version BIGINT NOT NULL
);
INSERT INTO key_version (version) VALUES (0);

CREATE TABLE key_usage (
	key_id TEXT NOT NULL,
	minute BIGINT NOT NULL,
	count  BIGINT NOT NULL,
	PRIMARY KEY (key_id, minute)
);

CREATE TABLE audit_log (
	id         BIGSERIAL PRIMARY KEY,
	account_id TEXT NOT NULL,
	actor      TEXT NOT NULL,
	action     TEXT NOT NULL,
	key_id     TEXT NOT NULL DEFAULT '',
	detail     TEXT NOT NULL DEFAULT '',
	addr       TEXT NOT NULL DEFAULT '',
	at         BIGINT NOT NULL
);
CREATE INDEX audit_log_account ON audit_log (account_id, at);
