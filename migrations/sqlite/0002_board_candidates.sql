-- The leaderboard index holds only players who can be on the board: at
-- least 5 rated games and a stored deviation under 110 (the deviation only
-- grows while a player is away, so no one else can qualify). A rating
-- update of anyone else no longer touches it, and the board query no
-- longer walks past the players who do not count. The board queries repeat
-- these two terms word for word, so the planner can use the index.
DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (game, rating DESC, account, games, deviation, volatility, updated_ms)
    WHERE games >= 5 AND deviation < 110;
