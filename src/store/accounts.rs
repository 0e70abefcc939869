//! Accounts: one per person, found by any of its SSH key fingerprints,
//! holding a display name nobody else may take (names compare by their
//! look-alike skeleton, `crate::text::name_skeleton`), renamed at most once a
//! minute; one-time link codes add a second key; keys listed and removed.

use rand::RngExt;
use sqlx::Row;
use thiserror::Error;

use super::{Store, StoreError, with_pool};
use crate::text;

/// Shortest time between two renames by the player.
pub const RENAME_INTERVAL_MS: i64 = 60_000;
/// How long a link code stays valid.
pub const LINK_CODE_TTL_MS: i64 = 10 * 60_000;
/// Longest fingerprint accepted (OpenSSH's `SHA256:` + 43 base64 characters is 50).
pub const MAX_FINGERPRINT_LEN: usize = 128;
/// A setting an account keeps for its player.
#[derive(Debug, Clone, Copy)]
enum Setting {
    Stones,
    Language,
}

impl Setting {
    fn column(self) -> &'static str {
        match self {
            Setting::Stones => "stones",
            Setting::Language => "language",
        }
    }

    fn select(self) -> &'static str {
        match self {
            Setting::Stones => "SELECT stones FROM accounts WHERE id = $1",
            Setting::Language => "SELECT language FROM accounts WHERE id = $1",
        }
    }

    fn update(self) -> &'static str {
        match self {
            Setting::Stones => "UPDATE accounts SET stones = $2 WHERE id = $1",
            Setting::Language => "UPDATE accounts SET language = $2 WHERE id = $1",
        }
    }
}

/// Longest stored stones setting (the names are short words: "emoji", "ascii").
pub const MAX_STONES_LEN: usize = 16;
/// Link code letters: no 0/O, 1/I/L look-alikes. 8 of them: 40 bits.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LEN: usize = 8;

/// One account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
    pub created_ms: i64,
    /// When the player last changed the name (`None`: never).
    pub renamed_ms: Option<i64>,
}

/// One key of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInfo {
    pub fingerprint: String,
    pub added_ms: i64,
}

/// Why an account was not created.
#[derive(Debug, Error)]
pub enum AccountError {
    #[error("the name is taken")]
    NameTaken,
    #[error("the name is not allowed: {0}")]
    NameInvalid(NameProblem),
    #[error("this key already belongs to an account")]
    KeyTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a rename did not happen.
#[derive(Debug, Error)]
pub enum RenameError {
    #[error("the name is taken")]
    Taken,
    #[error("the name is not allowed: {0}")]
    Invalid(NameProblem),
    #[error("wait {wait_secs} s before changing the name again")]
    TooSoon { wait_secs: i64 },
    #[error("no such account")]
    NoAccount,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a link code did not add the key.
#[derive(Debug, Error)]
pub enum LinkError {
    #[error("unknown or already used link code")]
    Unknown,
    #[error("the link code has expired")]
    Expired,
    #[error("this key already belongs to another account")]
    KeyTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a key was not removed.
#[derive(Debug, Error)]
pub enum KeyError {
    #[error("the account has no such key")]
    NotFound,
    #[error("the last key of an account cannot be removed")]
    LastKey,
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn db(e: sqlx::Error) -> StoreError {
    StoreError::Db(e)
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

/// Why a name cannot be an account's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NameProblem {
    #[error("it is empty")]
    Empty,
    #[error("it has characters that cannot be shown (control, escape or invisible ones)")]
    Unshowable,
    #[error("it is {columns} columns wide; at most {max}", max = text::MAX_NAME_WIDTH)]
    TooLong { columns: usize },
    #[error("it starts or ends with a space, or has spaces in a row")]
    Spaces,
    #[error("its accents are not composed (Unicode NFC)")]
    NotComposed,
    #[error("it has no letter or digit")]
    NoLetters,
    #[error("it is kept for the computer")]
    Reserved,
}

/// A name an account may hold: already sanitised, not empty, not reserved,
/// and with a skeleton (something letter-like) to compare by; the skeleton,
/// or why not.
fn valid_name(name: &str) -> Result<String, NameProblem> {
    use unicode_normalization::UnicodeNormalization;
    if name.trim().is_empty() {
        return Err(NameProblem::Empty);
    }
    // Everything that can be shown (no width bound), to compare with.
    let shown = text::sanitize(name, usize::MAX / 2);
    let composed: String = name.nfc().collect();
    let spaced = composed.split_whitespace().collect::<Vec<_>>().join(" ");
    if shown != spaced {
        return Err(NameProblem::Unshowable);
    }
    let columns = text::width(&shown);
    if columns > text::MAX_NAME_WIDTH {
        return Err(NameProblem::TooLong { columns });
    }
    if spaced != composed {
        return Err(NameProblem::Spaces);
    }
    if composed != name {
        return Err(NameProblem::NotComposed);
    }
    let key = text::name_skeleton(&shown);
    if key.is_empty() {
        return Err(NameProblem::NoLetters);
    }
    if text::is_reserved_name(&shown) {
        return Err(NameProblem::Reserved);
    }
    Ok(key)
}

fn check_fingerprint(fp: &str) -> Result<(), StoreError> {
    if fp.is_empty() || fp.len() > MAX_FINGERPRINT_LEN || fp.chars().any(char::is_control) {
        return Err(StoreError::Invalid("bad key fingerprint".into()));
    }
    Ok(())
}

fn account_from(row: &impl AccountRow) -> Result<Account, sqlx::Error> {
    row.account()
}

/// Reads an [`Account`] out of a row of `id, name, created_ms, renamed_ms`
/// from either driver.
trait AccountRow {
    fn account(&self) -> Result<Account, sqlx::Error>;
}

macro_rules! account_row {
    ($row:ty) => {
        impl AccountRow for $row {
            fn account(&self) -> Result<Account, sqlx::Error> {
                Ok(Account {
                    id: self.try_get(0)?,
                    name: self.try_get(1)?,
                    created_ms: self.try_get(2)?,
                    renamed_ms: self.try_get(3)?,
                })
            }
        }
    };
}
account_row!(sqlx::sqlite::SqliteRow);
account_row!(sqlx::postgres::PgRow);

/// A new link code, `ABCD-EFGH`, from the operating system's generator.
fn new_link_code() -> String {
    let mut rng = rand::rng();
    let mut code = String::with_capacity(CODE_LEN + 1);
    for i in 0..CODE_LEN {
        if i == CODE_LEN / 2 {
            code.push('-');
        }
        code.push(char::from(
            CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())],
        ));
    }
    code
}

/// A typed link code in its stored form (`ABCD-EFGH`): case, spaces and
/// dashes do not matter; `None` when it cannot be one.
pub fn normalize_link_code(input: &str) -> Option<String> {
    if input.len() > 32 {
        return None;
    }
    let letters: Vec<u8> = input
        .bytes()
        .filter(|b| !matches!(b, b'-' | b' '))
        .map(|b| b.to_ascii_uppercase())
        .collect();
    if letters.len() != CODE_LEN || !letters.iter().all(|b| CODE_ALPHABET.contains(b)) {
        return None;
    }
    let (a, b) = letters.split_at(CODE_LEN / 2);
    Some(format!(
        "{}-{}",
        String::from_utf8_lossy(a),
        String::from_utf8_lossy(b)
    ))
}

const ACCOUNT_BY_KEY: &str = "SELECT a.id, a.name, a.created_ms, a.renamed_ms FROM keys k \
     JOIN accounts a ON a.id = k.account WHERE k.fingerprint = $1";

impl Store {
    /// The account a key fingerprint belongs to.
    pub async fn account_by_key(&self, fingerprint: &str) -> Result<Option<Account>, StoreError> {
        if fingerprint.len() > MAX_FINGERPRINT_LEN {
            return Ok(None);
        }
        with_pool!(&self.read, p => {
            let row = sqlx::query(ACCOUNT_BY_KEY).bind(fingerprint).fetch_optional(p).await?;
            row.as_ref().map(account_from).transpose().map_err(db)
        })
    }

    /// The account with this id.
    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        with_pool!(&self.read, p => {
            let row = sqlx::query("SELECT id, name, created_ms, renamed_ms FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(p)
                .await?;
            row.as_ref().map(account_from).transpose().map_err(db)
        })
    }

    /// The account whose name looks like `name` (same skeleton), if any.
    pub async fn name_taken(&self, name: &str) -> Result<Option<String>, StoreError> {
        let key = text::name_skeleton(&text::sanitize(name, text::MAX_NAME_WIDTH * 4));
        if key.is_empty() {
            return Ok(None);
        }
        with_pool!(&self.read, p => {
            Ok(sqlx::query_scalar("SELECT id FROM accounts WHERE name_key = $1")
                .bind(key)
                .fetch_optional(p)
                .await?)
        })
    }

    /// A new account for a key, holding `name` (sanitised already: the
    /// caller shows what it will be).
    pub async fn create_account(
        &self,
        fingerprint: &str,
        name: &str,
        now: i64,
    ) -> Result<Account, AccountError> {
        check_fingerprint(fingerprint)?;
        let key = valid_name(name).map_err(AccountError::NameInvalid)?;
        let id = uuid::Uuid::now_v7().to_string();
        with_pool!(&self.write, p => {
            let mut tx = p.begin().await.map_err(db)?;
            let inserted: Option<String> = sqlx::query_scalar(
                "INSERT INTO accounts (id, name, name_key, created_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (name_key) DO NOTHING RETURNING id",
            )
            .bind(&id)
            .bind(name)
            .bind(&key)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db)?;
            if inserted.is_none() {
                return Err(AccountError::NameTaken);
            }
            let keyed: Option<String> = sqlx::query_scalar(
                "INSERT INTO keys (fingerprint, account, added_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (fingerprint) DO NOTHING RETURNING fingerprint",
            )
            .bind(fingerprint)
            .bind(&id)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db)?;
            if keyed.is_none() {
                return Err(AccountError::KeyTaken);
            }
            tx.commit().await.map_err(db)?;
            Ok(Account { id, name: name.to_string(), created_ms: now, renamed_ms: None })
        })
    }

    /// The player renames their account: unique, sanitised, at most once a minute.
    pub async fn rename(&self, account: &str, new_name: &str, now: i64) -> Result<(), RenameError> {
        self.rename_inner(account, new_name, Some(now)).await
    }

    /// An administrator renames the account now called `old` (no rate limit).
    pub async fn admin_rename(&self, old: &str, new_name: &str) -> Result<(), RenameError> {
        let id = self.name_taken(old).await?.ok_or(RenameError::NoAccount)?;
        self.rename_inner(&id, new_name, None).await
    }

    async fn rename_inner(
        &self,
        account: &str,
        new_name: &str,
        now: Option<i64>,
    ) -> Result<(), RenameError> {
        let key = valid_name(new_name).map_err(RenameError::Invalid)?;
        with_pool!(&self.write, p => {
            let mut tx = p.begin().await.map_err(db)?;
            let last: Option<(Option<i64>,)> = sqlx::query_as("SELECT renamed_ms FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db)?;
            let Some((last,)) = last else { return Err(RenameError::NoAccount) };
            if let (Some(now), Some(last)) = (now, last) {
                let since = now.saturating_sub(last);
                if (0..RENAME_INTERVAL_MS).contains(&since) {
                    return Err(RenameError::TooSoon { wait_secs: (RENAME_INTERVAL_MS - since + 999) / 1000 });
                }
            }
            let holder: Option<String> = sqlx::query_scalar("SELECT id FROM accounts WHERE name_key = $1")
                .bind(&key)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db)?;
            if holder.is_some_and(|h| h != account) {
                return Err(RenameError::Taken);
            }
            let updated = sqlx::query(
                "UPDATE accounts SET name = $2, name_key = $3, renamed_ms = COALESCE($4, renamed_ms) WHERE id = $1",
            )
            .bind(account)
            .bind(new_name)
            .bind(&key)
            .bind(now)
            .execute(&mut *tx)
            .await;
            match updated {
                Err(e) if is_unique_violation(&e) => return Err(RenameError::Taken),
                Err(e) => return Err(db(e).into()),
                Ok(_) => {}
            }
            tx.commit().await.map_err(db)?;
            Ok(())
        })
    }

    /// A one-time code (valid ten minutes) that adds another key to the
    /// account; a new code replaces the account's earlier ones.
    pub async fn create_link_code(&self, account: &str, now: i64) -> Result<String, StoreError> {
        with_pool!(&self.write, p => {
            let mut tx = p.begin().await?;
            sqlx::query("DELETE FROM link_codes WHERE account = $1 OR expires_ms <= $2")
                .bind(account)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            // 40 random bits: a clash is rare; draw again if it happens.
            let mut code = new_link_code();
            for _ in 0..8 {
                let done: Option<String> = sqlx::query_scalar(
                    "INSERT INTO link_codes (code, account, expires_ms) VALUES ($1, $2, $3) \
                     ON CONFLICT (code) DO NOTHING RETURNING code",
                )
                .bind(&code)
                .bind(account)
                .bind(now.saturating_add(LINK_CODE_TTL_MS))
                .fetch_optional(&mut *tx)
                .await?;
                if done.is_some() {
                    tx.commit().await?;
                    return Ok(code);
                }
                code = new_link_code();
            }
            Err(StoreError::Invalid("no free link code".into()))
        })
    }

    /// Adds `fingerprint` to the account a link code was made for; the code
    /// is used up. A key already on that account is fine.
    pub async fn redeem_link_code(
        &self,
        code: &str,
        fingerprint: &str,
        now: i64,
    ) -> Result<Account, LinkError> {
        check_fingerprint(fingerprint)?;
        let code = normalize_link_code(code).ok_or(LinkError::Unknown)?;
        let account_id = with_pool!(&self.write, p => {
            let mut tx = p.begin().await.map_err(db)?;
            let row: Option<(String, i64)> =
                sqlx::query_as("DELETE FROM link_codes WHERE code = $1 RETURNING account, expires_ms")
                    .bind(&code)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db)?;
            let Some((account, expires)) = row else { return Err(LinkError::Unknown) };
            if now >= expires {
                tx.commit().await.map_err(db)?;
                return Err(LinkError::Expired);
            }
            let owner: Option<String> = sqlx::query_scalar("SELECT account FROM keys WHERE fingerprint = $1")
                .bind(fingerprint)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db)?;
            match owner {
                Some(o) if o != account => return Err(LinkError::KeyTaken),
                Some(_) => {}
                None => {
                    sqlx::query("INSERT INTO keys (fingerprint, account, added_ms) VALUES ($1, $2, $3)")
                        .bind(fingerprint)
                        .bind(&account)
                        .bind(now)
                        .execute(&mut *tx)
                        .await
                        .map_err(|e| if is_unique_violation(&e) { LinkError::KeyTaken } else { db(e).into() })?;
                }
            }
            tx.commit().await.map_err(db)?;
            account
        });
        with_pool!(&self.write, p => {
            let row = sqlx::query("SELECT id, name, created_ms, renamed_ms FROM accounts WHERE id = $1")
                .bind(&account_id)
                .fetch_one(p)
                .await
                .map_err(db)?;
            Ok(account_from(&row).map_err(db)?)
        })
    }

    /// The stones the account's player chose (`[t]` in the lobby), as the
    /// name it was stored under; `None`: never chosen (or no such account).
    pub async fn stones(&self, account: &str) -> Result<Option<String>, StoreError> {
        self.setting(account, Setting::Stones).await
    }

    /// Keeps the stones the account's player chose: a short lower-case
    /// name (the caller's, such as "emoji" or "ascii"). `false`: no such
    /// account.
    pub async fn set_stones(&self, account: &str, stones: &str) -> Result<bool, StoreError> {
        self.set_setting(account, Setting::Stones, stones).await
    }

    /// The language the account's player chose (`[L]` in the lobby), as
    /// its id ("de"); `None`: never chosen (or no such account).
    pub async fn language(&self, account: &str) -> Result<Option<String>, StoreError> {
        self.setting(account, Setting::Language).await
    }

    /// Keeps the language the account's player chose: a short id such as
    /// "de" or "zh-TW". `false`: no such account.
    pub async fn set_language(&self, account: &str, lang: &str) -> Result<bool, StoreError> {
        self.set_setting(account, Setting::Language, lang).await
    }

    async fn setting(&self, account: &str, which: Setting) -> Result<Option<String>, StoreError> {
        with_pool!(&self.read, p => {
            let row: Option<(Option<String>,)> = sqlx::query_as(which.select())
                .bind(account)
                .fetch_optional(p)
                .await?;
            Ok(row.and_then(|(s,)| s))
        })
    }

    /// Keeps a short setting: letters, digits and `-`, at most
    /// [`MAX_STONES_LEN`] bytes (the stones lower-case).
    async fn set_setting(
        &self,
        account: &str,
        which: Setting,
        value: &str,
    ) -> Result<bool, StoreError> {
        let fits = match which {
            Setting::Stones => value
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            Setting::Language => value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-'),
        };
        if value.is_empty() || value.len() > MAX_STONES_LEN || !fits {
            return Err(StoreError::Invalid(format!(
                "bad {} {value:?}",
                which.column()
            )));
        }
        with_pool!(&self.write, p => {
            let done = sqlx::query(which.update())
                .bind(account)
                .bind(value)
                .execute(p)
                .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// An account's keys, oldest first.
    pub async fn keys(&self, account: &str) -> Result<Vec<KeyInfo>, StoreError> {
        with_pool!(&self.read, p => {
            let rows: Vec<(String, i64)> = sqlx::query_as(
                "SELECT fingerprint, added_ms FROM keys WHERE account = $1 ORDER BY added_ms, fingerprint",
            )
            .bind(account)
            .fetch_all(p)
            .await?;
            Ok(rows.into_iter().map(|(fingerprint, added_ms)| KeyInfo { fingerprint, added_ms }).collect())
        })
    }

    /// Removes one of an account's keys; never its last.
    pub async fn remove_key(&self, account: &str, fingerprint: &str) -> Result<(), KeyError> {
        with_pool!(&self.write, p => {
            let mut tx = p.begin().await.map_err(db)?;
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM keys WHERE account = $1")
                .bind(account)
                .fetch_one(&mut *tx)
                .await
                .map_err(db)?;
            let owned: Option<String> =
                sqlx::query_scalar("SELECT fingerprint FROM keys WHERE account = $1 AND fingerprint = $2")
                    .bind(account)
                    .bind(fingerprint)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db)?;
            if owned.is_none() {
                return Err(KeyError::NotFound);
            }
            if count <= 1 {
                return Err(KeyError::LastKey);
            }
            sqlx::query("DELETE FROM keys WHERE account = $1 AND fingerprint = $2")
                .bind(account)
                .bind(fingerprint)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_codes_read_back_however_typed() {
        let code = new_link_code();
        assert_eq!(code.len(), 9);
        assert_eq!(&code[4..5], "-");
        assert_eq!(normalize_link_code(&code).as_deref(), Some(code.as_str()));
        assert_eq!(
            normalize_link_code(&code.to_lowercase().replace('-', " ")).as_deref(),
            Some(code.as_str())
        );
        assert_eq!(normalize_link_code("ABCD-EFG"), None);
        assert_eq!(
            normalize_link_code("ABCD-EFG0"),
            None,
            "0 is not in the alphabet"
        );
        assert_eq!(normalize_link_code(&"A".repeat(10_000)), None);
        assert_ne!(new_link_code(), new_link_code());
    }

    #[test]
    fn names_must_be_clean_and_unreserved() {
        assert_eq!(valid_name("Ann").as_deref(), Ok("ann"));
        assert!(valid_name("computer").is_err());
        assert!(valid_name("ann\x1b[31m").is_err());
        assert!(valid_name("   ").is_err());
        assert!(valid_name(&"a".repeat(100)).is_err());
    }

    #[test]
    fn a_refused_name_says_why() {
        let long = "x".repeat(40);
        assert_eq!(valid_name(&long), Err(NameProblem::TooLong { columns: 40 }));
        assert_eq!(
            valid_name(&long).unwrap_err().to_string(),
            "it is 40 columns wide; at most 20"
        );
        // Wide characters count two columns each.
        assert_eq!(
            valid_name(&"\u{4e2d}".repeat(11)),
            Err(NameProblem::TooLong { columns: 22 })
        );
        assert_eq!(valid_name("   "), Err(NameProblem::Empty));
        assert_eq!(valid_name("\x1b[31mred"), Err(NameProblem::Unshowable));
        assert_eq!(valid_name("a\u{200b}b"), Err(NameProblem::Unshowable));
        assert_eq!(valid_name(" ann"), Err(NameProblem::Spaces));
        assert_eq!(valid_name("ann  lee"), Err(NameProblem::Spaces));
        assert_eq!(valid_name("Jose\u{301}"), Err(NameProblem::NotComposed));
        assert_eq!(valid_name("---"), Err(NameProblem::NoLetters));
        assert_eq!(valid_name("C0mputer"), Err(NameProblem::Reserved));
        assert!(valid_name("ann lee").is_ok());
        assert!(valid_name(&"x".repeat(20)).is_ok());
        assert!(valid_name("Jos\u{e9}").is_ok());
    }
}
