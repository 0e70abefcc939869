//! `inarow bench gomoku`: the Gomoku engine's figures.
//!
//! By default, a fixed set of positions is searched by the strong level to a
//! fixed depth with no time limit, each with fresh tables, so the total node
//! count is a regression signature: the same binary prints the same count.
//! `--movetime MS` searches each position for a fixed time instead (to read
//! depth and nodes per second at a given speed; not deterministic).
//! `--match A:B` plays levels against each other from seeded random openings,
//! every opening with both colours, and prints the score. A level is 1 to 8
//! (or easy, medium, strong: 2, 5, 8), or `beginner`: a scripted player
//! that completes its five, blocks a four, and otherwise plays next to its
//! own stones (the bottom of the ladder must lose to it). Levels 1 to 7 are
//! bounded by depth and nodes; they get a time limit of 10 s per move only
//! as a safety net, so a match between them plays the same on any machine.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::engine::gomoku::board::{Board, Pos, other};
use crate::engine::gomoku::search::{Source, WIN_MIN};
use crate::engine::gomoku::{GomokuLevel, GomokuPlayer, Rule, Stone, stones_from_moves};
use crate::engine::{Level, Limits};
use crate::game::GameKind;

#[derive(Debug, clap::Args)]
pub struct BenchGomokuArgs {
    /// Search depth for the fixed positions.
    #[arg(long, default_value_t = 7)]
    pub depth: u32,
    /// Search each position for this many milliseconds instead of to a fixed depth.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Play a match instead, e.g. `8:7` (levels 1 to 8, easy, medium, strong, or beginner).
    #[arg(long = "match", value_name = "A:B")]
    pub match_levels: Option<String>,
    /// Openings in a match; each is played twice, once with each colour.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Time per move of level 8 in a match, milliseconds (levels 1 to 7 play by nodes).
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub match_ms: u64,
    /// Time per move of level 8 as the second player in a match, if different, milliseconds.
    #[arg(long, value_name = "MS")]
    pub match_ms_b: Option<u64>,
    /// Seed for the match openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search only this position ("x,y x,y ...", the moves in order) instead of the fixed set.
    #[arg(long, value_name = "MOVES")]
    pub position: Option<String>,
    /// Search every position of this file instead of the fixed set (one
    /// position a line, "x,y x,y ..."; `#` starts a comment) and count how
    /// many the side to move is proven to win (`scripts/lost-positions.txt`).
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub suite: Option<std::path::PathBuf>,
    /// Level for the position searches.
    #[arg(long, default_value = "strong")]
    pub level: String,
    /// Board size (square).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Rule: freestyle, exact or renju.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
}

/// The fixed positions: moves in order, "x,y" from 0, on 15x15.
const POSITIONS: &[(&str, &str)] = &[
    ("opening", "7,7 8,8 8,6"),
    ("early", "9,8 5,6 5,7 6,5 7,4 4,7"),
    ("early2", "7,8 9,6 5,8 9,8 7,10 9,7 9,9"),
    ("middle", "9,8 5,6 5,7 6,5 7,4 4,7 4,3 6,6 4,5 6,8"),
    ("middle2", "8,5 7,9 7,5 5,9 6,5 5,5 6,9 6,10 9,5 10,5"),
    (
        "crowded",
        "7,7 9,7 7,9 7,6 5,9 8,6 10,8 9,6 6,6 9,9 9,8 10,6 11,6 7,8 6,9 4,9 6,8 6,7 5,8 5,7",
    ),
    (
        "vcf",
        "7,7 6,7 6,6 9,9 4,4 5,5 9,5 8,6 7,5 7,8 5,6 4,6 8,4 5,7 7,3 6,2",
    ),
    ("corner", "1,1 2,2 1,2 2,1 1,3 1,4 3,3 4,4 2,3 0,3"),
];

pub fn run(args: BenchGomokuArgs) -> anyhow::Result<ExitCode> {
    let rule = match args.rule.as_str() {
        "freestyle" | "0" => Rule::Freestyle,
        "exact" | "exactfive" | "exact-five" | "1" => Rule::ExactFive,
        "renju" | "4" => Rule::Renju,
        other => bail!("unknown rule {other:?} (freestyle, exact or renju)"),
    };
    if let Some(spec) = &args.match_levels {
        return play_match(&args, spec, rule);
    }
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let custom: Vec<(String, String)> = match (&args.position, &args.suite) {
        (Some(p), _) => vec![("custom".to_string(), p.clone())],
        (None, Some(path)) => read_suite(path, args.size)?,
        (None, None) => POSITIONS
            .iter()
            .map(|(n, m)| (n.to_string(), m.to_string()))
            .collect(),
    };
    outln!(
        "{:<9} {:>6} {:>5} {:>10} {:>9} {:>10} {:>7}  source",
        "position",
        "move",
        "depth",
        "nodes",
        "ms",
        "nodes/s",
        "score"
    );
    let mut suite = SuiteTally::default();
    let level = match parse_player(&args.level)? {
        MatchPlayer::Level(l) => l,
        MatchPlayer::Beginner => bail!("--level: the beginner has no search to show"),
    };
    for (name, moves) in &custom {
        let stones = parse_moves(moves, args.size).with_context(|| format!("position {name}"))?;
        let mut player = GomokuPlayer::new(args.size, rule, args.tt_mb);
        let limits = match args.movetime {
            Some(ms) => Limits::new(Duration::from_millis(ms)),
            None => Limits {
                depth: Some(args.depth),
                ..Limits::unlimited()
            },
        };
        let r = player.analyse(&stones, level, &limits, &stop);
        total_nodes += r.nodes;
        total_time += r.elapsed;
        let mv = r.mv.map_or("none".to_string(), |(x, y)| format!("{x},{y}"));
        outln!(
            "{:<9} {:>6} {:>5} {:>10} {:>9.1} {:>10.0} {:>7}  {:?}",
            name,
            mv,
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64() * 1000.0,
            r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9),
            r.score,
            r.source
        );
        suite.add(r.score, r.source, r.elapsed);
    }
    outln!(
        "total: {} nodes, {:.0} ms, {:.0} nodes/s",
        total_nodes,
        total_time.as_secs_f64() * 1000.0,
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9)
    );
    if args.suite.is_some() {
        outln!("{}", suite.summary());
    }
    Ok(ExitCode::SUCCESS)
}

/// The most positions a suite file may hold.
const SUITE_MAX: usize = 10_000;

/// Reads a suite file: one position a line ("x,y x,y ...", the moves in
/// order), `#` to the end of the line a comment, blank lines skipped. The
/// positions are named by their line numbers.
fn read_suite(path: &std::path::Path, size: usize) -> anyhow::Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the suite {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let moves = line.split('#').next().unwrap_or("").trim();
        if moves.is_empty() {
            continue;
        }
        parse_moves(moves, size).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if out.len() == SUITE_MAX {
            bail!("{}: more than {SUITE_MAX} positions", path.display());
        }
        out.push((format!("line{}", i + 1), moves.to_string()));
    }
    if out.is_empty() {
        bail!("{}: no positions", path.display());
    }
    Ok(out)
}

/// What a suite's searches found: how many positions the side to move was
/// proven to win, and how long the answers took. A position whose answer
/// was forced without a search (a five to block, say) says nothing about
/// the search and is counted apart.
#[derive(Default)]
struct SuiteTally {
    searched: u32,
    won: u32,
    forced: u32,
    time: Duration,
}

impl SuiteTally {
    fn add(&mut self, score: i32, source: Source, elapsed: Duration) {
        let won = score >= WIN_MIN;
        if source == Source::Forced && !won {
            self.forced += 1;
            return;
        }
        self.searched += 1;
        self.won += won as u32;
        self.time += elapsed;
    }

    fn summary(&self) -> String {
        let mean = self.time.as_secs_f64() * 1000.0 / f64::from(self.searched.max(1));
        format!(
            "suite: won {} of {} positions ({} more answered by force, not counted); mean {:.0} ms a position",
            self.won, self.searched, self.forced, mean
        )
    }
}

/// Parses "x,y x,y ..." into stones, the side to move after the last one's
/// as [`Stone::Own`]. A point off the `size` x `size` board or taken twice
/// is an error.
fn parse_moves(s: &str, size: usize) -> anyhow::Result<Vec<(u8, u8, Stone)>> {
    let mut moves: Vec<(u8, u8)> = Vec::new();
    for m in s.split_whitespace() {
        let (x, y) = m
            .split_once(',')
            .with_context(|| format!("move {m:?} is not x,y"))?;
        let xy: (u8, u8) = (
            x.parse().with_context(|| format!("move {m:?}"))?,
            y.parse().with_context(|| format!("move {m:?}"))?,
        );
        if usize::from(xy.0) >= size || usize::from(xy.1) >= size {
            bail!("move {m:?} is off the {size}x{size} board");
        }
        if moves.contains(&xy) {
            bail!("move {m:?} is played twice");
        }
        moves.push(xy);
    }
    Ok(stones_from_moves(&moves))
}

/// A player in a match: a level, or the scripted beginner.
#[derive(Clone, Copy, Debug, PartialEq)]
enum MatchPlayer {
    Level(GomokuLevel),
    Beginner,
}

fn parse_player(s: &str) -> anyhow::Result<MatchPlayer> {
    if s == "beginner" {
        return Ok(MatchPlayer::Beginner);
    }
    let level = match s.parse::<Level>() {
        Ok(l) => l.in_game(GameKind::Gomoku),
        Err(_) => None,
    };
    match level {
        Some(Level::Gomoku(l)) => Ok(MatchPlayer::Level(l)),
        _ => bail!("unknown level {s:?} (1 to 8, easy, medium, strong, or beginner)"),
    }
}

/// The time a level gets per move in a match: level 8 the given time;
/// the others play by depth and nodes, and get a safety net only.
fn match_limits(player: MatchPlayer, ms: u64) -> Limits {
    match player {
        MatchPlayer::Level(l) if l.is_bounded() => Limits::new(Duration::from_secs(10)),
        _ => Limits::new(Duration::from_millis(ms)),
    }
}

/// The beginner: completes its own five, blocks the opponent's four (a
/// five point), otherwise plays next to its own stones (near any stone
/// when none of its own has a free neighbour, the centre on an empty
/// board), at random. Never a point forbidden to it.
fn beginner_move(b: &Board, rng: &mut SmallRng) -> Option<Pos> {
    let me = b.to_move();
    let op = other(me);
    if let Some(p) = b.find_five(me).filter(|&p| b.may_play(p, me)) {
        return Some(p);
    }
    if let Some(p) = b.find_five(op).filter(|&p| b.may_play(p, me)) {
        return Some(p);
    }
    if b.stone_count() == 0 {
        return b.pos(b.width() / 2, b.height() / 2);
    }
    let (w, h) = (b.width() as i32, b.height() as i32);
    let next_to = |p: Pos, colour: u8| {
        let (x, y) = b.xy(p);
        (-1..=1).any(|dy: i32| {
            (-1..=1).any(|dx: i32| {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                (dx, dy) != (0, 0)
                    && (0..w).contains(&nx)
                    && (0..h).contains(&ny)
                    && b.pos(nx as usize, ny as usize)
                        .is_some_and(|q| b.cell(q) == colour)
            })
        })
    };
    let free: Vec<Pos> = b
        .points()
        .iter()
        .copied()
        .filter(|&p| b.may_play(p, me))
        .collect();
    let mine: Vec<Pos> = free.iter().copied().filter(|&p| next_to(p, me)).collect();
    let pool: Vec<Pos> = if mine.is_empty() {
        free.iter().copied().filter(|&p| b.is_near(p)).collect()
    } else {
        mine
    };
    if pool.is_empty() {
        return b.first_empty(me);
    }
    Some(pool[rng.random_range(0..pool.len())])
}

/// Plays `spec` = "A:B" over seeded random openings, both colours each.
fn play_match(args: &BenchGomokuArgs, spec: &str, rule: Rule) -> anyhow::Result<ExitCode> {
    let (a, b) = spec
        .split_once(':')
        .context("--match wants A:B, e.g. strong:easy")?;
    let levels = [parse_player(a)?, parse_player(b)?];
    let size = args.size.clamp(5, 32);
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut players = [
        GomokuPlayer::new(size, rule, args.tt_mb),
        GomokuPlayer::new(size, rule, args.tt_mb),
    ];
    let budgets = [
        match_limits(levels[0], args.match_ms),
        match_limits(levels[1], args.match_ms_b.unwrap_or(args.match_ms)),
    ];
    let stop = AtomicBool::new(false);
    let (mut wins_a, mut wins_b, mut draws) = (0u32, 0u32, 0u32);
    let mut max_move_ms = 0f64;
    for game in 0..args.games {
        let opening = random_opening(size, &mut rng);
        for a_first in [true, false] {
            players[0].clear();
            players[1].clear();
            let (mut board, mut moves) = board_after(size, rule, &opening);
            let result = loop {
                if board.is_full() {
                    break 0;
                }
                // Player 0 (level A) moves on even move numbers when it plays first.
                let mover_is_a = moves.len().is_multiple_of(2) == a_first;
                let idx = if mover_is_a { 0 } else { 1 };
                let stones = stones_from_moves(&moves);
                let t = Instant::now();
                let limits = Limits {
                    start: t,
                    ..budgets[idx]
                };
                let (x, y) = match levels[idx] {
                    MatchPlayer::Level(level) => {
                        players[idx].choose(&stones, level, &limits, &stop, &mut rng)
                    }
                    MatchPlayer::Beginner => beginner_move(&board, &mut rng).map_or((0, 0), |p| {
                        let (x, y) = board.xy(p);
                        (x as u8, y as u8)
                    }),
                };
                max_move_ms = max_move_ms.max(t.elapsed().as_secs_f64() * 1000.0);
                let Some(p) = board
                    .pos(x as usize, y as usize)
                    .filter(|&p| board.may_play(p, board.to_move()))
                else {
                    bail!("level {} played an illegal move {x},{y}", [a, b][idx]);
                };
                board.play(p);
                moves.push((x, y));
                if board.is_win_at(p) {
                    break if mover_is_a { 1 } else { 2 };
                }
            };
            match result {
                1 => wins_a += 1,
                2 => wins_b += 1,
                _ => draws += 1,
            }
            let record: Vec<String> = moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
            outln!(
                "game {:>3} {} first: {} in {} moves: {}",
                game + 1,
                if a_first { a } else { b },
                match result {
                    1 => format!("{a} wins"),
                    2 => format!("{b} wins"),
                    _ => "draw".to_string(),
                },
                moves.len(),
                record.join(" ")
            );
        }
    }
    let games = 2 * args.games;
    let score = 100.0 * (f64::from(wins_a) + 0.5 * f64::from(draws)) / f64::from(games.max(1));
    outln!(
        "{a} vs {b}: {wins_a} wins, {wins_b} losses, {draws} draws over {games} games: {a} scores {score:.1} % (level 8: {} ms/move; slowest move {:.0} ms)",
        args.match_ms,
        max_move_ms
    );
    Ok(ExitCode::SUCCESS)
}

/// A `size` x `size` board with the `opening` stones played in order (those
/// off the board left out), and the moves played.
pub(crate) fn board_after(size: usize, rule: Rule, opening: &[(u8, u8)]) -> (Board, Vec<(u8, u8)>) {
    let mut board = Board::new(size, size, rule);
    let mut moves = Vec::new();
    for &(x, y) in opening {
        if let Some(p) = board.pos(x as usize, y as usize) {
            board.play(p);
            moves.push((x, y));
        }
    }
    (board, moves)
}

/// Two to four stones in the middle 5x5, alternating colours, without a line.
fn random_opening(size: usize, rng: &mut SmallRng) -> Vec<(u8, u8)> {
    let n = rng.random_range(2..=4usize);
    let c = (size / 2) as i32;
    let mut out: Vec<(u8, u8)> = Vec::new();
    while out.len() < n {
        let x = (c + rng.random_range(-2..=2)).clamp(0, size as i32 - 1) as u8;
        let y = (c + rng.random_range(-2..=2)).clamp(0, size as i32 - 1) as u8;
        if !out.contains(&(x, y)) {
            out.push((x, y));
        }
    }
    out
}
