//! Who a connection is, as the store knows it: bans at login, an account
//! for every SSH key (made on the first visit, found again on the next),
//! a second key linked with `ssh LINK-CODE@host`, guests kept off account
//! names, and renames through the store. A store that cannot be reached
//! does not stop anyone playing: the person plays as a guest meanwhile.

use crate::lang::Value;
use crate::lobby::naming::{guest_name, suggested_name};
use crate::lobby::state::{Player, rating_index};
use crate::metrics::dropped::STORE_WRITE;
use crate::store::{
    AccountError, LinkError, NameProblem, RenameError, Store, ban_covers, normalize_link_code,
    now_ms,
};
use crate::term::board::Theme;

/// A message id and its arguments: words the session makes in its
/// person's language.
pub type Words = (&'static str, Vec<(&'static str, Value<'static>)>);

/// How a login went.
pub enum Login {
    /// Refused: the key or the address is banned (the reason, for the person).
    Banned(String),
    Welcome(Welcome),
}

/// Someone let in.
#[derive(Default)]
pub struct Welcome {
    /// The display name to ask the lobby for (`None`: a guest name).
    pub name: Option<String>,
    /// The account and its ratings, for a player with a key.
    pub player: Option<Player>,
    /// Something to tell the person in the lobby (a link code that did
    /// not work, the store being away).
    pub notice: Option<WelcomeNotice>,
    /// The stones the account's player chose on an earlier visit (`None`:
    /// never chosen; the terminal type decides).
    pub stones: Option<Theme>,
    /// The language the account's player chose on an earlier visit
    /// (`None`: never chosen; the client's LANG or the default decides).
    pub lang: Option<crate::lang::Lang>,
}

/// What a person is told as they arrive in the lobby (the words are
/// made by their session, in their language).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WelcomeNotice {
    /// The store cannot be reached: a guest this time.
    StoreDown,
    /// The link code (the login name) joined this key to the account.
    Linked(String),
    LinkUnknown(String),
    LinkExpired(String),
    LinkKeyTaken(String),
}

impl WelcomeNotice {
    /// The message id and its arguments.
    pub fn words(&self) -> Words {
        let text = |s: &String| Value::from(s.clone());
        match self {
            WelcomeNotice::StoreDown => ("welcome-store-down", vec![]),
            WelcomeNotice::Linked(name) => ("welcome-linked", vec![("name", text(name))]),
            WelcomeNotice::LinkUnknown(code) => {
                ("welcome-link-unknown", vec![("code", text(code))])
            }
            WelcomeNotice::LinkExpired(code) => {
                ("welcome-link-expired", vec![("code", text(code))])
            }
            WelcomeNotice::LinkKeyTaken(code) => {
                ("welcome-link-key-taken", vec![("code", text(code))])
            }
        }
    }
}

/// A choice of the player's that an account keeps.
#[derive(Debug, Clone, Copy)]
pub enum Setting {
    /// The stones (`[t]`).
    Stones(Theme),
    /// The language (`[L]`).
    Language(crate::lang::Lang),
}

/// What a banned person reads.
pub(crate) fn banned_text(lang: crate::lang::Lang, reason: &str, until_ms: Option<i64>) -> String {
    let hours = until_ms.map(|ms| ((ms - now_ms()).max(0) + 3_599_999) / 3_600_000);
    let reason = crate::text::sanitize(reason, 200);
    let id = match (hours, reason.is_empty()) {
        (None, true) => "banned-plain",
        (None, false) => "banned-reason",
        (Some(_), true) => "banned-for",
        (Some(_), false) => "banned-for-reason",
    };
    lang.text_with(
        id,
        &[
            ("hours", hours.unwrap_or(0).into()),
            ("reason", reason.into()),
        ],
    )
}

/// The ban in `bans` that covers a session from `ip` with `key` and
/// `account`, if any: what the person reads.
pub(crate) fn banned(
    lang: crate::lang::Lang,
    bans: &[crate::store::Ban],
    ip: Option<std::net::IpAddr>,
    key: Option<&str>,
    account: Option<&str>,
) -> Option<String> {
    bans.iter()
        .find(|b| ban_covers(&b.target, ip, key, account))
        .map(|b| banned_text(lang, &b.reason, b.until_ms))
}

/// Looks the person up: bans first (address or network, then key), then
/// the account (and the bans on it).
pub async fn log_in(
    store: &Store,
    ip: &str,
    user: &str,
    key: Option<&str>,
    lang: crate::lang::Lang,
) -> Login {
    let now = now_ms();
    let ip = ip.parse().ok();
    let bans = match store.bans_in_force(now).await {
        Ok(bans) => bans,
        Err(e) => {
            tracing::warn!(error = %e, "store unreachable: ban not checked");
            Vec::new()
        }
    };
    if let Some(text) = banned(lang, &bans, ip, key, None) {
        return Login::Banned(text);
    }
    let Some(fp) = key else {
        return Login::Welcome(guest(store, user).await);
    };
    match with_account(store, user, fp, now).await {
        Ok(w) => {
            let account = w.player.as_ref().map(|p| p.account.as_str());
            match banned(lang, &bans, ip, key, account) {
                Some(text) => Login::Banned(text),
                None => Login::Welcome(w),
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "store unreachable: playing as a guest");
            // A guest's name, never the account's (nor the login's, which
            // may be an account's name the store cannot check now): not the
            // one this key's account may have been given either.
            let own = guest_name(Some(fp), &mut crate::rng::make_rng(None));
            let mut rng = crate::rng::make_rng(None);
            let name = std::iter::repeat_with(|| guest_name(None, &mut rng))
                .find(|n| *n != own)
                .unwrap_or_default();
            Login::Welcome(Welcome {
                name: Some(name),
                player: None,
                notice: Some(WelcomeNotice::StoreDown),
                stones: None,
                lang: None,
            })
        }
    }
}

/// A guest: the name the login suggests, unless an account holds it.
async fn guest(store: &Store, user: &str) -> Welcome {
    let name = match suggested_name(user) {
        Some(n) => match store.name_taken(&n).await {
            Ok(None) => Some(n),
            Ok(Some(_)) => None,
            Err(e) => {
                tracing::warn!(error = %e, "store unreachable: name not checked");
                None
            }
        },
        None => None,
    };
    Welcome {
        name,
        ..Welcome::default()
    }
}

/// The account of key `fp`: linked by a code given as the user name,
/// found, or made now.
async fn with_account(
    store: &Store,
    user: &str,
    fp: &str,
    now: i64,
) -> Result<Welcome, crate::store::StoreError> {
    let mut notice = None;
    let mut account = store.account_by_key(fp).await?;
    if let Some(code) = normalize_link_code(user) {
        match store.redeem_link_code(&code, fp, now).await {
            Ok(a) => {
                notice = Some(WelcomeNotice::Linked(a.name.clone()));
                account = Some(a);
            }
            Err(LinkError::Store(e)) => return Err(e),
            Err(LinkError::Unknown) => notice = Some(WelcomeNotice::LinkUnknown(code)),
            Err(LinkError::Expired) => notice = Some(WelcomeNotice::LinkExpired(code)),
            Err(LinkError::KeyTaken) => notice = Some(WelcomeNotice::LinkKeyTaken(code)),
        }
    }
    let (account, stones, lang) = match account {
        Some(a) => {
            // Settings only: not worth turning the player into a guest.
            let stones = match store.stones(&a.id).await {
                Ok(s) => s.as_deref().and_then(Theme::from_name),
                Err(e) => {
                    tracing::warn!(error = %e, "stones setting not read");
                    None
                }
            };
            let lang = match store.language(&a.id).await {
                Ok(l) => l.as_deref().and_then(crate::lang::Lang::of_id),
                Err(e) => {
                    tracing::warn!(error = %e, "language setting not read");
                    None
                }
            };
            (a, stones, lang)
        }
        None => (create(store, user, fp, now).await?, None, None),
    };
    let mut ratings = [None; 2];
    for info in store.ratings(&account.id, now).await? {
        if let Some(i) = rating_index(info.game) {
            ratings[i] = Some(info.rating.rating.round().max(0.0) as u32);
        }
    }
    Ok(Welcome {
        name: Some(account.name),
        player: Some(Player {
            account: account.id,
            ratings,
        }),
        notice,
        stones,
        lang,
    })
}

/// A first visit: an account under the name the login suggests (or a
/// guest-style name), numbered when another account has it.
async fn create(
    store: &Store,
    user: &str,
    fp: &str,
    now: i64,
) -> Result<crate::store::Account, crate::store::StoreError> {
    let base = suggested_name(user)
        .unwrap_or_else(|| guest_name(Some(fp), &mut crate::rng::make_rng(None)));
    let mut last = None;
    for n in 1..=20u32 {
        let name = if n == 1 {
            base.clone()
        } else {
            let suffix = n.to_string();
            let keep = crate::text::MAX_NAME_WIDTH.saturating_sub(suffix.len());
            format!("{}{suffix}", crate::text::sanitize(&base, keep))
        };
        match store.create_account(fp, &name, now).await {
            Ok(a) => {
                tracing::info!(account = %a.id, name = %a.name, "account created");
                return Ok(a);
            }
            Err(AccountError::Store(e)) => return Err(e),
            Err(AccountError::KeyTaken) => {
                // Made by another connection of the same key just now.
                if let Some(a) = store.account_by_key(fp).await? {
                    return Ok(a);
                }
            }
            Err(e) => last = Some(e),
        }
    }
    Err(crate::store::StoreError::Invalid(format!(
        "no free name for a new account: {}",
        last.map_or_else(String::new, |e| e.to_string())
    )))
}

/// Keeps a setting an account's player chose (the stones, `[t]`; the
/// language, `[L]`), in the background (a store that is away only costs
/// the setting, counted and logged), after the write before it (`after`),
/// so the last choice is the one kept.
pub fn keep_setting(
    store: &Store,
    account: &str,
    setting: Setting,
    after: Option<tokio::task::JoinHandle<()>>,
) -> tokio::task::JoinHandle<()> {
    let (store, account) = (store.clone(), account.to_string());
    tokio::spawn(async move {
        if let Some(before) = after {
            // Only the order matters: the write before has ended, well or
            // not (it counted itself if it failed).
            let _ = before.await;
        }
        let wait = std::time::Duration::from_secs(10);
        let write = async {
            match setting {
                Setting::Stones(stones) => store.set_stones(&account, stones.name()).await,
                Setting::Language(lang) => store.set_language(&account, lang.id()).await,
            }
        };
        let why = match tokio::time::timeout(wait, write).await {
            Ok(Ok(_)) => return,
            Ok(Err(e)) => e.to_string(),
            Err(_) => "the store did not answer".to_string(),
        };
        store.dropped(
            STORE_WRITE,
            format_args!("{setting:?} of account {account} not kept: {why}"),
        );
    })
}

/// Why a name cannot be had (the words are made by the session).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameRefused {
    /// Another account has it.
    Taken,
    /// Renamed less than a minute ago: wait this many seconds.
    TooSoon(u64),
    /// The store's rules refuse it, saying why.
    Invalid(NameProblem),
    /// The store cannot rename just now.
    Unavailable,
    /// A guest asked for an account's name.
    Registered,
}

impl NameRefused {
    /// The message id and arguments of the words for `name`.
    pub fn words(&self, name: &str) -> Words {
        let n = ("name", Value::from(name.to_string()));
        match self {
            NameRefused::Taken => ("name-owned", vec![n]),
            NameRefused::TooSoon(s) => ("name-too-soon", vec![("seconds", Value::from(*s))]),
            NameRefused::Invalid(why) => match why {
                NameProblem::Empty => ("name-invalid-empty", vec![]),
                NameProblem::Unshowable => ("name-invalid-unshowable", vec![]),
                NameProblem::TooLong { columns } => (
                    "name-invalid-too-long",
                    vec![
                        ("columns", Value::from(*columns)),
                        ("max", Value::from(crate::text::MAX_NAME_WIDTH)),
                    ],
                ),
                NameProblem::Spaces => ("name-invalid-spaces", vec![]),
                NameProblem::NotComposed => ("name-invalid-not-composed", vec![]),
                NameProblem::NoLetters => ("name-invalid-no-letters", vec![]),
                NameProblem::Reserved => ("name-invalid-reserved", vec![]),
            },
            NameRefused::Unavailable => ("name-unavailable", vec![]),
            NameRefused::Registered => ("name-registered", vec![n]),
        }
    }
}

/// Why a name cannot be had; `None`: it can.
pub async fn check_name(store: &Store, account: Option<&str>, name: &str) -> Option<NameRefused> {
    match account {
        Some(account) => match store.rename(account, name, now_ms()).await {
            Ok(()) => None,
            Err(RenameError::Taken) => Some(NameRefused::Taken),
            Err(RenameError::TooSoon { wait_secs }) => {
                Some(NameRefused::TooSoon(wait_secs.max(0) as u64))
            }
            Err(RenameError::Invalid(why)) => Some(NameRefused::Invalid(why)),
            Err(e) => {
                tracing::warn!(error = %e, "rename failed");
                Some(NameRefused::Unavailable)
            }
        },
        None => match store.name_taken(name).await {
            Ok(Some(_)) => Some(NameRefused::Registered),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(error = %e, "store unreachable: name not checked");
                None
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;
    use std::sync::Arc;

    /// Every reason a name is refused is worded in every language, with
    /// its numbers placed (no English reason inside a German sentence).
    #[test]
    fn every_refused_name_is_worded_in_every_language() {
        use crate::lang::Lang;
        use crate::store::NameProblem as P;
        let all = [
            NameRefused::Taken,
            NameRefused::TooSoon(42),
            NameRefused::Unavailable,
            NameRefused::Registered,
            NameRefused::Invalid(P::Empty),
            NameRefused::Invalid(P::Unshowable),
            NameRefused::Invalid(P::TooLong { columns: 33 }),
            NameRefused::Invalid(P::Spaces),
            NameRefused::Invalid(P::NotComposed),
            NameRefused::Invalid(P::NoLetters),
            NameRefused::Invalid(P::Reserved),
        ];
        for why in &all {
            let (id, args) = why.words("Zoë");
            let texts: Vec<String> = Lang::ALL.iter().map(|l| l.text_with(id, &args)).collect();
            for (lang, text) in Lang::ALL.iter().zip(&texts) {
                assert!(
                    !text.contains(id) && !text.is_empty(),
                    "{lang:?} {id}: {text}"
                );
                for (_, v) in &args {
                    let v = match v {
                        Value::String(s) => s.to_string(),
                        Value::Number(n) => n.value.to_string(),
                        _ => continue,
                    };
                    assert!(text.contains(&v), "{lang:?} {id} without {v}: {text}");
                }
            }
            assert_ne!(texts[0], texts[1], "{id} is English in German");
            assert_ne!(texts[0], texts[2], "{id} is English in Chinese");
        }
        let (id, args) = NameRefused::Invalid(P::Reserved).words("C0mputer");
        assert!(args.is_empty());
        assert_eq!(
            Lang::De.text(id),
            "dieser Name ist für den Computer reserviert"
        );
    }

    /// A setting the store cannot keep is counted at `/metrics`, not
    /// only logged.
    #[tokio::test]
    async fn a_setting_not_kept_shows_in_the_metrics() {
        let dir = tempfile::tempdir().unwrap();
        let metrics = Arc::new(Metrics::new());
        let store = crate::store::scratch_counting(dir.path(), &metrics).await;
        store.close().await;
        keep_setting(
            &store,
            "some-account",
            Setting::Stones(Theme::default()),
            None,
        )
        .await
        .unwrap();
        let text = metrics.encode();
        assert!(
            text.contains("inarow_dropped_total{what=\"store_write\"} 1\n"),
            "{text}"
        );
    }
}
