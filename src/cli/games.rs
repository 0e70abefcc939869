//! `inarow games`: the recorded games, for people and scripts.
//!
//! * `inarow games export [--config FILE] [--format json|text]
//!   [--player NAME] [--game connect4|gomoku] [--since YYYY-MM-DD]`: one
//!   game per line, oldest first.
//! * `inarow games show ID`: one record and its final board as text.
//!
//! Both read the store the configuration names, also while the host runs.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::config::Config;
use crate::game::{GameKind, Point, Position};
use crate::store::{ExportFilter, GameRecord, MAX_PAGE, Store, parse_day, rfc3339};
use crate::term::board::{BoardView, Theme, draw_board};

use crate::records::{export_json, export_text, move_label, outcome_text, player_text, point_text};

#[derive(Debug, clap::Subcommand)]
pub enum GamesCommand {
    /// Every recorded game matching the filters, one per line, oldest first.
    Export(ExportArgs),
    /// One game: its record and the final board.
    Show(ShowArgs),
}

/// How the export prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Json,
    Text,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The configuration file naming the store (default: the built-in
    /// defaults, sqlite://var/inarow.db).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Only games this player (by display name, any case) took part in.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only games of this kind.
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Only games started on or after this day (UTC).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub since: Option<String>,
    /// With --format json: every game gets an `analysis` key, a list with
    /// one object per move (`value_before`, `value_after`, `best`,
    /// `label`, `exact`), or null for a game not analysed (Connect Four
    /// on a board other than 7x6).
    #[arg(long)]
    pub analyze: bool,
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The game's id (as the export prints it).
    pub id: String,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Add the move-by-move analysis.
    #[arg(long)]
    pub analyze: bool,
}

pub fn run(cmd: GamesCommand) -> anyhow::Result<ExitCode> {
    block_on(async {
        match cmd {
            GamesCommand::Export(args) => export(args).await,
            GamesCommand::Show(args) => show(args).await,
        }
    })
}

/// Runs a store command to its end on a runtime of this thread.
pub fn block_on(
    command: impl std::future::Future<Output = anyhow::Result<ExitCode>>,
) -> anyhow::Result<ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(command)
}

/// Opens the store a configuration file (or the defaults) names.
pub async fn open_store(config: Option<&PathBuf>) -> anyhow::Result<Store> {
    let config = match config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    Ok(Store::open_with(&config.store.url, &config.store.options()).await?)
}

/// Time for each position of an analysed game.
const ANALYSIS_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

async fn export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let since_ms = match &args.since {
        Some(day) => Some(parse_day(day).with_context(|| {
            format!(
                "--since {}: expected a day as YYYY-MM-DD",
                crate::text::sanitize_quote(day, 20)
            )
        })?),
        None => None,
    };
    let store = open_store(args.config.as_ref()).await?;
    let mut filter = ExportFilter {
        player: args.player.clone(),
        game: args.game,
        since_ms,
        after: None,
        limit: MAX_PAGE,
    };
    let mut analyzer = args
        .analyze
        .then(|| crate::analyst::Analyzer::new(ANALYSIS_BUDGET, 256));
    let stdout = io::stdout();
    let mut out = stdout.lock();
    loop {
        let page = store.export(&filter).await?;
        for g in &page {
            let line = match args.format {
                Format::Json => {
                    let mut json = export_json(g);
                    if let Some(a) = analyzer.as_mut() {
                        let moves = crate::analyst::kept_or_made(&store, a, g)
                            .await
                            .map(|moves| {
                                moves
                                    .iter()
                                    .map(|m| crate::analyst::move_json(g.game, m))
                                    .collect::<Vec<_>>()
                            });
                        json["analysis"] = serde_json::json!(moves);
                    }
                    json.to_string()
                }
                Format::Text => export_text(g),
            };
            // A closed pipe (`| head`) ends the command quietly (see `main`).
            writeln!(out, "{line}").map_err(super::OutputError)?;
        }
        match page.last() {
            Some(last) if page.len() as i64 >= MAX_PAGE => {
                filter.after = Some((last.started_ms, last.id.clone()));
            }
            _ => break,
        }
    }
    store.close().await;
    Ok(ExitCode::SUCCESS)
}

async fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    if args.id.len() > 64 {
        bail!("not a game id");
    }
    let config = match args.config.as_ref() {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    let store = Store::open_with(&config.store.url, &config.store.options()).await?;
    let Some(g) = store.game(args.id.trim()).await? else {
        bail!(
            "no game has the id {}",
            crate::text::sanitize_quote(&args.id, 40)
        );
    };
    out!("{}", show_text(&g));
    if let Some(base) = &config.http.public_url {
        outln!("web      {base}/g/{}", g.id);
    }
    if args.analyze {
        let started = std::time::Instant::now();
        let mut analyzer = crate::analyst::Analyzer::new(ANALYSIS_BUDGET, 256);
        match crate::analyst::kept_or_made(&store, &mut analyzer, &g).await {
            Some(moves) => out!(
                "\n{}",
                super::analyze::text_of(g.game, &moves, started.elapsed())
            ),
            None => {
                outln!("\nNo analysis: Connect Four is analysed on its 7x6 board only, so far.")
            }
        }
    }
    store.close().await;
    Ok(ExitCode::SUCCESS)
}

/// The record and its final board, as `inarow games show` prints them.
pub fn show_text(g: &GameRecord) -> String {
    let mut s = String::new();
    let rules = g.rules();
    s.push_str(&format!("game     {}\n", g.id));
    s.push_str(&format!(
        "rules    {}{}\n",
        rules.map_or_else(|| g.game.name().to_string(), |r| r.describe()),
        if g.rated { ", rated" } else { ", casual" }
    ));
    s.push_str(&format!(
        "played   {} to {}\n",
        rfc3339(g.started_ms),
        rfc3339(g.ended_ms)
    ));
    s.push_str(&format!(
        "first    {}\n",
        player_text(g, usize::from(g.first.min(1)))
    ));
    s.push_str(&format!(
        "second   {}\n",
        player_text(g, usize::from(1 - g.first.min(1)))
    ));
    s.push_str(&format!("result   {}\n", outcome_text(g)));
    if !g.line.is_empty() {
        let line: Vec<String> = g.line.iter().map(|&(x, y)| point_text(g, x, y)).collect();
        s.push_str(&format!("line     {}\n", line.join(" ")));
    }
    let moves: Vec<String> = g
        .moves
        .iter()
        .map(|m| move_label(g.game, m.x, m.y))
        .collect();
    s.push_str(&format!("moves    {}\n", moves.join(" ")));
    if !g.moves.is_empty() {
        // When each move was made, in seconds since the start.
        let times: Vec<String> = g
            .moves
            .iter()
            .map(|m| format!("{:.1}", m.ms as f64 / 1000.0))
            .collect();
        s.push_str(&format!("times    {}\n", times.join(" ")));
    }
    if let Some(rules) = rules {
        let mut pos = Position::new(rules);
        for m in &g.moves {
            let mv = match g.game {
                GameKind::ConnectFour => crate::game::Move::Column(m.x),
                GameKind::Gomoku | GameKind::Renju => {
                    crate::game::Move::Point(Point::new(m.x, m.y))
                }
            };
            if pos.play(mv).is_err() {
                break;
            }
        }
        let colours = [0, 1].map(|i| {
            let seat = if i == 0 { g.first } else { 1 - g.first.min(1) };
            g.players[usize::from(seat.min(1))]
                .colour
                .parse()
                .unwrap_or(crate::game::Colour::ALL[i])
        });
        let view = BoardView {
            position: &pos,
            colours,
            cursor: None,
            theme: Theme::Ascii,
            show_forbidden: false,
            hint: None,
        };
        let (lines, _) = draw_board(&view);
        for line in lines {
            let text = line.text();
            if !text.trim().is_empty() {
                s.push_str(text.trim_end());
                s.push('\n');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn connect_four_moves_are_column_letters_for_people_and_json_keeps_its_digits() {
        use crate::store::MoveRecord;
        let g = GameRecord {
            moves: [(3, 0), (4, 0), (3, 1)]
                .map(|(x, y)| MoveRecord { x, y, ms: 100 })
                .to_vec(),
            ..crate::store::sample_record()
        };
        let json = export_json(&g);
        assert_eq!(
            json["moves"],
            json!(["4", "5", "4"]),
            "the documented field"
        );
        assert_eq!(json["move_labels"], json!(["D", "E", "D"]));
        assert_eq!(json["line"], json!(["(0|0)", "(1|1)", "(2|2)", "(3|3)"]));
        let text = export_text(&g);
        assert!(text.ends_with("3 moves: DED"), "{text}");
        let shown = show_text(&g);
        assert!(shown.contains("moves    D E D\n"), "{shown}");
        // The board under it: letters above and below, no column digits.
        let below = shown.lines().last().unwrap_or_default();
        assert!(below.contains("A  B  C  D  E  F  G"), "{shown}");
        // What `inarow solve` reads, letters included.
        let moves = text.rsplit(' ').next().unwrap();
        assert!(
            crate::engine::connect4::C4Position::from_moves(moves).unwrap()
                == crate::engine::connect4::C4Position::from_moves("454").unwrap()
        );
    }
}
