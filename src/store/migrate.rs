//! The schema's migrations, embedded in the binary: one folder per dialect
//! (`migrations/sqlite`, `migrations/postgres`) with the same version
//! numbers, applied at start by sqlx's migrator. A database that already
//! holds a version this binary does not know is refused.

use sqlx::SqlSafeStr;
use sqlx::migrate::{MigrateError, Migration, MigrationType, Migrator};

use super::{Db, StoreError, with_pool};

/// One migration: version, description, SQLite text, PostgreSQL text.
type Step = (i64, &'static str, &'static str, &'static str);

/// Every migration, oldest first. A test checks this list against the two folders.
const STEPS: &[Step] = &[
    (
        1,
        "init",
        include_str!("../../migrations/sqlite/0001_init.sql"),
        include_str!("../../migrations/postgres/0001_init.sql"),
    ),
    (
        2,
        "board_candidates",
        include_str!("../../migrations/sqlite/0002_board_candidates.sql"),
        include_str!("../../migrations/postgres/0002_board_candidates.sql"),
    ),
    (
        3,
        "account_stones",
        include_str!("../../migrations/sqlite/0003_account_stones.sql"),
        include_str!("../../migrations/postgres/0003_account_stones.sql"),
    ),
    (
        4,
        "game_analyses",
        include_str!("../../migrations/sqlite/0004_game_analyses.sql"),
        include_str!("../../migrations/postgres/0004_game_analyses.sql"),
    ),
    (
        5,
        "puzzles",
        include_str!("../../migrations/sqlite/0005_puzzles.sql"),
        include_str!("../../migrations/postgres/0005_puzzles.sql"),
    ),
    (
        6,
        "puzzle_ratings",
        include_str!("../../migrations/sqlite/0006_puzzle_ratings.sql"),
        include_str!("../../migrations/postgres/0006_puzzle_ratings.sql"),
    ),
    (
        7,
        "account_language",
        include_str!("../../migrations/sqlite/0007_account_language.sql"),
        include_str!("../../migrations/postgres/0007_account_language.sql"),
    ),
];

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i64 = STEPS[STEPS.len() - 1].0;

fn migrator(postgres: bool) -> Migrator {
    Migrator::with_migrations(
        STEPS
            .iter()
            .map(|&(version, description, sqlite, pg)| {
                let sql = if postgres { pg } else { sqlite };
                Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect(),
    )
}

/// Applies the missing migrations; refuses a database newer than the binary.
pub(super) async fn run(db: &Db, url: &str) -> Result<(), StoreError> {
    let result = with_pool!(db, p => migrator(matches!(db, Db::Pg(_))).run(p).await);
    match result {
        Ok(()) => Ok(()),
        Err(MigrateError::VersionMissing(v)) => {
            let newest: Option<i64> = with_pool!(db, p => {
                sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
                    .fetch_one(p)
                    .await
                    .ok()
                    .flatten()
            });
            Err(StoreError::SchemaTooNew {
                url: url.to_string(),
                database: newest.unwrap_or(v).max(v),
                binary: SCHEMA_VERSION,
            })
        }
        Err(e) => Err(StoreError::Open {
            url: url.to_string(),
            message: format!("migrating: {e}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both folders hold exactly the files the list embeds, numbered alike.
    #[test]
    fn both_folders_match_the_list() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        for dialect in ["sqlite", "postgres"] {
            let mut files: Vec<String> = std::fs::read_dir(root.join(dialect))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            let expected: Vec<String> = STEPS
                .iter()
                .map(|(v, d, _, _)| format!("{v:04}_{d}.sql"))
                .collect();
            assert_eq!(files, expected, "migrations/{dialect}");
        }
        for (i, step) in STEPS.iter().enumerate() {
            assert_eq!(step.0, i as i64 + 1, "versions run 1, 2, 3...");
        }
        assert_eq!(migrator(false).iter().count(), STEPS.len());
        assert_eq!(migrator(true).iter().count(), STEPS.len());
    }
}
