//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BenchServerArgs {}

pub fn run(_args: BenchServerArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
