//! `inarow play` when stdin is not a terminal: one move per line in, the
//! board as plain text after every move out, with the same messages; exit
//! status 0 at the end of the game.

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;

use fluent_templates::fluent_bundle::FluentValue;

use crate::engine::{Level, Limits};
use crate::game::{Colour, Rules};
use crate::lang::Lang;
use crate::local::LocalTable;
use crate::session::setup::{Opponent, PlayOptions, Setup};
use crate::session::words;
use crate::table::{GameView, Swap2Choice, Swap2Stage};
use crate::term::board::{BoardView, Theme, draw_board};

/// The longest line read as a move; the rest of a longer line is skipped.
const MAX_LINE: u64 = 4096;

fn print_board(out: &mut impl Write, view: &GameView, theme: Theme) -> io::Result<()> {
    let bv = BoardView {
        position: &view.position,
        colours: view.colours(),
        cursor: None,
        theme,
        show_forbidden: true,
        hint: None,
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

/// Scripts get working defaults for every question not answered by a flag
/// (the players' names in the person's language: Player 1, Spieler 1).
fn with_defaults(options: PlayOptions, lang: Lang) -> PlayOptions {
    let mut preset = options;
    preset.rules.get_or_insert_with(Rules::connect_four);
    preset.opponent.get_or_insert(Opponent::Human);
    if preset.opponent == Some(Opponent::Computer) {
        preset.level.get_or_insert(Level::Medium);
    }
    for (i, name) in preset.names.iter_mut().enumerate() {
        name.get_or_insert_with(|| {
            lang.text_with("player-numbered", &[("number", FluentValue::from(i + 1))])
        });
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
    preset
}

/// What one line of input said.
enum LineInput {
    Ended,
    Blank,
    Quit,
    Text(String),
}

fn read_line(lines: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<LineInput> {
    buf.clear();
    // Bounded read: a line longer than this is not a move.
    let n = (&mut *lines).take(MAX_LINE).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(LineInput::Ended);
    }
    if !buf.ends_with(b"\n") && n as u64 == MAX_LINE {
        let mut rest = Vec::new();
        lines.read_until(b'\n', &mut rest)?;
    }
    let line = String::from_utf8_lossy(buf);
    let line = line.trim();
    Ok(if line.is_empty() {
        LineInput::Blank
    } else if line.eq_ignore_ascii_case("q") || line.eq_ignore_ascii_case("quit") {
        LineInput::Quit
    } else {
        LineInput::Text(line.to_string())
    })
}

/// A person's line, or what the game does instead.
enum Turn {
    Text(String),
    /// A blank line: ask again.
    Again,
    /// The input ended (an error) or the person quit.
    End(ExitCode),
}

/// Reads the line of the person `label` whose turn it is; says why the
/// game ends when it does.
fn read_turn(
    lines: &mut impl BufRead,
    buf: &mut Vec<u8>,
    out: &mut impl Write,
    label: &str,
) -> io::Result<Turn> {
    Ok(match read_line(lines, buf)? {
        LineInput::Ended => {
            eprintln!("inarow: input ended before the game was over");
            Turn::End(ExitCode::from(1))
        }
        LineInput::Blank => Turn::Again,
        LineInput::Quit => {
            writeln!(out, "{label} left the game")?;
            Turn::End(ExitCode::SUCCESS)
        }
        LineInput::Text(line) => Turn::Text(line),
    })
}

pub(super) fn run_lines(
    options: PlayOptions,
    theme: Theme,
    budget: Duration,
    seed: Option<u64>,
) -> anyhow::Result<ExitCode> {
    // The language of the environment (LC_ALL, LC_MESSAGES, LANG).
    let lang = options.lang;
    let mut setup = Setup::new(with_defaults(options, lang), crate::rng::make_rng(seed));
    let game = setup
        .completed()
        .context("the game could not be set up from the flags")?;
    let mut local = LocalTable::new(&game, seed);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let rules = game.rules;
    let v = local.table().view();
    writeln!(
        out,
        "{}: {} vs {}",
        words::rules(lang, &rules),
        words::seat(lang, &v.seats[0]),
        words::seat(lang, &v.seats[1])
    )?;
    print_board(&mut out, local.table().view(), theme)?;

    let stdin = io::stdin();
    let mut lines = stdin.lock();
    let stop = AtomicBool::new(false);
    let mut buf = Vec::new();
    loop {
        let view = local.table().view();
        if let Some(text) = words::ending(lang, view) {
            writeln!(out, "{text}")?;
            out.flush()?;
            return Ok(ExitCode::SUCCESS);
        }
        let side = local.table().to_move().expect("the game is on");
        let label = view.seat(side).label();
        // In a swap2 opening one player places stones of both colours.
        let placing = view
            .swap2
            .map(|_| view.seat(view.position.to_move()).colour);
        let name = view.seat(side).name.clone();
        if let Some(stage) = view.swap2.filter(|s| s.is_choice()) {
            let [first, second] = view.colours();
            match stage {
                Swap2Stage::Choose => writeln!(
                    out,
                    "{name}, swap2: 1 play {first}, 2 play {second} and place the next stone, 3 place two more stones"
                )?,
                _ => writeln!(
                    out,
                    "{name}, swap2: 1 play {first}, 2 play {second} and place the next stone"
                )?,
            }
            out.flush()?;
            let line = match read_turn(&mut lines, &mut buf, &mut out, &label)? {
                Turn::Text(line) => line,
                Turn::Again => continue,
                Turn::End(code) => return Ok(code),
            };
            let choice = match line.as_str() {
                "1" => Swap2Choice::First,
                "2" => Swap2Choice::Second,
                "3" => Swap2Choice::TwoMore,
                _ => {
                    writeln!(out, "error: choose with 1, 2 or 3")?;
                    continue;
                }
            };
            match local.choose_swap2(side, choice) {
                Ok(_) => {
                    let v = local.table().view();
                    if let Some((s, c)) = v.swap2_chosen {
                        let who = &v.seat(s).name;
                        match c {
                            Swap2Choice::TwoMore => writeln!(out, "{who} places two more stones")?,
                            _ => writeln!(out, "{who} plays {}", v.seat(s).colour)?,
                        }
                    }
                }
                Err(e) => writeln!(out, "error: {e}")?,
            }
            continue;
        }
        let m = if local.computer_to_move().is_some() {
            let (_, m) = local
                .computer_move(&Limits::new(budget), &stop)
                .context("no legal move")?;
            m
        } else {
            writeln!(out, "{label} to move")?;
            out.flush()?;
            let line = match read_turn(&mut lines, &mut buf, &mut out, &label)? {
                Turn::Text(line) => line,
                Turn::Again => continue,
                Turn::End(code) => return Ok(code),
            };
            match rules.parse_move(&line) {
                Ok(m) => m,
                Err(e) => {
                    writeln!(out, "error: {e}")?;
                    continue;
                }
            }
        };
        match local.play(side, m) {
            Ok(p) => {
                match placing {
                    Some(colour) => writeln!(
                        out,
                        "{name} places a {colour} stone at {}",
                        rules.format_point(p)
                    )?,
                    // A Connect Four move is its column (`D`), as on the board.
                    None if rules.kind().has_gravity() => {
                        writeln!(out, "{label} plays {}", rules.column_label(p.x))?
                    }
                    None => writeln!(out, "{label} plays {}", rules.format_point(p))?,
                }
                print_board(&mut out, local.table().view(), theme)?;
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
}
