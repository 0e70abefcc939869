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
//! * [`gomoku`]: the threat-space Gomoku engine (easy, medium, strong).

pub mod connect4;
pub mod gomoku;
pub mod simple;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{GameKind, Move, Position, Rules};

/// How strong the computer plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Medium,
    /// Connect Four: nearly perfect, with an occasional deliberate inaccuracy.
    Hard,
    /// Connect Four: the game-theoretic best move.
    Perfect,
    /// Gomoku: everything the engine has.
    Strong,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
            Level::Strong => "strong",
        }
    }

    /// The levels offered for a game, weakest first.
    pub fn for_game(kind: GameKind) -> &'static [Level] {
        match kind {
            GameKind::ConnectFour => &[Level::Easy, Level::Medium, Level::Hard, Level::Perfect],
            GameKind::Gomoku => &[Level::Easy, Level::Medium, Level::Strong],
        }
    }

    /// A one-line description for menus.
    pub fn describe(self, kind: GameKind) -> &'static str {
        match (kind, self) {
            (_, Level::Easy) => "wins and blocks what it sees, else casual",
            (_, Level::Medium) => "looks a few moves ahead",
            (GameKind::ConnectFour, Level::Hard) => "nearly perfect, slips now and then",
            (GameKind::ConnectFour, Level::Perfect) => "never loses a won or drawn game",
            (_, Level::Strong) => "threat search, hard to beat",
            _ => "",
        }
    }
}

impl std::str::FromStr for Level {
    type Err = crate::game::ParseNameError;

    fn from_str(text: &str) -> Result<Level, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            "perfect" => Ok(Level::Perfect),
            "strong" => Ok(Level::Strong),
            _ => Err(crate::game::ParseNameError::new(
                "level",
                text,
                "easy, medium, hard, perfect or strong",
            )),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How long the computer may think: a soft deadline (do not start another
/// iteration) and a hard one (stop now). Both count from `start`.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub start: Instant,
    pub budget: Duration,
}

impl Limits {
    /// Limits starting now.
    pub fn new(budget: Duration) -> Limits {
        Limits {
            start: Instant::now(),
            budget,
        }
    }

    /// Stop now.
    pub fn hard_deadline(&self) -> Instant {
        self.start + self.budget
    }

    /// Do not start new work after this (half the budget: an iteration that
    /// starts later would rarely finish).
    pub fn soft_deadline(&self) -> Instant {
        self.start + self.budget / 2
    }

    /// Whether the hard deadline passed or someone raised the stop flag.
    pub fn should_stop(&self, stop: &AtomicBool) -> bool {
        stop.load(Ordering::Relaxed) || Instant::now() >= self.hard_deadline()
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
    let rng = simple::make_rng(options.seed);
    match rules.kind() {
        GameKind::ConnectFour => match level {
            Level::Easy => Box::new(simple::ConnectFourEasy::new(rng)),
            Level::Medium => Box::new(simple::ConnectFourSearch::medium(rng)),
            Level::Hard | Level::Perfect | Level::Strong if rules.is_standard_connect_four() => {
                let book = options.connect4_book.clone().unwrap_or_else(builtin_book);
                let level = if level == Level::Hard {
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
            Level::Hard | Level::Perfect | Level::Strong => {
                Box::new(simple::ConnectFourSearch::deep(rng))
            }
        },
        GameKind::Gomoku => Box::new(GomokuEngine::new(rules, level, rng)),
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
        let column = self.player.choose(
            &moves,
            self.level,
            limits.hard_deadline(),
            stop,
            &mut self.rng,
        );
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
        } else {
            gomoku::Rule::Freestyle
        };
        let (level, tt_mb) = match level {
            Level::Easy => (gomoku::GomokuLevel::Easy, 1),
            Level::Medium => (gomoku::GomokuLevel::Medium, 8),
            // Hard and Perfect are Connect Four names; in Gomoku they mean the best we have.
            Level::Hard | Level::Perfect | Level::Strong => (gomoku::GomokuLevel::Strong, 64),
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
        let stones: Vec<(u8, u8, u8)> = position
            .history()
            .iter()
            .filter_map(|&p| position.get(p).map(|s| (p.x, p.y, u8::from(s != me))))
            .collect();
        let budget = limits.budget.saturating_sub(limits.start.elapsed());
        let (x, y) = self
            .player
            .choose(&stones, self.level, budget, stop, &mut self.rng);
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
