-- Puzzles mined from recorded games and the computer's games against
-- itself (`inarow puzzles build`). `position` is the moves from the empty
-- board to the puzzle (Connect Four: digits 1-7), `line` the whole
-- solution from there, `key` the position's mirror-canonical key (a
-- position and its mirror image are one puzzle), `source` the game it
-- came from (a recorded game's id, or "self-play"). `rating` and
-- `deviation` are the puzzle's own Glicko-2 rating.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    position TEXT NOT NULL,
    line TEXT NOT NULL,
    win_in BIGINT,
    key TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    rating BIGINT NOT NULL,
    deviation BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
