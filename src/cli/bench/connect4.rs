//! `inarow bench connect4`: solve the reference positions, check every
//! score, and print speed figures per file and in total.
//!
//! Measured like the published reference: one position at a time, the
//! transposition table cleared before each position (clearing is not
//! timed), no opening book. Only the solve call is timed.

use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cli::solve::{parse_line, read_bounded_line};
use crate::engine::connect4::Solver;
use crate::engine::connect4::solver::Tuning;

/// The reference sets, easiest first, with the names the tutorial uses.
const SETS: [(&str, &str); 6] = [
    ("Test_L3_R1", "End-Easy"),
    ("Test_L2_R1", "Middle-Easy"),
    ("Test_L2_R2", "Middle-Medium"),
    ("Test_L1_R1", "Begin-Easy"),
    ("Test_L1_R2", "Begin-Medium"),
    ("Test_L1_R3", "Begin-Hard"),
];

/// The hardest set, the one `--hard-lines` samples.
const HARD_SET: &str = "Test_L1_R3";

#[derive(Debug, clap::Args)]
pub struct BenchConnect4Args {
    /// Files of `<moves> <score>` lines (default: the six reference sets in
    /// ../shared/bench/connect4/).
    pub files: Vec<PathBuf>,
    /// Solve only the first N lines of Test_L1_R3 (Begin-Hard), the slow set.
    #[arg(long, value_name = "N")]
    pub hard_lines: Option<usize>,
    /// Solve only the first N lines of every file.
    #[arg(long, value_name = "N")]
    pub lines: Option<usize>,
    /// Weak solver: compare only the sign of the scores.
    #[arg(long)]
    pub weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Print every position with its score, nodes and time.
    #[arg(long)]
    pub verbose: bool,
    /// Instead of the reference sets: play the perfect level against itself
    /// from the empty board and print the time of every move.
    #[arg(long)]
    pub selfplay: bool,
    /// With --selfplay: time budget per move in ms (default: unlimited).
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
    /// With --selfplay: opening book file (default: the built-in book).
    #[arg(long, conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// With --selfplay: play without the opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Search knobs for experiments, `name=value,...`.
    #[arg(long, hide = true, default_value = "")]
    pub tune: String,
}

/// Where the reference sets are: relative to the working directory, or to
/// the source tree this binary was built from.
fn default_dir() -> anyhow::Result<PathBuf> {
    let candidates = [
        PathBuf::from("../shared/bench/connect4"),
        PathBuf::from("shared/bench/connect4"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/connect4"),
    ];
    candidates
        .iter()
        .find(|dir| dir.join(SETS[0].0).is_file())
        .cloned()
        .with_context(|| {
            format!(
                "reference sets not found (looked in {}); name the files on the command line",
                candidates
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

#[derive(Default)]
struct Tally {
    positions: u64,
    matches: u64,
    time: Duration,
    nodes: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.positions += other.positions;
        self.matches += other.matches;
        self.time += other.time;
        self.nodes += other.nodes;
    }
}

/// A duration per position in a readable unit.
fn per_position(total: Duration, n: u64) -> String {
    if n == 0 {
        return "-".into();
    }
    let secs = total.as_secs_f64() / n as f64;
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else if secs >= 1e-3 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{:.2} µs", secs * 1e6)
    }
}

fn row(out: &mut impl Write, set: &str, file: &str, t: &Tally) -> std::io::Result<()> {
    let mean_nodes = if t.positions == 0 {
        0.0
    } else {
        t.nodes as f64 / t.positions as f64
    };
    let rate = if t.time.is_zero() {
        0.0
    } else {
        t.positions as f64 / t.time.as_secs_f64()
    };
    writeln!(
        out,
        "{set:<14} {file:<12} {:>9} {:>8} {:>12} {:>14.1} {:>12.1}",
        t.positions,
        t.matches,
        per_position(t.time, t.positions),
        mean_nodes,
        rate
    )
}

/// Perfect against perfect from the empty board, timing every move.
fn selfplay(args: &BenchConnect4Args) -> anyhow::Result<ExitCode> {
    use crate::engine::connect4::{C4Level, C4Player, Position};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let book = if args.no_book {
        None
    } else {
        Some(Arc::new(match &args.book {
            Some(p) => crate::cli::book::load_book(p)?,
            None => crate::engine::connect4::Book::builtin(),
        }))
    };
    let mut players = [
        C4Player::new(args.tt_mb, book.clone()),
        C4Player::new(args.tt_mb, book),
    ];
    let stop = AtomicBool::new(false);
    let mut rng = rand::rng();
    let mut moves = Vec::new();
    let mut pos = Position::new();
    let mut slowest = Duration::ZERO;
    loop {
        let side = pos.moves() % 2;
        let start = Instant::now();
        let deadline = start + Duration::from_millis(args.budget_ms.unwrap_or(365 * 86_400_000));
        let col = players[side].choose(&moves, C4Level::Perfect, deadline, &stop, &mut rng);
        let took = start.elapsed();
        slowest = slowest.max(took);
        let wins = pos.is_winning_move(col as usize);
        pos.play_col(col as usize);
        moves.push(col);
        println!(
            "stone {:>2}: column {} in {:.3} ms",
            pos.moves(),
            col + 1,
            took.as_secs_f64() * 1e3
        );
        if wins || pos.moves() == crate::engine::connect4::CELLS {
            let line: String = moves.iter().map(|c| char::from(b'1' + c)).collect();
            let result = if wins {
                format!("player {} wins with stone {}", side + 1, pos.moves())
            } else {
                "draw".to_string()
            };
            println!(
                "{result}; slowest move {:.3} ms; game {line}",
                slowest.as_secs_f64() * 1e3
            );
            return Ok(ExitCode::SUCCESS);
        }
    }
}

pub fn run(args: BenchConnect4Args) -> anyhow::Result<ExitCode> {
    if args.selfplay {
        return selfplay(&args);
    }
    let files: Vec<PathBuf> = if args.files.is_empty() {
        let dir = default_dir()?;
        SETS.iter().map(|(f, _)| dir.join(f)).collect()
    } else {
        args.files.clone()
    };
    let mut solver = Solver::new(args.tt_mb);
    let mut tuning = Tuning::default();
    tuning.parse(&args.tune).map_err(anyhow::Error::msg)?;
    solver.set_tuning(tuning);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "{} solver, {} MiB table cleared before each position (not timed), no book",
        if args.weak { "weak" } else { "strong" },
        solver.table_bytes() >> 20
    )?;
    writeln!(
        out,
        "{:<14} {:<12} {:>9} {:>8} {:>12} {:>14} {:>12}",
        "set", "file", "positions", "matches", "mean time", "mean nodes", "positions/s"
    )?;
    let mut total = Tally::default();
    for path in &files {
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let set = SETS
            .iter()
            .find(|(f, _)| *f == file_name)
            .map_or("-", |(_, name)| name);
        let mut limit = args.lines.unwrap_or(usize::MAX);
        if file_name == HARD_SET {
            limit = limit.min(args.hard_lines.unwrap_or(usize::MAX));
        }
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut input = BufReader::new(file);
        let mut buf = Vec::new();
        let mut tally = Tally::default();
        let mut number = 0;
        while number < limit {
            number += 1;
            let line = match read_bounded_line(&mut input, &mut buf)? {
                Ok(false) => break,
                Ok(true) => String::from_utf8_lossy(&buf).into_owned(),
                Err(e) => {
                    eprintln!("{}:{number}: {e}", path.display());
                    continue;
                }
            };
            let (moves, pos) = match parse_line(&line) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{}:{number}: {e}", path.display());
                    continue;
                }
            };
            let expected: Option<i32> = line
                .split_ascii_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok());
            solver.clear();
            solver.reset_nodes();
            let start = Instant::now();
            let score = if args.weak {
                solver.solve_weak(&pos)
            } else {
                solver.solve(&pos)
            };
            let elapsed = start.elapsed();
            let want = expected.map(|e| if args.weak { e.signum() } else { e });
            tally.positions += 1;
            tally.time += elapsed;
            tally.nodes += solver.nodes();
            if want == Some(score) {
                tally.matches += 1;
            } else {
                eprintln!(
                    "{}:{number}: {moves}: expected {}, got {score}",
                    path.display(),
                    want.map_or("no score".to_string(), |w| w.to_string())
                );
            }
            if args.verbose {
                writeln!(
                    out,
                    "{moves} {score} nodes {} time {:.3} ms",
                    solver.nodes(),
                    elapsed.as_secs_f64() * 1e3
                )?;
            }
        }
        row(&mut out, set, &file_name, &tally)?;
        out.flush()?;
        total.add(&tally);
    }
    row(&mut out, "total", "", &total)?;
    Ok(if total.matches == total.positions {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
