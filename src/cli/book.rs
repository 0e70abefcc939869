//! `inarow book ...`: the Connect Four opening book.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;

use crate::engine::connect4::Book;

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Compute the opening book with our own solver (offline, resumable).
    Build {},
}

/// Reads a book file (the edge where book bytes come from disk).
pub fn load_book(path: &Path) -> anyhow::Result<Book> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Book::from_bytes(&bytes).with_context(|| format!("bad book file {}", path.display()))
}

pub fn run(_cmd: BookCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
