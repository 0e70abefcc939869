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

use anyhow::{Context, bail};
use clap::Subcommand;

use crate::engine::connect4::{Book, Solver};
use crate::game::{GameKind, Move, Rules};
use crate::puzzle::{C4Puzzle, puzzles_in};
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
    /// Also N games of the computer against itself (its easy level
    /// against its medium one), for a store still young.
    #[arg(long, default_value_t = 0)]
    pub from_self_play: usize,
    /// Time for each position's search, in milliseconds; a position not
    /// settled in it is no puzzle.
    #[arg(long, default_value_t = 500)]
    pub budget_ms: u64,
}

pub fn run(cmd: PuzzlesCommand) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
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

fn columns_of(moves: &[Move]) -> Vec<u8> {
    moves
        .iter()
        .map(|m| match m {
            Move::Column(c) => *c,
            Move::Point(p) => p.x,
        })
        .collect()
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
    let mut keep_all = async |list: Vec<C4Puzzle>, source: &str| -> anyhow::Result<()> {
        for p in list {
            found += 1;
            if store
                .add_puzzle(&new_puzzle(&p, source), crate::store::now_ms())
                .await?
                .is_some()
            {
                kept[usize::from(p.kind == crate::puzzle::PuzzleKind::Hold)] += 1;
            }
        }
        Ok(())
    };
    // The store's newest Connect Four games on the standard board.
    let mut recorded = store
        .export(&ExportFilter {
            player: None,
            game: Some(GameKind::ConnectFour),
            since_ms: None,
            after: None,
            limit: i64::MAX,
        })
        .await?;
    recorded.retain(|g| g.rules() == Some(Rules::connect_four()));
    let newest = recorded.len().saturating_sub(args.games);
    for g in &recorded[newest..] {
        let columns: Vec<u8> = g.moves.iter().map(|m| m.x).collect();
        keep_all(
            puzzles_in(&columns, &mut solver, Some(&book), budget),
            &g.id,
        )
        .await?;
        games += 1;
    }
    for i in 0..args.from_self_play {
        let columns = columns_of(&crate::analyst::computer_game(i as u64 + 1, i % 2 == 0));
        keep_all(
            puzzles_in(&columns, &mut solver, Some(&book), budget),
            "self-play",
        )
        .await?;
        games += 1;
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
        p.rating,
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
    let rules = Rules::connect_four();
    let columns: Vec<u8> = p
        .puzzle
        .position
        .bytes()
        .filter(|b| (b'1'..=b'7').contains(b))
        .map(|b| b - b'1')
        .collect();
    let mut pos = crate::game::Position::new(rules);
    for &c in &columns {
        if pos.play(Move::Column(c)).is_err() {
            break;
        }
    }
    let who = if columns.len() % 2 == 0 {
        "first"
    } else {
        "second"
    };
    let task = match p.puzzle.kind.as_str() {
        "win" => format!(
            "the {who} player to move: find the winning move (a win in {} stones)",
            p.puzzle.win_in.unwrap_or(0)
        ),
        _ => format!("the {who} player to move: find the only move that does not lose"),
    };
    let mut s = format!(
        "puzzle   {}\nfrom     {}\nrating   {} ± {}\n{task}\n",
        p.id,
        crate::text::sanitize(&p.puzzle.source, 40),
        p.rating,
        p.deviation
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
    let letters: Vec<String> = p
        .puzzle
        .line
        .bytes()
        .filter(|b| (b'1'..=b'7').contains(b))
        .map(|b| char::from(b - b'1' + b'A').to_string())
        .collect();
    s.push_str(&format!(
        "position {}\nsolution {} ({})\n",
        crate::text::sanitize(&p.puzzle.position, 60),
        crate::text::sanitize(&p.puzzle.line, 60),
        letters.join(" ")
    ));
    s
}
