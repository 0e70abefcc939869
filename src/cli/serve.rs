//! `inarow serve`: runs the game host.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::config::Config;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The configuration file (TOML). Without it the built-in defaults
    /// apply; they are the values listed in config/inarow.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Sets up logging: RUST_LOG if set, else the configured level.
pub fn init_logging(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    // Fails only when logging is set up already (tests): that one stays.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = match &args.config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    init_logging(&config.log_level);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(crate::server::run_until_signal(config))?;
    Ok(ExitCode::SUCCESS)
}
