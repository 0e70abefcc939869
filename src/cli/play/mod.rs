//! `inarow play`: the game in this terminal. This file holds the flags and
//! their checks; [`terminal`] runs the full-screen session, [`lines`] the
//! plain one-move-per-line mode for scripts (stdin not a terminal).

mod lines;
mod terminal;

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};

use crate::engine::Level;
use crate::game::{BoardSize, Colour, GameKind, Rules};
use crate::session::setup::{Opponent, PlayOptions};
use crate::term::board::Theme;
use crate::text;

/// Every menu choice is also a flag; a game with every choice given starts at once.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The game: connect4, gomoku or renju.
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Play against a second person on this keyboard (human) or the computer.
    #[arg(long)]
    pub vs: Option<Opponent>,
    /// The computer's level (Connect Four: easy, medium, hard, perfect; Gomoku and renju: 1 to 8, weakest first, or easy, medium, strong for 2, 5, 8).
    #[arg(long)]
    pub level: Option<Level>,
    /// Player names, first player first: `Alice,Bob` (or just `Alice`).
    #[arg(long, value_name = "A,B")]
    pub names: Option<String>,
    /// Player colours from red, green, yellow, blue: `red,yellow`.
    #[arg(long, value_name = "C1,C2")]
    pub colors: Option<String>,
    /// Which player moves first.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub first: Option<u8>,
    /// Stones as coloured emoji, or letters for terminals that need it: emoji or ascii.
    #[arg(long)]
    pub theme: Option<Theme>,
    /// Board size, e.g. 8x7 for Connect Four or 19x19 for Gomoku.
    #[arg(long, value_name = "WxH")]
    pub size: Option<BoardSize>,
    /// Gomoku: only exactly five wins (six or more does not).
    #[arg(long)]
    pub exact: bool,
    /// How a game between two people opens: standard, or swap2 (Gomoku and
    /// Renju: three stones placed, then a choice of side).
    #[arg(long)]
    pub opening: Option<crate::table::Opening>,
    /// How long the computer may think per move, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub think_ms: u64,
    /// Seed the computer's random choices (for reproducible runs).
    #[arg(long, hide = true)]
    pub seed: Option<u64>,
}

/// Turns flags into pre-answered menu choices, checking them.
pub fn options_from_args(args: &PlayArgs) -> anyhow::Result<PlayOptions> {
    let kind = args.game;
    let mut rules = kind.map(Rules::standard);
    if let Some(size) = args.size {
        let k = kind.unwrap_or(GameKind::ConnectFour);
        let std = Rules::standard(k);
        rules = Some(Rules::new(k, size.width, size.height, std.line(), false).context("--size")?);
    }
    if args.exact {
        match rules {
            Some(r) if r.kind() == GameKind::Gomoku => rules = Some(r.with_exact(true)),
            _ => bail!("--exact is a Gomoku rule: add --game gomoku"),
        }
    }
    let mut level = args.level;
    if let (Some(l), Some(k)) = (level, kind) {
        match l.in_game(k) {
            Some(l) => level = Some(l),
            None => bail!(
                "--level {l} is not offered for {k}: choose one of {}",
                Level::names_for(k)
            ),
        }
    }
    let opponent = match (args.vs, level) {
        (Some(Opponent::Human), Some(_)) => {
            bail!("--level is for games against the computer: add --vs computer")
        }
        (Some(Opponent::Human), None) => Some(Opponent::Human),
        (Some(Opponent::Computer), _) | (None, Some(_)) => Some(Opponent::Computer),
        (None, None) => None,
    };
    let mut names: [Option<String>; 2] = [None, None];
    if let Some(n) = &args.names {
        let (a, b) = match n.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (n.as_str(), None),
        };
        names[0] = Some(text::sanitize_name(a, "Player 1"));
        names[1] = b.map(|b| text::sanitize_name(b, "Player 2"));
        if names[0] == names[1] {
            bail!("--names: the two players need different names");
        }
    }
    let mut colours: [Option<Colour>; 2] = [None, None];
    if let Some(c) = &args.colors {
        for (i, part) in c.split(',').enumerate() {
            if i > 1 {
                bail!("--colors: at most two colours");
            }
            colours[i] = Some(part.parse::<Colour>().context("--colors")?);
        }
        if colours[0].is_some() && colours[0] == colours[1] {
            bail!("--colors: the second player cannot take the first player's colour");
        }
    }
    let opening = args.opening.unwrap_or_default();
    let mut opponent = opponent;
    if opening == crate::table::Opening::Swap2 {
        match rules {
            Some(r) if crate::table::Opening::Swap2.fits(&r) => {}
            _ => bail!("--opening swap2 is for Gomoku and Renju: add --game gomoku or renju"),
        }
        if opponent == Some(Opponent::Computer) {
            bail!("--opening swap2 is for two people: use --vs human");
        }
        opponent = Some(Opponent::Human);
    }
    Ok(PlayOptions {
        rules,
        opponent,
        level,
        names,
        colours,
        first: args.first,
        opening,
        lang: crate::lang::Lang::from_vars(|var| std::env::var(var).ok()).unwrap_or_default(),
    })
}

fn theme_of(args: &PlayArgs) -> Theme {
    args.theme.unwrap_or_default()
}

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let options = options_from_args(&args)?;
    let theme = theme_of(&args);
    let budget = Duration::from_millis(args.think_ms);
    if io::stdin().is_terminal() && io::stdout().is_terminal() {
        terminal::run_terminal(options, theme, budget, args.seed)
    } else {
        lines::run_lines(options, theme, budget, args.seed)
    }
}
