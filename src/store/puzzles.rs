//! Puzzles kept in the store: added once per position (a position and its
//! mirror image are one puzzle), listed, and read by id, by every host;
//! the next one for a player chosen near their puzzle rating; the day's
//! puzzle, the same for everyone; attempts rated both ways (Glicko-2:
//! the player against the puzzle), each account's first try of a puzzle
//! once, whichever host records it.

use super::rating::{Rating, rate_game};
use super::{Store, StoreError, with_pool};
use crate::game::{GameKind, Move, Rules};

/// A puzzle's rating when it is made (Glicko-2, as players start).
const NEW_RATING: f64 = 1500.0;
const NEW_DEVIATION: f64 = 350.0;
/// How many puzzles either side of a rating the next puzzle is drawn from.
const NEAR: i64 = 8;
/// Puzzle ids a caller may ask to skip (a guest's recent ones).
pub const MAX_SKIPPED: usize = 64;
/// Longest position or line kept (a Gomoku line of 225 points).
const MAX_TEXT: usize = 1024;

/// A puzzle to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPuzzle {
    /// `connect4`, `gomoku` or `renju`.
    pub game: String,
    /// `win` or `hold`.
    pub kind: String,
    /// The moves from the empty board to the puzzle.
    pub position: String,
    /// The whole solution from there.
    pub line: String,
    /// A win puzzle: in how many of the mover's stones.
    pub win_in: Option<i64>,
    /// The position's mirror-canonical key.
    pub key: String,
    /// A recorded game's id, or `self-play`.
    pub source: String,
}

/// A kept puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPuzzle {
    pub id: String,
    pub puzzle: NewPuzzle,
    /// The puzzle's own rating.
    pub rating: Rating,
    /// Rated attempts, and how many of them solved it.
    pub attempts: i64,
    pub solved: i64,
    pub created_ms: i64,
}

/// A puzzle's row as the queries read it ([`COLUMNS`]).
type FlatRow = (
    String,
    String,
    String,
    String,
    String,
    Option<i64>,
    String,
    String,
    f64,
    f64,
    f64,
    i64,
    i64,
    i64,
);

fn of_flat(r: FlatRow) -> StoredPuzzle {
    let (id, game, kind, position, line, win_in, key, source) =
        (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7);
    StoredPuzzle {
        id,
        puzzle: NewPuzzle {
            game,
            kind,
            position,
            line,
            win_in,
            key,
            source,
        },
        rating: Rating {
            rating: r.8,
            deviation: r.9,
            volatility: r.10,
        },
        attempts: r.11,
        solved: r.12,
        created_ms: r.13,
    }
}

impl StoredPuzzle {
    /// The rules the puzzle is played under: the game's standard board
    /// (puzzles are made on those only); `None` for an unknown game.
    pub fn rules(&self) -> Option<Rules> {
        match self.puzzle.game.parse::<GameKind>().ok()? {
            GameKind::ConnectFour => Some(Rules::connect_four()),
            GameKind::Gomoku => Some(Rules::gomoku()),
            GameKind::Renju => Some(Rules::renju()),
        }
    }

    /// The moves from the empty board to the puzzle.
    pub fn position_moves(&self) -> Option<Vec<Move>> {
        self.moves_of(&self.puzzle.position)
    }

    /// The solution, from the puzzle's position.
    pub fn line_moves(&self) -> Option<Vec<Move>> {
        self.moves_of(&self.puzzle.line)
    }

    /// Moves as the store keeps them (Connect Four: the digits 1-7;
    /// Gomoku and Renju: points `h8 i9`); `None` if any does not read.
    fn moves_of(&self, text: &str) -> Option<Vec<Move>> {
        let rules = self.rules()?;
        if rules.kind() == GameKind::ConnectFour {
            text.bytes()
                .map(|b| (b'1'..=b'7').contains(&b).then(|| Move::Column(b - b'1')))
                .collect()
        } else {
            text.split_whitespace()
                .map(|w| rules.parse_move(w).ok())
                .collect()
        }
    }
}

/// The columns of [`FlatRow`]; the rating columns read as real numbers on
/// both backends.
const COLUMNS: &str = "id, game, kind, position, line, win_in, key, source, \
     CAST(rating AS DOUBLE PRECISION), CAST(deviation AS DOUBLE PRECISION), \
     CAST(volatility AS DOUBLE PRECISION), attempts, solved, created_ms";

/// An account's puzzle standing: its rating (one for all games), the
/// puzzles it tried (rated) and solved.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleStanding {
    pub rating: Rating,
    pub attempts: i64,
    pub solved: i64,
    pub updated_ms: i64,
}

/// What recording an attempt did.
#[derive(Debug, Clone, PartialEq)]
pub enum Attempt {
    /// The account's first try of this puzzle: both rated.
    Rated {
        before: Rating,
        after: Rating,
        puzzle_before: Rating,
        puzzle_after: Rating,
    },
    /// Tried before (on this host or another): nothing changes.
    Repeat,
    /// No such puzzle (or no such account).
    Unknown,
}

impl Store {
    /// Keeps a new puzzle; `None` when its position (or its mirror image)
    /// is a puzzle already, else its id.
    pub async fn add_puzzle(
        &self,
        p: &NewPuzzle,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError> {
        if [&p.position, &p.line, &p.key, &p.source, &p.game, &p.kind]
            .iter()
            .any(|t| t.len() > MAX_TEXT)
        {
            return Err(StoreError::Invalid("a puzzle's text is too long".into()));
        }
        let id = super::GameRecord::new_id();
        with_pool!(&self.write, pool => {
            let done = sqlx::query(
                "INSERT INTO puzzles (id, game, kind, position, line, win_in, key, source, rating, deviation, created_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (key) DO NOTHING",
            )
            .bind(&id)
            .bind(&p.game)
            .bind(&p.kind)
            .bind(&p.position)
            .bind(&p.line)
            .bind(p.win_in)
            .bind(&p.key)
            .bind(&p.source)
            .bind(NEW_RATING)
            .bind(NEW_DEVIATION)
            .bind(now_ms)
            .execute(pool)
            .await?;
            Ok((done.rows_affected() > 0).then_some(id))
        })
    }

    /// The puzzles, oldest first, at most `limit` (capped at 1000).
    pub async fn puzzles(&self, limit: i64) -> Result<Vec<StoredPuzzle>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM puzzles ORDER BY created_ms, id LIMIT $1");
        with_pool!(&self.read, pool => {
            let rows: Vec<FlatRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(limit.clamp(0, 1000))
                .fetch_all(pool)
                .await?;
            Ok(rows.into_iter().map(of_flat).collect())
        })
    }

    /// One puzzle by id.
    pub async fn puzzle(&self, id: &str) -> Result<Option<StoredPuzzle>, StoreError> {
        if id.len() > 64 {
            return Ok(None);
        }
        let sql = format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1");
        with_pool!(&self.read, pool => {
            let row: Option<FlatRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(id)
                .fetch_optional(pool)
                .await?;
            Ok(row.map(of_flat))
        })
    }

    /// How many puzzles there are.
    pub async fn puzzle_count(&self) -> Result<i64, StoreError> {
        with_pool!(&self.read, pool => {
            Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM puzzles").fetch_one(pool).await?)
        })
    }

    /// The puzzle of the day that starts at `day_start_ms` (UTC
    /// midnight), the same for everyone that day: drawn by the day from
    /// the puzzles made before it (on a store whose puzzles are all from
    /// today: the oldest). `None` without puzzles.
    pub async fn daily_puzzle(
        &self,
        day_start_ms: i64,
    ) -> Result<Option<StoredPuzzle>, StoreError> {
        let before: i64 = with_pool!(&self.read, pool => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM puzzles WHERE created_ms < $1")
                .bind(day_start_ms)
                .fetch_one(pool)
                .await?
        });
        let (bound, offset) = if before > 0 {
            (day_start_ms, day_pick(day_start_ms, before))
        } else {
            (i64::MAX, 0)
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM puzzles WHERE created_ms < $1 ORDER BY created_ms, id LIMIT 1 OFFSET $2"
        );
        with_pool!(&self.read, pool => {
            let row: Option<FlatRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(bound)
                .bind(offset)
                .fetch_optional(pool)
                .await?;
            Ok(row.map(of_flat))
        })
    }

    /// The next puzzle for a player rated `rating`: one of the puzzles
    /// nearest that rating (a few either side, drawn by `pick`) that
    /// `account` has not tried and that is not among `skip` (a guest's
    /// recent puzzles, at most [`MAX_SKIPPED`]). When every nearby puzzle
    /// was tried: any untried one; when all were: `None`.
    pub async fn next_puzzle(
        &self,
        account: Option<&str>,
        rating: f64,
        skip: &[String],
        pick: u64,
    ) -> Result<Option<StoredPuzzle>, StoreError> {
        let skip = &skip[skip.len().saturating_sub(MAX_SKIPPED)..];
        let untried = "NOT EXISTS (SELECT 1 FROM puzzle_attempts t WHERE t.puzzle = puzzles.id AND t.account = $1)";
        let mut found: Vec<StoredPuzzle> = Vec::new();
        for (cmp, order) in [(">=", "ASC"), ("<", "DESC")] {
            let sql = format!(
                "SELECT {COLUMNS} FROM puzzles WHERE rating {cmp} $2 AND {untried} \
                 ORDER BY rating {order}, id {order} LIMIT $3"
            );
            let rows: Vec<FlatRow> = with_pool!(&self.read, pool => {
                sqlx::query_as(sqlx::AssertSqlSafe(sql))
                    .bind(account.unwrap_or(""))
                    .bind(rating)
                    .bind(NEAR + skip.len() as i64)
                    .fetch_all(pool)
                    .await?
            });
            found.extend(rows.into_iter().map(of_flat));
        }
        found.retain(|p| !skip.contains(&p.id));
        // The nearest first; one of the nearest few, so two players of one
        // rating do not walk the same path.
        found.sort_by(|a, b| {
            let d = |p: &StoredPuzzle| (p.rating.rating - rating).abs();
            d(a).total_cmp(&d(b)).then_with(|| a.id.cmp(&b.id))
        });
        found.truncate(NEAR as usize);
        if found.is_empty() && !skip.is_empty() {
            // Every puzzle near was skipped: repeats are better than none.
            return Box::pin(self.next_puzzle(account, rating, &[], pick)).await;
        }
        if found.is_empty() {
            return Ok(None);
        }
        let i = (pick % found.len() as u64) as usize;
        Ok(Some(found.swap_remove(i)))
    }

    /// Whether `account` tried puzzle `id` before.
    pub async fn puzzle_tried(&self, account: &str, id: &str) -> Result<bool, StoreError> {
        with_pool!(&self.read, pool => {
            let row: Option<i64> = sqlx::query_scalar(
                "SELECT CAST(1 AS BIGINT) FROM puzzle_attempts WHERE account = $1 AND puzzle = $2",
            )
            .bind(account)
            .bind(id)
            .fetch_optional(pool)
            .await?;
            Ok(row.is_some())
        })
    }

    /// An account's puzzle standing, the deviation decayed to `now`;
    /// `None` before its first rated attempt.
    pub async fn puzzle_standing(
        &self,
        account: &str,
        now: i64,
    ) -> Result<Option<PuzzleStanding>, StoreError> {
        type StandingRow = (f64, f64, f64, i64, i64, i64);
        let row: Option<StandingRow> = with_pool!(&self.read, pool => {
            sqlx::query_as(
                "SELECT rating, deviation, volatility, attempts, solved, updated_ms FROM puzzle_ratings WHERE account = $1",
            )
            .bind(account)
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(
            |(rating, deviation, volatility, attempts, solved, updated_ms)| {
                let r = Rating {
                    rating,
                    deviation,
                    volatility,
                };
                PuzzleStanding {
                    rating: r.decayed(updated_ms, now),
                    attempts,
                    solved,
                    updated_ms,
                }
            },
        ))
    }

    /// Records `account`'s attempt at puzzle `id`: its first try rates
    /// the player against the puzzle and the puzzle against the player
    /// (solved: the player won), both in one transaction; any later try,
    /// from this host or another, changes nothing.
    pub async fn record_attempt(
        &self,
        account: &str,
        id: &str,
        solved: bool,
        now: i64,
    ) -> Result<Attempt, StoreError> {
        if id.len() > 64 || account.len() > 64 {
            return Ok(Attempt::Unknown);
        }
        let pg = self.is_postgres();
        type RatedRow = (f64, f64, f64, i64, i64, i64);
        with_pool!(&self.write, p => {
            let mut tx = p.begin().await?;
            let exists: Option<i64> = sqlx::query_scalar(
                "SELECT CAST(1 AS BIGINT) FROM puzzles WHERE id = $1 AND EXISTS (SELECT 1 FROM accounts WHERE id = $2)",
            )
            .bind(id)
            .bind(account)
            .fetch_optional(&mut *tx)
            .await?;
            if exists.is_none() {
                return Ok(Attempt::Unknown);
            }
            // The attempt first: a second try (or a second host) stops here.
            let inserted = sqlx::query(
                "INSERT INTO puzzle_attempts (account, puzzle, solved, at_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (account, puzzle) DO NOTHING",
            )
            .bind(account)
            .bind(id)
            .bind(i64::from(solved))
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if inserted == 0 {
                return Ok(Attempt::Repeat);
            }
            // Both rows locked (PostgreSQL) while they are rated: hosts
            // rating the same puzzle at once take turns.
            let lock = if pg { " FOR UPDATE" } else { "" };
            let puzzle: (f64, f64, f64) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT CAST(rating AS DOUBLE PRECISION), CAST(deviation AS DOUBLE PRECISION), \
                 CAST(volatility AS DOUBLE PRECISION) FROM puzzles WHERE id = $1{lock}"
            )))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            let mine: Option<RatedRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT rating, deviation, volatility, attempts, solved, updated_ms FROM puzzle_ratings WHERE account = $1{lock}"
            )))
            .bind(account)
            .fetch_optional(&mut *tx)
            .await?;
            let (before, attempts, solves) = match mine {
                Some((rating, deviation, volatility, a, s, updated)) => {
                    (Rating { rating, deviation, volatility }.decayed(updated, now), a, s)
                }
                None => (Rating::default(), 0, 0),
            };
            let puzzle_before = Rating {
                rating: puzzle.0,
                deviation: puzzle.1,
                volatility: puzzle.2,
            };
            let (after, puzzle_after) =
                rate_game(before, puzzle_before, if solved { 1.0 } else { 0.0 });
            sqlx::query(
                "INSERT INTO puzzle_ratings (account, rating, deviation, volatility, attempts, solved, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
                 attempts = excluded.attempts, solved = excluded.solved, updated_ms = excluded.updated_ms",
            )
            .bind(account)
            .bind(after.rating)
            .bind(after.deviation)
            .bind(after.volatility)
            .bind(attempts + 1)
            .bind(solves + i64::from(solved))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, \
                 attempts = attempts + 1, solved = solved + $4 WHERE id = $5",
            )
            .bind(puzzle_after.rating)
            .bind(puzzle_after.deviation)
            .bind(puzzle_after.volatility)
            .bind(i64::from(solved))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Attempt::Rated { before, after, puzzle_before, puzzle_after })
        })
    }
}

/// Which of `count` puzzles is the day's: a mix of the day's number, so
/// neighbouring days are far apart in the list.
fn day_pick(day_start_ms: i64, count: i64) -> i64 {
    let day = day_start_ms.div_euclid(24 * 60 * 60 * 1000) as u64;
    let mut x = day.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    (x % count.max(1) as u64) as i64
}

/// The start (UTC midnight) of the day of `ms`.
pub fn day_start(ms: i64) -> i64 {
    let day = 24 * 60 * 60 * 1000;
    ms.div_euclid(day) * day
}
