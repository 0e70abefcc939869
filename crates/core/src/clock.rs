//! Chess-style game clocks: a base time and an increment per move
//! (`"3+2"`: three minutes, two seconds added after every move). Pure: the
//! caller passes the time in, so the room task (the authority) and the
//! tests drive the same code. The room takes it from `inarow::lobby::now`.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::game::Side;

/// Longest base time a control may give (a day), and longest increment (an hour).
const MAX_BASE_MINUTES: u64 = 24 * 60;
const MAX_INCREMENT_SECS: u64 = 3600;

/// Why a text is not a time control (the text, quoted and sanitised).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("'{0}' is not a time control: write MINUTES+SECONDS (e.g. \"3+2\") or \"none\"")]
    Unreadable(String),
    #[error(
        "'{0}' is not a time control: write MINUTES+SECONDS (e.g. \"3+2\") or \"none\": \
         at most {MAX_BASE_MINUTES} minutes and {MAX_INCREMENT_SECS} seconds"
    )]
    TooLong(String),
    #[error(
        "'{0}' is not a time control: write MINUTES+SECONDS (e.g. \"3+2\") or \"none\": \
         a clock needs some time"
    )]
    NoTime(String),
    /// `"none"` where a clock is wanted.
    #[error("\"none\" is no clock")]
    NoClock,
}

/// A time control: base time per player and the increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub fn new(minutes: u64, increment_secs: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(minutes * 60),
            increment: Duration::from_secs(increment_secs),
        }
    }

    /// Parses `"MINUTES+SECONDS"` (`"3+2"`, `"10+0"`; the minutes may have
    /// a fraction, `"0.5+0"` is thirty seconds) or `"none"` (no clock).
    pub fn parse(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        let quoted = || crate::text::sanitize_quote(t, 20);
        let bad = || TimeControlError::Unreadable(quoted());
        let (m, s) = t.split_once('+').ok_or_else(bad)?;
        let (m, s) = (m.trim(), s.trim());
        // Digits with at most one point: no signs, exponents or "inf".
        let plain = |x: &str| {
            !x.is_empty()
                && x.chars().all(|c| c.is_ascii_digit() || c == '.')
                && x.chars().filter(|&c| c == '.').count() <= 1
                && x != "."
        };
        if !plain(m) || !s.chars().all(|c| c.is_ascii_digit()) || s.is_empty() || s.len() > 6 {
            return Err(bad());
        }
        let minutes: f64 = m.parse().map_err(|_| bad())?;
        let s: u64 = s.parse().map_err(|_| bad())?;
        if minutes > MAX_BASE_MINUTES as f64 || s > MAX_INCREMENT_SECS {
            return Err(TimeControlError::TooLong(quoted()));
        }
        let base = (minutes * 60.0).round() as u64;
        if base == 0 && s == 0 {
            return Err(TimeControlError::NoTime(quoted()));
        }
        Ok(Some(TimeControl {
            base: Duration::from_secs(base),
            increment: Duration::from_secs(s),
        }))
    }
}

/// The time controls a friend room or a challenge chooses among (in
/// minutes and seconds), after "no clock".
const PRESETS: [(u64, u64); 5] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10)];

/// "No clock" and the presets, in the order a screen cycles through them.
pub fn presets() -> Vec<Option<TimeControl>> {
    std::iter::once(None)
        .chain(PRESETS.iter().map(|&(m, s)| Some(TimeControl::new(m, s))))
        .collect()
}

/// The choice after `current` in [`presets`] (back to the first after the last).
pub fn next_preset(current: Option<TimeControl>) -> Option<TimeControl> {
    let all = presets();
    let i = all.iter().position(|c| *c == current).map_or(0, |i| i + 1);
    all[i % all.len()]
}

/// A time control in words for screens: "3+2" or "no clock".
pub fn describe(control: Option<TimeControl>) -> String {
    control.map_or_else(|| "no clock".to_string(), |c| c.to_string())
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.base.as_secs();
        if secs.is_multiple_of(60) {
            write!(f, "{}", secs / 60)?;
        } else {
            // A fraction of a minute: at most two places, no trailing zeros.
            let m = format!("{:.2}", secs as f64 / 60.0);
            write!(f, "{}", m.trim_end_matches('0').trim_end_matches('.'))?;
        }
        write!(f, "+{}", self.increment.as_secs())
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<Self, TimeControlError> {
        TimeControl::parse(s)?.ok_or(TimeControlError::NoClock)
    }
}

/// Both players' clocks as a screen shows them: what was left at `at`,
/// and whose clock was running then (its time keeps going down).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    pub control: TimeControl,
    pub left: [Duration; 2],
    pub running: Option<Side>,
    pub at: Instant,
}

impl ClockView {
    /// Time left for `side` at `now`.
    pub fn left_at(&self, side: Side, now: Instant) -> Duration {
        let left = self.left[side.index()];
        if self.running == Some(side) {
            left.saturating_sub(now.saturating_duration_since(self.at))
        } else {
            left
        }
    }

    /// When the shown time of the running clock next changes (the next
    /// whole second down), if one runs.
    pub fn next_change(&self, now: Instant) -> Option<Instant> {
        let side = self.running?;
        let left = self.left_at(side, now);
        if left.is_zero() {
            return None;
        }
        Some(next_whole_second(now, left))
    }
}

/// A countdown with `left` to go at `now`, shown in whole seconds rounded
/// up (2.3 s shows as 3 until 2.0 is reached): when the shown number
/// next changes.
pub fn next_whole_second(now: Instant, left: Duration) -> Instant {
    let frac = Duration::from_nanos((left.as_nanos() % 1_000_000_000) as u64);
    now + if frac.is_zero() {
        Duration::from_secs(1)
    } else {
        frac
    }
}

/// Whole seconds in `left`, rounded up.
pub fn whole_seconds(left: Duration) -> u64 {
    left.as_secs() + u64::from(left.subsec_nanos() > 0)
}

/// `m:ss`, or `h:mm:ss` from an hour, rounded up to the second (a clock
/// showing 0:00 has run out).
pub fn format_left(left: Duration) -> String {
    let secs = whole_seconds(left);
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The two clocks of a game; the side to move has its clock running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    left: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Side, Instant)>,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.base; 2],
            running: None,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Clocks that had `left` elsewhere (a game carried on from another
    /// host); `to_move`'s runs from `now`.
    pub fn resume(&mut self, left: [Duration; 2], to_move: Option<Side>, now: Instant) {
        self.left = left;
        self.running = to_move.map(|s| (s, now));
    }

    /// Starts `side`'s clock (the game starts with `side` to move).
    pub fn start(&mut self, side: Side, now: Instant) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock, charging it the time used.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, since)) = self.running.take() {
            let used = now.saturating_duration_since(since);
            let left = &mut self.left[side.index()];
            *left = left.saturating_sub(used);
        }
    }

    /// `side` moved at `now`: its clock stops and gains the increment, the
    /// other side's starts. `Err(())` when `side`'s time had already run
    /// out (the move is too late: the side has lost on time).
    #[allow(clippy::result_unit_err)]
    pub fn moved(&mut self, side: Side, now: Instant) -> Result<(), ()> {
        if self.flagged(now) == Some(side) {
            return Err(());
        }
        self.stop(now);
        self.left[side.index()] += self.control.increment;
        self.running = Some((side.other(), now));
        Ok(())
    }

    /// The side whose time has run out at `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        let (side, since) = self.running?;
        (now.saturating_duration_since(since) >= self.left[side.index()]).then_some(side)
    }

    /// When the running clock runs out, if one runs.
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(side, since)| since + self.left[side.index()])
    }

    /// The clocks as they stand at `now`, for the screens.
    pub fn view(&self, now: Instant) -> ClockView {
        let mut left = self.left;
        if let Some((side, since)) = self.running {
            let l = &mut left[side.index()];
            *l = l.saturating_sub(now.saturating_duration_since(since));
        }
        ClockView {
            control: self.control,
            left,
            running: self.running.map(|(s, _)| s),
            at: now,
        }
    }

    /// The players changed seats (a swap2 choice): each keeps their own
    /// time, and the running clock runs on for the same player.
    pub fn swap_sides(&mut self) {
        self.left.swap(0, 1);
        if let Some((side, since)) = self.running {
            self.running = Some((side.other(), since));
        }
    }

    /// The clocks swap sides with the seats (a rematch) and start again.
    pub fn reset(&mut self) {
        self.left = [self.control.base; 2];
        self.running = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_parse_and_print() {
        assert_eq!(TimeControl::parse("3+2"), Ok(Some(TimeControl::new(3, 2))));
        assert_eq!(
            TimeControl::parse(" 10 + 0 "),
            Ok(Some(TimeControl::new(10, 0)))
        );
        assert_eq!(TimeControl::parse("none"), Ok(None));
        assert_eq!(TimeControl::new(10, 5).to_string(), "10+5");
        let half = TimeControl::parse("0.5+0").unwrap().unwrap();
        assert_eq!(half.base, Duration::from_secs(30));
        assert_eq!(half.to_string(), "0.5+0");
        let short = TimeControl::parse("0.05+1").unwrap().unwrap();
        assert_eq!(short.base, Duration::from_secs(3));
        assert_eq!(TimeControl::parse(&short.to_string()), Ok(Some(short)));
        for bad in [
            "", "3", "3+", "+2", "-1+2", "0+0", "3+2+1", "99999+0", "1+99999", "a+b", "1e3+0",
            "inf+0", "NaN+1", ".+1", "1.2.3+0", "0.001+0", "1+1.5", "1+-1",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_clock_runs_for_the_side_to_move_and_adds_the_increment() {
        let t0 = Instant::now();
        let s = |n: u64| t0 + Duration::from_millis(n);
        let mut c = Clock::new(TimeControl::new(1, 2));
        c.start(Side::First, t0);
        assert_eq!(c.deadline(), Some(s(60_000)));
        c.moved(Side::First, s(10_000)).unwrap();
        // 60 - 10 + 2 = 52 s for the first; the second's runs now.
        let v = c.view(s(15_000));
        assert_eq!(v.left, [Duration::from_secs(52), Duration::from_secs(55)]);
        assert_eq!(v.running, Some(Side::Second));
        assert_eq!(v.left_at(Side::Second, s(16_000)), Duration::from_secs(54));
        assert_eq!(v.left_at(Side::First, s(16_000)), Duration::from_secs(52));
        assert_eq!(c.flagged(s(59_999)), None);
        assert_eq!(c.flagged(s(70_000)), Some(Side::Second));
        assert!(c.moved(Side::Second, s(70_000)).is_err(), "too late");
        assert_eq!(format_left(Duration::from_millis(52_300)), "0:53");
        assert_eq!(format_left(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(format_left(Duration::ZERO), "0:00");
    }

    #[test]
    fn the_next_change_is_the_next_whole_second() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::new(1, 0));
        c.start(Side::First, t0);
        let v = c.view(t0 + Duration::from_millis(300));
        assert_eq!(
            v.next_change(t0 + Duration::from_millis(300)),
            Some(t0 + Duration::from_millis(1000))
        );
    }
}
