//! The telnet protocol, as a pure codec (no IO): bytes from the client in;
//! data, window sizes and the terminal type out, plus the negotiation
//! replies to send back. Our own because the crates looked at are unsafe
//! as they stand (one panics on a window-size report split across reads,
//! one drops window-size reports).
//!
//! * On connect we offer WILL ECHO and WILL SUPPRESS-GO-AHEAD (character at a
//!   time, no local echo) and ask DO NAWS (window size), DO TTYPE
//!   (terminal type, requested with SB TTYPE SEND once the client agrees)
//!   and DO NEW-ENVIRON (RFC 1572: the locale variables `LC_ALL`,
//!   `LC_MESSAGES` and `LANG`, asked for with SB NEW-ENVIRON SEND, so a
//!   client that exports them is spoken to in its language).
//! * IAC sequences are parsed statefully, so any split across reads decodes
//!   the same; IAC IAC is a literal 255, also inside subnegotiations.
//! * Options follow RFC 1143's state rules: a request that only confirms the
//!   current state is never answered, so negotiation cannot loop; options we
//!   do not have are refused (DO gets WONT, WILL gets DONT).
//! * Every buffer is bounded: a subnegotiation longer than
//!   [`MAX_SUBNEGOTIATION`] is dropped.
//!
//! CR NUL and CR LF arrive as data; the key decoder turns both into Enter.

/// Interpret As Command.
pub const IAC: u8 = 255;
const DONT: u8 = 254;
const DO: u8 = 253;
const WONT: u8 = 252;
const WILL: u8 = 251;
const SB: u8 = 250;
const SE: u8 = 240;
/// Interrupt Process: the client's Ctrl-C in line mode.
const IP: u8 = 244;

pub const OPT_ECHO: u8 = 1;
pub const OPT_SGA: u8 = 3;
pub const OPT_TTYPE: u8 = 24;
pub const OPT_NAWS: u8 = 31;
pub const OPT_NEW_ENVIRON: u8 = 39;

const TTYPE_IS: u8 = 0;
const TTYPE_SEND: u8 = 1;

// NEW-ENVIRON's commands and the types inside its lists.
const ENV_IS: u8 = 0;
const ENV_SEND: u8 = 1;
const ENV_INFO: u8 = 2;
const ENV_VAR: u8 = 0;
const ENV_VALUE: u8 = 1;
const ENV_ESC: u8 = 2;
const ENV_USERVAR: u8 = 3;
/// The variables asked for: the locale, in the order POSIX reads them.
pub const ENV_ASKED: [&str; 3] = ["LC_ALL", "LC_MESSAGES", "LANG"];
/// Longest variable name or value kept (a locale is ~20 bytes).
const MAX_ENV_TEXT: usize = 64;

/// Longest subnegotiation kept (NAWS needs 4 bytes, a terminal name ~40,
/// three locale variables ~100).
pub const MAX_SUBNEGOTIATION: usize = 512;
/// Longest terminal type kept.
const MAX_TTYPE: usize = 40;

/// What the client told us, besides data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A window size (columns, rows), unclamped.
    Size(u16, u16),
    /// The terminal type, printable ASCII only, as sent (often upper case).
    TermType(String),
    /// Environment variables the client reported (only those asked for,
    /// printable ASCII, with a value).
    Environ(Vec<(String, String)>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Q {
    No,
    Yes,
    /// We asked for it and wait for the answer. (We never ask to turn an
    /// option off, so the "want no" state of RFC 1143 is not needed.)
    WantYes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Data,
    Iac,
    /// After IAC WILL/WONT/DO/DONT: waiting for the option byte.
    Verb(u8),
    /// After IAC SB: waiting for the option byte.
    SbOption,
    /// Inside a subnegotiation.
    Sb,
    /// Inside a subnegotiation, after IAC.
    SbIac,
}

/// One connection's telnet state.
#[derive(Debug, Clone)]
pub struct Codec {
    state: State,
    /// Options we perform (ECHO, SGA), indexed by option byte.
    us: [Q; 256],
    /// Options the client performs (NAWS, TTYPE).
    him: [Q; 256],
    sb_option: u8,
    sb: Vec<u8>,
    sb_overflow: bool,
    ttype_asked: bool,
    environ_asked: bool,
    environ_answered: bool,
    /// Whether the client has sent any IAC at all (a plain socket never does).
    pub seen_iac: bool,
}

impl Default for Codec {
    fn default() -> Self {
        Codec::new()
    }
}

/// What one call to [`Codec::decode`] produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// Application bytes (keystrokes), with telnet commands removed.
    pub data: Vec<u8>,
    pub events: Vec<Event>,
    /// Bytes to send back to the client (negotiation).
    pub reply: Vec<u8>,
}

fn we_support(opt: u8) -> bool {
    matches!(opt, OPT_ECHO | OPT_SGA)
}

fn he_may(opt: u8) -> bool {
    matches!(opt, OPT_NAWS | OPT_TTYPE | OPT_NEW_ENVIRON)
}

/// The variables of a NEW-ENVIRON IS or INFO list, those asked for with a
/// value: `(VAR|USERVAR) name [VALUE value]`, ESC quoting the next byte.
fn environ_list(list: &[u8]) -> Vec<(String, String)> {
    let mut items: Vec<(Vec<u8>, Option<Vec<u8>>)> = Vec::new();
    let mut bytes = list.iter();
    while let Some(&b) = bytes.next() {
        let b = match b {
            ENV_VAR | ENV_USERVAR => {
                items.push((Vec::new(), None));
                continue;
            }
            ENV_VALUE => {
                if let Some(item) = items.last_mut() {
                    item.1 = Some(Vec::new());
                }
                continue;
            }
            ENV_ESC => match bytes.next() {
                Some(&b) => b,
                None => break,
            },
            b => b,
        };
        if let Some((name, value)) = items.last_mut() {
            let text = value.as_mut().unwrap_or(name);
            if text.len() < MAX_ENV_TEXT {
                text.push(b);
            }
        }
    }
    let printable = |t: &[u8]| t.iter().all(|b| b.is_ascii_graphic());
    items
        .into_iter()
        .filter_map(|(name, value)| {
            let value = value?;
            let name = String::from_utf8(name).ok()?;
            (ENV_ASKED.contains(&name.as_str()) && printable(&value) && !value.is_empty())
                .then(|| (name, String::from_utf8_lossy(&value).into_owned()))
        })
        .collect()
}

impl Codec {
    pub fn new() -> Codec {
        Codec {
            state: State::Data,
            us: [Q::No; 256],
            him: [Q::No; 256],
            sb_option: 0,
            sb: Vec::new(),
            sb_overflow: false,
            ttype_asked: false,
            environ_asked: false,
            environ_answered: false,
            seen_iac: false,
        }
    }

    /// The offers sent on connect.
    pub fn greeting(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        for opt in [OPT_ECHO, OPT_SGA] {
            self.us[usize::from(opt)] = Q::WantYes;
            out.extend_from_slice(&[IAC, WILL, opt]);
        }
        for opt in [OPT_NAWS, OPT_TTYPE, OPT_NEW_ENVIRON] {
            self.him[usize::from(opt)] = Q::WantYes;
            out.extend_from_slice(&[IAC, DO, opt]);
        }
        out
    }

    /// Whether the client agreed to report its window size.
    pub fn naws_on(&self) -> bool {
        self.him[usize::from(OPT_NAWS)] == Q::Yes
    }

    /// Whether the client has answered our NAWS, TTYPE and NEW-ENVIRON
    /// requests (either way).
    pub fn negotiation_settled(&self) -> bool {
        [OPT_NAWS, OPT_TTYPE, OPT_NEW_ENVIRON]
            .iter()
            .all(|&o| matches!(self.him[usize::from(o)], Q::Yes | Q::No))
    }

    /// Whether the client agreed to tell its environment and has not yet.
    pub fn environ_pending(&self) -> bool {
        self.him[usize::from(OPT_NEW_ENVIRON)] == Q::Yes && !self.environ_answered
    }

    /// Decodes bytes from the client.
    pub fn decode(&mut self, bytes: &[u8]) -> Decoded {
        let mut d = Decoded::default();
        for &b in bytes {
            self.byte(b, &mut d);
        }
        d
    }

    fn byte(&mut self, b: u8, d: &mut Decoded) {
        match self.state {
            State::Data => {
                if b == IAC {
                    self.seen_iac = true;
                    self.state = State::Iac;
                } else {
                    d.data.push(b);
                }
            }
            State::Iac => {
                self.state = State::Data;
                match b {
                    IAC => d.data.push(IAC),
                    WILL | WONT | DO | DONT => self.state = State::Verb(b),
                    SB => self.state = State::SbOption,
                    IP => d.data.push(0x03),
                    // NOP, DM, BRK, AO, AYT, EC, EL, GA, SE out of place: nothing to do.
                    _ => {}
                }
            }
            State::Verb(verb) => {
                self.state = State::Data;
                self.negotiate(verb, b, d);
            }
            State::SbOption => {
                self.sb_option = b;
                self.sb.clear();
                self.sb_overflow = false;
                self.state = State::Sb;
            }
            State::Sb => {
                if b == IAC {
                    self.state = State::SbIac;
                } else {
                    self.sb_push(b);
                }
            }
            State::SbIac => match b {
                IAC => {
                    self.sb_push(IAC);
                    self.state = State::Sb;
                }
                SE => {
                    self.state = State::Data;
                    self.subnegotiation(d);
                }
                // A broken sequence: abandon the subnegotiation and treat
                // this as a command after IAC.
                _ => {
                    self.state = State::Iac;
                    self.byte(b, d);
                }
            },
        }
    }

    fn sb_push(&mut self, b: u8) {
        if self.sb.len() < MAX_SUBNEGOTIATION {
            self.sb.push(b);
        } else {
            self.sb_overflow = true;
        }
    }

    fn subnegotiation(&mut self, d: &mut Decoded) {
        if self.sb_option == OPT_NEW_ENVIRON && self.sb.first() == Some(&ENV_IS) {
            // Answered, even if too long to read: nothing more will come.
            self.environ_answered = true;
        }
        if self.sb_overflow {
            return;
        }
        match (self.sb_option, self.sb.as_slice()) {
            (OPT_NAWS, [w1, w0, h1, h0]) => {
                d.events.push(Event::Size(
                    u16::from_be_bytes([*w1, *w0]),
                    u16::from_be_bytes([*h1, *h0]),
                ));
            }
            (OPT_TTYPE, [TTYPE_IS, name @ ..]) => {
                let name: String = name
                    .iter()
                    .filter(|b| b.is_ascii_graphic())
                    .take(MAX_TTYPE)
                    .map(|&b| char::from(b))
                    .collect();
                d.events.push(Event::TermType(name));
            }
            (OPT_NEW_ENVIRON, [ENV_IS | ENV_INFO, list @ ..]) => {
                let vars = environ_list(list);
                if !vars.is_empty() {
                    d.events.push(Event::Environ(vars));
                }
            }
            _ => {}
        }
    }

    fn send(d: &mut Decoded, verb: u8, opt: u8) {
        d.reply.extend_from_slice(&[IAC, verb, opt]);
    }

    /// RFC 1143 ("the Q method"), without the queue bits and the "want no"
    /// state: we never change our mind mid-negotiation.
    fn negotiate(&mut self, verb: u8, opt: u8, d: &mut Decoded) {
        let i = usize::from(opt);
        match verb {
            WILL => match self.him[i] {
                Q::No if he_may(opt) => {
                    self.him[i] = Q::Yes;
                    Self::send(d, DO, opt);
                    self.on_him_yes(opt, d);
                }
                Q::No => Self::send(d, DONT, opt),
                Q::WantYes => {
                    self.him[i] = Q::Yes;
                    self.on_him_yes(opt, d);
                }
                Q::Yes => {}
            },
            WONT => match self.him[i] {
                Q::Yes => {
                    self.him[i] = Q::No;
                    Self::send(d, DONT, opt);
                }
                Q::WantYes => self.him[i] = Q::No,
                Q::No => {}
            },
            DO => match self.us[i] {
                Q::No if we_support(opt) => {
                    self.us[i] = Q::Yes;
                    Self::send(d, WILL, opt);
                }
                Q::No => Self::send(d, WONT, opt),
                Q::WantYes => self.us[i] = Q::Yes,
                Q::Yes => {}
            },
            DONT => match self.us[i] {
                Q::Yes => {
                    self.us[i] = Q::No;
                    Self::send(d, WONT, opt);
                }
                Q::WantYes => self.us[i] = Q::No,
                Q::No => {}
            },
            _ => {}
        }
    }

    fn on_him_yes(&mut self, opt: u8, d: &mut Decoded) {
        if opt == OPT_TTYPE && !self.ttype_asked {
            self.ttype_asked = true;
            d.reply
                .extend_from_slice(&[IAC, SB, OPT_TTYPE, TTYPE_SEND, IAC, SE]);
        }
        if opt == OPT_NEW_ENVIRON && !self.environ_asked {
            self.environ_asked = true;
            d.reply
                .extend_from_slice(&[IAC, SB, OPT_NEW_ENVIRON, ENV_SEND]);
            for name in ENV_ASKED {
                d.reply.push(ENV_USERVAR);
                d.reply.extend_from_slice(name.as_bytes());
            }
            d.reply.extend_from_slice(&[IAC, SE]);
        }
    }
}

/// Doubles every IAC byte in data going to the client.
pub fn escape(data: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !data.contains(&IAC) {
        return std::borrow::Cow::Borrowed(data);
    }
    let mut out = Vec::with_capacity(data.len() + 8);
    for &b in data {
        out.push(b);
        if b == IAC {
            out.push(IAC);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client_answers(c: &mut Codec) -> Decoded {
        // What inetutils telnet sent to our greeting, with a NAWS report.
        let mut bytes = vec![IAC, DO, OPT_ECHO, IAC, DO, OPT_SGA, IAC, WILL, OPT_NAWS];
        bytes.extend_from_slice(&[IAC, SB, OPT_NAWS, 0, 100, 0, 30, IAC, SE]);
        bytes.extend_from_slice(&[IAC, WILL, OPT_TTYPE, IAC, WILL, OPT_NEW_ENVIRON]);
        c.decode(&bytes)
    }

    /// What we ask a client that agreed to NEW-ENVIRON.
    fn environ_send() -> Vec<u8> {
        let mut v = vec![IAC, SB, OPT_NEW_ENVIRON, ENV_SEND];
        v.extend_from_slice(b"\x03LC_ALL\x03LC_MESSAGES\x03LANG");
        v.extend_from_slice(&[IAC, SE]);
        v
    }

    #[test]
    fn greeting_and_a_real_clients_answers() {
        let mut c = Codec::new();
        assert_eq!(
            c.greeting(),
            vec![
                IAC,
                WILL,
                OPT_ECHO,
                IAC,
                WILL,
                OPT_SGA,
                IAC,
                DO,
                OPT_NAWS,
                IAC,
                DO,
                OPT_TTYPE,
                IAC,
                DO,
                OPT_NEW_ENVIRON
            ]
        );
        let d = client_answers(&mut c);
        assert_eq!(d.events, vec![Event::Size(100, 30)]);
        // Confirmations are not answered; TTYPE SEND and the environment
        // are asked for once.
        let mut asked = vec![IAC, SB, OPT_TTYPE, TTYPE_SEND, IAC, SE];
        asked.extend(environ_send());
        assert_eq!(d.reply, asked);
        assert!(c.naws_on() && c.negotiation_settled() && c.environ_pending());
        let d = c.decode(&[
            IAC, SB, OPT_TTYPE, TTYPE_IS, b'X', b'T', b'E', b'R', b'M', IAC, SE,
        ]);
        assert_eq!(d.events, vec![Event::TermType("XTERM".into())]);
        // The same WILL again changes nothing and gets no answer.
        assert!(
            c.decode(&[IAC, WILL, OPT_TTYPE, IAC, DO, OPT_ECHO])
                .reply
                .is_empty()
        );
    }

    /// inetutils telnet with `environ export LANG` answers like this: the
    /// locale it has, the ones it lacks without a value, and things not
    /// asked for, which are not kept.
    #[test]
    fn the_clients_locale_comes_with_new_environ() {
        let mut c = Codec::new();
        c.greeting();
        client_answers(&mut c);
        let mut is = vec![IAC, SB, OPT_NEW_ENVIRON, ENV_IS];
        is.extend_from_slice(b"\x03LC_ALL\x03LC_MESSAGES\x03LANG\x01de_DE.UTF-8\x00USER\x01uwe");
        is.extend_from_slice(b"\x03LANG\x01\x1b[31m\x03LC_ALL\x01");
        is.extend_from_slice(&[IAC, SE]);
        let (a, b) = is.split_at(9);
        assert!(c.decode(a).events.is_empty() && c.environ_pending());
        let d = c.decode(b);
        assert_eq!(
            d.events,
            vec![Event::Environ(vec![("LANG".into(), "de_DE.UTF-8".into())])]
        );
        assert!(!c.environ_pending() && d.reply.is_empty());
        // An escaped byte is part of the value; a later INFO is read too.
        let mut info = vec![IAC, SB, OPT_NEW_ENVIRON, ENV_INFO];
        info.extend_from_slice(b"\x03LC_ALL\x01zh_TW.\x02UTF-8");
        info.extend_from_slice(&[IAC, SE]);
        assert_eq!(
            c.decode(&info).events,
            vec![Event::Environ(vec![(
                "LC_ALL".into(),
                "zh_TW.UTF-8".into()
            )])]
        );
    }

    /// A client that refuses NEW-ENVIRON, or answers with a list too long
    /// to keep, is not waited for.
    #[test]
    fn no_environment_is_not_waited_for() {
        let mut c = Codec::new();
        c.greeting();
        let d = c.decode(&[
            IAC,
            WONT,
            OPT_NEW_ENVIRON,
            IAC,
            WONT,
            OPT_NAWS,
            IAC,
            WONT,
            OPT_TTYPE,
        ]);
        assert!(d.reply.is_empty() && c.negotiation_settled() && !c.environ_pending());
        let mut c = Codec::new();
        c.greeting();
        assert_eq!(
            c.decode(&[IAC, WILL, OPT_NEW_ENVIRON]).reply,
            environ_send()
        );
        let mut is = vec![IAC, SB, OPT_NEW_ENVIRON, ENV_IS, ENV_USERVAR];
        is.extend(std::iter::repeat_n(b'A', 2 * MAX_SUBNEGOTIATION));
        is.extend_from_slice(&[IAC, SE]);
        assert!(c.decode(&is).events.is_empty());
        assert!(!c.environ_pending());
    }

    #[test]
    fn unknown_options_are_refused_once() {
        let mut c = Codec::new();
        c.greeting();
        assert_eq!(c.decode(&[IAC, DO, 34]).reply, vec![IAC, WONT, 34]);
        assert_eq!(c.decode(&[IAC, WILL, 36]).reply, vec![IAC, DONT, 36]);
        // Refusals of things we never asked for are not answered.
        assert!(c.decode(&[IAC, WONT, 36, IAC, DONT, 34]).reply.is_empty());
    }

    #[test]
    fn a_client_turning_an_option_off_is_acknowledged_once() {
        let mut c = Codec::new();
        c.greeting();
        client_answers(&mut c);
        assert_eq!(
            c.decode(&[IAC, WONT, OPT_NAWS]).reply,
            vec![IAC, DONT, OPT_NAWS]
        );
        assert!(c.decode(&[IAC, WONT, OPT_NAWS]).reply.is_empty());
        assert_eq!(
            c.decode(&[IAC, DONT, OPT_ECHO]).reply,
            vec![IAC, WONT, OPT_ECHO]
        );
        assert!(c.decode(&[IAC, DONT, OPT_ECHO]).reply.is_empty());
    }

    #[test]
    fn data_and_literal_255() {
        let mut c = Codec::new();
        let d = c.decode(&[b'a', IAC, IAC, b'b', b'\r', 0, IAC, 241, b'c']);
        assert_eq!(d.data, vec![b'a', 255, b'b', b'\r', 0, b'c']);
        assert!(c.seen_iac);
        assert!(!Codec::new().decode(b"plain netcat line\n").data.is_empty());
    }

    #[test]
    fn naws_with_255_doubled_and_split_anywhere() {
        let stream = [IAC, SB, OPT_NAWS, 0, IAC, IAC, 0, 40, IAC, SE, b'x'];
        for cut in 0..=stream.len() {
            let mut c = Codec::new();
            let mut d = c.decode(&stream[..cut]);
            let d2 = c.decode(&stream[cut..]);
            d.events.extend(d2.events);
            d.data.extend(d2.data);
            assert_eq!(d.events, vec![Event::Size(255, 40)], "cut {cut}");
            assert_eq!(d.data, vec![b'x']);
        }
    }

    #[test]
    fn oversized_subnegotiation_is_dropped() {
        let mut c = Codec::new();
        let mut bytes = vec![IAC, SB, OPT_TTYPE, TTYPE_IS];
        bytes.extend(std::iter::repeat_n(b'A', 10_000));
        bytes.extend_from_slice(&[IAC, SE, b'k']);
        let d = c.decode(&bytes);
        assert!(d.events.is_empty());
        assert_eq!(d.data, vec![b'k']);
        assert!(c.sb.len() <= MAX_SUBNEGOTIATION);
    }

    #[test]
    fn escaping_doubles_iac() {
        assert_eq!(&*escape(b"abc"), b"abc");
        assert_eq!(&*escape(&[1, IAC, 2]), &[1, IAC, IAC, 2]);
        // Decoding what we escaped gives it back.
        let raw = [0u8, IAC, IAC, 7, IAC];
        assert_eq!(Codec::new().decode(&escape(&raw)).data, raw);
    }
}
