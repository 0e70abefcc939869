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
use crate::engine::Limits;
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
    /// With --selfplay, --book-moves, --player-games: time budget per move
    /// in ms (default: unlimited; 1000 for --player-games).
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
    /// With --selfplay, --book-moves, --player-games: opening book file
    /// (default: the built-in book).
    #[arg(long, conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// With --selfplay, --player-games: play without the opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Instead of the reference sets: time the perfect level's move from
    /// every position of the opening book (and the empty board).
    #[arg(long, conflicts_with = "selfplay")]
    pub book_moves: bool,
    /// Instead of the reference sets: the perfect level plays N games (both
    /// colours in turn) against an opponent that plays a random move that
    /// does not lose at once; prints its move times per stone number.
    #[arg(long, value_name = "N", conflicts_with_all = ["selfplay", "book_moves"])]
    pub player_games: Option<usize>,
    /// With --player-games: seed of the opponent's and player's choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
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

/// The book for the player benches: `--book`, none with `--no-book`, else
/// the built-in one.
fn bench_book(
    args: &BenchConnect4Args,
) -> anyhow::Result<Option<std::sync::Arc<crate::engine::connect4::Book>>> {
    Ok(if args.no_book {
        None
    } else {
        Some(std::sync::Arc::new(match &args.book {
            Some(p) => crate::cli::book::load_book(p)?,
            None => crate::engine::connect4::Book::builtin(),
        }))
    })
}

/// Median, 99th percentile and maximum of `times` (sorted here), in ms.
fn spread(times: &mut [Duration]) -> (f64, f64, f64) {
    if times.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let p99 = ((times.len() * 99).div_ceil(100)).clamp(1, times.len()) - 1;
    (
        ms(times[times.len() / 2]),
        ms(times[p99]),
        ms(times[times.len() - 1]),
    )
}

/// The perfect level's move time from every book position: the book tree
/// walked as the builder walks it (the player's best moves, every reply),
/// each position timed once (mirror images count once).
fn book_moves(args: &BenchConnect4Args) -> anyhow::Result<ExitCode> {
    use crate::engine::connect4::{C4Level, C4Player, C4Position, WIDTH};
    use std::sync::atomic::AtomicBool;
    let Some(book) = bench_book(args)? else {
        anyhow::bail!("--book-moves needs a book");
    };
    let mut player = C4Player::new(args.tt_mb, Some(book.clone()));
    let stop = AtomicBool::new(false);
    let mut rng = rand::rng();
    let budget = Duration::from_millis(args.budget_ms.unwrap_or(1000));
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<Vec<u8>> = vec![Vec::new()];
    stack.extend((0..WIDTH as u8).map(|c| vec![c]));
    let mut times = Vec::new();
    let mut over = 0;
    while let Some(moves) = stack.pop() {
        let pos = C4Position::from_columns(&moves).context("book walk")?;
        let Some(entry) = book.get(&pos) else {
            continue;
        };
        if !seen.insert(pos.canonical_key().0) {
            continue;
        }
        let start = Instant::now();
        let limits = Limits {
            start,
            ..Limits::new(budget)
        };
        let col = player.choose(&moves, C4Level::Perfect, &limits, &stop, &mut rng);
        let took = start.elapsed();
        if entry.best & (1 << col) == 0 {
            anyhow::bail!("position {moves:?}: column {col} is not one of the book's best moves");
        }
        if took >= budget {
            over += 1;
        }
        times.push(took);
        // The positions the computer's games reach are in the book too:
        // any move from a book position that leads to another.
        for col in 0..WIDTH as u8 {
            let mut next = moves.clone();
            next.push(col);
            if !pos.is_winning_move(col as usize) && C4Position::from_columns(&next).is_ok() {
                stack.push(next);
            }
        }
        for best in 0..WIDTH as u8 {
            if entry.best & (1 << best) == 0 || pos.is_winning_move(best as usize) {
                continue;
            }
            for reply in 0..WIDTH as u8 {
                let mut next = moves.clone();
                next.extend([best, reply]);
                if C4Position::from_columns(&next).is_ok() {
                    stack.push(next);
                }
            }
        }
    }
    let n = times.len();
    let (p50, p99, max) = spread(&mut times);
    outln!(
        "{n} book positions (book of {} entries): move time median {p50:.3} ms, p99 {p99:.3} ms, max {max:.3} ms, {over} at the budget",
        book.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The perfect level against a plausible opponent (a random move that does
/// not lose at once), timing every move of the perfect level by the stone
/// number it plays.
fn player_games(args: &BenchConnect4Args, games: usize) -> anyhow::Result<ExitCode> {
    use crate::engine::connect4::{C4Level, C4Player, C4Position, CELLS};
    use rand::{RngExt, SeedableRng};
    use std::sync::atomic::AtomicBool;
    let mut player = C4Player::new(args.tt_mb, bench_book(args)?);
    let stop = AtomicBool::new(false);
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let budget = Duration::from_millis(args.budget_ms.unwrap_or(1000));
    let mut by_stone: Vec<Vec<Duration>> = vec![Vec::new(); CELLS + 1];
    let mut results = [0usize; 3]; // player wins, draws, player losses
    let mut over = 0;
    // Moves the budget cut short, judged afterwards by a search without
    // limits: still a best move, still keeping the result (win, draw or
    // loss), or worse.
    let mut judge = crate::engine::connect4::Solver::new(args.tt_mb);
    let mut cut = [0usize; 3];
    for game in 0..games {
        let me = game % 2;
        let mut moves: Vec<u8> = Vec::new();
        let mut pos = C4Position::new();
        let result = loop {
            let col = if pos.moves() % 2 == me {
                let start = Instant::now();
                let limits = Limits {
                    start,
                    ..Limits::new(budget)
                };
                let col = player.choose(&moves, C4Level::Perfect, &limits, &stop, &mut rng);
                let took = start.elapsed();
                if took >= budget {
                    over += 1;
                    let scores = crate::engine::connect4::player::move_scores(&mut judge, &pos);
                    let best = scores.iter().flatten().max().copied();
                    let got = scores[col as usize];
                    cut[match (got, best) {
                        (Some(g), Some(b)) if g == b => 0,
                        (Some(g), Some(b)) if g.signum() == b.signum() => 1,
                        _ => 2,
                    }] += 1;
                }
                by_stone[pos.moves() + 1].push(took);
                col
            } else {
                let safe = pos.non_losing_moves();
                let cols = pos.playable_columns();
                let good: Vec<u8> = cols
                    .iter()
                    .copied()
                    .filter(|&c| {
                        pos.is_winning_move(c as usize)
                            || safe & crate::engine::connect4::position::column_mask(c as usize)
                                != 0
                    })
                    .collect();
                let from = if good.is_empty() { &cols } else { &good };
                from[rng.random_range(0..from.len())]
            };
            let mover = pos.moves() % 2;
            let wins = pos.is_winning_move(col as usize);
            pos.play_col(col as usize);
            moves.push(col);
            if wins {
                break if mover == me { 0 } else { 2 };
            }
            if pos.moves() == CELLS {
                break 1;
            }
        };
        results[result] += 1;
        if args.verbose {
            let line: String = moves.iter().map(|c| char::from(b'1' + c)).collect();
            outln!(
                "game {}: {line} {}",
                game + 1,
                ["won", "drawn", "lost"][result]
            );
        }
    }
    outln!("stone  moves  median ms     p99 ms     max ms");
    let mut all = Vec::new();
    for (stone, times) in by_stone.iter_mut().enumerate() {
        if times.is_empty() {
            continue;
        }
        all.extend(times.iter().copied());
        let n = times.len();
        let (p50, p99, max) = spread(times);
        outln!("{stone:>5} {n:>6} {p50:>10.3} {p99:>10.3} {max:>10.3}");
    }
    let n = all.len();
    let (p50, p99, max) = spread(&mut all);
    outln!(
        "{games} games: perfect won {}, drew {}, lost {}; {n} moves: median {p50:.3} ms, p99 {p99:.3} ms, max {max:.3} ms, {over} cut at the {} ms budget",
        results[0],
        results[1],
        results[2],
        budget.as_millis()
    );
    if over > 0 {
        outln!(
            "cut moves: {} still a best move, {} keeping the result but not the best, {} worse",
            cut[0],
            cut[1],
            cut[2]
        );
    }
    Ok(if results[2] == 0 && cut[2] == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Perfect against perfect from the empty board, timing every move.
fn selfplay(args: &BenchConnect4Args) -> anyhow::Result<ExitCode> {
    use crate::engine::connect4::{C4Level, C4Player, C4Position};
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
    let mut pos = C4Position::new();
    let mut slowest = Duration::ZERO;
    loop {
        let side = pos.moves() % 2;
        let start = Instant::now();
        // No budget: no time limit.
        let limits = Limits {
            start,
            time: args.budget_ms.map(Duration::from_millis),
            ..Limits::unlimited()
        };
        let col = players[side].choose(&moves, C4Level::Perfect, &limits, &stop, &mut rng);
        let took = start.elapsed();
        slowest = slowest.max(took);
        let wins = pos.is_winning_move(col as usize);
        pos.play_col(col as usize);
        moves.push(col);
        outln!(
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
            outln!(
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
    if args.book_moves {
        return book_moves(&args);
    }
    if let Some(games) = args.player_games {
        return player_games(&args, games);
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
