//! What to show -> bytes. A [`Frame`] is lines of styled spans; a [`Screen`]
//! remembers what each terminal row holds and sends only the rows that
//! changed (a move repaints a few rows, not the screen). The same frame can
//! be printed as plain text for non-terminals.
//!
//! The screen keeps one rendered byte string per row: that is both the diff
//! base and the whole memory cost of a session's picture (a few KiB), which
//! matters with ten thousand idle sessions.
//!
//! Every escape sequence is written into a `Vec<u8>`, which cannot fail:
//! the `let _ = queue!(..)` below drop an `Ok`.

use crossterm::{
    cursor::{Hide, MoveTo, Show},
    queue,
    style::{
        Attribute, Color, Print, ResetColor, SetAttribute, SetBackgroundColor, SetForegroundColor,
    },
    terminal::{Clear, ClearType},
};

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::text;

/// Terminal sizes are clamped to this range; a size of 0 (unknown, as sent
/// by `ssh -tt` without a local tty) means 80x24.
pub const MAX_COLS: u16 = 500;
pub const MAX_ROWS: u16 = 200;
pub const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// Clamps a reported terminal size to something we can draw on.
pub fn clamp_size(cols: u32, rows: u32) -> (u16, u16) {
    let c = if cols == 0 {
        DEFAULT_SIZE.0
    } else {
        cols.min(u32::from(MAX_COLS)) as u16
    };
    let r = if rows == 0 {
        DEFAULT_SIZE.1
    } else {
        rows.min(u32::from(MAX_ROWS)) as u16
    };
    (c, r)
}

/// The colours a screen uses (the terminal's dark palette entries, which
/// every colour terminal has). Our own type: crossterm stays in the
/// renderer below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ink {
    Red,
    Green,
    Yellow,
    Blue,
}

impl Ink {
    fn terminal(self) -> Color {
        match self {
            Ink::Red => Color::DarkRed,
            Ink::Green => Color::DarkGreen,
            Ink::Yellow => Color::DarkYellow,
            Ink::Blue => Color::DarkBlue,
        }
    }
}

/// Text attributes of a span.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    pub fg: Option<Ink>,
    pub bg: Option<Ink>,
    pub bold: bool,
    pub dim: bool,
    pub reverse: bool,
    pub underline: bool,
}

impl Style {
    pub const PLAIN: Style = Style {
        fg: None,
        bg: None,
        bold: false,
        dim: false,
        reverse: false,
        underline: false,
    };
    pub fn fg(color: Ink) -> Style {
        Style {
            fg: Some(color),
            ..Style::PLAIN
        }
    }
    pub fn bold(self) -> Style {
        Style { bold: true, ..self }
    }
    pub fn dim(self) -> Style {
        Style { dim: true, ..self }
    }
    pub fn reverse(self) -> Style {
        Style {
            reverse: true,
            ..self
        }
    }
    pub fn underline(self) -> Style {
        Style {
            underline: true,
            ..self
        }
    }
}

/// A run of text in one style. The text must already be safe to print
/// (our own, or sanitised by [`crate::text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub style: Style,
}

impl Span {
    pub fn new(text: impl Into<String>, style: Style) -> Span {
        Span {
            text: text.into(),
            style,
        }
    }
    pub fn plain(text: impl Into<String>) -> Span {
        Span::new(text, Style::PLAIN)
    }
}

/// One row of a frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    pub spans: Vec<Span>,
}

impl Line {
    pub fn new() -> Line {
        Line::default()
    }
    pub fn plain(text: impl Into<String>) -> Line {
        Line {
            spans: vec![Span::plain(text)],
        }
    }
    pub fn styled(text: impl Into<String>, style: Style) -> Line {
        Line {
            spans: vec![Span::new(text, style)],
        }
    }
    /// Adds text; text in the style of the last span joins it (fewer
    /// spans to build, copy, compare and style: a board row is a few spans
    /// rather than one per cell). Borrowed text is copied only where it
    /// starts a span of its own: a board row's cells join their row's
    /// spans without a string each.
    pub fn push<'a>(&mut self, text: impl Into<Cow<'a, str>>, style: Style) -> &mut Line {
        let text = text.into();
        match self.spans.last_mut() {
            Some(last) if last.style == style => last.text.push_str(&text),
            _ => self.spans.push(Span::new(text.into_owned(), style)),
        }
        self
    }
    pub fn with<'a>(mut self, text: impl Into<Cow<'a, str>>, style: Style) -> Line {
        self.push(text, style);
        self
    }
    /// Display width in terminal columns.
    pub fn width(&self) -> usize {
        self.spans.iter().map(|s| text::width(&s.text)).sum()
    }
    /// Shortens the line to `max` columns, if it is wider: the text that
    /// fits, broken where a line may break (at a space, between Chinese
    /// characters; never in a word), then `…`. Styles are kept.
    pub fn fit(&mut self, max: usize) {
        if self.width() <= max || max == 0 {
            return;
        }
        let room = max - 1;
        let mut used = 0;
        let mut kept: Vec<Span> = Vec::new();
        for span in std::mem::take(&mut self.spans) {
            let w = text::width(&span.text);
            if used + w <= room {
                used += w;
                kept.push(span);
                continue;
            }
            let body = span.text.trim_start();
            let lead = &span.text[..span.text.len() - body.len()];
            let left = room.saturating_sub(used + text::width(lead));
            let narrow =
                |c: char| c.is_alphanumeric() && text::width(c.encode_utf8(&mut [0; 4])) == 1;
            if let Some(first) = text::wrap(body, left.max(1)).into_iter().next()
                && text::width(&first) <= left
                // Not a word cut in two (a word longer than the room).
                && !body.strip_prefix(first.as_str()).is_some_and(|rest| {
                    first.chars().last().is_some_and(narrow)
                        && rest.chars().next().is_some_and(narrow)
                })
            {
                kept.push(Span::new(format!("{lead}{first}"), span.style));
            }
            kept.push(Span::new("…".to_string(), span.style));
            break;
        }
        self.spans = kept;
    }

    /// The text without styles.
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }
    /// The line without spare capacity: kept as what a terminal shows, it
    /// stays for as long as the screen does (an idle session's, for hours).
    fn compact(mut self) -> Line {
        for span in &mut self.spans {
            span.text.shrink_to_fit();
        }
        self.spans.shrink_to_fit();
        self
    }
}

/// What a screen should show: rows from the top.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frame {
    pub lines: Vec<Line>,
}

impl Frame {
    pub fn new() -> Frame {
        Frame::default()
    }
    pub fn push(&mut self, line: Line) {
        self.lines.push(line);
    }
    pub fn blank(&mut self) {
        self.lines.push(Line::new());
    }
    pub fn width(&self) -> usize {
        self.lines.iter().map(Line::width).max().unwrap_or(0)
    }
    pub fn height(&self) -> usize {
        self.lines.len()
    }
    /// The frame as plain text: no escape sequences at all, trailing spaces
    /// trimmed, each line ended with `eol`.
    pub fn to_plain(&self, eol: &str) -> String {
        let mut s = String::new();
        for line in &self.lines {
            s.push_str(line.text().trim_end());
            s.push_str(eol);
        }
        s
    }
}

/// Where the last frame was drawn, for mapping mouse clicks back to it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Placement {
    /// Terminal column of the frame's column 0.
    pub left: u16,
    /// Terminal row of the frame's row 0.
    pub top: u16,
    /// False when the "please enlarge" notice was shown instead.
    pub shown: bool,
}

impl Placement {
    /// Converts a terminal cell to frame coordinates (column, row).
    pub fn to_frame(&self, col: u16, row: u16) -> Option<(usize, usize)> {
        if !self.shown || col < self.left || row < self.top {
            return None;
        }
        Some((usize::from(col - self.left), usize::from(row - self.top)))
    }
}

/// Bytes that take over a terminal: alternate screen, hidden cursor, mouse
/// button reports in SGR form, bracketed paste, cleared.
pub const ENTER_SEQUENCE: &str =
    "\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[0m\x1b[2J\x1b[H";
/// Bytes that give a terminal back: bracketed paste off, mouse off, attributes reset, cursor
/// shown, main screen restored.
pub const LEAVE_SEQUENCE: &str = "\x1b[?2004l\x1b[?1006l\x1b[?1000l\x1b[0m\x1b[?25h\x1b[?1049l";

/// One terminal's picture and size; renders frames as row diffs.
#[derive(Debug, Clone)]
pub struct Screen {
    cols: u16,
    rows: u16,
    full_redraw: bool,
    /// What the terminal shows. Shared (an [`Arc`]) with the screens of
    /// other people who were shown the very same picture (watchers of one
    /// game: [`Screen::adopt`]); changed in place only while it is this
    /// screen's alone.
    shown: Arc<Shown>,
    /// The language of the screen's own words ("please enlarge").
    lang: crate::lang::Lang,
}

/// What a terminal shows: the result of presenting one frame at one size.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    /// Non-zero once shared: screens with the same id show the same bytes.
    id: u64,
    /// What each row holds now, as the bytes that drew it.
    drawn: Vec<Vec<u8>>,
    /// The frame lines those bytes were made from, and the left margin:
    /// a row whose line has not changed keeps its bytes (a clock tick or a
    /// move changes a few rows; the rest are not formatted again).
    drawn_lines: Vec<Line>,
    drawn_left: u16,
    placement: Placement,
    /// The last render showed "please enlarge" instead of the frame.
    too_small: bool,
}

/// Ids of shared pictures ([`Screen::share`]).
static NEXT_SHOWN: AtomicU64 = AtomicU64::new(1);

/// Rows between the top of the terminal and the frame.
const TOP_MARGIN: u16 = 0;
/// Frames are centred as if at least this wide.
const LAYOUT_WIDTH: usize = 72;

impl Screen {
    pub fn new(cols: u32, rows: u32) -> Screen {
        let (cols, rows) = clamp_size(cols, rows);
        Screen {
            cols,
            rows,
            full_redraw: true,
            shown: Arc::new(Shown::default()),
            lang: crate::lang::Lang::En,
        }
    }

    /// Says "please enlarge" in `lang` from now on.
    pub fn set_lang(&mut self, lang: crate::lang::Lang) {
        self.lang = lang;
    }

    /// The id of the shared picture this screen shows, if it shows one
    /// (and has nothing to repaint first).
    pub fn shared_id(&self) -> Option<u64> {
        (!self.full_redraw && self.shown.id != 0).then_some(self.shown.id)
    }

    /// Marks what this screen shows now as shared, and returns it: other
    /// screens of the same size that should show the same picture take it
    /// with [`Screen::adopt`] instead of rendering the frame again.
    pub fn share(&mut self) -> Arc<Shown> {
        if self.shown.id == 0 {
            Arc::make_mut(&mut self.shown).id = NEXT_SHOWN.fetch_add(1, Ordering::Relaxed);
        }
        Arc::clone(&self.shown)
    }

    /// Shows `target`, whose bytes from what this screen shows (a shared
    /// picture, [`Screen::shared_id`]) the caller has sent.
    pub fn take_shared(&mut self, target: &Arc<Shown>) {
        self.shown = Arc::clone(target);
    }

    /// Shows `target` (what another screen of this size showed for the
    /// same frame): appends the rows that differ from what this screen
    /// shows, or the whole picture when it must be repainted.
    pub fn adopt(&mut self, target: &Arc<Shown>, out: &mut Vec<u8>) {
        let rows = usize::from(self.rows);
        if self.full_redraw || self.shown.drawn.len() != rows || target.drawn.len() != rows {
            paint_all(&target.drawn, out);
            self.full_redraw = false;
        } else if !Arc::ptr_eq(&self.shown, target) {
            for (row, bytes) in target.drawn.iter().enumerate() {
                if self.shown.drawn[row] != *bytes {
                    let _ = queue!(out, MoveTo(0, row as u16));
                    out.extend_from_slice(bytes);
                    let _ = queue!(out, Clear(ClearType::UntilNewLine));
                }
            }
        }
        self.shown = Arc::clone(target);
    }

    pub fn size(&self) -> (u16, u16) {
        (self.cols, self.rows)
    }

    /// A new terminal size: the next render repaints everything.
    pub fn resize(&mut self, cols: u32, rows: u32) {
        let (c, r) = clamp_size(cols, rows);
        if (c, r) != (self.cols, self.rows) {
            self.cols = c;
            self.rows = r;
        }
        self.full_redraw = true;
    }

    /// Forget what is on the terminal (Ctrl-L): the next render repaints everything.
    pub fn invalidate(&mut self) {
        self.full_redraw = true;
    }

    pub fn placement(&self) -> Placement {
        self.shown.placement
    }

    /// Whether the terminal shows "please enlarge" now (keys must not act
    /// on a screen the person cannot see).
    pub fn too_small(&self) -> bool {
        self.shown.too_small
    }

    /// Whether a frame of this size fits the terminal.
    pub fn fits(&self, frame: &Frame) -> bool {
        frame.width() <= usize::from(self.cols)
            && frame.height() + usize::from(TOP_MARGIN) <= usize::from(self.rows)
    }

    /// Replaces rows of the frame last presented (by frame row) and draws
    /// what changed, without a whole frame: for rows that change with the
    /// time alone (a clock). Refuses (false: present a frame instead) when
    /// the screen must be drawn in full, or when a line old or new could
    /// move the frame sideways (wider than the centred block's minimum).
    pub fn patch(&mut self, lines: &[(usize, Line)], out: &mut Vec<u8>) -> bool {
        let rows = usize::from(self.rows);
        let cols = usize::from(self.cols);
        if self.full_redraw || self.shown.too_small || self.shown.drawn.len() != rows {
            return false;
        }
        let narrow = LAYOUT_WIDTH.min(cols);
        let top = usize::from(self.shown.placement.top);
        for (frame_row, line) in lines {
            let row = frame_row + top;
            let Some(old) = self.shown.drawn_lines.get(row) else {
                return false;
            };
            if old.width() > narrow || line.width() > narrow {
                return false;
            }
        }
        for (frame_row, line) in lines {
            let row = frame_row + top;
            if self.shown.drawn_lines[row] == *line {
                continue;
            }
            let bytes = line_bytes(line, self.shown.drawn_left, cols);
            // The picture is this screen's own from here on.
            let shown = Arc::make_mut(&mut self.shown);
            shown.id = 0;
            if bytes != shown.drawn[row] {
                let _ = queue!(out, MoveTo(0, row as u16));
                out.extend_from_slice(&bytes);
                let _ = queue!(out, Clear(ClearType::UntilNewLine));
            }
            shown.drawn[row] = bytes;
            shown.drawn_lines[row] = line.clone();
        }
        true
    }

    /// Renders `frame`, appending to `out` only what changed since the last render.
    pub fn render(&mut self, frame: &Frame, out: &mut Vec<u8>) {
        self.present(frame.clone(), out);
    }

    /// Like [`Screen::render`], keeping the frame (no copy).
    pub fn present(&mut self, frame: Frame, out: &mut Vec<u8>) {
        let (frame, shown) = if self.fits(&frame) {
            (frame, true)
        } else {
            (
                too_small_frame(&frame, self.cols, self.rows, self.lang),
                false,
            )
        };
        // Centre a block of at least LAYOUT_WIDTH columns, so screens of
        // different widths do not jump sideways from one to the next.
        let width = frame.width().max(LAYOUT_WIDTH).min(usize::from(self.cols));
        let left = ((usize::from(self.cols) - width) / 2) as u16;
        let top = if shown { TOP_MARGIN } else { 0 };
        let placement = Placement { left, top, shown };
        // What is shown so far (its rows are moved over where unchanged,
        // or copied if the picture is shared with other screens).
        let mut old = std::mem::take(&mut self.shown);
        let old_rows = old.drawn.len();

        let rows = usize::from(self.rows);
        let mut wanted: Vec<Vec<u8>> = vec![Vec::new(); rows];
        let reuse = !self.full_redraw && old_rows == rows && old.drawn_left == left;
        // Rows whose line is as drawn: their bytes move over, unchanged.
        let mut same = vec![false; rows];
        for (i, line) in frame.lines.iter().enumerate() {
            let row = i + usize::from(top);
            if row >= rows {
                break;
            }
            wanted[row] = if reuse && old.drawn_lines.get(row) == Some(line) {
                same[row] = true;
                match Arc::get_mut(&mut old) {
                    Some(own) => std::mem::take(&mut own.drawn[row]),
                    None => old.drawn[row].clone(),
                }
            } else {
                line_bytes(line, left, usize::from(self.cols))
            };
        }
        // What the rows show, kept compact: an unchanged row keeps the line
        // it had (when this picture is not shared), a changed one is
        // compacted once.
        let mut lines: Vec<Line> = Vec::with_capacity(rows);
        lines.resize(usize::from(top).min(rows), Line::new());
        for line in frame.lines {
            let row = lines.len();
            if row >= rows {
                break;
            }
            let kept = match Arc::get_mut(&mut old) {
                Some(own) if same[row] => Some(std::mem::take(&mut own.drawn_lines[row])),
                _ => None,
            };
            lines.push(kept.unwrap_or_else(|| line.compact()));
        }

        if self.full_redraw || old_rows != rows {
            paint_all(&wanted, out);
            self.full_redraw = false;
        } else {
            for (row, bytes) in wanted.iter().enumerate() {
                if !same[row] && old.drawn[row] != *bytes {
                    let _ = queue!(out, MoveTo(0, row as u16));
                    out.extend_from_slice(bytes);
                    let _ = queue!(out, Clear(ClearType::UntilNewLine));
                }
            }
        }
        self.shown = Arc::new(Shown {
            id: 0,
            drawn: wanted,
            drawn_lines: lines,
            drawn_left: left,
            placement,
            too_small: !shown,
        });
    }
}

/// Clears the terminal and draws every row.
fn paint_all(rows: &[Vec<u8>], out: &mut Vec<u8>) {
    let _ = queue!(
        out,
        ResetColor,
        SetAttribute(Attribute::Reset),
        Hide,
        Clear(ClearType::All)
    );
    for (row, bytes) in rows.iter().enumerate() {
        if !bytes.is_empty() {
            let _ = queue!(out, MoveTo(0, row as u16));
            out.extend_from_slice(bytes);
        }
    }
}

/// The bytes of one row: padding, then each span with its attributes, then a reset.
fn line_bytes(line: &Line, left: u16, cols: usize) -> Vec<u8> {
    let mut out = Vec::new();
    if line.spans.iter().all(|s| s.text.is_empty()) {
        return out;
    }
    let mut used = usize::from(left);
    out.extend(std::iter::repeat_n(b' ', usize::from(left)));
    for span in &line.spans {
        let w = text::width(&span.text);
        let text: std::borrow::Cow<str> = if used + w > cols {
            // Never wrap: cut at the terminal's edge.
            let mut s = String::new();
            let mut u = used;
            for c in span.text.chars() {
                let cw = text::width(c.encode_utf8(&mut [0; 4]));
                if u + cw > cols {
                    break;
                }
                s.push(c);
                u += cw;
            }
            s.into()
        } else {
            span.text.as_str().into()
        };
        used += text::width(&text);
        if span.style != Style::PLAIN {
            apply_style(&mut out, span.style);
        }
        let _ = queue!(out, Print(&text));
        if span.style != Style::PLAIN {
            let _ = queue!(out, SetAttribute(Attribute::Reset));
        }
        if used >= cols {
            break;
        }
    }
    // Kept as what the row shows (see `Line::compact`).
    out.shrink_to_fit();
    out
}

fn apply_style(out: &mut Vec<u8>, style: Style) {
    if style.bold {
        let _ = queue!(out, SetAttribute(Attribute::Bold));
    }
    if style.dim {
        let _ = queue!(out, SetAttribute(Attribute::Dim));
    }
    if style.underline {
        let _ = queue!(out, SetAttribute(Attribute::Underlined));
    }
    if style.reverse {
        let _ = queue!(out, SetAttribute(Attribute::Reverse));
    }
    if let Some(fg) = style.fg {
        let _ = queue!(out, SetForegroundColor(fg.terminal()));
    }
    if let Some(bg) = style.bg {
        let _ = queue!(out, SetBackgroundColor(bg.terminal()));
    }
}

/// Shown instead of a frame that does not fit.
fn too_small_frame(wanted: &Frame, cols: u16, rows: u16, lang: crate::lang::Lang) -> Frame {
    let need_w = wanted.width();
    let need_h = wanted.height() + usize::from(TOP_MARGIN);
    let size = |w: usize, h: usize| -> [(&'static str, crate::lang::Value<'static>); 2] {
        [("width", w.into()), ("height", h.into())]
    };
    let mut f = Frame::new();
    f.push(Line::styled(lang.text("small-title"), Style::PLAIN.bold()));
    f.push(Line::plain(
        lang.text_with("small-enlarge", &size(need_w, need_h)),
    ));
    let now = size(usize::from(cols), usize::from(rows));
    f.push(Line::plain(lang.text_with("small-now", &now)));
    f.push(Line::plain(lang.text("small-keys-wait")));
    f.push(Line::plain(lang.text("small-keys")));
    f
}

/// Restores a terminal: the bytes to send when a session ends.
pub fn leave_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    let _ = queue!(out, ResetColor, SetAttribute(Attribute::Reset), Show);
    out.extend_from_slice(LEAVE_SEQUENCE.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(lines: &[&str]) -> Frame {
        Frame {
            lines: lines.iter().map(|l| Line::plain(*l)).collect(),
        }
    }

    fn screen_text(bytes: &[u8], cols: u16, rows: u16) -> String {
        let mut p = vt100::Parser::new(rows, cols, 0);
        p.process(bytes);
        p.screen().contents()
    }

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(clamp_size(0, 0), (80, 24));
        assert_eq!(clamp_size(8000, 4000), (MAX_COLS, MAX_ROWS));
        assert_eq!(clamp_size(100, 30), (100, 30));
    }

    #[test]
    fn only_changed_rows_are_sent() {
        let mut s = Screen::new(40, 10);
        let mut out = Vec::new();
        s.render(&frame(&["first row", "second row", "third row"]), &mut out);
        assert!(screen_text(&out, 40, 10).contains("second row"));
        let mut out2 = Vec::new();
        s.render(&frame(&["first row", "SECOND ROW", "third row"]), &mut out2);
        let sent = String::from_utf8_lossy(&out2);
        assert!(sent.contains("SECOND ROW"));
        assert!(
            !sent.contains("first row") && !sent.contains("third row"),
            "{sent:?}"
        );
        let mut all = out.clone();
        all.extend_from_slice(&out2);
        let text = screen_text(&all, 40, 10);
        assert!(text.contains("SECOND ROW") && !text.contains("second row"));
        // Nothing changed: nothing sent.
        let mut out3 = Vec::new();
        s.render(&frame(&["first row", "SECOND ROW", "third row"]), &mut out3);
        assert!(out3.is_empty());
    }

    #[test]
    fn a_line_too_wide_is_shortened_at_a_word_with_its_styles() {
        let mut l = Line::styled(" ! ", Style::PLAIN.bold());
        l.push(
            "ann has not moved for a long while: w claims the win",
            Style::PLAIN,
        );
        l.fit(30);
        assert_eq!(l.text(), " ! ann has not moved for a…");
        assert!(l.width() <= 30);
        assert_eq!(l.spans[0].style, Style::PLAIN.bold());
        let mut zh = Line::plain(" 對手一段時間沒落子後，才能要求判勝");
        zh.fit(16);
        assert!(zh.width() <= 16, "{}", zh.text());
        assert!(
            zh.text().ends_with('…') && !zh.text().contains('，'),
            "{}",
            zh.text()
        );
        // A word longer than the room is not cut: left out.
        let mut long = Line::plain("Verbindungsabbruch");
        long.fit(10);
        assert_eq!(long.text(), "…");
        // A line that fits is left alone.
        let mut short = Line::plain("fits");
        short.fit(10);
        assert_eq!(short.text(), "fits");
    }

    #[test]
    fn too_small_says_how_big() {
        let mut s = Screen::new(25, 5);
        let mut out = Vec::new();
        let big = frame(&["x".repeat(30).as_str(), "a", "b", "c", "d", "e"]);
        s.render(&big, &mut out);
        let text = screen_text(&out, 25, 5);
        assert!(text.contains("please enlarge to 30x6"), "{text}");
        assert!(!s.placement().shown);
        s.resize(40, 10);
        let mut out = Vec::new();
        s.render(&big, &mut out);
        assert!(screen_text(&out, 40, 10).contains(&"x".repeat(30)));
        assert!(s.placement().shown);
    }

    #[test]
    fn plain_text_has_no_escapes() {
        let mut f = Frame::new();
        f.push(Line::styled("red", Style::fg(Ink::Red).bold()));
        assert_eq!(f.to_plain("\n"), "red\n");
    }
}
