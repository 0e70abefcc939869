//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BenchGomokuArgs {}

pub fn run(_args: BenchGomokuArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
