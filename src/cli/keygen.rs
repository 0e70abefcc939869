//! `inarow keygen`: creates an ed25519 SSH host key.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::server::hostkey;

#[derive(Debug, clap::Args)]
pub struct KeygenArgs {
    /// Where to write the key (default: keys/ssh_host_ed25519_key).
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Replace an existing key (players will see a changed-host-key warning).
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: KeygenArgs) -> anyhow::Result<ExitCode> {
    let path = args
        .path
        .unwrap_or_else(|| PathBuf::from("keys/ssh_host_ed25519_key"));
    let key = hostkey::create(&path, args.force)?;
    outln!("wrote {} ({})", path.display(), hostkey::fingerprint(&key));
    Ok(ExitCode::SUCCESS)
}
