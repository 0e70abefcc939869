//! Command-line entry points. `main` parses the arguments with clap, runs one
//! subcommand and maps its result to an exit code; every subcommand lives in
//! its own file and owns its own argument struct.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` for a command's output, in a function returning
/// `anyhow::Result`: a write that fails (the reader went away, as in
/// `inarow bench gomoku | head -3`) returns the error instead of
/// panicking, and [`main`] ends a closed pipe quietly.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err($crate::cli::OutputError)?
    }};
}

/// `print!` as [`outln!`] is `println!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*).map_err($crate::cli::OutputError)?
    }};
}

pub mod admin;
pub mod analyze;
pub mod bench;
pub mod book;
pub mod games;
pub mod keygen;
pub mod pbrain;
pub mod play;
pub mod puzzles;
pub mod serve;
pub mod solve;
pub mod train;

/// k-in-a-row board games in the terminal: Connect Four, Gomoku and Renju.
#[derive(Debug, Parser)]
#[command(name = "inarow", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play in this terminal: against the computer or two players on one keyboard.
    Play(play::PlayArgs),
    /// Run the game host (SSH, and telnet when enabled).
    Serve(serve::ServeArgs),
    /// Create an ed25519 SSH host key.
    Keygen(keygen::KeygenArgs),
    /// Solve Connect Four positions given as move strings, one per line on stdin.
    Solve(solve::SolveArgs),
    /// Analyse a game given as its moves: every move's value before and
    /// after, the best moves, and what the move did (blunder, mistake...).
    Analyze(analyze::AnalyzeArgs),
    /// Benchmarks that print figures.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// The Connect Four opening book.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// The Gomoku engine on stdin/stdout, speaking the Gomocup (pbrain) protocol.
    Pbrain(pbrain::PbrainArgs),
    /// The recorded games: export them, show one.
    #[command(subcommand)]
    Games(games::GamesCommand),
    /// Puzzles made from real games: build them, list them, show one.
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
    /// Bans, accounts and renames, on the store the configuration names.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// Make the data the engines ship with (self-play games, fitted weights).
    #[command(subcommand)]
    Train(train::TrainCommand),
}

/// Parses the command line, runs it, prints any error chain and returns the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader of our output went away (`| head`): stop quietly,
        // with the status a shell reports for a command ended that way.
        Err(err) if closed_pipe(&err) => ExitCode::from(141),
        Err(err) => {
            eprintln!("inarow: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// A command's output could not be written ([`outln!`]).
#[derive(Debug, thiserror::Error)]
#[error("writing the output: {0}")]
pub struct OutputError(pub std::io::Error);

/// Whether `err` is a write of our output to a pipe whose reader has closed
/// it (and not, say, a broken connection inside a benchmark).
fn closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<OutputError>()
            .is_some_and(|e| e.0.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs one parsed command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Keygen(args) => keygen::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Bench(cmd) => bench::run(cmd),
        Command::Book(cmd) => book::run(cmd),
        Command::Pbrain(args) => pbrain::run(args),
        Command::Games(cmd) => games::run(cmd),
        Command::Puzzles(cmd) => puzzles::run(cmd),
        Command::Admin(cmd) => admin::run(cmd),
        Command::Train(cmd) => train::run(cmd),
    }
}
