//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct PbrainArgs {}

pub fn run(_args: PbrainArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
