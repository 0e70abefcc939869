//! `inarow solve`: exact Connect Four scores for positions read from stdin,
//! one move string per line, in the format of the reference sets.
//!
//! Each line is `<moves>` optionally followed by whitespace and anything
//! else (the reference files carry a score there; it is ignored). `<moves>`
//! are digits 1-7, leftmost column first; an empty move string is the empty
//! board. For every good line stdout gets `<moves> <score>`; with
//! `--analyze` it gets `<moves>` and seven scores, one per column from left
//! to right, each the score for the side to move after playing that column,
//! or `full` for a full column. A bad line gets `line N: <reason>` on stderr
//! and the next lines go on; the exit code is 1 if any line was bad.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::engine::connect4::book::Book;
use crate::engine::connect4::{C4Position, Cutoff, ParseMovesError, Solver};

use super::OutputError;

/// Longest line accepted (bytes): a move string has at most 42 digits, so
/// anything this long is garbage and is skipped without being buffered.
const MAX_LINE: usize = 4096;

#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Only win (1), draw (0) or loss (-1) for the side to move; faster.
    #[arg(long)]
    pub weak: bool,
    /// Print the score of each of the 7 moves instead of the position's score.
    #[arg(long)]
    pub analyze: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub tt_mb: usize,
    /// Opening book to answer early positions from (default: the built-in book).
    #[arg(long, conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Solve everything by search, without the opening book.
    #[arg(long)]
    pub no_book: bool,
}

/// Why a line of input is not a position to solve.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("line too long (more than {MAX_LINE} bytes)")]
    TooLong,
    #[error("{0}")]
    Moves(#[from] ParseMovesError),
}

/// Splits a line into its move string and the position it reaches.
pub(crate) fn parse_line(line: &str) -> Result<(&str, C4Position), LineError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let moves = line
        .split(|c: char| c.is_ascii_whitespace())
        .next()
        .unwrap_or("");
    let pos = C4Position::from_moves(moves)?;
    Ok((moves, pos))
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (without the
/// newline). Longer lines are consumed to their end and reported as
/// `Err(TooLong)`. `Ok(false)` at end of input.
pub(crate) fn read_bounded_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> io::Result<Result<bool, LineError>> {
    buf.clear();
    let n = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(Ok(false));
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Ok(true));
    }
    if buf.len() <= MAX_LINE {
        // Last line without a newline.
        return Ok(Ok(true));
    }
    // Skip the rest of the over-long line.
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            break;
        }
        let len = chunk.len();
        input.consume(len);
    }
    Ok(Err(LineError::TooLong))
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let book = if args.no_book {
        None
    } else {
        Some(match &args.book {
            Some(path) => super::book::load_book(path)?,
            None => Book::builtin(),
        })
    };
    let mut solver = Solver::new(args.tt_mb);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut buf = Vec::new();
    let mut bad = false;
    for number in 1.. {
        let line = match read_bounded_line(&mut input, &mut buf).context("cannot read stdin")? {
            Ok(false) => break,
            Ok(true) => String::from_utf8_lossy(&buf),
            Err(e) => {
                eprintln!("line {number}: {e}");
                bad = true;
                continue;
            }
        };
        let (moves, pos) = match parse_line(&line) {
            Ok(parsed) => parsed,
            Err(e) => {
                eprintln!("line {number}: {e}");
                bad = true;
                continue;
            }
        };
        if args.analyze {
            let scores = solver
                .analyze_within(&pos, args.weak, book.as_ref(), Cutoff::NONE)
                .expect("a search without limits always finishes");
            let mut text = moves.to_string();
            for s in scores {
                match s {
                    Some(s) => text.push_str(&format!(" {s}")),
                    None => text.push_str(" full"),
                }
            }
            writeln!(out, "{text}").map_err(OutputError)?;
        } else {
            let score = book
                .as_ref()
                .and_then(|b| b.score(&pos))
                .map(|s| if args.weak { s.signum() } else { s })
                .unwrap_or_else(|| {
                    if args.weak {
                        solver.solve_weak(&pos)
                    } else {
                        solver.solve(&pos)
                    }
                });
            writeln!(out, "{moves} {score}").map_err(OutputError)?;
        }
        out.flush().map_err(OutputError)?;
    }
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lines() {
        let long = "1".repeat(MAX_LINE + 10);
        let text = format!("44\n{long}\n55 3\r\nlast");
        let mut input = io::Cursor::new(text.into_bytes());
        let mut buf = Vec::new();
        let mut got = Vec::new();
        loop {
            match read_bounded_line(&mut input, &mut buf).unwrap() {
                Ok(false) => break,
                Ok(true) => got.push(String::from_utf8(buf.clone()).unwrap()),
                Err(_) => got.push("<too long>".into()),
            }
        }
        assert_eq!(got, ["44", "<too long>", "55 3\r", "last"]);
        assert_eq!(parse_line("55 3\r").unwrap().0, "55");
        assert_eq!(parse_line("").unwrap().1.moves(), 0);
    }
}
