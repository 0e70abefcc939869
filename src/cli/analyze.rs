//! `inarow analyze`: move-by-move analysis of a game that was never
//! recorded, given as its moves: Connect Four as the solver's digits
//! (`4453...`, leftmost column 1), as text for people or, with `--json`,
//! with the same fields per move as `inarow games export --analyze`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::bail;
use serde_json::json;

use crate::analysis::{MoveAnalysis, connect4, gomoku, summary};
use crate::analyst::{EVAL_LEVEL, move_id, move_json};
use crate::engine::connect4::{Book, Solver};
use crate::game::Rules;
use crate::game::{GameKind, Move};
use crate::lang::Lang;
use crate::session::review::{label_words, summary_words, value_words};

/// Longest move list read (characters): a Connect Four game has at most
/// 42 moves, a Gomoku game 225 points of up to 4 characters each.
const MAX_MOVES_TEXT: usize = 2048;

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
    let _ = writeln!(s, "first player: {}", summary_words(Lang::En, &first));
    let _ = writeln!(s, "second player: {}", summary_words(Lang::En, &second));
    for (i, m) in moves.iter().enumerate() {
        let best: Vec<String> = m.best.iter().map(|&b| move_id(game, b)).collect();
        let _ = writeln!(
            s,
            "{:>3}. {:<6} {:<3} {:<13} -> {:<13} best {:<9} {}",
            i + 1,
            if i % 2 == 0 { "first" } else { "second" },
            move_id(game, m.played),
            value_words(Lang::En, game, m.before),
            value_words(Lang::En, game, m.after),
            match (best.is_empty(), m.exact || game != GameKind::ConnectFour) {
                (true, _) => "-".into(),
                (false, true) => best.join(","),
                // Not settled: the engine's guess.
                (false, false) => format!("{}?", best.join(",")),
            },
            label_words(Lang::En, game, m.label),
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
}
