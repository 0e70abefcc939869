//! `inarow puzzles ...`: puzzles mined from real games.
//!
//! * `inarow puzzles build [--games N] [--from-self-play N]`: the newest N
//!   recorded Connect Four games of the store, and N games of the computer
//!   against itself, searched position by position for puzzles (see
//!   [`crate::puzzle`]); each new one is kept (a position, or its mirror
//!   image, once).
//! * `inarow puzzles list`: the kept puzzles.
//! * `inarow puzzles show ID`: one puzzle, its board and its solution.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Subcommand;

use crate::engine::connect4::{Book, Solver};
use crate::game::{GameKind, Rules};
use crate::puzzle::PuzzleKind;
use crate::puzzle::{C4Puzzle, VcfPuzzle, puzzles_in, vcf_puzzles_in};
use crate::store::{ExportFilter, NewPuzzle, StoredPuzzle};

#[derive(Debug, Subcommand)]
pub enum PuzzlesCommand {
    /// Mine recorded games (and the computer's games against itself) for
    /// puzzles and keep the new ones.
    Build(BuildArgs),
    /// List the kept puzzles.
    List {
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Show one puzzle: its position and its solution.
    Show {
        id: String,
        #[arg(long)]
        config: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The newest N recorded games to mine.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Also N games of the computer against itself, for a store still
    /// young: N of Connect Four (its easy level against its medium one)
    /// and N of Gomoku (its level 3 against its level 5).
    #[arg(long, default_value_t = 0)]
    pub from_self_play: usize,
    /// Time for each position's search, in milliseconds; a position not
    /// settled in it is no puzzle.
    #[arg(long, default_value_t = 500)]
    pub budget_ms: u64,
}

pub fn run(cmd: PuzzlesCommand) -> anyhow::Result<ExitCode> {
    super::games::block_on(async {
        match cmd {
            PuzzlesCommand::Build(args) => build(args).await,
            PuzzlesCommand::List { config } => list(config).await,
            PuzzlesCommand::Show { id, config } => show(&id, config).await,
        }
    })
}

fn digits(columns: &[u8]) -> String {
    columns.iter().map(|&c| char::from(b'1' + c)).collect()
}

/// Points as the export writes them: `h8 i9`.
fn points_text(game: GameKind, points: &[(u8, u8)]) -> String {
    points
        .iter()
        .map(|&(x, y)| crate::analyst::move_text(game, x, y))
        .collect::<Vec<_>>()
        .join(" ")
}

fn new_vcf_puzzle(game: GameKind, p: &VcfPuzzle, source: &str) -> NewPuzzle {
    NewPuzzle {
        game: game.id().to_string(),
        kind: "win".to_string(),
        position: points_text(game, &p.moves),
        line: points_text(game, &p.line),
        // The mover's fours and five.
        win_in: Some(p.line.len().div_ceil(2) as i64),
        key: format!("{}:{}", game.id(), p.key),
        source: source.to_string(),
    }
}

fn new_puzzle(p: &C4Puzzle, source: &str) -> NewPuzzle {
    NewPuzzle {
        game: GameKind::ConnectFour.id().to_string(),
        kind: p.kind.id().to_string(),
        position: digits(&p.moves),
        line: digits(&p.line),
        win_in: p.win_in.map(i64::from),
        key: format!("c4:{:x}", p.key),
        source: source.to_string(),
    }
}

async fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let store = super::games::open_store(args.config.as_ref()).await?;
    let budget = Duration::from_millis(args.budget_ms.clamp(10, 60_000));
    let mut solver = Solver::new(256);
    let book = Book::builtin();
    let (mut found, mut kept, mut games) = (0usize, [0usize; 2], 0usize);
    let mut keep = async |p: NewPuzzle, hold: bool| -> anyhow::Result<()> {
        found += 1;
        if store
            .add_puzzle(&p, crate::store::now_ms())
            .await?
            .is_some()
        {
            kept[usize::from(hold)] += 1;
        }
        Ok(())
    };
    // The store's newest games: Connect Four on the standard board,
    // Gomoku and Renju on square boards.
    let mut recorded = store
        .export(&ExportFilter {
            player: None,
            game: None,
            since_ms: None,
            after: None,
            limit: i64::MAX,
        })
        .await?;
    recorded.retain(|g| match g.rules() {
        // The standard boards: a puzzle names its game, not its board.
        Some(r) => r == Rules::connect_four() || r == Rules::gomoku() || r == Rules::renju(),
        None => false,
    });
    let newest = recorded.len().saturating_sub(args.games);
    let mut gomoku: Option<(Rules, crate::engine::gomoku::GomokuPlayer)> = None;
    for g in &recorded[newest..] {
        let Some(rules) = g.rules() else { continue };
        if g.game == GameKind::ConnectFour {
            let columns: Vec<u8> = g.moves.iter().map(|m| m.x).collect();
            for p in puzzles_in(&columns, &mut solver, Some(&book), budget) {
                keep(new_puzzle(&p, &g.id), p.kind == PuzzleKind::Hold).await?;
            }
        } else {
            if gomoku.as_ref().is_none_or(|(r, _)| *r != rules) {
                gomoku = Some((rules, crate::analysis::gomoku::player_for(&rules, 64)));
            }
            let Some((_, player)) = gomoku.as_mut() else {
                continue;
            };
            let points: Vec<(u8, u8)> = g.moves.iter().map(|m| (m.x, m.y)).collect();
            for p in vcf_puzzles_in(rules, &points, player, budget) {
                keep(new_vcf_puzzle(g.game, &p, &g.id), false).await?;
            }
        }
        games += 1;
    }
    let gomoku_rules = Rules::gomoku();
    let mut player = crate::analysis::gomoku::player_for(&gomoku_rules, 64);
    for i in 0..args.from_self_play {
        let seed = i as u64 + 1;
        let columns =
            crate::analyst::columns_of(&crate::analyst::computer_game(seed, i.is_multiple_of(2)));
        for p in puzzles_in(&columns, &mut solver, Some(&book), budget) {
            keep(new_puzzle(&p, "self-play"), p.kind == PuzzleKind::Hold).await?;
        }
        let points = crate::analyst::computer_points_game(
            gomoku_rules,
            seed,
            i.is_multiple_of(2),
            Duration::from_millis(50),
        );
        for p in vcf_puzzles_in(gomoku_rules, &points, &mut player, budget) {
            keep(new_vcf_puzzle(GameKind::Gomoku, &p, "self-play"), false).await?;
        }
        games += 2;
    }
    store.close().await;
    outln!(
        "{games} games mined in {:.1} s: {found} puzzles found, {} new kept ({} win, {} hold), {} already kept",
        started.elapsed().as_secs_f64(),
        kept[0] + kept[1],
        kept[0],
        kept[1],
        found - kept[0] - kept[1]
    );
    Ok(ExitCode::SUCCESS)
}

async fn list(config: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let store = super::games::open_store(config.as_ref()).await?;
    let all = store.puzzles(1000).await?;
    store.close().await;
    outln!("{} puzzles", all.len());
    for p in &all {
        outln!("{}", list_line(p));
    }
    Ok(ExitCode::SUCCESS)
}

/// One puzzle in the list: id, game, what to find, rating, source.
fn list_line(p: &StoredPuzzle) -> String {
    let what = match (p.puzzle.kind.as_str(), p.puzzle.win_in) {
        ("win", Some(k)) => format!("win in {k}"),
        ("hold", _) => "only move".to_string(),
        (k, _) => crate::text::sanitize(k, 10),
    };
    format!(
        "{}  {:<8} {:<10} {:>4}  from {}",
        p.id,
        crate::text::sanitize(&p.puzzle.game, 10),
        what,
        p.rating.rating.round() as i64,
        crate::text::sanitize(&p.puzzle.source, 40)
    )
}

async fn show(id: &str, config: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let store = super::games::open_store(config.as_ref()).await?;
    let found = store.puzzle(id.trim()).await?;
    store.close().await;
    let Some(p) = found else {
        bail!(
            "no puzzle has the id {}",
            crate::text::sanitize_quote(id, 40)
        );
    };
    outln!("{}", show_text(&p));
    Ok(ExitCode::SUCCESS)
}

/// A puzzle as `inarow puzzles show` prints it: what to find, the board,
/// the solution.
fn show_text(p: &StoredPuzzle) -> String {
    use crate::term::board::{BoardView, Theme, draw_board};
    let rules = p.rules().unwrap_or_else(Rules::connect_four);
    let moves = p.position_moves().unwrap_or_default();
    let mut pos = crate::game::Position::new(rules);
    for &m in &moves {
        if pos.play(m).is_err() {
            break;
        }
    }
    let who = if moves.len().is_multiple_of(2) {
        "first"
    } else {
        "second"
    };
    let task = match (p.puzzle.kind.as_str(), rules.kind()) {
        ("win", GameKind::ConnectFour) => format!(
            "the {who} player to move: find the winning move (a win in {} stones)",
            p.puzzle.win_in.unwrap_or(0)
        ),
        ("win", _) => format!(
            "the {who} player to move: find the win by continuous fours ({} stones)",
            p.puzzle.win_in.unwrap_or(0)
        ),
        _ => format!("the {who} player to move: find the only move that does not lose"),
    };
    let mut s = format!(
        "puzzle   {}\nfrom     {}\nrating   {:.0} ± {:.0}   solved {} of {}\n{task}\n",
        p.id,
        crate::text::sanitize(&p.puzzle.source, 40),
        p.rating.rating,
        p.rating.deviation,
        p.solved,
        p.attempts
    );
    let (lines, _) = draw_board(&BoardView {
        position: &pos,
        colours: [crate::game::Colour::Red, crate::game::Colour::Yellow],
        cursor: None,
        theme: Theme::Ascii,
        show_forbidden: false,
        hint: None,
    });
    for line in lines {
        let text = line.text();
        if !text.trim().is_empty() {
            s.push_str(text.trim_end());
            s.push('\n');
        }
    }
    let solution = if rules.kind() == GameKind::ConnectFour {
        let letters: Vec<String> = p
            .puzzle
            .line
            .bytes()
            .filter(|b| (b'1'..=b'7').contains(b))
            .map(|b| char::from(b - b'1' + b'A').to_string())
            .collect();
        format!(
            "{} ({})",
            crate::text::sanitize(&p.puzzle.line, 60),
            letters.join(" ")
        )
    } else {
        crate::text::sanitize(&p.puzzle.line, 200)
    };
    s.push_str(&format!(
        "position {}\nsolution {solution}\n",
        crate::text::sanitize(&p.puzzle.position, 1000),
    ));
    s
}
