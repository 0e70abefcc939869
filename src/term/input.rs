//! Bytes -> keys. Our own decoder, because crossterm's parser is private and
//! reads only the local tty; this one is fed from any byte source (local
//! stdin, an SSH channel, a telnet socket) and keeps its state across reads,
//! so a sequence split at any byte decodes the same as when it arrives whole.
//!
//! It understands: printable UTF-8; Enter as CR, LF, CR LF or CR NUL;
//! Backspace (DEL or BS); Tab; Ctrl-C, Ctrl-D, Ctrl-L; arrows and
//! Home/End/Delete in CSI (`ESC [ A`) and SS3 (`ESC O A`) form, with or
//! without modifiers; SGR (`ESC [ < b ; x ; y M`) and X10 (`ESC [ M b x y`)
//! mouse presses; F1; bracketed-paste markers (`ESC [ 200 ~`, `ESC [ 201 ~`);
//! Alt with a printable key. A lone ESC is ambiguous until more bytes come or the
//! caller's timer calls [`KeyDecoder::flush`]. Anything else is dropped.
//! Memory is bounded: a sequence longer than [`MAX_SEQUENCE`] is discarded.

/// A decoded key press.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A printable character (space included).
    Char(char),
    Enter,
    Backspace,
    Tab,
    Esc,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    Delete,
    CtrlC,
    CtrlD,
    CtrlL,
    F1,
    /// Alt (or Esc typed together) with a printable key: never a command.
    Alt(char),
    /// Bracketed paste begins: what follows until [`Key::PasteEnd`] was
    /// pasted, not typed (text, never commands).
    PasteStart,
    PasteEnd,
    /// A left-button press at a 0-based terminal cell.
    Click {
        col: u16,
        row: u16,
    },
}

/// Longest escape sequence we buffer; real ones are far shorter.
pub const MAX_SEQUENCE: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Ground,
    /// Last byte was CR: a following LF or NUL belongs to the same Enter.
    AfterCr,
}

/// Stateful decoder; feed it bytes as they arrive.
#[derive(Debug, Clone)]
pub struct KeyDecoder {
    /// An escape sequence or UTF-8 character in progress.
    pending: Vec<u8>,
    state: State,
}

impl Default for KeyDecoder {
    fn default() -> Self {
        Self::new()
    }
}

/// What the bytes in `pending` amount to so far.
enum Parse {
    /// A complete item: how many bytes it used and the key, if any.
    Done(usize, Option<Key>),
    /// Need more bytes.
    Incomplete,
}

impl KeyDecoder {
    pub fn new() -> KeyDecoder {
        KeyDecoder {
            pending: Vec::with_capacity(8),
            state: State::Ground,
        }
    }

    /// Whether a sequence is waiting for more bytes (the caller should arm
    /// a short timer and call [`KeyDecoder::flush`] if nothing comes).
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Decodes `bytes`, appending keys to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Key>) {
        for &b in bytes {
            if self.pending.is_empty() {
                self.ground(b, out);
            } else {
                self.pending.push(b);
                self.drain(out);
            }
        }
    }

    /// Convenience: decode a whole buffer with a fresh decoder, then flush.
    pub fn decode_all(bytes: &[u8]) -> Vec<Key> {
        let mut d = KeyDecoder::new();
        let mut out = Vec::new();
        d.feed(bytes, &mut out);
        d.flush(&mut out);
        out
    }

    /// Nothing more came: a lone ESC is the Esc key; an unfinished sequence is dropped.
    pub fn flush(&mut self, out: &mut Vec<Key>) {
        // `ESC x` would have completed already; longer fragments are noise.
        if self.pending == [0x1b] {
            out.push(Key::Esc);
        }
        self.pending.clear();
    }

    fn ground(&mut self, b: u8, out: &mut Vec<Key>) {
        let after_cr = self.state == State::AfterCr;
        self.state = State::Ground;
        match b {
            b'\r' => {
                self.state = State::AfterCr;
                out.push(Key::Enter);
            }
            b'\n' | 0 if after_cr => {}
            b'\n' => out.push(Key::Enter),
            0x1b => self.pending.push(b),
            0x7f | 0x08 => out.push(Key::Backspace),
            b'\t' => out.push(Key::Tab),
            0x03 => out.push(Key::CtrlC),
            0x04 => out.push(Key::CtrlD),
            0x0c => out.push(Key::CtrlL),
            0x20..=0x7e => out.push(Key::Char(char::from(b))),
            0xc2..=0xf4 => self.pending.push(b),
            // Other C0 controls, stray continuation bytes, invalid leads.
            _ => {}
        }
    }

    fn drain(&mut self, out: &mut Vec<Key>) {
        while !self.pending.is_empty() {
            match self.parse_pending() {
                Parse::Incomplete => {
                    if self.pending.len() > MAX_SEQUENCE {
                        self.pending.clear();
                    }
                    return;
                }
                Parse::Done(used, key) => {
                    out.extend(key);
                    // Bytes after the finished item start afresh (e.g. the
                    // CR of `ESC CR`, or the byte that cut a UTF-8 character short).
                    let leftover = self.pending.split_off(used);
                    self.pending.clear();
                    for b in leftover {
                        if self.pending.is_empty() {
                            self.ground(b, out);
                        } else {
                            self.pending.push(b);
                        }
                    }
                }
            }
        }
    }

    fn parse_pending(&self) -> Parse {
        let p = &self.pending;
        match p[0] {
            0x1b => parse_escape(p),
            lead => parse_utf8(lead, p),
        }
    }
}

fn parse_utf8(lead: u8, p: &[u8]) -> Parse {
    let need = match lead {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    // A non-continuation byte ends the character early: drop the fragment
    // and let the byte start afresh.
    if let Some(i) = p[1..].iter().position(|&b| b & 0xc0 != 0x80) {
        return Parse::Done(i + 1, None);
    }
    if p.len() < need {
        return Parse::Incomplete;
    }
    let key = std::str::from_utf8(&p[..need])
        .ok()
        .and_then(|s| s.chars().next())
        .filter(|c| !c.is_control())
        .map(Key::Char);
    Parse::Done(need, key)
}

fn parse_escape(p: &[u8]) -> Parse {
    let Some(&second) = p.get(1) else {
        return Parse::Incomplete;
    };
    match second {
        b'[' => parse_csi(p),
        b'O' => match p.get(2) {
            None => Parse::Incomplete,
            Some(&c) => Parse::Done(3, final_key(c, &[])),
        },
        // ESC ESC: the first is a lone Esc; the second starts afresh.
        0x1b => Parse::Done(1, Some(Key::Esc)),
        // Alt+printable (or Esc and a key in one read): its own key, so
        // Alt-q or Esc q never acts as a plain q.
        0x20..=0x7e => Parse::Done(2, Some(Key::Alt(char::from(second)))),
        // ESC followed by a control (e.g. ESC CR): Esc, then the control afresh.
        _ => Parse::Done(1, Some(Key::Esc)),
    }
}

fn parse_csi(p: &[u8]) -> Parse {
    // X10 mouse: ESC [ M b x y (three raw bytes, each offset by 32).
    if p.get(2) == Some(&b'M') {
        if p.len() < 6 {
            return Parse::Incomplete;
        }
        let (b, x, y) = (p[3].wrapping_sub(32), p[4], p[5]);
        let key = (b & 0b11 == 0 && b & 0b0110_0000 == 0 && x > 32 && y > 32).then(|| Key::Click {
            col: u16::from(x - 33),
            row: u16::from(y - 33),
        });
        return Parse::Done(6, key);
    }
    // ESC [ params intermediates final
    for (i, &b) in p.iter().enumerate().skip(2) {
        match b {
            // Parameter and intermediate bytes.
            0x20..=0x3f => continue,
            0x40..=0x7e => {
                let params = &p[2..i];
                return Parse::Done(i + 1, csi_key(params, b));
            }
            // Not a valid CSI byte: drop what we have up to here.
            _ => return Parse::Done(i, None),
        }
    }
    Parse::Incomplete
}

fn final_key(c: u8, _params: &[u8]) -> Option<Key> {
    match c {
        b'A' => Some(Key::Up),
        b'B' => Some(Key::Down),
        b'C' => Some(Key::Right),
        b'D' => Some(Key::Left),
        b'H' => Some(Key::Home),
        b'F' => Some(Key::End),
        // SS3 keypad Enter.
        b'M' => Some(Key::Enter),
        // F1 (SS3 P, or CSI 1;m P with modifiers).
        b'P' => Some(Key::F1),
        _ => None,
    }
}

fn csi_key(params: &[u8], fin: u8) -> Option<Key> {
    if params.first() == Some(&b'<') && (fin == b'M' || fin == b'm') {
        return sgr_mouse(&params[1..], fin);
    }
    if fin == b'~' {
        let first = params.split(|&b| b == b';').next().unwrap_or(&[]);
        return match first {
            b"1" | b"7" => Some(Key::Home),
            b"4" | b"8" => Some(Key::End),
            b"3" => Some(Key::Delete),
            b"11" => Some(Key::F1),
            b"200" => Some(Key::PasteStart),
            b"201" => Some(Key::PasteEnd),
            _ => None,
        };
    }
    final_key(fin, params)
}

fn parse_num(field: &[u8]) -> Option<u32> {
    if field.is_empty() || field.len() > 5 || !field.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(field).ok()?.parse().ok()
}

fn sgr_mouse(params: &[u8], fin: u8) -> Option<Key> {
    let mut it = params.split(|&b| b == b';');
    let b = parse_num(it.next()?)?;
    let x = parse_num(it.next()?)?;
    let y = parse_num(it.next()?)?;
    // Left button press only: no release, no motion, no wheel.
    if fin != b'M' || b & 0b11 != 0 || b & (32 | 64) != 0 || x == 0 || y == 0 {
        return None;
    }
    Some(Key::Click {
        col: u16::try_from(x - 1).ok()?,
        row: u16::try_from(y - 1).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Key> {
        KeyDecoder::decode_all(bytes)
    }

    #[test]
    fn printable_and_utf8() {
        assert_eq!(
            keys(b"ab 1"),
            vec![
                Key::Char('a'),
                Key::Char('b'),
                Key::Char(' '),
                Key::Char('1')
            ]
        );
        assert_eq!(
            keys("é🔴".as_bytes()),
            vec![Key::Char('é'), Key::Char('🔴')]
        );
        // Invalid UTF-8 is dropped, what follows survives.
        assert_eq!(keys(b"\xe2\x28a"), vec![Key::Char('('), Key::Char('a')]);
        assert_eq!(keys(b"\xff\xfeq"), vec![Key::Char('q')]);
    }

    #[test]
    fn every_form_of_enter_is_one_enter() {
        for bytes in [&b"\r"[..], b"\n", b"\r\n", b"\r\0"] {
            assert_eq!(keys(bytes), vec![Key::Enter], "{bytes:?}");
        }
        assert_eq!(keys(b"\r\r"), vec![Key::Enter, Key::Enter]);
        assert_eq!(keys(b"\n\n"), vec![Key::Enter, Key::Enter]);
        assert_eq!(
            keys(b"a\r\nb"),
            vec![Key::Char('a'), Key::Enter, Key::Char('b')]
        );
    }

    #[test]
    fn control_keys() {
        assert_eq!(
            keys(b"\x03\x04\x0c\x7f\x08\t"),
            vec![
                Key::CtrlC,
                Key::CtrlD,
                Key::CtrlL,
                Key::Backspace,
                Key::Backspace,
                Key::Tab
            ]
        );
    }

    #[test]
    fn arrows_in_csi_and_ss3_form() {
        assert_eq!(
            keys(b"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1bOB\x1bOC\x1bOD"),
            vec![
                Key::Up,
                Key::Down,
                Key::Right,
                Key::Left,
                Key::Up,
                Key::Down,
                Key::Right,
                Key::Left
            ]
        );
        assert_eq!(keys(b"\x1b[1;5C"), vec![Key::Right]);
        assert_eq!(
            keys(b"\x1b[H\x1b[4~\x1b[3~"),
            vec![Key::Home, Key::End, Key::Delete]
        );
    }

    #[test]
    fn lone_escape_needs_a_flush() {
        let mut d = KeyDecoder::new();
        let mut out = Vec::new();
        d.feed(b"\x1b", &mut out);
        assert!(out.is_empty());
        assert!(d.has_pending());
        d.flush(&mut out);
        assert_eq!(out, vec![Key::Esc]);
        assert_eq!(keys(b"\x1b\x1b[A"), vec![Key::Esc, Key::Up]);
        assert_eq!(keys(b"\x1b\r"), vec![Key::Esc, Key::Enter]);
    }

    #[test]
    fn alt_keys_f1_and_paste_markers() {
        assert_eq!(keys(b"\x1bq"), vec![Key::Alt('q')]);
        assert_eq!(keys(b"\x1bOP\x1b[11~\x1b[1;2P"), vec![Key::F1; 3]);
        assert_eq!(
            keys(b"\x1b[200~q\r\x1b[201~"),
            vec![Key::PasteStart, Key::Char('q'), Key::Enter, Key::PasteEnd]
        );
    }

    #[test]
    fn mouse_clicks() {
        assert_eq!(keys(b"\x1b[<0;10;5M"), vec![Key::Click { col: 9, row: 4 }]);
        // Release, right button, wheel and motion are ignored.
        assert!(keys(b"\x1b[<0;10;5m\x1b[<2;1;1M\x1b[<64;1;1M\x1b[<32;3;3M").is_empty());
        assert_eq!(keys(b"\x1b[M !!"), vec![Key::Click { col: 0, row: 0 }]);
        assert!(keys(b"\x1b[<99999999;1;1M").is_empty());
    }

    #[test]
    fn any_split_decodes_the_same() {
        let stream: &[u8] = b"h8\r\n\x1b[<0;12;7M\x1bOD\x1b[1;2A\xc3\xa9\r\0x\x1b[3~";
        let whole = keys(stream);
        for cut in 0..=stream.len() {
            let mut d = KeyDecoder::new();
            let mut out = Vec::new();
            d.feed(&stream[..cut], &mut out);
            d.feed(&stream[cut..], &mut out);
            d.flush(&mut out);
            assert_eq!(out, whole, "split at {cut}");
        }
    }

    #[test]
    fn overlong_sequences_are_bounded() {
        let mut d = KeyDecoder::new();
        let mut out = Vec::new();
        let mut evil = b"\x1b[".to_vec();
        evil.extend(std::iter::repeat_n(b'1', 10_000));
        d.feed(&evil, &mut out);
        assert!(d.pending.len() <= MAX_SEQUENCE + 1);
        d.feed(b"A", &mut out);
        d.feed(b"q", &mut out);
        assert_eq!(out.last(), Some(&Key::Char('q')));
    }
}
