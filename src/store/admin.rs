//! Administration: bans by key fingerprint or IP address (with a reason and
//! an optional expiry), checked at login, and the list of users.

use super::{Store, StoreError, with_pool};
use crate::text;

/// Longest ban target (a fingerprint or an IP address).
const MAX_TARGET_LEN: usize = 128;
/// Longest ban reason kept.
const MAX_REASON_CHARS: usize = 200;
/// Most users one listing returns.
const MAX_USERS: i64 = 200;

/// One ban.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ban {
    pub target: String,
    pub reason: String,
    /// When it ends (`None`: never).
    pub until_ms: Option<i64>,
    pub created_ms: i64,
}

/// One account as the admin listing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserInfo {
    pub id: String,
    pub name: String,
    pub created_ms: i64,
    pub keys: i64,
}

fn check_target(target: &str) -> Result<&str, StoreError> {
    let t = target.trim();
    if t.is_empty() || t.len() > MAX_TARGET_LEN || t.chars().any(char::is_control) {
        return Err(StoreError::Invalid(
            "a ban target is a key fingerprint or an IP address".into(),
        ));
    }
    Ok(t)
}

impl Store {
    /// Bans a key fingerprint or an IP address, for `hours` or for good;
    /// banning it again replaces the earlier ban.
    pub async fn ban(
        &self,
        target: &str,
        reason: &str,
        hours: Option<u64>,
        now: i64,
    ) -> Result<Ban, StoreError> {
        let target = check_target(target)?;
        let reason = text::sanitize_quote(reason, MAX_REASON_CHARS);
        let until_ms = hours.map(|h| {
            let ms = i64::try_from(h.min(1_000_000)).unwrap_or(0) * 3_600_000;
            now.saturating_add(ms)
        });
        with_pool!(&self.write, p => {
            sqlx::query(
                "INSERT INTO bans (target, reason, until_ms, created_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (target) DO UPDATE SET reason = excluded.reason, \
                 until_ms = excluded.until_ms, created_ms = excluded.created_ms",
            )
            .bind(target)
            .bind(&reason)
            .bind(until_ms)
            .bind(now)
            .execute(p)
            .await?;
        });
        Ok(Ban {
            target: target.to_string(),
            reason,
            until_ms,
            created_ms: now,
        })
    }

    /// Lifts a ban; whether there was one.
    pub async fn unban(&self, target: &str) -> Result<bool, StoreError> {
        let target = check_target(target)?;
        with_pool!(&self.write, p => {
            let done = sqlx::query("DELETE FROM bans WHERE target = $1").bind(target).execute(p).await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// The ban in force on a fingerprint or address at `now`, if any.
    pub async fn ban_for(&self, target: &str, now: i64) -> Result<Option<Ban>, StoreError> {
        let Ok(target) = check_target(target) else {
            return Ok(None);
        };
        let row: Option<(String, String, Option<i64>, i64)> = with_pool!(&self.read, p => {
            sqlx::query_as(
                "SELECT target, reason, until_ms, created_ms FROM bans \
                 WHERE target = $1 AND (until_ms IS NULL OR until_ms > $2)",
            )
            .bind(target)
            .bind(now)
            .fetch_optional(p)
            .await?
        });
        Ok(row.map(|(target, reason, until_ms, created_ms)| Ban {
            target,
            reason,
            until_ms,
            created_ms,
        }))
    }

    /// Every ban, in force or expired, newest first.
    pub async fn bans(&self) -> Result<Vec<Ban>, StoreError> {
        let rows: Vec<(String, String, Option<i64>, i64)> = with_pool!(&self.read, p => {
            sqlx::query_as("SELECT target, reason, until_ms, created_ms FROM bans ORDER BY created_ms DESC, target LIMIT 1000")
                .fetch_all(p)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|(target, reason, until_ms, created_ms)| Ban {
                target,
                reason,
                until_ms,
                created_ms,
            })
            .collect())
    }

    /// Accounts whose name contains `filter` (compared by look-alike
    /// skeleton; empty: all), by name, at most 200.
    pub async fn users(&self, filter: &str) -> Result<Vec<UserInfo>, StoreError> {
        // Skeletons hold only letters and digits: no LIKE wildcards can get in.
        let key = text::name_skeleton(&text::sanitize(filter, text::MAX_NAME_WIDTH * 4));
        let pattern = format!("%{key}%");
        let rows: Vec<(String, String, i64, i64)> = with_pool!(&self.read, p => {
            sqlx::query_as(
                "SELECT a.id, a.name, a.created_ms, (SELECT COUNT(*) FROM keys k WHERE k.account = a.id) \
                 FROM accounts a WHERE a.name_key LIKE $1 ORDER BY a.name_key LIMIT $2",
            )
            .bind(pattern)
            .bind(MAX_USERS)
            .fetch_all(p)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|(id, name, created_ms, keys)| UserInfo {
                id,
                name,
                created_ms,
                keys,
            })
            .collect())
    }
}
