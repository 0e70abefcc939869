//! `inarow play` on a terminal: the full-screen session in raw mode on the
//! alternate screen, restored on every way out (q, Ctrl-C, Ctrl-D, an
//! error or a panic). Keys come from a reader thread, the computer thinks
//! on its own thread; the [`LocalDriver`] does the rest.

use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::engine::Limits;
use crate::local::{Answer, Flow, LocalDriver};
use crate::session::setup::PlayOptions;
use crate::session::{ESC_TIMEOUT, Output, Session};
use crate::term::board::Theme;

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

/// Best effort: the terminal may be gone already (a closed window), and
/// there is nothing else to tell.
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

/// The least time a computer move takes on screen, so a person sees it happen.
const MIN_THINK: Duration = Duration::from_millis(250);

/// Reads stdin on a thread, a chunk per message.
fn spawn_reader() -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut stdin = io::stdin();
        let mut buf = [0u8; 1024];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Time for each position of a game's analysis (`[a]` after a game).
const ANALYSIS_BUDGET: Duration = Duration::from_millis(1000);

pub(super) fn run_terminal(
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
    let mut driver = LocalDriver::new(seed);
    let keys = spawn_reader();
    let (answer_tx, answers) = mpsc::channel::<Answer>();
    let (analysed_tx, analysed) = mpsc::channel();

    let mut out = session.open();
    loop {
        let (bytes, flow) = driver.drive(&mut session, out);
        stdout.write_all(&bytes)?;
        stdout.flush()?;
        if flow == Flow::Quit {
            return Ok(ExitCode::SUCCESS);
        }

        // The computer's turn: think on another thread.
        if let Some(job) = driver.think() {
            let tx = answer_tx.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                let answer = job.run(&Limits::new(budget));
                if let Some(rest) = MIN_THINK.checked_sub(started.elapsed()) {
                    std::thread::sleep(rest);
                }
                // The game loop has ended: nobody needs the answer.
                let _ = tx.send(answer);
            });
        }

        // The analysis of a game that ended: on another thread too.
        if let Some(ask) = driver.take_analysis() {
            let tx = analysed_tx.clone();
            std::thread::spawn(move || {
                let mut analyzer = crate::analyst::Analyzer::new(ANALYSIS_BUDGET, 64);
                let answer = analyzer
                    .game(&ask.rules, &ask.moves)
                    .map(std::sync::Arc::new)
                    .ok_or_else(|| {
                        "only standard 7x6 Connect Four, Gomoku and Renju are analysed".to_string()
                    });
                let _ = tx.send((ask, answer));
            });
        }

        let wait = if session.input_pending() {
            ESC_TIMEOUT
        } else {
            Duration::from_millis(50)
        };
        out = match keys.recv_timeout(wait) {
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
        while let Ok(answer) = answers.try_recv() {
            let o = driver.answer(&mut session, answer);
            out.bytes.extend(o.bytes);
        }
        while let Ok((ask, answer)) = analysed.try_recv() {
            let o = session.show_analysis(&ask, answer);
            out.bytes.extend(o.bytes);
        }
    }
}
