//! Administration: bans by key fingerprint, IP address or network, or
//! account (with a reason and an optional expiry), checked at login and
//! while sessions run, and the list of users.

use std::net::IpAddr;

use thiserror::Error;

use super::{Store, StoreError, with_pool};
use crate::text;

/// What a ban can name, as `inarow admin ban` is told it.
pub const BAN_TARGETS: &str = "a ban names an SSH key fingerprint as the host logs it (SHA256: and 43 characters), an IP address (203.0.113.7, 2001:db8::1), a network (203.0.113.0/24, 2001:db8::/32) or the name of an existing account";

/// How a stored ban target names an account: `account:ID`.
const ACCOUNT_PREFIX: &str = "account:";

/// A ban target read from the command line, before any account is looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BanTarget {
    /// A key's SHA-256 fingerprint, `SHA256:` and 43 base64 characters.
    Key(String),
    /// One address.
    Address(IpAddr),
    /// A network: the address with its host bits cleared, and the prefix length.
    Network(IpAddr, u8),
    /// Something else: the name of an account, if one has it.
    Name(String),
}

/// Why a text is not a [`BanTarget`]; shown, it says what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BadBanTarget {
    /// Empty, too long, or with control characters.
    #[error("{} is not a ban target: {BAN_TARGETS}", text::sanitize_quote(.0, 60))]
    NotATarget(String),
    /// `SHA256:` without 43 base64 characters after it.
    #[error(
        "{} is not a key fingerprint (SHA256: and 43 base64 characters, as the host logs it): {BAN_TARGETS}",
        text::sanitize_quote(.0, 60)
    )]
    NotAKey(String),
    /// A `/` without an address and a prefix length that fits it.
    #[error("{} is not a network: {BAN_TARGETS}", text::sanitize_quote(.0, 60))]
    NotANetwork(String),
}

impl BanTarget {
    /// Reads a target; `Err` says what is accepted.
    pub fn parse(input: &str) -> Result<BanTarget, BadBanTarget> {
        let t = input.trim();
        // What the error quotes back (bounded: shown at most 60 characters).
        let shown = || t.chars().take(MAX_TARGET_LEN + 1).collect::<String>();
        if t.is_empty() || t.len() > MAX_TARGET_LEN || t.chars().any(char::is_control) {
            return Err(BadBanTarget::NotATarget(shown()));
        }
        if let Some(hash) = t.strip_prefix("SHA256:") {
            let ok = hash.len() == 43
                && hash
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
            return if ok {
                Ok(BanTarget::Key(t.to_string()))
            } else {
                Err(BadBanTarget::NotAKey(shown()))
            };
        }
        if let Ok(ip) = t.parse::<IpAddr>() {
            return Ok(BanTarget::Address(canonical(ip)));
        }
        if let Some((addr, bits)) = t.split_once('/') {
            let net = addr.parse::<IpAddr>().ok().and_then(|ip| {
                let ip = canonical(ip);
                let max = if ip.is_ipv4() { 32 } else { 128 };
                let bits = bits
                    .parse::<u8>()
                    .ok()
                    .filter(|&b| b <= max && !bits.starts_with('+'))?;
                Some((mask(ip, bits), bits))
            });
            return match net {
                Some((ip, bits)) => Ok(BanTarget::Network(ip, bits)),
                None => Err(BadBanTarget::NotANetwork(shown())),
            };
        }
        Ok(BanTarget::Name(t.to_string()))
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is the IPv4 one.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// `ip` with all but its first `bits` bits cleared.
fn mask(ip: IpAddr, bits: u8) -> IpAddr {
    match ip {
        IpAddr::V4(a) => {
            let m = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            IpAddr::V4((u32::from(a) & m).into())
        }
        IpAddr::V6(a) => {
            let m = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            IpAddr::V6((u128::from(a) & m).into())
        }
    }
}

/// Whether the stored ban target `target` covers a session from `ip`, with
/// key `key` and account `account` (its id).
pub fn ban_covers(
    target: &str,
    ip: Option<IpAddr>,
    key: Option<&str>,
    account: Option<&str>,
) -> bool {
    if let Some(id) = target.strip_prefix(ACCOUNT_PREFIX) {
        return account == Some(id);
    }
    if key == Some(target) {
        return true;
    }
    let Some(ip) = ip.map(canonical) else {
        return false;
    };
    match BanTarget::parse(target) {
        Ok(BanTarget::Address(a)) => a == ip,
        Ok(BanTarget::Network(net, bits)) => net.is_ipv4() == ip.is_ipv4() && mask(ip, bits) == net,
        _ => false,
    }
}

/// The stored target that bans account `id`.
pub fn account_target(id: &str) -> String {
    format!("{ACCOUNT_PREFIX}{id}")
}

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

impl Ban {
    /// A row of the bans table: target, reason, until, created.
    fn from_row((target, reason, until_ms, created_ms): (String, String, Option<i64>, i64)) -> Ban {
        Ban {
            target,
            reason,
            until_ms,
            created_ms,
        }
    }
}

/// One account as the admin listing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserInfo {
    pub id: String,
    pub name: String,
    pub created_ms: i64,
    pub keys: i64,
    /// The fingerprints of its keys (`SHA256:...`), oldest first.
    pub fingerprints: Vec<String>,
}

fn check_target(target: &str) -> Result<&str, StoreError> {
    let t = target.trim();
    if t.is_empty() || t.len() > MAX_TARGET_LEN || t.chars().any(char::is_control) {
        return Err(StoreError::Invalid(
            "a ban target is a key fingerprint, an IP address or network, or an account".into(),
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

    /// The bans in force at `now`, newest first (the host checks logins and
    /// running sessions against them).
    pub async fn bans_in_force(&self, now: i64) -> Result<Vec<Ban>, StoreError> {
        let rows: Vec<(String, String, Option<i64>, i64)> = with_pool!(&self.read, p => {
            sqlx::query_as(
                "SELECT target, reason, until_ms, created_ms FROM bans \
                 WHERE until_ms IS NULL OR until_ms > $1 ORDER BY created_ms DESC, target LIMIT 100000",
            )
            .bind(now)
            .fetch_all(p)
            .await?
        });
        Ok(rows.into_iter().map(Ban::from_row).collect())
    }

    /// Every ban, in force or expired, newest first.
    pub async fn bans(&self) -> Result<Vec<Ban>, StoreError> {
        let rows: Vec<(String, String, Option<i64>, i64)> = with_pool!(&self.read, p => {
            sqlx::query_as("SELECT target, reason, until_ms, created_ms FROM bans ORDER BY created_ms DESC, target LIMIT 1000")
                .fetch_all(p)
                .await?
        });
        Ok(rows.into_iter().map(Ban::from_row).collect())
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
        let mut users = Vec::with_capacity(rows.len());
        for (id, name, created_ms, keys) in rows {
            let fingerprints = self
                .keys(&id)
                .await?
                .into_iter()
                .map(|k| k.fingerprint)
                .collect();
            users.push(UserInfo {
                id,
                name,
                created_ms,
                keys,
                fingerprints,
            });
        }
        Ok(users)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FP: &str = "SHA256:AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOo";

    #[test]
    fn ban_targets_are_only_what_can_match() {
        assert_eq!(FP.len(), 7 + 43);
        assert_eq!(BanTarget::parse(FP), Ok(BanTarget::Key(FP.into())));
        assert_eq!(
            BanTarget::parse(" 203.0.113.7 "),
            Ok(BanTarget::Address("203.0.113.7".parse().unwrap()))
        );
        assert_eq!(
            BanTarget::parse("::ffff:203.0.113.7"),
            Ok(BanTarget::Address("203.0.113.7".parse().unwrap()))
        );
        assert_eq!(
            BanTarget::parse("203.0.113.77/24"),
            Ok(BanTarget::Network("203.0.113.0".parse().unwrap(), 24))
        );
        assert_eq!(
            BanTarget::parse("2001:db8::1/32"),
            Ok(BanTarget::Network("2001:db8::".parse().unwrap(), 32))
        );
        assert_eq!(
            BanTarget::parse("0.0.0.0/0"),
            Ok(BanTarget::Network("0.0.0.0".parse().unwrap(), 0))
        );
        for bad in [
            "SHA256:short",
            "sha256:x/",
            "SHA256:",
            "1.2.3.4/33",
            "1.2.3/8",
            "a/b",
            "::/129",
            "1.2.3.4/+8",
            "",
            "x\u{1b}y",
        ] {
            assert!(BanTarget::parse(bad).is_err(), "{bad:?}");
        }
        assert!(matches!(
            BanTarget::parse("SHA256:short"),
            Err(BadBanTarget::NotAKey(_))
        ));
        assert!(matches!(
            BanTarget::parse("1.2.3.4/33"),
            Err(BadBanTarget::NotANetwork(_))
        ));
        let shown = BanTarget::parse("x\u{1b}y").unwrap_err().to_string();
        assert!(
            shown.starts_with("xy is not a ban target: a ban names"),
            "{shown}"
        );
        assert_eq!(
            BanTarget::parse("notafingerprint"),
            Ok(BanTarget::Name("notafingerprint".into()))
        );
    }

    #[test]
    fn bans_cover_keys_addresses_networks_and_accounts() {
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        assert!(ban_covers(FP, None, Some(FP), None));
        assert!(!ban_covers(FP, ip("1.2.3.4"), Some("SHA256:other"), None));
        assert!(ban_covers("1.2.3.4", ip("1.2.3.4"), None, None));
        assert!(ban_covers("1.2.3.4", ip("::ffff:1.2.3.4"), None, None));
        assert!(!ban_covers("1.2.3.4", ip("1.2.3.5"), None, None));
        assert!(ban_covers("10.1.0.0/16", ip("10.1.200.3"), None, None));
        assert!(!ban_covers("10.1.0.0/16", ip("10.2.0.1"), None, None));
        assert!(ban_covers("2001:db8::/32", ip("2001:db8:5::1"), None, None));
        assert!(!ban_covers("0.0.0.0/0", ip("2001:db8:5::1"), None, None));
        assert!(ban_covers(
            &account_target("acc1"),
            ip("1.2.3.4"),
            Some(FP),
            Some("acc1")
        ));
        assert!(!ban_covers(
            &account_target("acc1"),
            None,
            None,
            Some("acc2")
        ));
        assert!(!ban_covers(
            "notafingerprint",
            ip("1.2.3.4"),
            Some(FP),
            Some("notafingerprint")
        ));
    }
}
