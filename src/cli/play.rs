//! `inarow play`: the game in this terminal.
//!
//! On a terminal it runs the full-screen session (raw mode, alternate
//! screen, restored on every way out: q, Ctrl-C, Ctrl-D, an error or a
//! panic). When stdin is not a terminal it reads one move per line and
//! prints the board as plain text after every move, with the same messages,
//! and exits with status 0 at the end of the game.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::engine::{self, Engine, EngineOptions, Level, Limits};
use crate::game::{BoardSize, Colour, GameKind, Move, Rules, Side};
use crate::session::setup::{LocalGame, Opponent, PlayOptions, Setup};
use crate::session::{ESC_TIMEOUT, Output, Request, Seating, Session};
use crate::table::{GameView, Table};
use crate::term::board::{BoardView, Theme, draw_board};
use crate::text;

/// Every menu choice is also a flag; a game with every choice given starts at once.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The game: connect4 or gomoku.
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Play against a second person on this keyboard (human) or the computer.
    #[arg(long)]
    pub vs: Option<Opponent>,
    /// The computer's level (Connect Four: easy, medium, hard, perfect; Gomoku: easy, medium, strong).
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
    let level = args.level;
    if let (Some(l), Some(k)) = (level, kind)
        && !Level::for_game(k).contains(&l)
    {
        let names: Vec<&str> = Level::for_game(k).iter().map(|l| l.name()).collect();
        bail!(
            "--level {l} is not offered for {k}: choose one of {}",
            names.join(", ")
        );
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
    Ok(PlayOptions {
        rules,
        opponent,
        level,
        names,
        colours,
        first: args.first,
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
        run_terminal(options, theme, budget, args.seed)
    } else {
        run_lines(options, theme, budget, args.seed)
    }
}

/// One computer seat's engine, lent to a thinking thread while it works.
struct ComputerSeat {
    engine: Option<Box<dyn Engine>>,
}

/// A game being played locally: the table plus, by side, the computer's
/// engine for each computer seat (the other seats are people at this
/// keyboard). One array, so a rematch swaps everything about a seat at once.
struct LocalTable {
    table: Table,
    computers: [Option<ComputerSeat>; 2],
}

impl LocalTable {
    fn new(game: &LocalGame, seed: Option<u64>) -> LocalTable {
        let computers = [0, 1].map(|i| {
            game.seats[i].computer.map(|level| ComputerSeat {
                engine: Some(engine::engine_for(
                    &game.rules,
                    level,
                    &EngineOptions {
                        seed: seed.map(|s| s + i as u64),
                        ..EngineOptions::default()
                    },
                )),
            })
        });
        LocalTable {
            table: Table::new(game.rules, game.seats.clone()),
            computers,
        }
    }

    /// Which sides people at this keyboard play.
    fn humans(&self) -> [bool; 2] {
        self.computers.each_ref().map(Option::is_none)
    }

    fn restart_swapped(&mut self) {
        self.table.restart_swapped();
        self.computers.swap(0, 1);
    }

    /// The side to move if the computer plays it.
    fn computer_to_move(&self) -> Option<Side> {
        self.table
            .to_move()
            .filter(|s| self.computers[s.index()].is_some())
    }
}

// ---------------------------------------------------------------------------
// Line mode.

fn print_board(out: &mut impl Write, view: &GameView, theme: Theme) -> io::Result<()> {
    let bv = BoardView {
        position: &view.position,
        colours: view.colours(),
        cursor: None,
        theme,
    };
    let (lines, _) = draw_board(&bv);
    for line in lines {
        let text = line.text();
        // The hover row above a Connect Four board is empty without a cursor.
        if !text.trim().is_empty() {
            writeln!(out, "{}", text.trim_end())?;
        }
    }
    Ok(())
}

fn run_lines(
    options: PlayOptions,
    theme: Theme,
    budget: Duration,
    seed: Option<u64>,
) -> anyhow::Result<ExitCode> {
    // Scripts get working defaults for every question not answered by a flag.
    let mut preset = options;
    preset.rules.get_or_insert_with(Rules::connect_four);
    preset.opponent.get_or_insert(Opponent::Human);
    if preset.opponent == Some(Opponent::Computer) {
        preset.level.get_or_insert(Level::Medium);
    }
    for (i, default) in ["Player 1", "Player 2"].into_iter().enumerate() {
        preset.names[i].get_or_insert_with(|| default.to_string());
    }
    let c1 = *preset.colours[0].get_or_insert(Colour::Red);
    if preset.opponent == Some(Opponent::Human) && preset.colours[1].is_none() {
        let c2 = if c1 == Colour::Yellow {
            Colour::Red
        } else {
            Colour::Yellow
        };
        preset.colours[1] = Some(c2);
    }
    preset.first.get_or_insert(1);
    let mut setup = Setup::new(preset, crate::rng::make_rng(seed));
    let game = setup
        .completed()
        .context("the game could not be set up from the flags")?;
    let mut local = LocalTable::new(&game, seed);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let rules = game.rules;
    let v = local.table.view();
    writeln!(
        out,
        "{}: {} vs {}",
        rules.describe(),
        v.seats[0].label(),
        v.seats[1].label()
    )?;
    print_board(&mut out, local.table.view(), theme)?;

    let stdin = io::stdin();
    let mut lines = stdin.lock();
    let stop = AtomicBool::new(false);
    let mut buf = Vec::new();
    loop {
        if let Some(text) = local.table.view().ending_text() {
            writeln!(out, "{text}")?;
            out.flush()?;
            return Ok(ExitCode::SUCCESS);
        }
        let side = local.table.to_move().expect("the game is on");
        let label = local.table.view().seat(side).label();
        let m = if let Some(seat) = local.computers[side.index()].as_mut() {
            let engine = seat.engine.as_mut().expect("engine present in line mode");
            let limits = Limits::new(budget);
            engine::choose_legal(engine.as_mut(), local.table.position(), &limits, &stop)
                .context("no legal move")?
        } else {
            writeln!(out, "{label} to move")?;
            out.flush()?;
            buf.clear();
            // Bounded read: a line longer than this is not a move.
            let n = (&mut lines).take(4096).read_until(b'\n', &mut buf)?;
            if n == 0 {
                eprintln!("inarow: input ended before the game was over");
                return Ok(ExitCode::from(1));
            }
            if !buf.ends_with(b"\n") && n == 4096 {
                // Skip the rest of an overlong line.
                let mut rest = Vec::new();
                lines.read_until(b'\n', &mut rest)?;
            }
            let line = String::from_utf8_lossy(&buf);
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line.eq_ignore_ascii_case("q") || line.eq_ignore_ascii_case("quit") {
                writeln!(out, "{label} left the game")?;
                return Ok(ExitCode::SUCCESS);
            }
            match rules.parse_move(line) {
                Ok(m) => m,
                Err(e) => {
                    writeln!(out, "error: {e}")?;
                    continue;
                }
            }
        };
        match local.table.play(side, m) {
            Ok(p) => {
                writeln!(out, "{label} plays {}", rules.format_point(p))?;
                print_board(&mut out, local.table.view(), theme)?;
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
}

// ---------------------------------------------------------------------------
// Terminal mode.

/// Puts the terminal back however we leave: normal return, error or panic.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> anyhow::Result<TerminalGuard> {
        crossterm::terminal::enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
        Ok(TerminalGuard)
    }
}

fn restore_terminal() {
    let mut out = io::stdout();
    let _ = out.write_all(&crate::term::screen::leave_bytes());
    let _ = out.flush();
    let _ = crossterm::terminal::disable_raw_mode();
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// A computer's answer, tagged with the round it was for.
struct Thought {
    round: u32,
    /// Bumped when moves are taken back: an answer to a position taken
    /// back is dropped.
    generation: u64,
    side: Side,
    engine: Box<dyn Engine>,
    mv: Option<Move>,
}

/// The least time a computer move takes on screen, so a person sees it happen.
const MIN_THINK: Duration = Duration::from_millis(250);

fn run_terminal(
    options: PlayOptions,
    theme: Theme,
    budget: Duration,
    seed: Option<u64>,
) -> anyhow::Result<ExitCode> {
    let _guard = TerminalGuard::enter()?;
    let mut stdout = io::stdout();
    let (cols, rows) = crossterm::terminal::size().unwrap_or((80, 24));
    let mut size = (cols, rows);
    let mut session = Session::local(options, theme, u32::from(cols), u32::from(rows), seed);

    let (bytes_tx, bytes_rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut stdin = io::stdin();
        let mut buf = [0u8; 1024];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if bytes_tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let (thought_tx, thought_rx) = mpsc::channel::<Thought>();
    let mut stop = Arc::new(AtomicBool::new(false));
    let mut local: Option<LocalTable> = None;
    let mut thinking = false;
    let mut generation: u64 = 0;

    let mut out = session.open();
    loop {
        stdout.write_all(&out.bytes)?;
        stdout.flush()?;
        let requests = std::mem::take(&mut out.requests);
        let mut next = Output::default();
        for req in requests {
            match req {
                Request::Quit | Request::Leave => {
                    stop.store(true, Ordering::Relaxed);
                    return Ok(ExitCode::SUCCESS);
                }
                Request::StartLocal(game) => {
                    stop.store(true, Ordering::Relaxed);
                    stop = Arc::new(AtomicBool::new(false));
                    thinking = false;
                    let t = LocalTable::new(&game, seed);
                    let o =
                        session.game_started(t.table.view().clone(), Seating::local(t.humans()));
                    next.bytes.extend(o.bytes);
                    local = Some(t);
                }
                Request::Move(m) => {
                    if let Some(t) = local.as_mut()
                        && let Some(side) = t.table.to_move()
                        && t.humans()[side.index()]
                    {
                        let o = match t.table.play(side, m) {
                            Ok(_) => session
                                .game_update(t.table.view().clone(), Seating::local(t.humans())),
                            Err(e) => session.move_rejected(&e.to_string()),
                        };
                        next.bytes.extend(o.bytes);
                    }
                }
                Request::Undo => {
                    if let Some(t) = local.as_mut()
                        && let Some(side) = Side::BOTH.into_iter().find(|s| t.humans()[s.index()])
                    {
                        let o = match t.table.undo(side) {
                            Ok(()) => {
                                // The computer's search of the old position stops.
                                stop.store(true, Ordering::Relaxed);
                                stop = Arc::new(AtomicBool::new(false));
                                generation += 1;
                                thinking = false;
                                session
                                    .game_update(t.table.view().clone(), Seating::local(t.humans()))
                            }
                            Err(e) => session.move_rejected(&e.to_string()),
                        };
                        next.bytes.extend(o.bytes);
                    }
                }
                Request::Rematch => {
                    if let Some(t) = local.as_mut() {
                        stop.store(true, Ordering::Relaxed);
                        stop = Arc::new(AtomicBool::new(false));
                        thinking = false;
                        t.restart_swapped();
                        let o = session
                            .game_started(t.table.view().clone(), Seating::local(t.humans()));
                        next.bytes.extend(o.bytes);
                    }
                }
                // Host-only requests; a local session never makes them.
                Request::SetName(_)
                | Request::SetColour(_)
                | Request::QuickMatch(_)
                | Request::PlayComputer(..)
                | Request::CreateRoom(_)
                | Request::JoinRoom(_)
                | Request::Cancel => {}
                Request::ToMenu => {
                    stop.store(true, Ordering::Relaxed);
                    local = None;
                    thinking = false;
                    next.bytes.extend(session.to_local_menu().bytes);
                }
            }
        }
        if !next.bytes.is_empty() || !next.requests.is_empty() {
            out = next;
            continue;
        }

        // The computer's turn: think on another thread.
        if let Some(t) = local.as_mut()
            && !thinking
            && let Some(side) = t.computer_to_move()
            && let Some(engine) = t.computers[side.index()]
                .as_mut()
                .and_then(|c| c.engine.take())
        {
            thinking = true;
            let position = t.table.position().clone();
            let round = t.table.view().round;
            let thought_generation = generation;
            let tx = thought_tx.clone();
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let started = Instant::now();
                let mut engine = engine;
                let limits = Limits::new(budget);
                let mv = engine::choose_legal(engine.as_mut(), &position, &limits, &stop);
                if let Some(rest) = MIN_THINK.checked_sub(started.elapsed()) {
                    std::thread::sleep(rest);
                }
                let _ = tx.send(Thought {
                    round,
                    generation: thought_generation,
                    side,
                    engine,
                    mv,
                });
            });
        }

        let wait = if session.input_pending() {
            ESC_TIMEOUT
        } else {
            Duration::from_millis(50)
        };
        out = match bytes_rx.recv_timeout(wait) {
            Ok(bytes) => session.input(&bytes, Instant::now()),
            Err(mpsc::RecvTimeoutError::Timeout) if session.input_pending() => {
                session.flush_input(Instant::now())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Output::default(),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(ExitCode::SUCCESS),
        };
        if let Ok(now) = crossterm::terminal::size()
            && now != size
        {
            size = now;
            let o = session.resize(u32::from(now.0), u32::from(now.1));
            out.bytes.extend(o.bytes);
        }
        while let Ok(thought) = thought_rx.try_recv() {
            let Some(t) = local.as_mut() else { continue };
            // Give the engine back to the computer seat that lent it (seats
            // may have swapped sides for a new round meanwhile).
            if let Some(seat) = t
                .computers
                .iter_mut()
                .flatten()
                .find(|c| c.engine.is_none())
            {
                seat.engine = Some(thought.engine);
            }
            if thought.round != t.table.view().round || thought.generation != generation {
                continue;
            }
            thinking = false;
            if let Some(m) = thought.mv
                && t.table.play(thought.side, m).is_ok()
            {
                let o = session.game_update(t.table.view().clone(), Seating::local(t.humans()));
                out.bytes.extend(o.bytes);
            }
        }
    }
}
