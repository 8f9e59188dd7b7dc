-- The units of accounts: one document per unit in the catalog's schema,
-- every change kept in account_unit_history, and the keys' scopes.
-- Times are Unix microseconds.
CREATE TABLE account_units (
	account_id TEXT NOT NULL REFERENCES accounts (id),
	symbol     TEXT NOT NULL,
	document   TEXT NOT NULL,
	format     TEXT NOT NULL CHECK (format IN ('yaml', 'json')),
	revision   BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	PRIMARY KEY (account_id, symbol)
);

CREATE TABLE account_unit_history (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	account_id TEXT NOT NULL,
	symbol     TEXT NOT NULL,
	revision   BIGINT NOT NULL,
	action     TEXT NOT NULL CHECK (action IN ('put', 'delete')),
	document   TEXT NOT NULL DEFAULT '',
	format     TEXT NOT NULL DEFAULT '',
	actor      TEXT NOT NULL,
	addr       TEXT NOT NULL DEFAULT '',
	at         BIGINT NOT NULL,
	-- version is the store's unit version the change made, so that a
	-- server reads only the changes since the units it compiled.
	version    BIGINT NOT NULL
);
CREATE INDEX account_unit_history_unit ON account_unit_history (account_id, symbol, id);
CREATE INDEX account_unit_history_version ON account_unit_history (account_id, version);

-- One row per account whose units ever changed: version is the value of
-- unit_version at its last change, so that a server asks only for the
-- accounts changed since the version it has seen. The row is also what a
-- change locks, so that changes of one account's units happen one at a
-- time.
CREATE TABLE account_unit_sets (
	account_id TEXT PRIMARY KEY REFERENCES accounts (id),
	version    BIGINT NOT NULL,
	units      BIGINT NOT NULL
);
CREATE INDEX account_unit_sets_version ON account_unit_sets (version);

-- One row; every change of any account's units adds one, as the last step
-- of its transaction.
CREATE TABLE unit_version (
	version BIGINT NOT NULL
);
INSERT INTO unit_version (version) VALUES (0);

-- What a key may do beyond converting, space-separated (apikey.Scopes).
ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT '';
