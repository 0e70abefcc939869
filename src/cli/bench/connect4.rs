//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BenchConnect4Args {}

pub fn run(_args: BenchConnect4Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
