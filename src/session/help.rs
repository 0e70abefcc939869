//! The help screen (`?` or F1): the keys of the screen it was opened from
//! and, in a game, its rules in a few lines, in the viewer's language.
//! Any key closes it.

use fluent_templates::fluent_bundle::FluentValue;

use crate::game::{GameKind, Rules};
use crate::lang::Lang;
use crate::term::screen::{Frame, Line, Style};
use crate::text::{width, wrap};

/// Which screen help was asked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpTopic {
    /// The local new-game questions.
    Setup,
    /// A lobby menu or field.
    Lobby,
    /// Waiting for a quick match or for a friend.
    Waiting,
    /// The profile, keys, leaderboard or a replay.
    Records,
    /// `[z] Puzzles`.
    Puzzles,
    /// A game; `computer`: against the computer (undo works).
    Game {
        rules: Rules,
        remote: bool,
        computer: bool,
    },
}

/// The rules of a game in a few words (one paragraph, for wrapping).
pub fn rules_text(lang: Lang, rules: &Rules) -> String {
    let args = [
        ("width", FluentValue::from(rules.width())),
        ("height", FluentValue::from(rules.height())),
    ];
    match rules.kind() {
        GameKind::ConnectFour => lang.text_with("rules-connect4", &args),
        GameKind::Renju => lang.text_with("rules-renju", &args),
        GameKind::Gomoku if rules.is_exact() => lang.text_with("rules-gomoku-exact", &args),
        GameKind::Gomoku => lang.text_with("rules-gomoku", &args),
    }
}

/// The rules of a game, wrapped to `cols` columns.
pub fn rules_lines(lang: Lang, rules: &Rules, cols: usize) -> Vec<String> {
    wrap(&rules_text(lang, rules), cols)
}

/// The keys of `topic`: (key, message id of what it does).
fn key_lines(topic: HelpTopic, lang: Lang) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = Vec::new();
    // A key named in words (arrows...) is a message too.
    let mut add = |k: &str, v: &str| {
        let key = if k.starts_with("help-key-") {
            lang.text(k)
        } else {
            k.to_string()
        };
        keys.push((key, lang.text(v)))
    };
    match topic {
        HelpTopic::Setup | HelpTopic::Lobby => {
            add("help-key-menu", "help-menu");
            add("help-key-bracket", "help-bracket");
            add("Esc", "help-esc-back");
            if topic == HelpTopic::Lobby {
                add("j", "help-lobby-join");
                add("t", "help-lobby-stones");
                add("p", "help-lobby-profile");
                add("l", "help-lobby-leaderboard");
                add("w", "help-lobby-watch");
                add("o", "help-lobby-online");
                add("z", "help-lobby-puzzles");
                add("L", "help-lobby-language");
            }
            add("help-key-click", "help-click-menu");
        }
        HelpTopic::Waiting => {
            add("help-key-esc-q", "help-waiting-stop");
        }
        HelpTopic::Records => {
            add("help-key-up-down", "help-records-choose");
            add("Enter", "help-records-replay");
            add("help-key-left-right", "help-records-step");
            add("Home, End", "help-records-ends");
            add("k", "help-records-keys");
            add("d, g", "help-records-key-actions");
            add("help-key-esc-q", "help-back");
        }
        HelpTopic::Puzzles => {
            add("help-key-puzzle-column", "help-puzzle-column");
            add("help-key-puzzle-point", "help-puzzle-point");
            add("help-key-the-line", "help-puzzle-line");
            add("n, d", "help-puzzle-next");
            add("s", "help-puzzle-solution");
            add("Esc", "help-puzzle-back");
        }
        HelpTopic::Game {
            rules,
            remote,
            computer,
        } => {
            match rules.kind() {
                GameKind::ConnectFour => {
                    add("help-key-left-right", "help-game-column");
                    add("Enter, Space", "help-game-drop");
                    add(
                        &crate::session::words::move_hint(lang, &rules),
                        "help-game-typed-column",
                    );
                }
                GameKind::Gomoku | GameKind::Renju => {
                    add("help-key-arrows", "help-game-cursor");
                    add("Enter, Space", "help-game-place");
                    add("help-key-typed-point", "help-game-typed-point");
                }
            }
            add("help-key-click", "help-game-click");
            add("!", "help-game-resign");
            if computer {
                add("u", "help-game-undo");
            } else {
                add("=, -", "help-game-draw");
                add("u", "help-game-takeback");
                if rules.kind() != GameKind::ConnectFour {
                    add("1, 2, 3", "help-game-swap2");
                }
            }
            if remote && !computer {
                add("w", "help-game-claim");
            }
            if remote {
                add("Tab", "help-game-chat");
                add("q", "help-game-leave");
                add("help-key-after-game", "help-game-after-remote");
            } else {
                add("q", "help-game-quit");
                add("help-key-after-game", "help-game-after-local");
            }
        }
    }
    add("help-key-help", "help-this");
    add("Ctrl-L", "help-redraw");
    add("Ctrl-C", "help-quit-now");
    keys
}

/// The help screen for `topic` in `lang`, for a terminal of `cols` x
/// `rows`: what each key does wrapped beside it by display width; a
/// game's rules under them when they fit.
pub fn frame(topic: HelpTopic, lang: Lang, cols: usize, rows: usize) -> Frame {
    let cols = cols.max(40);
    let keys = key_lines(topic, lang);
    let key_col = keys
        .iter()
        .map(|(k, _)| width(k))
        .max()
        .unwrap_or(0)
        .clamp(8, 16)
        + 2;
    let mut f = Frame::new();
    f.push(Line::styled(
        format!(" {}", lang.text("help-title")),
        Style::PLAIN.bold(),
    ));
    f.blank();
    for (key, what) in keys {
        let indent = 3 + key_col;
        let lines = wrap(&what, cols.saturating_sub(indent + 1).max(10));
        for (i, text) in lines.into_iter().enumerate() {
            let mut l = Line::new();
            if i == 0 {
                let pad = key_col.saturating_sub(width(&key));
                l.push(format!("   {key}{}", " ".repeat(pad)), Style::PLAIN.bold());
            } else {
                l.push(" ".repeat(indent), Style::PLAIN);
            }
            l.push(text, Style::PLAIN);
            f.push(l);
        }
    }
    let back = Line::styled(
        format!(" {}", lang.text("help-any-key")),
        Style::PLAIN.dim(),
    );
    if let HelpTopic::Game { rules, .. } = topic {
        let rules = rules_lines(lang, &rules, cols.saturating_sub(2));
        // The rules only where they fit with the keys.
        if f.height() + rules.len() + 3 <= rows {
            f.blank();
            for line in rules {
                f.push(Line::plain(format!(" {line}")));
            }
        }
    }
    f.blank();
    f.push(back);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topics() -> Vec<HelpTopic> {
        let mut all = vec![
            HelpTopic::Lobby,
            HelpTopic::Setup,
            HelpTopic::Waiting,
            HelpTopic::Records,
            HelpTopic::Puzzles,
        ];
        for rules in [Rules::connect_four(), Rules::gomoku(), Rules::renju()] {
            for (remote, computer) in [(false, true), (true, true), (true, false), (false, false)] {
                all.push(HelpTopic::Game {
                    rules,
                    remote,
                    computer,
                });
            }
        }
        all
    }

    #[test]
    fn game_help_names_keys_and_rules() {
        let text = frame(
            HelpTopic::Game {
                rules: Rules::connect_four(),
                remote: true,
                computer: true,
            },
            Lang::En,
            80,
            24,
        )
        .to_plain("\n");
        assert!(text.contains("take back your last move"), "{text}");
        assert!(text.contains("Four stones"), "{text}");
        assert!(text.contains("leave the game"), "{text}");
        let lobby = frame(HelpTopic::Lobby, Lang::En, 80, 24).to_plain("\n");
        assert!(lobby.contains("join a friend") && !lobby.contains("take back"));
        let de = frame(HelpTopic::Lobby, Lang::De, 80, 24).to_plain("\n");
        assert!(de.contains("Hilfe") && de.contains("Sprache"), "{de}");
        let zh = frame(HelpTopic::Lobby, Lang::ZhTw, 80, 24).to_plain("\n");
        assert!(zh.contains("說明"), "{zh}");
    }

    #[test]
    fn help_fits_the_smallest_screen_in_every_language() {
        for lang in Lang::ALL {
            for topic in topics() {
                let f = frame(topic, lang, 60, 24);
                let text = f.to_plain("\n");
                assert!(
                    f.height() <= 24 && f.width() <= 60,
                    "{lang:?} {topic:?}\n{text}"
                );
                // In a game the rules are there on a normal terminal.
                if let HelpTopic::Game { rules, .. } = topic {
                    let tall = frame(topic, lang, 80, 30).to_plain("\n");
                    let first = rules_lines(lang, &rules, 78).remove(0);
                    assert!(tall.contains(&first), "{lang:?} {topic:?}\n{tall}");
                }
            }
        }
    }
}
