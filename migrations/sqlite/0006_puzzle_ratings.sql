-- Puzzles are rated (Glicko-2, as players): the puzzle's own rating moves
-- with every rated attempt. SQLite cannot change a column's type in place,
-- so the table is made again with its rating as a real number, its
-- volatility, and how often it was tried and solved.
CREATE TABLE puzzles_rated (
    id TEXT PRIMARY KEY NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    position TEXT NOT NULL,
    line TEXT NOT NULL,
    win_in BIGINT,
    key TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    attempts BIGINT NOT NULL DEFAULT 0,
    solved BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL
);
INSERT INTO puzzles_rated (id, game, kind, position, line, win_in, key, source, rating, deviation, created_ms)
    SELECT id, game, kind, position, line, win_in, key, source, rating, deviation, created_ms FROM puzzles;
DROP TABLE puzzles;
ALTER TABLE puzzles_rated RENAME TO puzzles;
-- The next puzzle is looked for near the player's rating; the daily one
-- among those made before the day.
CREATE INDEX puzzles_rating ON puzzles (rating, id);
CREATE INDEX puzzles_created ON puzzles (created_ms, id);

-- A player's puzzle rating (one for all games), and how many they solved.
CREATE TABLE puzzle_ratings (
    account TEXT PRIMARY KEY NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);

-- Every puzzle an account tried, once: the first try is the rated one,
-- and a second host (or a repeated request) cannot rate it again.
CREATE TABLE puzzle_attempts (
    account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    puzzle TEXT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    solved BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (account, puzzle)
);
