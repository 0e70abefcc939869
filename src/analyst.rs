//! The host's analyst: the move-by-move analysis of finished games, run
//! off the games' rooms and kept with their records.
//!
//! [`Analyzer`] holds the engines (the Connect Four solver and its book,
//! a Gomoku engine) and analyses one game at a time, synchronously: the
//! commands and the local `inarow play` use it on a thread of their own.
//! [`Analyst`] is the host's service around it: at most `max_parallel`
//! games at once on the blocking pool, a bounded queue behind them, one
//! computation for a game asked for by several people at once, and the
//! result kept in the store (any host of a cluster reads it back).
//!
//! The analysis is data here (moves, values, labels); the words for
//! people are made where it is shown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{Semaphore, oneshot};

use crate::analysis::{Label, MoveAnalysis, connect4, gomoku};
use crate::config::AnalysisConfig;
use crate::engine::connect4::{Book, Cutoff, Solver, WIDTH};
use crate::engine::gomoku::{GomokuLevel, GomokuPlayer};
use crate::game::{GameKind, Move, Point, Rules};
use crate::store::{GameRecord, KeptAnalysis, Store};

/// The analysis format: a kept analysis of an older one is made again.
pub const VERSION: i64 = 1;

/// The level whose search judges Gomoku and Renju positions: the full
/// engine, within each position's time.
pub const EVAL_LEVEL: GomokuLevel = GomokuLevel::STRONG;

/// Games waiting for a free analyser at most; more are refused.
pub const MAX_QUEUED: usize = 16;

/// How long a puzzle's refutation waits for a free analyser.
pub const REPLY_WAIT: Duration = Duration::from_secs(3);

/// Transposition table of the host's analysers, in MiB each.
const HOST_TT_MB: usize = 64;

/// The engines an analysis runs on, kept from one game to the next (the
/// solver's table stays warm).
pub struct Analyzer {
    solver: Solver,
    book: Book,
    /// The Gomoku engine of the last Gomoku or Renju game, for its rules.
    gomoku: Option<(Rules, GomokuPlayer)>,
    budget: Duration,
    tt_mb: usize,
}

impl Analyzer {
    /// Engines with `tt_mb` MiB of table each, `budget` for each position.
    pub fn new(budget: Duration, tt_mb: usize) -> Analyzer {
        Analyzer {
            solver: Solver::new(tt_mb),
            book: Book::builtin(),
            gomoku: None,
            budget,
            tt_mb,
        }
    }

    /// The analysis of the game `moves` under `rules`; `None` for a game
    /// this host cannot analyse (Connect Four on a board other than 7x6)
    /// or moves that are not a game.
    pub fn game(&mut self, rules: &Rules, moves: &[Move]) -> Option<Vec<MoveAnalysis>> {
        if rules.kind() == GameKind::ConnectFour {
            if *rules != Rules::connect_four() {
                return None;
            }
            let columns = columns_of(moves);
            return connect4::analyze(&columns, &mut self.solver, Some(&self.book), self.budget)
                .ok();
        }
        let points = points_of(moves)?;
        let budget = self.budget;
        let player = self.gomoku_for(rules);
        gomoku::analyze(*rules, &points, player, EVAL_LEVEL, budget).ok()
    }

    /// The Gomoku engine for `rules`, made anew when the rules change.
    fn gomoku_for(&mut self, rules: &Rules) -> &mut GomokuPlayer {
        if self.gomoku.as_ref().is_none_or(|(r, _)| r != rules) {
            self.gomoku = None;
        }
        let tt_mb = self.tt_mb.min(256);
        &mut self
            .gomoku
            .get_or_insert_with(|| (*rules, gomoku::player_for(rules, tt_mb)))
            .1
    }

    /// The best move in the position after `moves` (the side to move's):
    /// Connect Four's solver (a win on the spot first; the engine's guess
    /// when the position does not settle within the budget), Gomoku's and
    /// Renju's engine. `None`: no move (the game is over, or the moves are
    /// not a game this host analyses).
    pub fn reply(&mut self, rules: &Rules, moves: &[Move]) -> Option<Move> {
        if rules.kind() == GameKind::ConnectFour {
            if *rules != Rules::connect_four() {
                return None;
            }
            let pos = crate::puzzle::position_of(&columns_of(moves))?;
            let playable = (0..WIDTH).filter(|&c| pos.can_play(c));
            if let Some(c) = playable.clone().find(|&c| pos.is_winning_move(c)) {
                return Some(Move::Column(c as u8));
            }
            let limits = Cutoff {
                deadline: Some(std::time::Instant::now() + self.budget),
                stop: None,
            };
            let scores = self
                .solver
                .analyze_within(&pos, false, Some(&self.book), limits);
            let settled = scores.and_then(|s| {
                playable
                    .clone()
                    .filter_map(|c| Some((s[c]?, -(c as i32), c)))
                    .max()
            });
            return match settled {
                Some((_, _, c)) => Some(Move::Column(c as u8)),
                None => crate::engine::connect4::player::ordered_non_losing(&pos)
                    .first()
                    .or(playable.clone().next().map(|c| c as u8).as_ref())
                    .map(|&c| Move::Column(c)),
            };
        }
        let points = points_of(moves)?;
        if gomoku::check(*rules, &points).ok()? {
            return None; // won already
        }
        let budget = self.budget;
        let player = self.gomoku_for(rules);
        let stones = crate::engine::gomoku::stones_from_moves(&points);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limits = crate::engine::Limits::new(budget);
        let report = player.analyse(&stones, EVAL_LEVEL, &limits, &stop);
        report.mv.map(|(x, y)| Move::Point(Point::new(x, y)))
    }

    /// A recorded game's analysis ([`Analyzer::game`]).
    pub fn record(&mut self, g: &GameRecord) -> Option<Vec<MoveAnalysis>> {
        let rules = g.rules()?;
        self.game(&rules, &record_moves(g))
    }
}

/// Connect Four moves as the solver's columns (0..=6).
pub fn columns_of(moves: &[Move]) -> Vec<u8> {
    moves
        .iter()
        .map(|m| match m {
            Move::Column(c) => *c,
            Move::Point(p) => p.x,
        })
        .collect()
}

/// Gomoku moves as points; `None` if one is a column.
fn points_of(moves: &[Move]) -> Option<Vec<(u8, u8)>> {
    moves
        .iter()
        .map(|m| match m {
            Move::Point(p) => Some((p.x, p.y)),
            Move::Column(_) => None,
        })
        .collect()
}

/// A Connect Four game of the computer against itself, the kind people
/// play against it: its `easy` level against its `medium` one (`easy_first`
/// says who opens), seeded (the same seed, the same game). The moves until
/// the game ends.
pub fn computer_game(seed: u64, easy_first: bool) -> Vec<Move> {
    use crate::engine::{EngineOptions, Level, Limits, engine_for};
    let rules = Rules::connect_four();
    let options = |s: u64| EngineOptions {
        seed: Some(s),
        ..EngineOptions::default()
    };
    let mut easy = engine_for(&rules, Level::Easy, &options(seed.wrapping_mul(2)));
    let mut medium = engine_for(&rules, Level::Medium, &options(seed.wrapping_mul(2) + 1));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut pos = crate::game::Position::new(rules);
    let mut moves = Vec::new();
    while !pos.is_over() {
        let easy_to_move = moves.len().is_multiple_of(2) == easy_first;
        let engine = if easy_to_move { &mut easy } else { &mut medium };
        let m = engine.choose(&pos, &Limits::new(Duration::from_millis(200)), &stop);
        if pos.play(m).is_err() {
            break;
        }
        moves.push(m);
    }
    moves
}

/// A Gomoku (or Renju) game of the computer against itself: its level 3
/// against its level 5 (`weak_first` says who opens), each with `think`
/// a move and seeded. The points until the game ends (at most a full
/// board).
pub fn computer_points_game(
    rules: Rules,
    seed: u64,
    weak_first: bool,
    think: Duration,
) -> Vec<(u8, u8)> {
    use crate::engine::gomoku::GomokuLevel;
    use crate::engine::{EngineOptions, Level, Limits, engine_for};
    let options = |s: u64| EngineOptions {
        seed: Some(s),
        ..EngineOptions::default()
    };
    let level = |n| Level::Gomoku(GomokuLevel::new(n).unwrap_or(GomokuLevel::STRONG));
    let mut weak = engine_for(&rules, level(3), &options(seed.wrapping_mul(2)));
    let mut strong = engine_for(&rules, level(5), &options(seed.wrapping_mul(2) + 1));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut pos = crate::game::Position::new(rules);
    let mut points = Vec::new();
    while !pos.is_over() {
        let weak_to_move = points.len().is_multiple_of(2) == weak_first;
        let engine = if weak_to_move { &mut weak } else { &mut strong };
        let m = engine.choose(&pos, &Limits::new(think), &stop);
        match pos.play(m) {
            Ok(p) => points.push((p.x, p.y)),
            Err(_) => break,
        }
    }
    points
}

/// A record's moves as the game's moves.
pub fn record_moves(g: &GameRecord) -> Vec<Move> {
    g.moves
        .iter()
        .map(|m| match g.game {
            GameKind::ConnectFour => Move::Column(m.x),
            GameKind::Gomoku | GameKind::Renju => Move::Point(Point::new(m.x, m.y)),
        })
        .collect()
}

/// A move as the export writes it: a Connect Four column `"1"`-`"7"`, a
/// Gomoku point `"h8"`.
pub fn move_text(game: GameKind, x: u8, y: u8) -> String {
    match game {
        GameKind::ConnectFour => (u16::from(x) + 1).to_string(),
        GameKind::Gomoku | GameKind::Renju => {
            format!("{}{}", char::from(b'a' + x), u16::from(y) + 1)
        }
    }
}

/// A move as the export writes it ([`move_text`]).
pub fn move_id(game: GameKind, m: Move) -> String {
    match m {
        Move::Column(c) => move_text(game, c, 0),
        Move::Point(p) => move_text(game, p.x, p.y),
    }
}

/// A move read back from [`move_id`]'s text (`None`: not one).
fn move_of_id(game: GameKind, text: &str) -> Option<Move> {
    match game {
        // Only the standard board is analysed.
        GameKind::ConnectFour => match text.parse::<u8>() {
            Ok(d @ 1..=7) => Some(Move::Column(d - 1)),
            _ => None,
        },
        GameKind::Gomoku | GameKind::Renju => {
            let mut chars = text.chars();
            let x = chars.next().filter(char::is_ascii_lowercase)? as u8 - b'a';
            let y: u8 = chars
                .as_str()
                .parse()
                .ok()
                .filter(|y| (1..=26).contains(y))?;
            Some(Move::Point(Point::new(x, y - 1)))
        }
    }
}

/// One move's analysis as JSON: `move`, `value_before`, `value_after`
/// (`null` where not settled), `best`, `label` (`null`: not settled),
/// `exact`.
pub fn move_json(game: GameKind, m: &MoveAnalysis) -> Value {
    json!({
        "move": move_id(game, m.played),
        "value_before": m.before,
        "value_after": m.after,
        "best": m.best.iter().map(|&b| move_id(game, b)).collect::<Vec<_>>(),
        "label": m.label.map(Label::id),
        "exact": m.exact,
    })
}

/// A game's analysis as the JSON list the export and the store keep.
pub fn to_json(game: GameKind, moves: &[MoveAnalysis]) -> Value {
    Value::Array(moves.iter().map(|m| move_json(game, m)).collect())
}

/// A game's analysis read back from [`to_json`]'s JSON; `None` when it
/// is not one (a kept analysis is data from the store: checked, bounded).
pub fn from_json(game: GameKind, value: &Value) -> Option<Vec<MoveAnalysis>> {
    let list = value.as_array()?;
    if list.len() > 15 * 15 {
        return None;
    }
    let value_of = |v: &Value| -> Option<Option<i32>> {
        match v {
            Value::Null => Some(None),
            v => Some(Some(i32::try_from(v.as_i64()?).ok()?)),
        }
    };
    list.iter()
        .map(|m| {
            let best = m["best"].as_array()?;
            if best.len() > 15 * 15 {
                return None;
            }
            Some(MoveAnalysis {
                played: move_of_id(game, m["move"].as_str()?)?,
                before: value_of(&m["value_before"])?,
                after: value_of(&m["value_after"])?,
                best: best
                    .iter()
                    .map(|b| move_of_id(game, b.as_str()?))
                    .collect::<Option<Vec<Move>>>()?,
                label: match &m["label"] {
                    Value::Null => None,
                    l => Some(Label::of_id(l.as_str()?)?),
                },
                exact: m["exact"].as_bool()?,
            })
        })
        .collect()
}

/// The analysis kept with game `id` (a `kind` game of `moves` moves) in
/// the store, if one of this format is kept and reads back whole.
pub async fn kept(
    store: &Store,
    id: &str,
    kind: GameKind,
    moves: usize,
) -> Option<Vec<MoveAnalysis>> {
    match store.analysis(id).await {
        Ok(Some(kept)) if kept.version >= VERSION => {
            let parsed = serde_json::from_str::<Value>(&kept.moves)
                .ok()
                .and_then(|v| from_json(kind, &v))
                .filter(|list| list.len() == moves);
            if parsed.is_none() {
                tracing::warn!(game = %id, "a kept analysis could not be read: made again");
            }
            parsed
        }
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(game = %id, error = %e, "kept analysis not read");
            None
        }
    }
}

/// Keeps game `id`'s analysis `moves`, made with `budget` a position (a
/// failure is logged: the analysis is made again next time; a game the
/// store does not hold, one still in the journal, keeps none).
pub async fn keep(
    store: &Store,
    id: &str,
    kind: GameKind,
    moves: &[MoveAnalysis],
    budget: Duration,
) {
    let kept = KeptAnalysis {
        version: VERSION,
        budget_ms: budget.as_millis() as i64,
        moves: to_json(kind, moves).to_string(),
    };
    match store.keep_analysis(id, &kept, crate::store::now_ms()).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::debug!(game = %id, "analysis not kept: no such game, or kept already")
        }
        Err(e) => tracing::warn!(game = %id, error = %e, "analysis not kept"),
    }
}

/// The analysis kept with recorded game `game`, or one made now with
/// `analyzer` and kept.
pub async fn kept_or_made(
    store: &Store,
    analyzer: &mut Analyzer,
    game: &GameRecord,
) -> Option<Vec<MoveAnalysis>> {
    if let Some(moves) = kept(store, &game.id, game.game, game.moves.len()).await {
        return Some(moves);
    }
    let moves = analyzer.record(game)?;
    keep(store, &game.id, game.game, &moves, analyzer.budget).await;
    Some(moves)
}

/// Why a game's analysis is not there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unanalysed {
    #[error("analysis is switched off on this host")]
    Off,
    #[error("the host is analysing many games: try again in a moment")]
    Busy,
    #[error("this game cannot be analysed (only standard 7x6 Connect Four, Gomoku and Renju)")]
    CannotAnalyse,
}

/// A game's analysis, or why there is none.
pub type Answer = Result<Arc<Vec<MoveAnalysis>>, Unanalysed>;

/// The host's analysis service (see the module's notes).
pub struct Analyst {
    config: AnalysisConfig,
    store: Option<Store>,
    /// A permit for each game analysed at once.
    slots: Arc<Semaphore>,
    /// Games asked for and not done (running or queued), by game id: the
    /// people waiting for each.
    asked: Mutex<HashMap<String, Vec<oneshot::Sender<Answer>>>>,
    /// Engines not in use, kept warm.
    idle: Mutex<Vec<Analyzer>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Analyst {
    /// The service; with a store, what it computes is kept there and
    /// what is kept is read from there.
    pub fn new(config: AnalysisConfig, store: Option<Store>) -> Arc<Analyst> {
        Arc::new(Analyst {
            slots: Arc::new(Semaphore::new(config.max_parallel.max(1))),
            config,
            store,
            asked: Mutex::new(HashMap::new()),
            idle: Mutex::new(Vec::new()),
        })
    }

    /// The analysis of the game `moves` under `rules`, recorded as `id`
    /// (if it was): the one kept with the record, or made now (off the
    /// caller's task, a bounded number at once) and kept. A game asked
    /// for again while it is being analysed is analysed once.
    pub async fn of_game(
        self: &Arc<Self>,
        id: Option<String>,
        rules: Rules,
        moves: Vec<Move>,
    ) -> Answer {
        if !self.config.enabled {
            return Err(Unanalysed::Off);
        }
        if let (Some(store), Some(id)) = (&self.store, &id)
            && let Some(list) = kept(store, id, rules.kind(), moves.len()).await
        {
            return Ok(Arc::new(list));
        }
        // Asked for by its id, or by its moves when it was not recorded.
        let key = match &id {
            Some(id) => format!("g {id}"),
            None => format!("m {} {:?}", rules.describe(), moves),
        };
        let (tx, rx) = oneshot::channel();
        let first = {
            let mut asked = lock(&self.asked);
            let full = asked.len() >= self.config.max_parallel + MAX_QUEUED;
            match asked.get_mut(&key) {
                Some(waiting) => {
                    waiting.push(tx);
                    false
                }
                None if full => return Err(Unanalysed::Busy),
                None => {
                    asked.insert(key.clone(), vec![tx]);
                    true
                }
            }
        };
        if first {
            // A task of its own: the analysis is finished and kept even if
            // whoever asked first has gone.
            let this = Arc::clone(self);
            tokio::spawn(async move {
                let answer = this.compute(id, rules, moves).await;
                let waiting = lock(&this.asked).remove(&key).unwrap_or_default();
                for tx in waiting {
                    let _ = tx.send(answer.clone());
                }
            });
        }
        rx.await.unwrap_or(Err(Unanalysed::Busy))
    }

    /// The best move in the position after `moves` ([`Analyzer::reply`]),
    /// on a free analyser within the host's budget: a puzzle's refutation.
    /// `None` when there is none, analysis is off, or every analyser stays
    /// busy for [`REPLY_WAIT`].
    pub async fn reply(self: &Arc<Self>, rules: Rules, moves: Vec<Move>) -> Option<Move> {
        if !self.config.enabled {
            return None;
        }
        let permit = Arc::clone(&self.slots).acquire_owned();
        let _permit = tokio::time::timeout(REPLY_WAIT, permit).await.ok()?.ok()?;
        let mut analyzer = lock(&self.idle)
            .pop()
            .unwrap_or_else(|| Analyzer::new(self.config.budget, HOST_TT_MB));
        let job = tokio::task::spawn_blocking(move || {
            let reply = analyzer.reply(&rules, &moves);
            (analyzer, reply)
        });
        let (analyzer, reply) = job.await.ok()?;
        lock(&self.idle).push(analyzer);
        reply
    }

    /// Analyses a game on a free analyser and keeps the result.
    async fn compute(
        self: &Arc<Self>,
        id: Option<String>,
        rules: Rules,
        moves: Vec<Move>,
    ) -> Answer {
        let Ok(_permit) = Arc::clone(&self.slots).acquire_owned().await else {
            return Err(Unanalysed::Busy);
        };
        let mut analyzer = lock(&self.idle)
            .pop()
            .unwrap_or_else(|| Analyzer::new(self.config.budget, HOST_TT_MB));
        let started = std::time::Instant::now();
        let job = tokio::task::spawn_blocking(move || {
            let list = analyzer.game(&rules, &moves);
            (analyzer, list)
        });
        let Ok((analyzer, list)) = job.await else {
            return Err(Unanalysed::CannotAnalyse);
        };
        lock(&self.idle).push(analyzer);
        let list = list.ok_or(Unanalysed::CannotAnalyse)?;
        tracing::info!(
            game = id.as_deref().unwrap_or("-"),
            moves = list.len(),
            exact = list.iter().filter(|m| m.exact).count(),
            ms = started.elapsed().as_millis() as u64,
            "game analysed"
        );
        if let (Some(store), Some(id)) = (&self.store, &id) {
            keep(store, id, rules.kind(), &list, self.config.budget).await;
        }
        Ok(Arc::new(list))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analysis_reads_back_from_its_json() {
        let mut analyzer = Analyzer::new(Duration::from_millis(500), 16);
        let rules = Rules::connect_four();
        let moves: Vec<Move> = [3u8, 3, 4, 2, 4, 4]
            .iter()
            .map(|&c| Move::Column(c))
            .collect();
        let a = analyzer.game(&rules, &moves).expect("a game");
        assert_eq!(a.len(), 6);
        let json = to_json(GameKind::ConnectFour, &a);
        assert_eq!(from_json(GameKind::ConnectFour, &json), Some(a));
        let points = [(7u8, 7u8), (8, 8), (9, 9)]
            .iter()
            .map(|&(x, y)| Move::Point(Point::new(x, y)))
            .collect::<Vec<_>>();
        let g = analyzer.game(&Rules::gomoku(), &points).expect("a game");
        let json = to_json(GameKind::Gomoku, &g);
        assert_eq!(from_json(GameKind::Gomoku, &json), Some(g));
        // Not an analysis: refused, not guessed.
        for bad in [
            json!({"moves": []}),
            json!([{"move": "9", "value_before": 1, "value_after": 1, "best": [], "label": null, "exact": true}]),
            json!([{"move": "4", "value_before": "x", "value_after": 1, "best": [], "label": null, "exact": true}]),
            json!([{"move": "4", "value_before": 1, "value_after": 1, "best": [], "label": "genius", "exact": true}]),
        ] {
            assert_eq!(from_json(GameKind::ConnectFour, &bad), None, "{bad}");
        }
    }
}
