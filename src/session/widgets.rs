//! Small building blocks of the screens: a menu whose entries are picked
//! with the arrows + Enter, a key shown beside each (`[1] Connect Four`) or
//! a mouse click; and a one-line text field.

use std::borrow::Cow;

use crate::term::input::Key;
use crate::term::screen::{Line, Style};
use crate::text;

/// One menu entry. Most labels are the program's own text, held without
/// a copy (a menu stays on an idle person's screen for hours).
#[derive(Debug, Clone)]
pub struct Entry<A> {
    pub key: char,
    pub label: Cow<'static, str>,
    /// Greyed text after the label.
    pub detail: Cow<'static, str>,
    pub action: A,
}

/// What a key did to a menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MenuEvent<A> {
    Chosen(A),
    /// Esc or Backspace: go back.
    Back,
    /// Moved the selection, or nothing.
    None,
}

#[derive(Debug, Clone)]
pub struct Menu<A> {
    pub entries: Vec<Entry<A>>,
    pub selected: usize,
}

impl<A: Clone> Menu<A> {
    pub fn new() -> Menu<A> {
        Menu {
            entries: Vec::new(),
            selected: 0,
        }
    }

    pub fn entry(
        mut self,
        key: char,
        label: impl Into<Cow<'static, str>>,
        detail: impl Into<Cow<'static, str>>,
        action: A,
    ) -> Menu<A> {
        self.entries.push(Entry {
            key,
            label: label.into(),
            detail: detail.into(),
            action,
        });
        self
    }

    /// Entries numbered 1, 2, 3... in order.
    pub fn numbered(items: impl IntoIterator<Item = (String, String, A)>) -> Menu<A> {
        let mut m = Menu::new();
        for (i, (label, detail, action)) in items.into_iter().enumerate() {
            let key = char::from_digit((i + 1) as u32 % 36, 36).unwrap_or('?');
            m = m.entry(key, label, detail, action);
        }
        m
    }

    /// Pre-selects the first entry whose action satisfies `f`.
    pub fn select_where(mut self, f: impl Fn(&A) -> bool) -> Menu<A> {
        if let Some(i) = self.entries.iter().position(|e| f(&e.action)) {
            self.selected = i;
        }
        self
    }

    pub fn handle(&mut self, key: Key) -> MenuEvent<A> {
        let n = self.entries.len();
        if n == 0 {
            return MenuEvent::None;
        }
        match key {
            Key::Up | Key::Left => {
                self.selected = (self.selected + n - 1) % n;
                MenuEvent::None
            }
            Key::Down | Key::Right | Key::Tab => {
                self.selected = (self.selected + 1) % n;
                MenuEvent::None
            }
            Key::Home => {
                self.selected = 0;
                MenuEvent::None
            }
            Key::End => {
                self.selected = n - 1;
                MenuEvent::None
            }
            Key::Enter | Key::Char(' ') => {
                MenuEvent::Chosen(self.entries[self.selected].action.clone())
            }
            Key::Esc | Key::Backspace => MenuEvent::Back,
            Key::Char(c) => {
                let c = c.to_ascii_lowercase();
                match self
                    .entries
                    .iter()
                    .position(|e| e.key.to_ascii_lowercase() == c)
                {
                    Some(i) => {
                        self.selected = i;
                        MenuEvent::Chosen(self.entries[i].action.clone())
                    }
                    None => MenuEvent::None,
                }
            }
            _ => MenuEvent::None,
        }
    }

    /// A click on the menu's `row`-th line (0 = first entry).
    pub fn click(&mut self, row: usize) -> MenuEvent<A> {
        match self.entries.get(row) {
            Some(e) => {
                self.selected = row;
                MenuEvent::Chosen(e.action.clone())
            }
            None => MenuEvent::None,
        }
    }

    /// One line per entry; the selected one is highlighted.
    pub fn lines(&self, accent: Style) -> Vec<Line> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let mut line = Line::new();
                if i == self.selected {
                    line.push(" > ", accent);
                    line.push(format!("[{}] {}", e.key, e.label), Style::PLAIN.reverse());
                } else {
                    line.push("   ", Style::PLAIN);
                    line.push(format!("[{}] {}", e.key, e.label), Style::PLAIN);
                }
                if !e.detail.is_empty() {
                    line.push(format!("  {}", e.detail), Style::PLAIN.dim());
                }
                line
            })
            .collect()
    }
}

impl<A: Clone> Default for Menu<A> {
    fn default() -> Self {
        Menu::new()
    }
}

/// The message for a printable key that is not one of a menu's choices.
pub fn not_a_choice(lang: crate::lang::Lang, key: Key) -> Option<String> {
    match key {
        Key::Char(c) if !c.is_whitespace() => Some(lang.text_with(
            "not-a-choice",
            &[("key", text::sanitize_quote(&c.to_string(), 4).into())],
        )),
        _ => None,
    }
}

/// What a key did to a text field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldEvent {
    /// Enter: the sanitised text.
    Submitted(String),
    Cancelled,
    None,
}

/// A one-line text field with a bounded width.
#[derive(Debug, Clone, Default)]
pub struct TextField {
    pub value: String,
    pub max_width: usize,
}

impl TextField {
    pub fn new(initial: &str, max_width: usize) -> TextField {
        TextField {
            value: text::sanitize(initial, max_width),
            max_width,
        }
    }

    pub fn handle(&mut self, key: Key) -> FieldEvent {
        match key {
            Key::Enter => FieldEvent::Submitted(text::sanitize(&self.value, self.max_width)),
            Key::Esc => FieldEvent::Cancelled,
            Key::Backspace => {
                self.value.pop();
                FieldEvent::None
            }
            Key::Char(c) => {
                // Printable characters only (the sanitiser keeps a lone one
                // unchanged), single spaces between words, never past the bound.
                let one = c.to_string();
                let printable = if c == ' ' {
                    !self.value.is_empty() && !self.value.ends_with(' ')
                } else {
                    text::sanitize(&one, 2) == one
                };
                if printable && text::width(&self.value) + text::width(&one) <= self.max_width {
                    self.value.push(c);
                }
                FieldEvent::None
            }
            _ => FieldEvent::None,
        }
    }

    /// The field as a line: the text and a block cursor.
    pub fn line(&self, prompt: &str) -> Line {
        let mut line = Line::new();
        line.push(prompt, Style::PLAIN.bold());
        line.push(self.value.clone(), Style::PLAIN.underline());
        line.push("_", Style::PLAIN.bold());
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menu_keys_arrows_and_clicks() {
        let mut m = Menu::numbered([
            ("One".to_string(), String::new(), 1),
            ("Two".to_string(), String::new(), 2),
            ("Three".to_string(), String::new(), 3),
        ]);
        assert_eq!(m.handle(Key::Char('2')), MenuEvent::Chosen(2));
        assert_eq!(m.handle(Key::Down), MenuEvent::None);
        assert_eq!(m.handle(Key::Enter), MenuEvent::Chosen(3));
        assert_eq!(m.handle(Key::Down), MenuEvent::None);
        assert_eq!(m.handle(Key::Enter), MenuEvent::Chosen(1));
        assert_eq!(m.handle(Key::Up), MenuEvent::None);
        assert_eq!(m.selected, 2);
        assert_eq!(m.handle(Key::Char('9')), MenuEvent::None);
        assert_eq!(m.handle(Key::Esc), MenuEvent::Back);
        assert_eq!(m.click(0), MenuEvent::Chosen(1));
        assert_eq!(m.click(7), MenuEvent::None);
        let lines = m.lines(Style::PLAIN);
        assert_eq!(lines[0].text(), " > [1] One");
        assert_eq!(lines[1].text(), "   [2] Two");
    }

    #[test]
    fn text_field_is_sanitised_and_bounded() {
        let mut f = TextField::new("", 5);
        for c in "Al\u{7}ice Smith".chars() {
            f.handle(Key::Char(c));
        }
        assert_eq!(f.value, "Alice");
        f.handle(Key::Backspace);
        f.handle(Key::Char(' '));
        f.handle(Key::Char(' '));
        assert_eq!(f.value, "Alic ");
        assert_eq!(
            f.handle(Key::Enter),
            FieldEvent::Submitted("Alic".to_string())
        );
        assert_eq!(f.handle(Key::Esc), FieldEvent::Cancelled);
    }
}
