//! `inarow book ...`: the Connect Four opening book. Not implemented yet.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Compute the opening book with our own solver (offline, resumable).
    Build {},
}

pub fn run(_cmd: BookCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
