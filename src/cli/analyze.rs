//! `inarow analyze`: move-by-move analysis of a game that was never
//! recorded, given as its moves: Connect Four as the solver's digits
//! (`4453...`, leftmost column 1), as text for people or, with `--json`,
//! with the same fields per move as `inarow games export --analyze`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::bail;
use serde_json::{Value, json};

use crate::analysis::{Label, MoveAnalysis, connect4, gomoku, summary};
use crate::engine::connect4::{Book, Solver};
use crate::engine::gomoku::GomokuLevel;
use crate::game::Rules;
use crate::game::{GameKind, Move};
use crate::store::GameRecord;

/// Longest move list read (characters): a Connect Four game has at most
/// 42 moves, a Gomoku game 225 points of up to 4 characters each.
const MAX_MOVES_TEXT: usize = 2048;

/// The level whose search judges Gomoku and Renju positions: the full
/// engine, within each position's time.
const EVAL_LEVEL: GomokuLevel = GomokuLevel::STRONG;

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The game: connect4, gomoku or renju.
    #[arg(long)]
    pub game: GameKind,
    /// The moves from the empty board: Connect Four as digits 1-7
    /// (`4453`, or `4 4 5 3`), Gomoku and Renju as points (`h8 i9 j10`).
    #[arg(required = true, num_args = 1..)]
    pub moves: Vec<String>,
    /// Print JSON: the fields `inarow games export --analyze` has per move.
    #[arg(long)]
    pub json: bool,
    /// Time for each position, in milliseconds; a position not settled
    /// within it is shown as not settled.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub budget_ms: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub tt_mb: usize,
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let text = args.moves.join(" ");
    if text.len() > MAX_MOVES_TEXT {
        bail!("too many moves (more than {MAX_MOVES_TEXT} characters)");
    }
    let started = Instant::now();
    let budget = Duration::from_millis(args.budget_ms);
    let tt_mb = args.tt_mb.clamp(1, 4096);
    let moves = match args.game {
        GameKind::ConnectFour => {
            let columns = connect4_columns(&text)?;
            let mut solver = Solver::new(tt_mb);
            let book = Book::builtin();
            connect4::analyze(&columns, &mut solver, Some(&book), budget)?
        }
        kind => {
            let rules = if kind == GameKind::Renju {
                Rules::renju()
            } else {
                Rules::gomoku()
            };
            let points = points_of(&rules, &text)?;
            let mut player = gomoku::player_for(&rules, tt_mb.min(256));
            gomoku::analyze(rules, &points, &mut player, EVAL_LEVEL, budget)?
        }
    };
    if args.json {
        let json = json!({
            "game": args.game.id(),
            "moves": moves.iter().map(|m| move_json(args.game, m)).collect::<Vec<_>>(),
        });
        outln!("{json:#}");
    } else {
        out!("{}", text_of(args.game, &moves, started.elapsed()));
    }
    Ok(ExitCode::SUCCESS)
}

/// The engines an analysis runs on, kept from one game to the next (the
/// solver's table stays warm).
pub(crate) struct Analyzer {
    solver: Solver,
    book: Book,
    /// The Gomoku engine of the last Gomoku or Renju game, for its rules.
    gomoku: Option<(Rules, crate::engine::gomoku::GomokuPlayer)>,
    budget: Duration,
}

impl Analyzer {
    pub(crate) fn new(budget: Duration) -> Analyzer {
        Analyzer {
            solver: Solver::new(256),
            book: Book::builtin(),
            gomoku: None,
            budget,
        }
    }

    /// A recorded game's analysis; `None` for a game this host cannot
    /// analyse yet (Connect Four on a board other than 7x6) or whose moves
    /// are not a game.
    pub(crate) fn record(&mut self, g: &GameRecord) -> Option<Vec<MoveAnalysis>> {
        let rules = g.rules()?;
        if g.game != GameKind::ConnectFour {
            let points: Vec<(u8, u8)> = g.moves.iter().map(|m| (m.x, m.y)).collect();
            if self.gomoku.as_ref().is_none_or(|(r, _)| *r != rules) {
                self.gomoku = Some((rules, gomoku::player_for(&rules, 64)));
            }
            let (_, player) = self.gomoku.as_mut()?;
            return gomoku::analyze(rules, &points, player, EVAL_LEVEL, self.budget).ok();
        }
        let standard = (g.width, g.height, g.k) == (7, 6, 4);
        if !standard {
            return None;
        }
        let columns: Vec<u8> = g.moves.iter().map(|m| m.x).collect();
        connect4::analyze(&columns, &mut self.solver, Some(&self.book), self.budget).ok()
    }
}

/// Gomoku or Renju points (`h8 i9`, spaces or commas between them) as
/// (x column, y row) from 0.
fn points_of(rules: &Rules, text: &str) -> anyhow::Result<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    for (i, word) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        match rules.parse_move(word) {
            Ok(Move::Point(p)) => out.push((p.x, p.y)),
            Ok(Move::Column(_)) => bail!("move {}: not a point", i + 1),
            Err(e) => bail!("move {}: {e}", i + 1),
        }
    }
    Ok(out)
}

/// Connect Four moves as digits 1-7, spaces and commas between them
/// allowed; columns 0..=6.
fn connect4_columns(text: &str) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    for (i, c) in text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .enumerate()
    {
        match c.to_digit(10) {
            Some(d @ 1..=7) => out.push(d as u8 - 1),
            _ => bail!(
                "move {}: {} is not a column: Connect Four moves are the digits 1-7",
                i + 1,
                crate::text::sanitize_quote(&c.to_string(), 4)
            ),
        }
    }
    Ok(out)
}

/// A move as the export writes it: a Connect Four column `"1"`-`"7"`, a
/// Gomoku point `"h8"`.
pub(crate) fn move_text(game: GameKind, x: u8, y: u8) -> String {
    match game {
        GameKind::ConnectFour => (u16::from(x) + 1).to_string(),
        GameKind::Gomoku | GameKind::Renju => {
            format!("{}{}", char::from(b'a' + x), u16::from(y) + 1)
        }
    }
}

/// A move as the export writes it: a Connect Four column `"1"`-`"7"`.
fn move_id(game: GameKind, m: Move) -> String {
    match m {
        Move::Column(c) => move_text(game, c, 0),
        Move::Point(p) => move_text(game, p.x, p.y),
    }
}

/// One move's analysis as JSON: `value_before`, `value_after` (`null`
/// where not settled), `best`, `label` (`null`: not settled), `exact`.
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

/// A value in words: Connect Four's `win (+3)`, `draw`, `loss (-2)`;
/// Gomoku's evaluation `+250` or a proven `win`, `loss`; `not settled`.
fn value_words(game: GameKind, v: Option<i32>) -> String {
    match (game, v) {
        (_, None) => "not settled".into(),
        (GameKind::ConnectFour, Some(0)) => "draw".into(),
        (GameKind::ConnectFour, Some(v)) if v > 0 => format!("win (+{v})"),
        (GameKind::ConnectFour, Some(v)) => format!("loss ({v})"),
        (_, Some(v)) if v > gomoku::PROVEN => "win".into(),
        (_, Some(v)) if v < -gomoku::PROVEN => "loss".into(),
        (_, Some(v)) => format!("{v:+}"),
    }
}

/// What a label says to people. Without one: a Connect Four position the
/// solver did not settle; a Gomoku move no threat search had a word for.
fn label_words(game: GameKind, label: Option<Label>) -> &'static str {
    match label {
        None if game == GameKind::ConnectFour => "not settled",
        None => "-",
        Some(Label::Best) => "best",
        Some(Label::SlowerWin) => "slower",
        Some(Label::Mistake) => "mistake",
        Some(Label::Blunder) => "blunder",
        Some(Label::MissedWin) => "missed win",
        Some(Label::AllowedWin) => "allowed a win",
    }
}

/// The counts of one player's labelled moves: `1 blunder (move 14), 2
/// mistakes (moves 3, 9)`, or `no mistakes`.
pub fn summary_words(list: &[(Label, Vec<usize>)]) -> String {
    if list.is_empty() {
        return "no mistakes".into();
    }
    let parts: Vec<String> = list
        .iter()
        .map(|(label, at)| {
            let n = at.len();
            let name = match (label, n) {
                (Label::Blunder, 1) => "blunder",
                (Label::Blunder, _) => "blunders",
                (Label::Mistake, 1) => "mistake",
                (Label::Mistake, _) => "mistakes",
                (Label::SlowerWin, 1) => "slower move",
                (Label::SlowerWin, _) => "slower moves",
                (Label::MissedWin, 1) => "missed win",
                (Label::MissedWin, _) => "missed wins",
                (Label::AllowedWin, 1) => "allowed win",
                (Label::AllowedWin, _) => "allowed wins",
                (Label::Best, _) => "best moves",
            };
            let moves: Vec<String> = at.iter().map(usize::to_string).collect();
            let which = if n == 1 { "move" } else { "moves" };
            format!("{n} {name} ({which} {})", moves.join(", "))
        })
        .collect();
    parts.join(", ")
}

/// The analysis as text: a summary, then a line a move.
pub(crate) fn text_of(game: GameKind, moves: &[MoveAnalysis], took: Duration) -> String {
    use std::fmt::Write;
    let settled = moves.iter().filter(|m| m.exact).count();
    let mut s = String::new();
    let [first, second] = summary(moves);
    let _ = writeln!(
        s,
        "{} analysis: {} moves, {settled} settled exactly, in {:.1} s",
        game.name(),
        moves.len(),
        took.as_secs_f64()
    );
    let _ = writeln!(s, "first player: {}", summary_words(&first));
    let _ = writeln!(s, "second player: {}", summary_words(&second));
    for (i, m) in moves.iter().enumerate() {
        let best: Vec<String> = m.best.iter().map(|&b| move_id(game, b)).collect();
        let _ = writeln!(
            s,
            "{:>3}. {:<6} {:<3} {:<13} -> {:<13} best {:<9} {}",
            i + 1,
            if i % 2 == 0 { "first" } else { "second" },
            move_id(game, m.played),
            value_words(game, m.before),
            value_words(game, m.after),
            if best.is_empty() {
                "-".into()
            } else {
                best.join(",")
            },
            label_words(game, m.label),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_four_moves_are_digits_with_spaces_or_commas_between() {
        assert_eq!(connect4_columns("4453").unwrap(), vec![3, 3, 4, 2]);
        assert_eq!(connect4_columns("4 4, 5 3").unwrap(), vec![3, 3, 4, 2]);
        let e = connect4_columns("44\u{1b}[31m").unwrap_err().to_string();
        assert!(e.starts_with("move 3:"), "{e}");
        assert!(!e.contains('\u{1b}'), "{e}");
        assert!(connect4_columns("48").is_err());
        assert!(connect4_columns("40").is_err());
    }

    #[test]
    fn a_summary_counts_each_kind_with_its_moves() {
        let list = vec![(Label::Blunder, vec![14]), (Label::Mistake, vec![3, 9])];
        assert_eq!(
            summary_words(&list),
            "1 blunder (move 14), 2 mistakes (moves 3, 9)"
        );
        assert_eq!(summary_words(&[]), "no mistakes");
    }
}
