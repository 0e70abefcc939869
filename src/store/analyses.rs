//! The analyses kept with finished games: computed once, off the game's
//! room, and read back whenever the game is looked at again (on any host
//! of a cluster: they share the store).

use super::{Store, StoreError, with_pool};

/// Longest analysis kept (a Gomoku game of 225 moves writes about 30 KB).
pub const MAX_ANALYSIS_LEN: usize = 256 * 1024;

/// A game's kept analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptAnalysis {
    /// The analysis format it was made with.
    pub version: i64,
    /// The time each position had, in milliseconds.
    pub budget_ms: i64,
    /// The moves' analysis as JSON (a list; the export's `analysis`).
    pub moves: String,
}

impl Store {
    /// The analysis kept for game `id`, if any.
    pub async fn analysis(&self, id: &str) -> Result<Option<KeptAnalysis>, StoreError> {
        if id.len() > 64 {
            return Ok(None);
        }
        with_pool!(&self.read, p => {
            let row: Option<(i64, i64, String)> = sqlx::query_as(
                "SELECT version, budget_ms, moves FROM game_analyses WHERE game_id = $1",
            )
            .bind(id)
            .fetch_optional(p)
            .await?;
            Ok(row.map(|(version, budget_ms, moves)| KeptAnalysis { version, budget_ms, moves }))
        })
    }

    /// Keeps game `id`'s analysis, unless one of this `version` or newer
    /// is kept already (two hosts that analysed the same game at once
    /// keep one). `false`: not kept (no such game, or one kept already).
    pub async fn keep_analysis(
        &self,
        id: &str,
        analysis: &KeptAnalysis,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        if analysis.moves.len() > MAX_ANALYSIS_LEN {
            return Err(StoreError::Invalid(format!(
                "an analysis of {} bytes (at most {MAX_ANALYSIS_LEN})",
                analysis.moves.len()
            )));
        }
        with_pool!(&self.write, p => {
            let done = sqlx::query(
                "INSERT INTO game_analyses (game_id, version, budget_ms, moves, computed_ms) \
                 SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) \
                 ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, \
                 budget_ms = excluded.budget_ms, moves = excluded.moves, \
                 computed_ms = excluded.computed_ms \
                 WHERE game_analyses.version < excluded.version",
            )
            .bind(id)
            .bind(analysis.version)
            .bind(analysis.budget_ms)
            .bind(&analysis.moves)
            .bind(now_ms)
            .execute(p)
            .await?;
            Ok(done.rows_affected() > 0)
        })
    }
}
