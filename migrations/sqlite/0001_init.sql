-- inarow store schema, SQLite dialect (migrations/postgres/0001_init.sql is
-- the same schema for PostgreSQL). Keys are TEXT, times BIGINT milliseconds
-- since the Unix epoch, booleans 0/1.

CREATE TABLE accounts (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL,
    renamed_ms BIGINT
);

CREATE TABLE keys (
    fingerprint TEXT PRIMARY KEY NOT NULL,
    account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    added_ms BIGINT NOT NULL
);
CREATE INDEX keys_account ON keys (account);

CREATE TABLE link_codes (
    code TEXT PRIMARY KEY NOT NULL,
    account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX link_codes_account ON link_codes (account);

CREATE TABLE ratings (
    account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account, game)
) WITHOUT ROWID;
-- The leaderboard and rank queries read only this index.
CREATE INDEX ratings_board ON ratings (game, rating DESC, account, games, deviation, volatility, updated_ms);

CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    game TEXT NOT NULL,
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    k BIGINT NOT NULL,
    rule TEXT NOT NULL,
    rated BIGINT NOT NULL,
    started_ms BIGINT NOT NULL,
    ended_ms BIGINT NOT NULL,
    first BIGINT NOT NULL,
    result TEXT NOT NULL,
    winner BIGINT,
    reason TEXT NOT NULL,
    line TEXT,
    moves TEXT NOT NULL,
    p0_name TEXT NOT NULL,
    p0_account TEXT,
    p0_computer TEXT,
    p0_colour TEXT NOT NULL,
    p0_rating_before DOUBLE PRECISION,
    p0_rating_after DOUBLE PRECISION,
    p1_name TEXT NOT NULL,
    p1_account TEXT,
    p1_computer TEXT,
    p1_colour TEXT NOT NULL,
    p1_rating_before DOUBLE PRECISION,
    p1_rating_after DOUBLE PRECISION
);
CREATE INDEX games_started ON games (started_ms, id);
-- An account's history: one index per seat, newest first by scanning backwards.
CREATE INDEX games_p0 ON games (p0_account, ended_ms, id) WHERE p0_account IS NOT NULL;
CREATE INDEX games_p1 ON games (p1_account, ended_ms, id) WHERE p1_account IS NOT NULL;

CREATE TABLE bans (
    target TEXT PRIMARY KEY NOT NULL,
    reason TEXT NOT NULL,
    until_ms BIGINT,
    created_ms BIGINT NOT NULL
);
