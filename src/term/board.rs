//! Draws a board as frame lines, the same for every front end.
//!
//! Every cell is three terminal columns: a one-column gap then a two-column
//! body. Emoji stones are two columns wide, so the grid stays aligned in
//! both themes; the gaps double as markers around a cell (`[..]` the
//! cursor, `(..)` the last move, `*..*` the winning line), so nothing relies on
//! colour alone.
//!
//! Connect Four:
//! ```text
//!     A  B  C  D  E  F  G
//!             R               <- the stone about to drop (cursor column)
//!    |  |  |  |  |  |  |  |  5
//!    ...
//!    |R |Y (R)|  |  |  |  |  0
//!    +--+--+--+--+--+--+--+
//!     A  B  C  D  E  F  G
//! ```
//! The columns are letters above and below the board, as in every move
//! shown; the winning stones are named `(x|y)` (column and row from 0 at
//! the bottom left).
//! Gomoku: row numbers on both sides, column letters above and below,
//! `.` for an empty point, `+` for the centre. Renju draws the same, and on
//! black's own turn marks the points black may not play with `x`.

use super::screen::{Ink, Line, Style};
use crate::game::{Colour, GameKind, Outcome, Point, Position, Side};

/// How stones look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Coloured emoji stones and coloured markers.
    #[default]
    Emoji,
    /// Letters only, no colour, no emoji: for terminals that need it.
    Ascii,
}

impl Theme {
    /// The theme a terminal type can show: letters for terminals known to
    /// lack emoji (the Linux console, VT-series, dumb), emoji otherwise.
    /// Compared case-insensitively (telnet clients send upper case).
    pub fn for_term(term: &str) -> Theme {
        let t = term.trim().to_ascii_lowercase();
        let plain = [
            "dumb", "linux", "vt52", "vt100", "vt102", "vt220", "vt320", "ansi", "cons25",
            "unknown",
        ];
        if plain
            .iter()
            .any(|p| t == *p || t.starts_with(&format!("{p}-")))
        {
            Theme::Ascii
        } else {
            Theme::Emoji
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Theme::Emoji => "emoji",
            Theme::Ascii => "ascii",
        }
    }

    /// The theme of this [`Theme::name`] (as kept with an account), if any.
    pub fn from_name(name: &str) -> Option<Theme> {
        [Theme::Emoji, Theme::Ascii]
            .into_iter()
            .find(|t| t.name() == name)
    }

    /// The other theme (the `[t]` toggle).
    pub fn toggled(self) -> Theme {
        match self {
            Theme::Emoji => Theme::Ascii,
            Theme::Ascii => Theme::Emoji,
        }
    }

    /// A stone of `colour` as text two columns wide.
    pub fn stone(self, colour: Colour) -> &'static str {
        match self {
            Theme::Emoji => colour.emoji(),
            // The letter, then a space: two columns, as an emoji takes.
            Theme::Ascii => match colour {
                Colour::Red => "R ",
                Colour::Green => "G ",
                Colour::Yellow => "Y ",
                Colour::Blue => "B ",
            },
        }
    }

    /// The terminal colour for a player's colour (text and markers).
    pub fn color(self, colour: Colour) -> Option<Ink> {
        match self {
            Theme::Ascii => None,
            Theme::Emoji => Some(match colour {
                Colour::Red => Ink::Red,
                Colour::Green => Ink::Green,
                Colour::Yellow => Ink::Yellow,
                Colour::Blue => Ink::Blue,
            }),
        }
    }

    /// Style for text in a player's colour.
    pub fn style(self, colour: Colour) -> Style {
        Style {
            fg: self.color(colour),
            bold: true,
            ..Style::PLAIN
        }
    }
}

impl std::str::FromStr for Theme {
    type Err = crate::game::ParseNameError;

    fn from_str(text: &str) -> Result<Theme, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "emoji" | "color" | "colour" => Ok(Theme::Emoji),
            "ascii" | "plain" => Ok(Theme::Ascii),
            _ => Err(crate::game::ParseNameError::new(
                "theme",
                text,
                "emoji or ascii",
            )),
        }
    }
}

impl std::fmt::Display for Theme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the cursor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cursor {
    /// Connect Four: the column a stone would drop into.
    Column(u8),
    /// Gomoku: the point a stone would go on.
    Point(Point),
}

/// Everything needed to draw a board.
#[derive(Debug, Clone, Copy)]
pub struct BoardView<'a> {
    pub position: &'a Position,
    /// Colour of `Side::First` and `Side::Second`.
    pub colours: [Colour; 2],
    pub cursor: Option<Cursor>,
    pub theme: Theme,
    /// Mark black's forbidden points (renju, black to move): set on the
    /// screen of the person who plays black, on their turn.
    pub show_forbidden: bool,
    /// An empty point marked as the better move (the analysis of the move
    /// just played): drawn `*` in that player's colour.
    pub hint: Option<Point>,
}

/// Where the board's cells are within its lines: for mouse clicks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGeometry {
    kind: GameKind,
    width: u8,
    height: u8,
    /// Column of the first gap.
    left: usize,
    /// Line index of the top board row (y = height - 1).
    top: usize,
}

impl BoardGeometry {
    /// The cell under a board-relative (column, line), if any. For Connect
    /// Four any line in the column's span counts (a click on a column drops there).
    pub fn hit(&self, col: usize, line: usize) -> Option<Point> {
        if col <= self.left {
            return None;
        }
        let rel = col - self.left - 1;
        // Accept the body and the gap to its right as the cell.
        let x = rel / 3;
        if x >= usize::from(self.width) {
            return None;
        }
        let y = match self.kind {
            GameKind::ConnectFour => {
                // Anywhere from the labels to the bottom labels picks the column.
                if line + 2 < self.top || line > self.top + usize::from(self.height) + 1 {
                    return None;
                }
                0
            }
            GameKind::Gomoku | GameKind::Renju => {
                if line < self.top || line >= self.top + usize::from(self.height) {
                    return None;
                }
                usize::from(self.height) - 1 - (line - self.top)
            }
        };
        Some(Point::new(x as u8, y as u8))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    Last,
    Win,
    Cursor,
}

/// Draws the board. Returns its lines and where its cells are.
pub fn draw_board(view: &BoardView<'_>) -> (Vec<Line>, BoardGeometry) {
    let pos = view.position;
    let rules = pos.rules();
    let (w, h) = (rules.width(), rules.height());
    let kind = rules.kind();
    let win_line: &[Point] = match pos.outcome() {
        Outcome::Win { line, .. } => line,
        _ => &[],
    };
    let last = pos.last_move();
    // The cursor on the last move, or beside it in its row, takes the gap
    // they share: the last stone is then shown reversed instead (its other
    // bracket alone would read as half a marker).
    let last_reversed = match (view.cursor, last) {
        (Some(Cursor::Point(c)), Some(l)) => !pos.is_over() && c.y == l.y && c.x.abs_diff(l.x) <= 1,
        _ => false,
    };
    let forbidden: Vec<Point> = if view.show_forbidden
        && rules.is_renju()
        && pos.to_move() == Side::First
        && !pos.is_over()
    {
        crate::game::renju::forbidden_points(&crate::game::renju::Board::from(pos))
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    } else {
        Vec::new()
    };
    let to_move_colour = view.colours[pos.to_move().index()];
    let label_style = Style::PLAIN.dim();
    let left = match kind {
        GameKind::ConnectFour => 1,
        GameKind::Gomoku | GameKind::Renju => 2,
    };
    let mut lines = Vec::new();

    // Column labels.
    let mut labels = Line::new();
    labels.push(" ".repeat(left + 1), Style::PLAIN);
    for x in 0..w {
        labels.push(format!("{:<3}", rules.column_label(x)), label_style);
    }
    lines.push(labels);

    // Connect Four: the stone hovering over the cursor column.
    if kind == GameKind::ConnectFour {
        let mut hover = Line::new();
        if let (Some(Cursor::Column(cx)), false) = (view.cursor, pos.is_over()) {
            hover.push(" ".repeat(left + 1 + 3 * usize::from(cx)), Style::PLAIN);
            hover.push(
                view.theme.stone(to_move_colour),
                view.theme.style(to_move_colour),
            );
        }
        lines.push(hover);
    }

    let top = lines.len();
    for y in (0..h).rev() {
        let mut line = Line::new();
        match kind {
            GameKind::ConnectFour => line.push(" ", Style::PLAIN),
            GameKind::Gomoku | GameKind::Renju => {
                line.push(format!("{:>2}", rules.row_label(y)), label_style)
            }
        };
        let mark_of = |x: u8| -> Mark {
            let p = Point::new(x, y);
            if view.cursor == Some(Cursor::Point(p)) && !pos.is_over() {
                Mark::Cursor
            } else if win_line.contains(&p) {
                Mark::Win
            } else if last == Some(p) && !last_reversed {
                Mark::Last
            } else {
                Mark::None
            }
        };
        let plain_gap = if kind == GameKind::ConnectFour {
            "|"
        } else {
            " "
        };
        for x in 0..=w {
            // The gap left of cell x: marked if either neighbour is.
            let left_mark = if x > 0 { mark_of(x - 1) } else { Mark::None };
            let right_mark = if x < w { mark_of(x) } else { Mark::None };
            let (gap, gap_style) =
                gap_for(left_mark, right_mark, plain_gap, view, to_move_colour, pos);
            line.push(gap, gap_style);
            if x == w {
                break;
            }
            let p = Point::new(x, y);
            let (body, style) = match pos.get(p) {
                Some(side) => {
                    let c = view.colours[side.index()];
                    let mut st = view.theme.style(c);
                    if mark_of(x) == Mark::Win || (last_reversed && last == Some(p)) {
                        st = st.reverse();
                    }
                    (view.theme.stone(c), st)
                }
                None if view.hint == Some(p) => {
                    let c = view.colours[pos.to_move().other().index()];
                    ("* ", view.theme.style(c))
                }
                None if forbidden.contains(&p) => {
                    let st = match view.theme {
                        Theme::Emoji => Style {
                            fg: Some(Ink::Red),
                            ..Style::PLAIN
                        },
                        Theme::Ascii => Style::PLAIN,
                    };
                    ("x ", st)
                }
                None => {
                    let centre = kind != GameKind::ConnectFour && x == w / 2 && y == h / 2;
                    let dot = match kind {
                        GameKind::ConnectFour => "  ",
                        GameKind::Gomoku | GameKind::Renju if centre => "+ ",
                        GameKind::Gomoku | GameKind::Renju => ". ",
                    };
                    (dot, label_style)
                }
            };
            line.push(body, style);
        }
        match kind {
            GameKind::ConnectFour => line.push(format!(" {}", rules.row_label(y)), label_style),
            GameKind::Gomoku | GameKind::Renju => {
                line.push(format!("{:>2}", rules.row_label(y)), label_style)
            }
        };
        lines.push(line);
    }

    match kind {
        GameKind::ConnectFour => {
            let mut floor = Line::new();
            floor.push(" ", Style::PLAIN);
            floor.push(format!("{}+", "+--".repeat(usize::from(w))), label_style);
            lines.push(floor);
            // The column letters again under the floor (the same as above:
            // one system for the columns everywhere).
            let mut letters = Line::new();
            letters.push(" ".repeat(left + 1), Style::PLAIN);
            for x in 0..w {
                letters.push(format!("{:<3}", rules.column_label(x)), label_style);
            }
            lines.push(letters);
        }
        // Gomoku: row numbers on both sides are enough; no second label row,
        // so the whole game screen fits an 80x24 terminal.
        GameKind::Gomoku | GameKind::Renju => {}
    }

    let geometry = BoardGeometry {
        kind,
        width: w,
        height: h,
        left,
        top,
    };
    (lines, geometry)
}

fn gap_for(
    left: Mark,
    right: Mark,
    plain: &'static str,
    view: &BoardView<'_>,
    to_move: Colour,
    pos: &Position,
) -> (&'static str, Style) {
    let strongest = |a: Mark, b: Mark| -> Mark {
        for m in [Mark::Cursor, Mark::Win, Mark::Last] {
            if a == m || b == m {
                return m;
            }
        }
        Mark::None
    };
    let mark = strongest(left, right);
    let winner_colour = match pos.outcome() {
        Outcome::Win { side, .. } => view.colours[side.index()],
        _ => to_move,
    };
    let last_colour = view.colours[pos.to_move().other().index()];
    match mark {
        Mark::None => (plain, Style::PLAIN.dim()),
        Mark::Win => ("*", view.theme.style(winner_colour)),
        Mark::Cursor => {
            let s = view.theme.style(to_move);
            (if right == Mark::Cursor { "[" } else { "]" }, s)
        }
        Mark::Last => {
            let s = view.theme.style(last_colour);
            (if right == Mark::Last { "(" } else { ")" }, s)
        }
    }
}

/// A short label for a side: name plus stone, e.g. `Alice 🔴`.
pub fn side_label(theme: Theme, name: &str, colour: Colour) -> String {
    format!("{name} {}", theme.stone(colour).trim_end())
}

/// Which side a colour belongs to, if either.
pub fn side_of(colours: [Colour; 2], colour: Colour) -> Option<Side> {
    Side::BOTH
        .into_iter()
        .find(|s| colours[s.index()] == colour)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, Rules};
    use crate::text;

    #[test]
    fn a_theme_reads_back_by_its_name() {
        for t in [Theme::Emoji, Theme::Ascii] {
            assert_eq!(Theme::from_name(t.name()), Some(t));
            assert_ne!(t.toggled(), t);
            assert_eq!(t.toggled().toggled(), t);
        }
        assert_eq!(Theme::from_name("sepia"), None);
    }

    fn c4(moves: &str) -> Position {
        let mut p = Position::new(Rules::connect_four());
        for c in moves.chars() {
            p.play(Move::Column(c.to_digit(10).unwrap() as u8 - 1))
                .unwrap();
        }
        p
    }

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::text).collect()
    }

    #[test]
    fn grid_is_aligned_in_both_themes() {
        let pos = c4("4455");
        for theme in [Theme::Emoji, Theme::Ascii] {
            let view = BoardView {
                position: &pos,
                colours: [Colour::Red, Colour::Yellow],
                cursor: Some(Cursor::Column(2)),
                theme,
                show_forbidden: false,
                hint: None,
            };
            let (lines, geo) = draw_board(&view);
            let rows: Vec<&Line> = lines[geo.top..geo.top + 6].iter().collect();
            let widths: Vec<usize> = rows.iter().map(|l| l.width()).collect();
            assert!(
                widths.iter().all(|&w| w == widths[0]),
                "{theme:?} {widths:?}"
            );
            // The floor is as wide as the rows.
            assert_eq!(lines[geo.top + 6].width(), widths[0] - 2, "{theme:?}");
            // Gaps sit at the same columns on every row: check the '|' positions.
            if theme == Theme::Ascii {
                let t = texts(&lines);
                let bars = |s: &str| -> Vec<usize> {
                    s.char_indices()
                        .filter(|(_, c)| "|[]()".contains(*c))
                        .map(|(i, _)| i)
                        .collect()
                };
                let first = bars(&t[geo.top]);
                for row in &t[geo.top..geo.top + 6] {
                    assert_eq!(bars(row), first, "{t:#?}");
                }
            }
        }
    }

    /// A Connect Four position drawn in letters, Red moving first.
    fn ascii_c4(moves: &str) -> (Vec<Line>, BoardGeometry) {
        let pos = c4(moves);
        draw_board(&BoardView {
            position: &pos,
            colours: [Colour::Red, Colour::Yellow],
            cursor: None,
            theme: Theme::Ascii,
            show_forbidden: false,
            hint: None,
        })
    }

    /// The board's text at point `p` (x, y) in letters: the two-column body.
    fn ascii_point(lines: &[Line], geo: &BoardGeometry, x: u8, y: u8) -> String {
        let row = &texts(lines)[geo.top + usize::from(geo.height - 1 - y)];
        let at = geo.left + 1 + 3 * usize::from(x);
        row.chars().skip(at).take(2).collect()
    }

    #[test]
    fn renju_marks_blacks_forbidden_points_only_on_blacks_turn_when_asked() {
        // Black (first) to move: h8 makes two threes (f8 g8 h8, h6 h7 h8).
        let moves = ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"];
        let pos = Position::from_moves(Rules::renju(), &moves).unwrap();
        let draw = |pos: &Position, show_forbidden: bool| {
            draw_board(&BoardView {
                position: pos,
                colours: [Colour::Red, Colour::Yellow],
                cursor: None,
                theme: Theme::Ascii,
                show_forbidden,
                hint: None,
            })
        };
        let (lines, geo) = draw(&pos, true);
        assert_eq!(
            ascii_point(&lines, &geo, 7, 7),
            "x ",
            "{:#?}",
            texts(&lines)
        );
        // Every other empty point is drawn as usual, and the stones too.
        let marked: usize = texts(&lines).iter().map(|l| l.matches("x ").count()).sum();
        assert_eq!(marked, 1, "{:#?}", texts(&lines));
        assert_eq!(ascii_point(&lines, &geo, 5, 7), "R ");
        // Not asked: the centre as always.
        let (lines, geo) = draw(&pos, false);
        assert_eq!(ascii_point(&lines, &geo, 7, 7), "+ ");
        // White to move: nothing is forbidden to white.
        let mut white = pos.clone();
        white
            .play(Rules::renju().parse_move("o15").unwrap())
            .unwrap();
        let (lines, geo) = draw(&white, true);
        assert_eq!(ascii_point(&lines, &geo, 7, 7), "+ ");
        // The same stones under freestyle Gomoku: no marks.
        let free = Position::from_moves(Rules::gomoku(), &moves).unwrap();
        let (lines, geo) = draw(&free, true);
        assert_eq!(ascii_point(&lines, &geo, 7, 7), "+ ");
    }

    #[test]
    fn emoji_stones_are_two_columns() {
        for c in Colour::ALL {
            assert_eq!(text::width(Theme::Emoji.stone(c)), 2);
            assert_eq!(text::width(Theme::Ascii.stone(c)), 2);
            assert_eq!(Theme::Ascii.stone(c), format!("{} ", c.letter()));
        }
    }

    #[test]
    fn ascii_theme_has_no_emoji_and_marks_the_win() {
        let (lines, geo) = ascii_c4("1212121");
        let t = texts(&lines);
        assert!(t.iter().all(|l| l.is_ascii()), "{t:#?}");
        // Bottom four rows of column A are the win: '*' around them.
        for row in &t[geo.top + 2..geo.top + 6] {
            assert!(row.starts_with(" *R *"), "{row:?}");
        }
        for line in &lines {
            for span in &line.spans {
                assert_eq!(span.style.fg, None);
            }
        }
    }

    #[test]
    fn last_move_is_marked_unlike_the_cursor() {
        let (lines, geo) = ascii_c4("44");
        let t = texts(&lines);
        assert!(t[geo.top + 4].contains("(Y )"), "{t:#?}");
        assert!(t[geo.top + 5].contains("|R |"), "{t:#?}");
        // Gomoku: the cursor on another point is bracketed differently,
        // so exactly one cell shows each marker.
        let mut g = Position::new(Rules::gomoku());
        g.play(Move::Point(Point::new(7, 7))).unwrap();
        let view = BoardView {
            position: &g,
            colours: [Colour::Blue, Colour::Green],
            cursor: Some(Cursor::Point(Point::new(3, 3))),
            theme: Theme::Ascii,
            show_forbidden: false,
            hint: None,
        };
        let all = texts(&draw_board(&view).0).join("\n");
        assert_eq!(all.matches("(B )").count(), 1, "{all}");
        assert_eq!(all.matches('[').count(), 1, "{all}");
        assert_eq!(all.matches(']').count(), 1, "{all}");
    }

    #[test]
    fn the_cursor_beside_or_on_the_last_move_leaves_both_readable() {
        let mut g = Position::new(Rules::gomoku());
        g.play(Move::Point(Point::new(7, 7))).unwrap();
        for (cx, cy) in [(6, 7), (8, 7), (7, 7), (7, 8), (3, 3)] {
            for theme in [Theme::Ascii, Theme::Emoji] {
                let view = BoardView {
                    position: &g,
                    colours: [Colour::Blue, Colour::Green],
                    cursor: Some(Cursor::Point(Point::new(cx, cy))),
                    theme,
                    show_forbidden: false,
                    hint: None,
                };
                let lines = draw_board(&view).0;
                let all = texts(&lines).join("\n");
                // The cursor: one whole pair of brackets.
                assert_eq!(all.matches('[').count(), 1, "{all}");
                assert_eq!(all.matches(']').count(), 1, "{all}");
                // The last move: a whole pair of parentheses, or none and
                // its stone reversed; never half a marker.
                let opens = all.matches('(').count();
                assert_eq!(opens, all.matches(')').count(), "{all}");
                let stone = theme.stone(Colour::Blue);
                let reversed = lines
                    .iter()
                    .flat_map(|l| &l.spans)
                    .any(|s| s.text == stone && s.style.reverse);
                assert!(opens == 1 || reversed, "({cx},{cy}) {theme:?}: {all}");
                assert!(opens == 0 || !reversed, "({cx},{cy}) {theme:?}: {all}");
            }
        }
    }

    #[test]
    fn gomoku_cursor_and_clicks() {
        let mut pos = Position::new(Rules::gomoku());
        pos.play(Move::Point(Point::new(7, 7))).unwrap();
        let view = BoardView {
            position: &pos,
            colours: [Colour::Blue, Colour::Green],
            cursor: Some(Cursor::Point(Point::new(0, 14))),
            theme: Theme::Ascii,
            show_forbidden: false,
            hint: None,
        };
        let (lines, geo) = draw_board(&view);
        let t = texts(&lines);
        assert!(t[geo.top].starts_with("15[. ]"), "{t:#?}");
        assert!(
            t[geo.top + 7].contains("(B ") || t[geo.top + 7].contains("[B ]"),
            "{t:#?}"
        );
        // A click on the body of a1 hits a1; on h8, h8.
        let a1_line = geo.top + 14;
        assert_eq!(geo.hit(3, a1_line), Some(Point::new(0, 0)));
        assert_eq!(geo.hit(3 + 7 * 3, geo.top + 7), Some(Point::new(7, 7)));
        assert_eq!(geo.hit(0, a1_line), None);
        assert_eq!(geo.hit(3, geo.top + 15), None);
        let widths: Vec<usize> = lines[geo.top..geo.top + 15]
            .iter()
            .map(Line::width)
            .collect();
        assert!(widths.iter().all(|&w| w == widths[0]));
    }
}
