//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct SolveArgs {}

pub fn run(_args: SolveArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
