-- The servers reading the keys: each running server records the key
-- version it has loaded, on every change and every few seconds, so that
-- `unitd keys` can tell whether the servers have taken up a change.
-- Times are Unix microseconds.
CREATE TABLE key_readers (
	instance    TEXT PRIMARY KEY,
	description TEXT NOT NULL,
	key_version BIGINT NOT NULL,
	seen_at     BIGINT NOT NULL
);
