//! Words about a game in the viewer's language: colours, players, how a
//! game ended. Made here, where screens are made (the table keeps facts:
//! seats, endings, points).

use fluent_templates::fluent_bundle::FluentValue;

use crate::game::Colour;
use crate::lang::Lang;
use crate::table::{Ending, GameView, Seat};

/// A stone colour's name: Red, Rot, 紅.
pub fn colour(lang: Lang, c: Colour) -> String {
    lang.text(match c {
        Colour::Red => "colour-red",
        Colour::Green => "colour-green",
        Colour::Yellow => "colour-yellow",
        Colour::Blue => "colour-blue",
    })
}

/// A player at a table with their colour: `Anna (Red)`, `Anna (Rot)`,
/// `Anna（紅）`; the computer with its level.
pub fn seat(lang: Lang, s: &Seat) -> String {
    let c = FluentValue::from(colour(lang, s.colour));
    match s.computer {
        Some(level) => lang.text_with(
            "player-computer",
            &[
                ("level", FluentValue::from(level.to_string())),
                ("colour", c),
            ],
        ),
        None => lang.text_with(
            "player",
            &[("name", FluentValue::from(s.name.as_str())), ("colour", c)],
        ),
    }
}

/// How the game ended, in `lang`: `Anna (Red) wins with (0|0) (1|0) (2|0)
/// (3|0)`, `Anna (Rot) hat mit folgenden Steinen gewonnen: ...`; `None`
/// while it goes on.
pub fn ending(lang: Lang, g: &GameView) -> Option<String> {
    let player = |side: crate::game::Side| FluentValue::from(seat(lang, g.seat(side)));
    Some(match g.ending.as_ref()? {
        Ending::Line { winner, line } => lang.text_with(
            "end-line",
            &[
                ("player", player(*winner)),
                (
                    "points",
                    FluentValue::from(g.position.rules().format_points(line)),
                ),
            ],
        ),
        Ending::Draw => lang.text("end-full"),
        Ending::Resigned { loser } => lang.text_with(
            "end-resigned",
            &[("loser", player(*loser)), ("winner", player(loser.other()))],
        ),
        Ending::DrawAgreed => lang.text("end-agreed"),
        Ending::Flag { loser } => lang.text_with(
            "end-flag",
            &[("loser", player(*loser)), ("winner", player(loser.other()))],
        ),
        // Their reasons are made elsewhere, in English for now.
        Ending::Forfeit { .. } | Ending::Aborted { .. } => g.ending_text()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, Rules, Side};

    /// A Connect Four game the first player won in the bottom row.
    fn won() -> GameView {
        let mut t = crate::table::Table::new(
            Rules::connect_four(),
            [
                Seat::human("Anna", Colour::Red),
                Seat::human("Ben", Colour::Yellow),
            ],
        );
        for (i, x) in [0, 0, 1, 1, 2, 2, 3].into_iter().enumerate() {
            let side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            t.play(side, Move::Column(x)).unwrap();
        }
        t.view().clone()
    }

    #[test]
    fn the_winning_line_reads_in_each_language() {
        let g = won();
        assert_eq!(
            ending(Lang::En, &g).unwrap(),
            "Anna (Red) wins with (0|0) (1|0) (2|0) (3|0)"
        );
        assert_eq!(
            ending(Lang::De, &g).unwrap(),
            "Anna (Rot) hat mit folgenden Steinen gewonnen: (0|0) (1|0) (2|0) (3|0)"
        );
        assert_eq!(
            ending(Lang::ZhTw, &g).unwrap(),
            "Anna（紅） 以 (0|0) (1|0) (2|0) (3|0) 連線獲勝"
        );
        // English is what the table itself says.
        assert_eq!(ending(Lang::En, &g), g.ending_text());
    }
}
