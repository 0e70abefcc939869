//! The help screen (`?` or F1): the keys of the screen it was opened from
//! and, in a game, its rules in a few lines. Any key closes it.

use crate::game::{GameKind, Rules};
use crate::term::screen::{Frame, Line, Style};

/// Which screen help was asked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpTopic {
    /// The local new-game questions.
    Setup,
    /// A lobby menu or field.
    Lobby,
    /// Waiting for a quick match or for a friend.
    Waiting,
    /// A game; `computer`: against the computer (undo works).
    Game {
        rules: Rules,
        remote: bool,
        computer: bool,
    },
}

/// The rules of a game in a few lines.
pub fn rules_lines(rules: &Rules) -> Vec<String> {
    match rules.kind() {
        GameKind::ConnectFour => vec![
            format!(
                "Connect Four, {}x{}: take turns dropping a stone into",
                rules.width(),
                rules.height()
            ),
            "a column; it falls to the lowest free cell. Four stones".into(),
            "in a line (across, up and down, or diagonal) win;".into(),
            "a full board is a draw.".into(),
        ],
        GameKind::Gomoku => vec![
            format!(
                "Gomoku, {}x{}: take turns placing a stone on a free point.",
                rules.width(),
                rules.height()
            ),
            "Five stones in a row (across, up and down, or diagonal)".into(),
            if rules.is_exact() {
                "win; six or more in a row do not count.".into()
            } else {
                "win; so do six or more.".into()
            },
            "A full board is a draw.".into(),
        ],
    }
}

fn key_lines(topic: HelpTopic) -> Vec<(&'static str, String)> {
    let mut keys: Vec<(&'static str, String)> = Vec::new();
    match topic {
        HelpTopic::Setup | HelpTopic::Lobby => {
            keys.push(("arrows, Enter", "move through a menu and choose".into()));
            keys.push(("[key]", "the key in brackets chooses that entry".into()));
            keys.push(("Esc", "back one step (clears a field)".into()));
            if topic == HelpTopic::Lobby {
                keys.push(("j", "join a friend: type their room code".into()));
                keys.push(("t", "stones as emoji or as letters".into()));
            }
            keys.push(("click", "choose an entry with the mouse".into()));
        }
        HelpTopic::Waiting => {
            keys.push(("Esc or q", "stop waiting, back to the lobby".into()));
        }
        HelpTopic::Game {
            rules,
            remote,
            computer,
        } => {
            match rules.kind() {
                GameKind::ConnectFour => {
                    keys.push(("left, right", "move the stone over the columns".into()));
                    keys.push(("Enter, Space", "drop it".into()));
                    keys.push((
                        "A-G or 1-7",
                        format!("choose a column {}, then Enter", rules.move_hint()),
                    ));
                }
                GameKind::Gomoku => {
                    keys.push(("arrows", "move the cursor".into()));
                    keys.push(("Enter, Space", "place a stone".into()));
                    keys.push(("h8 or 8,h", "type a point (column, row), then Enter".into()));
                }
            }
            keys.push(("click", "play where you click".into()));
            if computer {
                keys.push(("u", "take back your last move".into()));
            }
            if remote {
                keys.push(("q", "leave the game (asks first: you lose it)".into()));
                keys.push(("after a game", "r rematch, l lobby, q quit".into()));
            } else {
                keys.push(("q", "quit (asks first)".into()));
                keys.push(("after a game", "r play again, m menu, q quit".into()));
            }
        }
    }
    keys.push(("? or F1", "this help".into()));
    keys.push(("Ctrl-L", "redraw the screen".into()));
    keys.push(("Ctrl-C", "quit at once".into()));
    keys
}

/// The help screen for `topic`.
pub fn frame(topic: HelpTopic) -> Frame {
    let mut f = Frame::new();
    f.push(Line::styled(" Help", Style::PLAIN.bold()));
    f.blank();
    for (key, what) in key_lines(topic) {
        let mut l = Line::new();
        l.push(format!("   {key:<14}"), Style::PLAIN.bold());
        l.push(what, Style::PLAIN);
        f.push(l);
    }
    if let HelpTopic::Game { rules, .. } = topic {
        f.blank();
        for line in rules_lines(&rules) {
            f.push(Line::plain(format!(" {line}")));
        }
    }
    f.blank();
    f.push(Line::styled(
        " Press any key to go back.",
        Style::PLAIN.dim(),
    ));
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_help_names_keys_and_rules() {
        let text = frame(HelpTopic::Game {
            rules: Rules::connect_four(),
            remote: true,
            computer: true,
        })
        .to_plain("\n");
        assert!(text.contains("take back your last move"), "{text}");
        assert!(text.contains("Four stones"), "{text}");
        assert!(text.contains("leave the game"), "{text}");
        let lobby = frame(HelpTopic::Lobby).to_plain("\n");
        assert!(lobby.contains("join a friend") && !lobby.contains("take back"));
        // Fits an 80x24 terminal and a narrow one.
        for topic in [
            HelpTopic::Lobby,
            HelpTopic::Setup,
            HelpTopic::Waiting,
            HelpTopic::Game {
                rules: Rules::gomoku(),
                remote: false,
                computer: true,
            },
        ] {
            let f = frame(topic);
            assert!(f.height() <= 24 && f.width() <= 64, "{}", f.to_plain("\n"));
        }
    }
}
