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
        GameKind::Renju => vec![
            format!(
                "Renju, {}x{}: take turns placing a stone on a free point.",
                rules.width(),
                rules.height()
            ),
            "Five in a row wins. The first player (\"black\" in the".into(),
            "rules, whatever the colour) may not make two threes or".into(),
            "two fours at once, nor six or more in a row (marked x on".into(),
            "their turn); five wins even so. The second player may".into(),
            "play anywhere and wins with five or more.".into(),
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

fn key_lines(topic: HelpTopic) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut add = |k: &str, v: String| keys.push((k.to_string(), v));
    match topic {
        HelpTopic::Setup | HelpTopic::Lobby => {
            add("arrows, Enter", "move through a menu and choose".into());
            add("[key]", "the key in brackets chooses that entry".into());
            add("Esc", "back one step (clears a field)".into());
            if topic == HelpTopic::Lobby {
                add("j", "join a friend: type their room code".into());
                add("t", "stones as emoji or as letters".into());
                add("p", "your profile: ratings, games, replays, keys".into());
                add("l", "the leaderboard of each game".into());
                add("w", "watch a game in play".into());
                add("o", "who is online: invite someone to a game".into());
                add("z", "puzzles from real games (rated)".into());
            }
            add("click", "choose an entry with the mouse".into());
        }
        HelpTopic::Waiting => {
            add("Esc or q", "stop waiting, back to the lobby".into());
        }
        HelpTopic::Records => {
            add("up, down", "choose a game or a key; scroll".into());
            add("Enter", "replay the chosen game".into());
            add(
                "left, right",
                "replay: one move; leaderboard: other game".into(),
            );
            add("Home, End", "replay: first and last move".into());
            add("k", "profile: your keys and link codes".into());
            add("d, g", "keys: remove the chosen key; a link code".into());
            add("Esc or q", "back".into());
        }
        HelpTopic::Puzzles => {
            add("1-7, arrows", "Connect Four: a column, Enter drops".into());
            add("h8, arrows", "Gomoku: type a point or move, Enter".into());
            add("the line", "play on: the host answers each move".into());
            add("n, d", "after a puzzle: the next one, the daily".into());
            add("s", "after a puzzle: show the solution".into());
            add("Esc", "back to the lobby".into());
        }
        HelpTopic::Game {
            rules,
            remote,
            computer,
        } => {
            match rules.kind() {
                GameKind::ConnectFour => {
                    add("left, right", "move the stone over the columns".into());
                    add("Enter, Space", "drop it".into());
                    add(&rules.move_hint(), "choose that column, then Enter".into());
                }
                GameKind::Gomoku | GameKind::Renju => {
                    add("arrows", "move the cursor".into());
                    add("Enter, Space", "place a stone".into());
                    add("h8 or 8,h", "type a point (column, row), then Enter".into());
                }
            }
            add("click", "play where you click".into());
            add("!", "resign (asks first)".into());
            if computer {
                add("u", "take back your last move".into());
            } else {
                add("=, -", "offer a draw or accept an offer; decline".into());
                add("u", "ask to take back your move (casual)".into());
                if rules.kind() != GameKind::ConnectFour {
                    add("1, 2, 3", "swap2 opening: choose as shown".into());
                }
            }
            if remote && !computer {
                add("w", "claim the win (no clock, opponent idle)".into());
            }
            if remote {
                add("Tab", "chat: Enter sends, Esc closes; /mute".into());
                add("q", "leave the game (asks first: you lose it)".into());
                add("after a game", "r rematch, l lobby, q quit".into());
            } else {
                add("q", "quit (asks first)".into());
                add("after a game", "r play again, m menu, q quit".into());
            }
        }
    }
    add("? or F1", "this help".into());
    add("Ctrl-L", "redraw the screen".into());
    add("Ctrl-C", "quit at once".into());
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
            HelpTopic::Records,
            HelpTopic::Puzzles,
            HelpTopic::Game {
                rules: Rules::gomoku(),
                remote: false,
                computer: true,
            },
            HelpTopic::Game {
                rules: Rules::gomoku(),
                remote: true,
                computer: false,
            },
        ] {
            let f = frame(topic);
            assert!(f.height() <= 24 && f.width() <= 64, "{}", f.to_plain("\n"));
        }
    }
}
