//! The one rate limiter: a token bucket, and the same keyed by who is
//! limited with a bounded number of keys.
//!
//! A [`Bucket`] holds up to `burst` tokens and gains `rate` tokens a
//! second; what passes takes tokens, what finds too few is held back. A
//! burst (a paste, a quick exchange of chat lines) fits at once; a flood
//! is cut to the rate. Pure: every call is told the time by its caller
//! (`Instant`), so tests step the clock instead of sleeping and a paused
//! tokio clock (`tokio::time::Instant::into_std`) drives it as well.
//!
//! [`Keyed`] keeps one bucket per key (an address, a name, a kind of
//! event) and never more than a fixed number of keys: a bucket that has
//! filled up again is the same as a new one and is forgotten first, and
//! when every kept key is still busy the least recently used are.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// How fast tokens come back: `tokens` every `per`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Tokens a second.
    per_second: f64,
}

impl Rate {
    /// `tokens` every `per` (a zero `per` counts as a nanosecond).
    pub fn new(tokens: u32, per: Duration) -> Rate {
        let secs = per.as_secs_f64().max(1e-9);
        Rate {
            per_second: f64::from(tokens) / secs,
        }
    }

    pub fn per_second(tokens: u32) -> Rate {
        Rate::new(tokens, Duration::from_secs(1))
    }

    pub fn per_minute(tokens: u32) -> Rate {
        Rate::new(tokens, Duration::from_secs(60))
    }
}

/// Rounding slack: refills summed in steps (1/6 a second, six times) may
/// fall short of a whole token by a few ulps; that counts as whole.
const SLACK: f64 = 1e-9;

/// A token bucket. Starts full.
#[derive(Debug, Clone)]
pub struct Bucket {
    per_second: f64,
    burst: f64,
    tokens: f64,
    /// When `tokens` was last brought up to date.
    last: Option<Instant>,
}

impl Bucket {
    /// Up to `burst` at once, then `rate`.
    pub fn new(rate: Rate, burst: u32) -> Bucket {
        let burst = f64::from(burst);
        Bucket {
            per_second: rate.per_second,
            burst,
            tokens: burst,
            last: None,
        }
    }

    /// Brings the tokens up to `now` (a time before the last one seen
    /// adds nothing).
    fn refill(&mut self, now: Instant) {
        if let Some(last) = self.last {
            let elapsed = now.saturating_duration_since(last).as_secs_f64();
            self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        }
        if self.last.is_none_or(|last| now > last) {
            self.last = Some(now);
        }
    }

    /// How many of `n` units (bytes, say) may pass at `now`; they are taken.
    pub fn take_up_to(&mut self, n: usize, now: Instant) -> usize {
        self.refill(now);
        let allowed = (n as f64).min((self.tokens + SLACK).floor()).max(0.0);
        self.tokens = (self.tokens - allowed).max(0.0);
        allowed as usize
    }

    /// Whether one more may pass at `now` (a token is taken if so).
    pub fn allow(&mut self, now: Instant) -> bool {
        self.try_take(now).is_ok()
    }

    /// One token at `now`, or how long until one would be there.
    pub fn try_take(&mut self, now: Instant) -> Result<(), Duration> {
        self.ready(now)?;
        self.tokens = (self.tokens - 1.0).max(0.0);
        Ok(())
    }

    /// Whether one token is there at `now`, without taking it (or how
    /// long until one is): for a caller with more checks before it lets
    /// something pass and takes the token ([`Bucket::allow`]).
    pub fn ready(&mut self, now: Instant) -> Result<(), Duration> {
        self.refill(now);
        if self.tokens + SLACK >= 1.0 {
            Ok(())
        } else {
            Err(self.missing_time(1.0 - self.tokens))
        }
    }

    /// How long `tokens` take to come back (a bucket that never refills
    /// says a day).
    fn missing_time(&self, tokens: f64) -> Duration {
        if self.per_second <= 0.0 {
            return Duration::from_secs(86_400);
        }
        Duration::from_secs_f64((tokens / self.per_second).min(86_400.0))
    }

    /// Whether the bucket is full again at `now`: as good as a new one.
    fn is_full_at(&self, now: Instant) -> bool {
        let mut b = self.clone();
        b.refill(now);
        b.tokens + SLACK >= b.burst
    }
}

/// One [`Bucket`] per key, at most `max_keys` of them.
#[derive(Debug, Clone)]
pub struct Keyed<K> {
    rate: Rate,
    burst: u32,
    max_keys: usize,
    buckets: HashMap<K, Bucket>,
}

impl<K: Hash + Eq + Clone> Keyed<K> {
    /// Each key: up to `burst` at once, then `rate`; at most `max_keys`
    /// keys remembered (at least one).
    pub fn new(rate: Rate, burst: u32, max_keys: usize) -> Keyed<K> {
        Keyed {
            rate,
            burst,
            max_keys: max_keys.max(1),
            buckets: HashMap::new(),
        }
    }

    /// Whether one more for `key` may pass at `now`.
    pub fn allow(&mut self, key: &K, now: Instant) -> bool {
        self.try_take(key, now).is_ok()
    }

    /// One token of `key`'s bucket at `now`, or how long until one is there.
    pub fn try_take(&mut self, key: &K, now: Instant) -> Result<(), Duration> {
        self.bucket(key, now).try_take(now)
    }

    /// How many of `n` units of `key` may pass at `now`.
    pub fn take_up_to(&mut self, key: &K, n: usize, now: Instant) -> usize {
        self.bucket(key, now).take_up_to(n, now)
    }

    /// Keys remembered now.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    fn bucket(&mut self, key: &K, now: Instant) -> &mut Bucket {
        if !self.buckets.contains_key(key) && self.buckets.len() >= self.max_keys {
            self.make_room(now);
        }
        self.buckets
            .entry(key.clone())
            .or_insert_with(|| Bucket::new(self.rate, self.burst))
    }

    /// Forgets the buckets that are full again; if that frees nothing,
    /// the least recently used quarter (so a stream of new keys costs a
    /// sort only once in every `max_keys / 4`).
    fn make_room(&mut self, now: Instant) {
        self.buckets.retain(|_, b| !b.is_full_at(now));
        if self.buckets.len() < self.max_keys {
            return;
        }
        let mut by_use: Vec<(Option<Instant>, K)> = self
            .buckets
            .iter()
            .map(|(k, b)| (b.last, k.clone()))
            .collect();
        by_use.sort_by_key(|(last, _)| *last);
        let forget = (self.max_keys / 4).max(1);
        for (_, k) in by_use.into_iter().take(forget) {
            self.buckets.remove(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn a_burst_passes_then_the_rate() {
        let t = Instant::now();
        let mut b = Bucket::new(Rate::per_second(100), 1000);
        assert_eq!(b.take_up_to(600, t), 600);
        assert_eq!(b.take_up_to(600, t), 400);
        assert_eq!(b.take_up_to(10, t), 0);
        // 100 a second: 50 after half a second, never more than the burst.
        assert_eq!(b.take_up_to(80, at(t, 500)), 50);
        assert_eq!(b.take_up_to(5000, at(t, 60_000)), 1000);
    }

    #[test]
    fn a_refusal_says_how_long_to_wait() {
        let t = Instant::now();
        let mut b = Bucket::new(Rate::per_minute(2), 2);
        assert_eq!(b.try_take(t), Ok(()));
        assert_eq!(b.try_take(at(t, 1)), Ok(()));
        let wait = b.try_take(at(t, 2)).unwrap_err();
        assert!(
            wait <= Duration::from_secs(30) && wait > Duration::from_secs(29),
            "{wait:?}"
        );
        assert!(b.try_take(at(t, 29_000)).is_err());
        // Asking does not take.
        assert_eq!(b.ready(at(t, 30_002)), Ok(()));
        assert_eq!(b.ready(at(t, 30_002)), Ok(()));
        assert_eq!(b.try_take(at(t, 30_002)), Ok(()));
        assert!(!b.allow(at(t, 30_003)));
    }

    #[test]
    fn so_many_a_second_with_no_more_burst_than_that() {
        let t = Instant::now();
        let mut b = Bucket::new(Rate::per_second(20), 20);
        let passed = (0..100).filter(|_| b.allow(t)).count();
        assert_eq!(passed, 20);
        // Over ten seconds of steady commands: the burst and 20 a second.
        let passed = (1..=1000).filter(|i| b.allow(at(t, i * 10))).count();
        assert_eq!(passed, 200);
    }

    #[test]
    fn refills_in_steps_add_up_to_whole_tokens() {
        let t = Instant::now();
        let mut b = Bucket::new(Rate::new(1, Duration::from_secs(6)), 1);
        assert!(b.allow(t));
        for s in 1..6 {
            assert!(!b.allow(at(t, s * 1000)), "{s}");
        }
        assert!(b.allow(at(t, 6_000)));
        let mut b = Bucket::new(Rate::new(1, Duration::from_secs(6)), 1);
        assert_eq!(b.take_up_to(1, t), 1);
        for s in 1..6 {
            assert_eq!(b.take_up_to(1, at(t, s * 1000)), 0, "{s}");
        }
        assert_eq!(b.take_up_to(1, at(t, 6_000)), 1);
    }

    #[test]
    fn time_going_backwards_adds_nothing() {
        let t = Instant::now();
        let mut b = Bucket::new(Rate::per_second(1), 1);
        assert!(b.allow(at(t, 5_000)));
        assert!(!b.allow(t));
        assert!(!b.allow(at(t, 5_500)));
        assert!(b.allow(at(t, 6_000)));
    }

    #[test]
    fn a_bucket_that_never_refills_waits_a_day() {
        let t = Instant::now();
        let mut b = Bucket::new(Rate::new(0, Duration::from_secs(1)), 1);
        assert!(b.allow(t));
        assert_eq!(b.try_take(t), Err(Duration::from_secs(86_400)));
    }

    #[test]
    fn keys_are_limited_apart() {
        let t = Instant::now();
        let mut k = Keyed::new(Rate::per_second(1), 2, 100);
        assert!(k.allow(&"a", t));
        assert!(k.allow(&"a", t));
        assert!(!k.allow(&"a", t));
        assert!(k.allow(&"b", t));
        assert_eq!(k.take_up_to(&"c", 5, t), 2);
        assert_eq!(k.len(), 3);
    }

    #[test]
    fn keyed_memory_stays_bounded_and_busy_keys_are_kept_first() {
        let t = Instant::now();
        let mut k = Keyed::new(Rate::per_second(1), 3, 8);
        // A busy key, used last: kept while strangers come and go.
        for n in 0..10_000u32 {
            let now = at(t, u64::from(n));
            k.allow(&n, now);
            k.allow(&u32::MAX, now);
            assert!(k.len() <= 8, "{}", k.len());
        }
        assert!(k.buckets.contains_key(&u32::MAX));
    }

    #[test]
    fn keys_whose_buckets_filled_up_again_are_forgotten_first() {
        let t = Instant::now();
        let mut k = Keyed::new(Rate::per_second(1), 3, 3);
        // "a" used first and drained; "b" and "c" used once, later.
        for _ in 0..3 {
            assert!(k.allow(&"a", t));
        }
        assert!(k.allow(&"b", at(t, 100)));
        assert!(k.allow(&"c", at(t, 100)));
        // After 1.5 s "b" and "c" are full again, "a" is not: they go,
        // though "a" was used least recently.
        assert!(k.allow(&"d", at(t, 1_500)));
        assert_eq!(k.len(), 2);
        assert!(k.buckets.contains_key("a") && k.buckets.contains_key("d"));
        assert!(k.allow(&"a", at(t, 1_500)));
        assert!(!k.allow(&"a", at(t, 1_500)));
    }

    #[test]
    fn a_forgotten_key_starts_full_not_fresh_from_a_flood() {
        let t = Instant::now();
        let mut k = Keyed::new(Rate::per_second(1), 2, 1);
        assert!(k.allow(&"a", t));
        assert!(k.allow(&"a", t));
        assert!(!k.allow(&"a", t));
        // "a" is busy: "b" pushes it out (one key only)...
        assert!(k.allow(&"b", t));
        // ...and "a" then starts again from a full bucket, as a new key
        // would; the bound is on memory, not a promise to remember.
        assert!(k.allow(&"a", t));
        assert_eq!(k.len(), 1);
    }
}
