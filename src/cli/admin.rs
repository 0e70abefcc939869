//! `inarow admin`: bans, accounts and renames on the store the
//! configuration names, also while the host runs (a ban refuses the next
//! login, and the host closes the sessions it covers within seconds).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::store::{BAN_TARGETS, BanTarget, RenameError, Store, account_target, now_ms};

#[derive(Debug, clap::Subcommand)]
pub enum AdminCommand {
    /// Refuse a key (its SHA256 fingerprint), an IP address or network
    /// (CIDR), or an account (by name), and close its open sessions.
    Ban(BanArgs),
    /// Lift a ban.
    Unban(TargetArgs),
    /// List accounts (with --name: those whose name contains TEXT).
    Users(UsersArgs),
    /// Give an account another name.
    Rename(RenameArgs),
}

#[derive(Debug, clap::Args)]
pub struct BanArgs {
    /// A key fingerprint (`SHA256:...`), an IP address, a network
    /// (`203.0.113.0/24`) or an account's name.
    #[arg(value_name = "FINGERPRINT|IP|NETWORK|ACCOUNT")]
    pub target: String,
    /// Shown to the person when they are refused.
    #[arg(long, default_value = "")]
    pub reason: String,
    /// For this many hours (default: until lifted).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub hours: Option<u64>,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct TargetArgs {
    #[arg(value_name = "FINGERPRINT|IP|NETWORK|ACCOUNT")]
    pub target: String,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct UsersArgs {
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct RenameArgs {
    pub old: String,
    pub new: String,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(cmd: AdminCommand) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(admin(cmd))
}

async fn admin(cmd: AdminCommand) -> anyhow::Result<ExitCode> {
    use super::games::open_store;
    match cmd {
        AdminCommand::Ban(a) => {
            // What cannot match anyone is refused before the store is opened.
            let target = BanTarget::parse(&a.target)?;
            let store = open_store(a.config.as_ref()).await?;
            let resolved = resolve(&store, target).await;
            let (stored, shown) = match resolved {
                Ok(t) => t,
                Err(e) => {
                    store.close().await;
                    return Err(e);
                }
            };
            let ban = store.ban(&stored, &a.reason, a.hours, now_ms()).await;
            store.close().await;
            match ban?.until_ms {
                Some(until) => outln!("banned {shown} until {}", crate::store::rfc3339(until)),
                None => outln!("banned {shown} until lifted"),
            }
        }
        AdminCommand::Unban(a) => {
            let store = open_store(a.config.as_ref()).await?;
            // A ban made before targets were checked is lifted by its text.
            let (stored, shown) = match BanTarget::parse(&a.target) {
                Ok(target) => resolve(&store, target)
                    .await
                    .unwrap_or_else(|_| (a.target.trim().to_string(), a.target.trim().to_string())),
                Err(_) => (a.target.trim().to_string(), a.target.trim().to_string()),
            };
            let lifted = store.unban(&stored).await;
            store.close().await;
            if !lifted? {
                bail!("{} is not banned", crate::text::sanitize_quote(&shown, 80));
            }
            outln!("unbanned {}", crate::text::sanitize(&shown, 80));
        }
        AdminCommand::Users(a) => {
            let store = open_store(a.config.as_ref()).await?;
            let users = store.users(a.name.as_deref().unwrap_or("")).await?;
            store.close().await;
            for u in users {
                outln!(
                    "{}  {}  created {}  {} key{}{}",
                    u.id,
                    crate::text::sanitize(&u.name, 40),
                    crate::store::rfc3339(u.created_ms),
                    u.keys,
                    if u.keys == 1 { "" } else { "s" },
                    if u.fingerprints.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", u.fingerprints.join(" "))
                    }
                );
            }
        }
        AdminCommand::Rename(a) => {
            let store = open_store(a.config.as_ref()).await?;
            let r = store.admin_rename(&a.old, &a.new).await;
            store.close().await;
            match r {
                Ok(()) => outln!("renamed {} to {}", a.old.trim(), a.new.trim()),
                Err(RenameError::NoAccount) => bail!(
                    "no account is named {}",
                    crate::text::sanitize_quote(&a.old, 40)
                ),
                Err(RenameError::Taken) => bail!(
                    "{} is taken by another account",
                    crate::text::sanitize_quote(&a.new, 40)
                ),
                Err(RenameError::Invalid(why)) => bail!(
                    "{} cannot be a name: {why}",
                    crate::text::sanitize_quote(&a.new, 40)
                ),
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The text a ban is stored under, and how the command names it: an
/// account's name becomes that account (an error if none has it).
async fn resolve(store: &Store, target: BanTarget) -> anyhow::Result<(String, String)> {
    Ok(match target {
        BanTarget::Key(fp) => (fp.clone(), fp),
        BanTarget::Address(ip) => (ip.to_string(), ip.to_string()),
        BanTarget::Network(ip, bits) => (format!("{ip}/{bits}"), format!("{ip}/{bits}")),
        BanTarget::Name(name) => {
            let account = match store.name_taken(&name).await? {
                Some(id) => store.account(&id).await?,
                None => None,
            };
            let Some(account) = account else {
                bail!(
                    "{} is not a key fingerprint, an address or network, nor an account's name: {BAN_TARGETS}",
                    crate::text::sanitize_quote(&name, 60)
                );
            };
            (
                account_target(&account.id),
                format!(
                    "the account {} ({})",
                    crate::text::sanitize(&account.name, 40),
                    account.id
                ),
            )
        }
    })
}
