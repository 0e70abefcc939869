//! A board as SVG, drawn by the host: the same colours and coordinates as
//! the terminal (Connect Four columns A-G from the left, rows from the
//! bottom; Gomoku and Renju points such as `h8`), every stone numbered by
//! the move that placed it, the last move and the winning line marked.
//! Stones after the position shown are drawn hidden, so the replay's
//! script only shows and hides them.

use maud::{Markup, html};

use crate::game::{GameKind, Rules};

/// Side of a cell, in the SVG's units.
const CELL: u32 = 40;
/// Room for the coordinates around the board.
const MARGIN: u32 = 28;

/// The fill of a stone of the colour named `colour` (as a record keeps it).
pub fn fill(colour: &str) -> &'static str {
    match colour.to_ascii_lowercase().as_str() {
        "red" => "#d62d20",
        "green" => "#2e9e44",
        "yellow" => "#f2c500",
        "blue" => "#2f6fd6",
        _ => "#777777",
    }
}

/// What to draw.
pub struct Board<'a> {
    pub rules: Rules,
    /// The moves in order: the point and the seat (0, 1) that played it.
    pub moves: &'a [(u8, u8, u8)],
    /// The stone colour of each seat.
    pub colours: [&'a str; 2],
    /// What the board is, for screen readers ("Connect Four board", in
    /// the page's language).
    pub label: &'a str,
    /// Moves shown: the first `shown` are visible.
    pub shown: usize,
    /// The winning line's points (marked once every move is shown).
    pub line: &'a [(u8, u8)],
    /// A point to ring (the best move of an analysed position, a
    /// puzzle's refutation), if any.
    pub best: Option<(u8, u8)>,
    /// Moves to play by clicking, each with its address: a point (a
    /// whole column in Connect Four, whose `y` is not used).
    pub links: &'a [((u8, u8), String, String)],
}

pub fn svg(b: &Board) -> Markup {
    let (width, height) = (b.rules.width(), b.rules.height());
    let w = u32::from(width) * CELL + 2 * MARGIN;
    let h = u32::from(height) * CELL + 2 * MARGIN;
    // The centre of point (x, y); y counts from the bottom row.
    let cx = |x: u8| MARGIN + u32::from(x) * CELL + CELL / 2;
    let cy = |y: u8| MARGIN + (u32::from(height) - 1 - u32::from(y)) * CELL + CELL / 2;
    let gomoku = b.rules.kind() != GameKind::ConnectFour;
    let all_shown = b.shown >= b.moves.len();
    let title = b.label.to_string();
    html! {
        svg.board xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (w) " " (h)}
            role="img" aria-label=(title) {
            rect.wood x="0" y="0" width=(w) height=(h) {}
            @if gomoku {
                // Lines through the points.
                @for x in 0..width {
                    line.grid x1=(cx(x)) y1=(cy(height - 1)) x2=(cx(x)) y2=(cy(0)) {}
                }
                @for y in 0..height {
                    line.grid x1=(cx(0)) y1=(cy(y)) x2=(cx(width - 1)) y2=(cy(y)) {}
                }
            } @else {
                rect.frame x=(MARGIN) y=(MARGIN) width=(u32::from(width) * CELL)
                    height=(u32::from(height) * CELL) {}
                @for x in 0..width {
                    @for y in 0..height {
                        circle.hole cx=(cx(x)) cy=(cy(y)) r=(CELL / 2 - 4) {}
                    }
                }
            }
            @for x in 0..width {
                text.coord x=(cx(x)) y=(h - MARGIN / 3) { (b.rules.column_label(x)) }
            }
            @for y in 0..height {
                text.coord x=(MARGIN / 2) y=(cy(y) + 5) { (b.rules.row_label(y)) }
            }
            @for (i, &(x, y, seat)) in b.moves.iter().enumerate() {
                @let n = i + 1;
                @let colour = b.colours[usize::from(seat.min(1))];
                g.stone.later[n > b.shown] data-n=(n) {
                    circle cx=(cx(x)) cy=(cy(y)) r=(CELL / 2 - 4) fill=(fill(colour))
                        class=[(n == b.shown).then_some("last")] {}
                    text.num x=(cx(x)) y=(cy(y) + 5) { (n) }
                }
            }
            @for &(x, y) in b.line {
                circle.win.later[!all_shown] cx=(cx(x)) cy=(cy(y))
                    r=(CELL / 2 - 1) {}
            }
            @if let Some((x, y)) = b.best {
                circle.best cx=(cx(x)) cy=(cy(y)) r=(CELL / 2 - 1) {}
            }
            @for ((x, y), href, label) in b.links {
                a.play href=(href) aria-label=(label) {
                    title { (label) }
                    @if gomoku {
                        circle cx=(cx(*x)) cy=(cy(*y)) r=(CELL / 2 - 2) {}
                    } @else {
                        rect x=(cx(*x) - CELL / 2) y=(MARGIN) width=(CELL)
                            height=(u32::from(height) * CELL) {}
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_after_the_position_shown_are_hidden_and_the_line_marked_at_the_end() {
        let moves = [(0, 0, 0), (1, 0, 1), (0, 1, 0)];
        let mut b = Board {
            label: "board",
            rules: Rules::connect_four(),
            moves: &moves,
            colours: ["Red", "Yellow"],
            shown: 2,
            line: &[(0, 0), (0, 1)],
            best: None,
            links: &[],
        };
        let s = svg(&b).into_string();
        assert_eq!(s.matches("class=\"stone\"").count(), 2, "{s}");
        assert_eq!(s.matches("class=\"stone later\"").count(), 1, "{s}");
        assert_eq!(s.matches("class=\"win later\"").count(), 2, "{s}");
        assert!(s.contains(">A</text>") && s.contains(">G</text>") && s.contains(">5</text>"));
        assert!(s.contains(fill("Red")) && s.contains(fill("Yellow")));
        b.shown = 3;
        let s = svg(&b).into_string();
        assert_eq!(s.matches("class=\"win\"").count(), 2, "{s}");
    }
}
