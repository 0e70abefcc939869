//! `inarow book ...`: the Connect Four opening book.
//!
//! `inarow book build` walks the perfect player's tree ply by ply, both as
//! first and as second player: at its own turn it follows every best move,
//! at the opponent's turn every reply. Each position with the perfect
//! player to move and at most `--depth` stones gets an entry (exact score
//! and best moves), solved by our own solver on all cores. Positions are
//! handled in their mirror-canonical form, so mirror images are solved
//! once. Every solved entry is appended to `<out>.log` at once, so an
//! interrupted build resumes where it stopped; the book file is written
//! (atomically) at the end. The entries of an existing book at `--out` are
//! reused as well, so `--depth 8` over the committed depth-6 book only
//! solves plies 7 and 8.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Subcommand;

use crate::engine::connect4::builder::{compute_entry, first_replies, next_positions};
use crate::engine::connect4::{Book, BookEntry, C4Position, Solver};

/// The depth of the committed book; see docs/connect4-engine.md for how it
/// was chosen.
pub const DEFAULT_DEPTH: usize = 10;

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Compute the opening book with our own solver (offline, resumable).
    Build {
        /// Deepest position (stones on the board) to put in the book.
        #[arg(long, default_value_t = DEFAULT_DEPTH)]
        depth: usize,
        /// Book file to write; solved entries also go to <out>.log as they
        /// come, which makes the build resumable.
        #[arg(long, default_value = "data/connect4-book.bin")]
        out: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Transposition table per thread, MiB.
        #[arg(long, default_value_t = 1024)]
        tt_mb: usize,
        /// Also every position the computer's easy and medium levels reach
        /// in this many seeded games against each other (the games people
        /// play against it), with up to --reach-depth stones.
        #[arg(long, default_value_t = 0)]
        reach: u64,
        /// Deepest position of those games to put in the book.
        #[arg(long, default_value_t = 7)]
        reach_depth: usize,
    },
    /// Print how many positions the book holds per ply.
    Stats {
        /// Book file (default: the built-in book).
        #[arg(long)]
        book: Option<PathBuf>,
    },
}

/// Reads a book file (the edge where book bytes come from disk).
pub fn load_book(path: &Path) -> anyhow::Result<Book> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Book::from_bytes(&bytes).with_context(|| format!("bad book file {}", path.display()))
}

pub fn run(cmd: BookCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        BookCommand::Build {
            depth,
            out,
            threads,
            tt_mb,
            reach,
            reach_depth,
        } => {
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1);
            let reached = reached(reach, reach_depth);
            build(depth, &out, threads, tt_mb, &reached)?;
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Stats { book } => {
            let book = match book {
                Some(p) => load_book(&p)?,
                None => Book::builtin(),
            };
            let mut per_ply = [0usize; 43];
            for (pos, _) in book.iter() {
                per_ply[pos.moves()] += 1;
            }
            outln!("{} positions", book.len());
            for (ply, n) in per_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
                outln!("ply {ply:>2}: {n}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The log of solved entries: `<canonical key hex> <score> <best mask>`.
fn log_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".log");
    PathBuf::from(name)
}

fn read_log(path: &Path) -> anyhow::Result<HashMap<u64, BookEntry>> {
    let mut done = HashMap::new();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    for line in BufReader::new(file).lines() {
        let line = line?;
        // A line cut short by an interruption is simply solved again.
        let mut parts = line.split(' ');
        let (Some(k), Some(s), Some(b), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(key), Ok(score), Ok(best)) = (
            u64::from_str_radix(k, 16),
            s.parse::<i32>(),
            b.parse::<u8>(),
        ) else {
            continue;
        };
        if C4Position::from_key(key).is_some() && score.abs() <= 21 && best != 0 && best < 128 {
            done.insert(key, BookEntry { score, best });
        }
    }
    Ok(done)
}

fn canonical(pos: &C4Position) -> C4Position {
    if pos.canonical_key().1 {
        pos.mirrored()
    } else {
        *pos
    }
}

/// The positions, by stones on the board, that `games` seeded games of the
/// computer's easy level against its medium one reach with at most
/// `depth` stones (the games `inarow bench analysis` plays: the same
/// seeds), in canonical form, each once, in the order first reached.
fn reached(games: u64, depth: usize) -> Vec<Vec<C4Position>> {
    let mut out: Vec<Vec<C4Position>> = vec![Vec::new(); depth + 1];
    let mut seen = std::collections::HashSet::new();
    for seed in 1..=games {
        let moves = crate::analyst::computer_game(seed, seed.is_multiple_of(2));
        let mut pos = C4Position::new();
        for (ply, m) in moves.iter().enumerate().take(depth + 1) {
            let c = canonical(&pos);
            if seen.insert(c.key()) {
                out[ply].push(c);
            }
            let col = match m {
                crate::game::Move::Column(c) => usize::from(*c),
                crate::game::Move::Point(p) => usize::from(p.x),
            };
            if !pos.can_play(col) || pos.is_winning_move(col) {
                break;
            }
            pos.play_col(col);
        }
    }
    out
}

fn build(
    depth: usize,
    out: &Path,
    threads: usize,
    tt_mb: usize,
    reached: &[Vec<C4Position>],
) -> anyhow::Result<()> {
    let log = log_path(out);
    let mut done = read_log(&log)?;
    // The existing book counts as solved too: a deeper build starts where
    // the committed book ends, even without its log.
    if let Ok(bytes) = std::fs::read(out)
        && let Ok(book) = Book::from_bytes(&bytes)
    {
        for (pos, entry) in book.iter() {
            done.entry(pos.key()).or_insert(entry);
        }
    }
    if !done.is_empty() {
        eprintln!(
            "resuming: {} positions already solved ({} and {})",
            done.len(),
            out.display(),
            log.display()
        );
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .with_context(|| format!("cannot open {}", log.display()))?;

    let start = Instant::now();
    let mut frontier: Vec<Vec<C4Position>> = vec![Vec::new(); depth.max(reached.len()) + 3];
    frontier[0].push(C4Position::new());
    if depth >= 1 {
        frontier[1] = first_replies();
    }
    let mut in_book: Vec<C4Position> = Vec::new();
    for ply in 0..=depth.max(reached.len().saturating_sub(1)) {
        // Deduplicate by canonical form, keeping the order in which the
        // positions were reached: siblings stay next to each other, so a
        // worker's table still holds much of the tree it needs next.
        let mut seen = std::collections::HashSet::new();
        let level: Vec<C4Position> = frontier[ply]
            .drain(..)
            .map(|p| canonical(&p))
            .filter(|c| seen.insert(c.key()))
            .collect();
        // The positions the computer's games reach: in the book too, but
        // the perfect player's tree does not grow from them.
        let extra: Vec<C4Position> = reached
            .get(ply)
            .into_iter()
            .flatten()
            .copied()
            .filter(|c| seen.insert(c.key()))
            .collect();
        let todo: Vec<C4Position> = level
            .iter()
            .chain(&extra)
            .copied()
            .filter(|p| !done.contains_key(&p.key()))
            .collect();
        let ply_start = Instant::now();
        solve_all(&todo, threads, tt_mb, |pos, entry, finished| {
            writeln!(log_file, "{:x} {} {}", pos.key(), entry.score, entry.best)?;
            log_file.flush()?;
            done.insert(pos.key(), entry);
            let elapsed = ply_start.elapsed().as_secs_f64();
            let rate = finished as f64 / elapsed.max(1e-9);
            let eta = (todo.len() - finished) as f64 / rate.max(1e-9);
            eprint!(
                "\rply {ply:>2}: {finished}/{} solved ({} known), {rate:.1}/s, eta {eta:.0} s      ",
                todo.len(),
                level.len() + extra.len() - todo.len()
            );
            Ok(())
        })?;
        eprintln!(
            "\rply {ply:>2}: {} positions ({} solved now) in {:.1} s, total {:.1} s                 ",
            level.len() + extra.len(),
            todo.len(),
            ply_start.elapsed().as_secs_f64(),
            start.elapsed().as_secs_f64()
        );
        for pos in &level {
            let entry = done[&pos.key()];
            if ply + 2 <= depth {
                frontier[ply + 2].extend(next_positions(pos, &entry));
            }
        }
        in_book.extend(level);
        in_book.extend(extra);
    }
    let book = Book::from_entries(in_book.iter().map(|p| (*p, done[&p.key()])));
    let bytes = book.to_bytes();
    let tmp = {
        let mut name = out.as_os_str().to_owned();
        name.push(".tmp");
        PathBuf::from(name)
    };
    std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, out).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "wrote {}: {} positions, {} bytes, depth {depth}, {:.1} s",
        out.display(),
        book.len(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// How many consecutive positions a worker takes at a time.
const CHUNK: usize = 8;

/// Solves `todo` on `threads` workers, each with its own solver (its table
/// kept across positions: neighbours share much of their trees). `report`
/// runs on this thread for every result, with the number finished so far.
fn solve_all(
    todo: &[C4Position],
    threads: usize,
    tt_mb: usize,
    mut report: impl FnMut(&C4Position, BookEntry, usize) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if todo.is_empty() {
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, BookEntry)>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..threads.min(todo.len()) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut solver = Solver::new(tt_mb);
                // Runs of neighbouring positions (siblings, mostly) go to
                // the same worker, whose table then serves them all.
                'work: loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= todo.len() {
                        break;
                    }
                    for (i, pos) in todo.iter().enumerate().skip(start).take(CHUNK) {
                        let entry = compute_entry(&mut solver, pos);
                        if tx.send((i, entry)).is_err() {
                            break 'work;
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut finished = 0;
        loop {
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok((i, entry)) => {
                    finished += 1;
                    if let Err(e) = report(&todo[i], entry, finished) {
                        // Stop the workers: they see the index run out.
                        next.store(usize::MAX / 2, Ordering::Relaxed);
                        return Err(e);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        Ok(())
    })
}
