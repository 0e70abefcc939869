//! Computer players. Pure and synchronous: a position, limits and a stop
//! flag go in, a move comes out. No IO, no async; servers call into this
//! module from a blocking pool and raise the stop flag when the answer is
//! no longer wanted (the player left, the host shuts down).
//!
//! * [`simple`]: the Connect Four levels that work on any board size: easy
//!   (win, block, avoid handing over a win, else random) and medium
//!   (depth-limited negamax with alpha-beta).
//! * [`connect4`]: the exact Connect Four solver, its opening book, and the
//!   hard and perfect levels on the standard 7x6 board.
//! * [`gomoku`]: the threat-space Gomoku engine (levels 1 to 8).

pub mod connect4;
pub mod gomoku;
pub mod simple;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{GameKind, Move, Position, Rules};

/// How strong the computer plays.
///
/// Connect Four has easy, medium, hard and perfect. Gomoku and renju have
/// a ladder of levels 1 to 8 ([`Level::Gomoku`], see
/// [`gomoku::GomokuLevel`]); there the names easy, medium and strong
/// (and hard and perfect) are aliases that [`Level::in_game`] turns into
/// levels 2, 5 and 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Medium,
    /// Connect Four: nearly perfect, with an occasional deliberate inaccuracy.
    Hard,
    /// Connect Four: the game-theoretic best move.
    Perfect,
    /// Gomoku: an alias of the top level.
    Strong,
    /// Gomoku: level 1 (weakest) to 8 (the full engine).
    Gomoku(gomoku::GomokuLevel),
}

/// The Gomoku levels' names, "level 1" to "level 8".
const GOMOKU_NAMES: [&str; gomoku::GomokuLevel::COUNT as usize] = [
    "level 1", "level 2", "level 3", "level 4", "level 5", "level 6", "level 7", "level 8",
];

/// Gomoku's levels, weakest first.
const GOMOKU_LEVELS: [Level; gomoku::GomokuLevel::COUNT as usize] = {
    let mut out = [Level::Easy; gomoku::GomokuLevel::COUNT as usize];
    let mut i = 0;
    while i < out.len() {
        out[i] = Level::Gomoku(gomoku::GomokuLevel::nth(i as u8 + 1));
        i += 1;
    }
    out
};

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
            Level::Strong => "strong",
            Level::Gomoku(l) => GOMOKU_NAMES[usize::from(l.number()) - 1],
        }
    }

    /// Gomoku level `n` (1 to 8).
    pub fn gomoku(n: u8) -> Option<Level> {
        gomoku::GomokuLevel::new(n).map(Level::Gomoku)
    }

    /// The levels offered for a game, weakest first.
    pub fn for_game(kind: GameKind) -> &'static [Level] {
        match kind {
            GameKind::ConnectFour => &[Level::Easy, Level::Medium, Level::Hard, Level::Perfect],
            GameKind::Gomoku | GameKind::Renju => &GOMOKU_LEVELS,
        }
    }

    /// This level as `kind` has it: one of [`Level::for_game`], with
    /// Gomoku's aliases turned into their levels (easy 2, medium 5, strong,
    /// hard and perfect 8); `None` when the game has no such level (a
    /// Gomoku level or strong for Connect Four).
    pub fn in_game(self, kind: GameKind) -> Option<Level> {
        match kind {
            GameKind::ConnectFour => match self {
                Level::Easy | Level::Medium | Level::Hard | Level::Perfect => Some(self),
                Level::Strong | Level::Gomoku(_) => None,
            },
            GameKind::Gomoku | GameKind::Renju => match self {
                Level::Easy => Level::gomoku(2),
                Level::Medium => Level::gomoku(5),
                Level::Hard | Level::Perfect | Level::Strong => {
                    Some(Level::Gomoku(gomoku::GomokuLevel::STRONG))
                }
                Level::Gomoku(_) => Some(self),
            },
        }
    }

    /// The level a menu for `kind` offers first: medium, or its Gomoku level.
    pub fn default_for(kind: GameKind) -> Level {
        Level::Medium.in_game(kind).unwrap_or(Level::Medium)
    }

    /// The levels of `kind` by name, for messages: "easy, medium, hard or
    /// perfect", "1 to 8 (or easy, medium, strong)".
    pub fn names_for(kind: GameKind) -> &'static str {
        match kind {
            GameKind::ConnectFour => "easy, medium, hard or perfect",
            GameKind::Gomoku | GameKind::Renju => "1 to 8 (or easy, medium, strong)",
        }
    }

    /// A one-line description for menus.
    pub fn describe(self, kind: GameKind) -> &'static str {
        match (kind, self) {
            (GameKind::ConnectFour, Level::Easy) => "wins and blocks what it sees, else casual",
            (GameKind::ConnectFour, Level::Medium) => "looks a few moves ahead",
            (GameKind::ConnectFour, Level::Hard) => "nearly perfect, slips now and then",
            (GameKind::ConnectFour, Level::Perfect) => "never loses a won or drawn game",
            (GameKind::ConnectFour, _) => "",
            (_, Level::Gomoku(l)) => match l.number() {
                1 => "plays near the stones, misses fours",
                2 => "blocks now and then",
                3 => "blocks more often than not",
                4 => "blocks threats, plays what looks best",
                5 => "looks two moves ahead",
                6 => "looks three moves ahead",
                7 => "threat search, thinks briefly",
                _ => "threat search, hard to beat",
            },
            (_, l) => l.in_game(kind).map_or("", |l| l.describe(kind)),
        }
    }
}

impl std::str::FromStr for Level {
    type Err = crate::game::ParseNameError;

    /// A level's name: easy, medium, hard, perfect, strong, or a Gomoku
    /// level as "5", "level 5", "level5" or "l5".
    fn from_str(text: &str) -> Result<Level, Self::Err> {
        let lower = text.trim().to_ascii_lowercase();
        let digits = lower
            .strip_prefix("level")
            .or_else(|| lower.strip_prefix('l'))
            .unwrap_or(&lower)
            .trim();
        let ladder = digits.parse::<u8>().ok().and_then(Level::gomoku);
        match lower.as_str() {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            "perfect" => Ok(Level::Perfect),
            "strong" => Ok(Level::Strong),
            _ => ladder.ok_or_else(|| {
                crate::game::ParseNameError::new(
                    "level",
                    text,
                    "easy, medium, hard, perfect, strong, or 1 to 8 (Gomoku)",
                )
            }),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a search may spend: time, depth and nodes, each `None` for no
/// bound. The one limits type of the engines: the game levels, the Gomoku
/// engine, `inarow pbrain` and the benches all pass it.
///
/// Time counts from `start`. Where the deadlines fall within it is the
/// engine's [`TimeShares`], turned into instants by [`Limits::deadlines`]
/// (the one place that does it). The Connect Four levels honour time only;
/// the Gomoku engine honours all three. With no time limit a search is
/// deterministic (same input, same nodes).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// When the clock started.
    pub start: Instant,
    /// Total thinking time.
    pub time: Option<Duration>,
    /// Maximum search depth (plies of iterative deepening).
    pub depth: Option<u32>,
    /// Maximum nodes (checked now and then, not at every node).
    pub nodes: Option<u64>,
}

impl Limits {
    /// A time limit of `time`, starting now.
    pub fn new(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::unlimited()
        }
    }

    /// No limit at all (the clock starts now, for reports).
    pub fn unlimited() -> Limits {
        Limits {
            start: Instant::now(),
            time: None,
            depth: None,
            nodes: None,
        }
    }

    /// The soft and hard deadlines for a search that starts at `from` (at
    /// or after `start`): the time left at `from`, shared out by `shares`.
    /// Both `None` without a time limit.
    pub fn deadlines(&self, shares: TimeShares, from: Instant) -> Deadlines {
        let Some(time) = self.time else {
            return Deadlines::NONE;
        };
        let left = time.saturating_sub(from.saturating_duration_since(self.start));
        Deadlines {
            soft: Some(from + share_of(left, shares.soft)),
            hard: Some(from + share_of(left, shares.hard)),
        }
    }
}

/// `share` of `time` (exact for the whole of it).
fn share_of(time: Duration, share: f64) -> Duration {
    if share >= 1.0 {
        time
    } else {
        time.mul_f64(share)
    }
}

/// The deadline policy: where in the time left the soft deadline (start no
/// new iteration) and the hard one (stop now) fall, as shares of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeShares {
    pub soft: f64,
    pub hard: f64,
}

impl TimeShares {
    /// The simple Connect Four levels: no new iteration after half the
    /// time (one that starts later would rarely finish); stop at the end.
    pub const SIMPLE: TimeShares = TimeShares {
        soft: 0.5,
        hard: 1.0,
    };
    /// The Connect Four solver (no iterations, so no soft deadline to
    /// speak of): stop at the end.
    pub const CONNECT4: TimeShares = TimeShares {
        soft: 1.0,
        hard: 1.0,
    };
    /// The Gomoku engine: no new iteration after 55 % (moved back by the
    /// time the root threat searches took; a partly searched iteration
    /// still counts, so starting one late is not wasted); stop at 93 %.
    pub const GOMOKU: TimeShares = TimeShares {
        soft: 0.55,
        hard: 0.93,
    };
}

/// A search's deadlines as instants ([`Limits::deadlines`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    /// Start no new iteration after this.
    pub soft: Option<Instant>,
    /// Stop now.
    pub hard: Option<Instant>,
}

impl Deadlines {
    /// No deadlines.
    pub const NONE: Deadlines = Deadlines {
        soft: None,
        hard: None,
    };

    /// Whether the soft deadline passed.
    pub fn soft_passed(&self) -> bool {
        self.soft.is_some_and(|s| Instant::now() >= s)
    }

    /// Whether the hard deadline passed or someone raised the stop flag.
    pub fn should_stop(&self, stop: &AtomicBool) -> bool {
        stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h)
    }
}

/// A computer player.
pub trait Engine: Send {
    /// Chooses a move for the side to move. Called only on positions that
    /// are not over. Must return by the hard deadline (give or take a few
    /// milliseconds) or soon after `stop` is raised, with a legal move.
    fn choose(&mut self, position: &Position, limits: &Limits, stop: &AtomicBool) -> Move;
}

/// Settings shared by engines.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// Seed for the engine's random choices (tests); `None`: from the OS.
    pub seed: Option<u64>,
    /// The Connect Four opening book; `None`: the one built into the program.
    pub connect4_book: Option<std::sync::Arc<connect4::Book>>,
    /// Transposition table of the Connect Four solver, in MiB.
    pub connect4_table_mb: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            seed: None,
            connect4_book: None,
            connect4_table_mb: 32,
        }
    }
}

/// The built-in opening book, parsed once.
fn builtin_book() -> std::sync::Arc<connect4::Book> {
    static BOOK: std::sync::OnceLock<std::sync::Arc<connect4::Book>> = std::sync::OnceLock::new();
    std::sync::Arc::clone(BOOK.get_or_init(|| std::sync::Arc::new(connect4::Book::builtin())))
}

/// The engine for a game and level. Levels a game does not have fall back
/// to the nearest one it has.
pub fn engine_for(rules: &Rules, level: Level, options: &EngineOptions) -> Box<dyn Engine> {
    let rng = crate::rng::make_rng(options.seed);
    match rules.kind() {
        GameKind::ConnectFour => match connect_four_level(level) {
            Level::Easy => Box::new(simple::ConnectFourEasy::new(rng)),
            Level::Medium => Box::new(simple::ConnectFourSearch::medium(rng)),
            top if rules.is_standard_connect_four() => {
                let book = options.connect4_book.clone().unwrap_or_else(builtin_book);
                let level = if top == Level::Hard {
                    connect4::C4Level::Hard
                } else {
                    connect4::C4Level::Perfect
                };
                Box::new(ConnectFourSolver {
                    player: connect4::C4Player::new(options.connect4_table_mb, Some(book)),
                    level,
                    rng,
                })
            }
            // Other board sizes: as deep as the time allows.
            _ => Box::new(simple::ConnectFourSearch::deep(rng)),
        },
        GameKind::Gomoku | GameKind::Renju => Box::new(GomokuEngine::new(rules, level, rng)),
    }
}

/// The Connect Four level nearest to `level` (a Gomoku level by its place
/// on the ladder).
fn connect_four_level(level: Level) -> Level {
    match level {
        Level::Gomoku(l) => match l.number() {
            0..=2 => Level::Easy,
            3..=5 => Level::Medium,
            6..=7 => Level::Hard,
            _ => Level::Perfect,
        },
        other => other,
    }
}

/// The exact Connect Four solver behind the [`Engine`] interface (7x6 only).
struct ConnectFourSolver {
    player: connect4::C4Player,
    level: connect4::C4Level,
    rng: rand::rngs::SmallRng,
}

impl Engine for ConnectFourSolver {
    fn choose(&mut self, position: &Position, limits: &Limits, stop: &AtomicBool) -> Move {
        let moves: Vec<u8> = position.history().iter().map(|p| p.x).collect();
        let column = self
            .player
            .choose(&moves, self.level, limits, stop, &mut self.rng);
        Move::Column(column)
    }
}

/// The threat-search Gomoku engine behind the [`Engine`] interface.
struct GomokuEngine {
    player: gomoku::GomokuPlayer,
    level: gomoku::GomokuLevel,
    rng: rand::rngs::SmallRng,
}

impl GomokuEngine {
    fn new(rules: &Rules, level: Level, rng: rand::rngs::SmallRng) -> GomokuEngine {
        let rule = if rules.is_exact() {
            gomoku::Rule::ExactFive
        } else if rules.is_renju() {
            gomoku::Rule::Renju
        } else {
            gomoku::Rule::Freestyle
        };
        let level = match level.in_game(GameKind::Gomoku) {
            Some(Level::Gomoku(l)) => l,
            _ => gomoku::GomokuLevel::STRONG,
        };
        let tt_mb = match level.number() {
            1..=3 => 1,
            4..=6 => 4,
            7 => 16,
            _ => 64,
        };
        GomokuEngine {
            player: gomoku::GomokuPlayer::with_dimensions(
                usize::from(rules.width()),
                usize::from(rules.height()),
                rule,
                tt_mb,
            ),
            level,
            rng,
        }
    }
}

impl Engine for GomokuEngine {
    fn choose(&mut self, position: &Position, limits: &Limits, stop: &AtomicBool) -> Move {
        let me = position.to_move();
        let stones: Vec<(u8, u8, gomoku::Stone)> = position
            .history()
            .iter()
            .filter_map(|&p| {
                position.get(p).map(|s| {
                    let whose = if s == me {
                        gomoku::Stone::Own
                    } else {
                        gomoku::Stone::Opponent
                    };
                    (p.x, p.y, whose)
                })
            })
            .collect();
        let (x, y) = self
            .player
            .choose(&stones, self.level, limits, stop, &mut self.rng);
        Move::Point(crate::game::Point::new(x, y))
    }
}

/// Asks `engine` for a move and makes sure it is legal: an engine bug must
/// never become an illegal move on a shared board. Returns `None` only when
/// the position has no legal move.
pub fn choose_legal(
    engine: &mut dyn Engine,
    position: &Position,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Move> {
    if position.is_over() {
        return None;
    }
    let m = engine.choose(position, limits, stop);
    if position.check(m).is_ok() {
        Some(m)
    } else {
        position.legal_moves().into_iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_as_digits_names_and_aliases() {
        for n in 1..=8u8 {
            let want = Level::gomoku(n).unwrap();
            for text in [
                format!("{n}"),
                format!("level {n}"),
                format!("Level{n}"),
                format!("l{n}"),
                format!(" {n} "),
            ] {
                assert_eq!(text.parse::<Level>(), Ok(want), "{text:?}");
            }
            assert_eq!(want.name(), format!("level {n}"));
            assert_eq!(want.to_string().parse::<Level>(), Ok(want));
        }
        assert_eq!("EASY".parse::<Level>(), Ok(Level::Easy));
        assert_eq!("strong".parse::<Level>(), Ok(Level::Strong));
        for bad in ["0", "9", "level", "level 10", "-1", "godlike", ""] {
            let e = bad.parse::<Level>().unwrap_err().to_string();
            assert!(e.contains("1 to 8"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn gomoku_aliases_map_onto_the_ladder_and_connect_four_refuses_it() {
        let at = |n| Level::gomoku(n);
        for kind in [GameKind::Gomoku, GameKind::Renju] {
            assert_eq!(Level::Easy.in_game(kind), at(2));
            assert_eq!(Level::Medium.in_game(kind), at(5));
            for top in [Level::Strong, Level::Hard, Level::Perfect] {
                assert_eq!(top.in_game(kind), at(8));
            }
            assert_eq!(at(3).unwrap().in_game(kind), at(3));
            assert_eq!(Level::default_for(kind), at(5).unwrap());
            let offered = Level::for_game(kind);
            assert_eq!(offered.len(), 8);
            for (i, l) in offered.iter().enumerate() {
                assert_eq!(Some(*l), at(i as u8 + 1));
                assert!(!l.describe(kind).is_empty());
            }
        }
        let c4 = GameKind::ConnectFour;
        for n in 1..=8 {
            assert_eq!(at(n).unwrap().in_game(c4), None);
        }
        assert_eq!(Level::Strong.in_game(c4), None);
        for l in [Level::Easy, Level::Medium, Level::Hard, Level::Perfect] {
            assert_eq!(l.in_game(c4), Some(l));
            assert!(Level::for_game(c4).contains(&l));
        }
        assert_eq!(Level::default_for(c4), Level::Medium);
        assert_eq!(Level::names_for(c4), "easy, medium, hard or perfect");
    }
}
