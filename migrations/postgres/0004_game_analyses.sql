-- A finished game's move-by-move analysis, computed once (off the game's
-- room) and kept with the record: `moves` is the JSON the export writes
-- under `analysis`, `version` the analysis format it was made with (a
-- newer binary may make it again), `budget_ms` the time each position had.
CREATE TABLE game_analyses (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    budget_ms BIGINT NOT NULL,
    moves TEXT NOT NULL,
    computed_ms BIGINT NOT NULL
);
