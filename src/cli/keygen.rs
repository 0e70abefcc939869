//! Not implemented yet.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct KeygenArgs {}

pub fn run(_args: KeygenArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
