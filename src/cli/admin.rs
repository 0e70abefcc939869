//! `inarow admin`: bans, accounts and renames on the store the
//! configuration names, also while the host runs (a ban takes effect at
//! the next login).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::store::{RenameError, now_ms};

#[derive(Debug, clap::Subcommand)]
pub enum AdminCommand {
    /// Refuse a key (its SHA256 fingerprint) or an IP address at login.
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
    /// A key fingerprint (`SHA256:...`) or an IP address.
    #[arg(value_name = "FINGERPRINT|IP")]
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
    #[arg(value_name = "FINGERPRINT|IP")]
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
            let store = open_store(a.config.as_ref()).await?;
            let ban = store.ban(&a.target, &a.reason, a.hours, now_ms()).await?;
            match ban.until_ms {
                Some(until) => outln!(
                    "banned {} until {}",
                    ban.target,
                    super::games::rfc3339(until)
                ),
                None => outln!("banned {} until lifted", ban.target),
            }
            store.close().await;
        }
        AdminCommand::Unban(a) => {
            let store = open_store(a.config.as_ref()).await?;
            let lifted = store.unban(&a.target).await?;
            store.close().await;
            if !lifted {
                bail!(
                    "{} is not banned",
                    crate::text::sanitize_quote(&a.target, 80)
                );
            }
            outln!("unbanned {}", a.target.trim());
        }
        AdminCommand::Users(a) => {
            let store = open_store(a.config.as_ref()).await?;
            let users = store.users(a.name.as_deref().unwrap_or("")).await?;
            store.close().await;
            for u in users {
                outln!(
                    "{}  {}  created {}  {} key{}",
                    u.id,
                    crate::text::sanitize(&u.name, 40),
                    super::games::rfc3339(u.created_ms),
                    u.keys,
                    if u.keys == 1 { "" } else { "s" }
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
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
