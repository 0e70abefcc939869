-- Puzzles are rated (Glicko-2, as players): the puzzle's own rating moves
-- with every rated attempt, so it is a real number now, with its
-- volatility and how often it was tried and solved.
ALTER TABLE puzzles ALTER COLUMN rating TYPE DOUBLE PRECISION;
ALTER TABLE puzzles ALTER COLUMN deviation TYPE DOUBLE PRECISION;
ALTER TABLE puzzles ADD COLUMN volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06;
ALTER TABLE puzzles ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE puzzles ADD COLUMN solved BIGINT NOT NULL DEFAULT 0;
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
