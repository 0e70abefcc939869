//! Puzzles kept in the store: added once per position (a position and its
//! mirror image are one puzzle), listed, and read by id, by every host.

use super::{Store, StoreError, with_pool};

/// A puzzle's rating when it is made (Glicko-2, as players start).
const NEW_RATING: i64 = 1500;
const NEW_DEVIATION: i64 = 350;
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPuzzle {
    pub id: String,
    pub puzzle: NewPuzzle,
    pub rating: i64,
    pub deviation: i64,
    pub created_ms: i64,
}

type Row = (
    String,
    String,
    String,
    String,
    String,
    Option<i64>,
    String,
    String,
    i64,
    i64,
    i64,
);

fn of_row(r: Row) -> StoredPuzzle {
    let (id, game, kind, position, line, win_in, key, source, rating, deviation, created_ms) = r;
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
        rating,
        deviation,
        created_ms,
    }
}

const COLUMNS: &str =
    "id, game, kind, position, line, win_in, key, source, rating, deviation, created_ms";

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
            let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(limit.clamp(0, 1000))
                .fetch_all(pool)
                .await?;
            Ok(rows.into_iter().map(of_row).collect())
        })
    }

    /// One puzzle by id.
    pub async fn puzzle(&self, id: &str) -> Result<Option<StoredPuzzle>, StoreError> {
        if id.len() > 64 {
            return Ok(None);
        }
        let sql = format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1");
        with_pool!(&self.read, pool => {
            let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(id)
                .fetch_optional(pool)
                .await?;
            Ok(row.map(of_row))
        })
    }
}
