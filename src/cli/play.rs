//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct PlayArgs {}

pub fn run(_args: PlayArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
