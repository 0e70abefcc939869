//! Renderings shared between the watchers of one table state
//! ([`SharedFrames`]): each size and theme is drawn once, and every screen
//! showing an earlier shared picture takes the same bytes to the next.

use super::play;
use crate::term::board::Theme;

/// Shared renderings of one table state: for each terminal size and theme,
/// the picture its plain watchers show, and the bytes that take a screen
/// showing an earlier shared picture to it. Bounded: a few sizes, a few
/// earlier pictures each (screens beyond them render for themselves).
/// Between two states, the clocks' ticks are shared the same way: the
/// first watcher to show a second patches its picture, the others showing
/// the same picture take the result and its bytes.
#[derive(Debug, Default)]
pub struct SharedFrames {
    entries: std::sync::Mutex<Vec<SharedFrame>>,
    ticks: std::sync::Mutex<std::collections::VecDeque<SharedTick>>,
}

/// Ticks kept per state (every second makes one per size and theme).
const SHARED_TICKS: usize = 8;

/// A tick of the clocks on a shared picture.
#[derive(Debug)]
struct SharedTick {
    /// The shared picture it starts from, and the clock rows it shows.
    before: u64,
    lines: Vec<(usize, crate::term::screen::Line)>,
    shown: std::sync::Arc<crate::term::screen::Shown>,
    bytes: std::sync::Arc<[u8]>,
}

/// Sizes and themes kept per state.
const SHARED_KEYS: usize = 8;
/// Earlier pictures kept per size and theme.
const SHARED_DIFFS: usize = 4;

type FrameKey = (Theme, u16, u16);

#[derive(Debug)]
struct SharedFrame {
    key: FrameKey,
    shown: std::sync::Arc<crate::term::screen::Shown>,
    layout: play::Layout,
    /// (id of the picture shown before, the bytes from it to `shown`).
    diffs: Vec<(u64, std::sync::Arc<[u8]>)>,
}

/// A copy of a state shares nothing drawn yet.
impl Clone for SharedFrames {
    fn clone(&self) -> SharedFrames {
        SharedFrames::default()
    }
}

impl SharedFrames {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<SharedFrame>> {
        // A panic while holding it cannot leave the list inconsistent.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The picture for `key`, and the bytes from the picture `before`.
    #[allow(clippy::type_complexity)]
    pub(super) fn find(
        &self,
        key: FrameKey,
        before: Option<u64>,
    ) -> Option<(
        std::sync::Arc<crate::term::screen::Shown>,
        play::Layout,
        Option<std::sync::Arc<[u8]>>,
    )> {
        let entries = self.lock();
        let e = entries.iter().find(|e| e.key == key)?;
        let diff = before.and_then(|id| {
            e.diffs
                .iter()
                .find(|d| d.0 == id)
                .map(|d| std::sync::Arc::clone(&d.1))
        });
        Some((std::sync::Arc::clone(&e.shown), e.layout, diff))
    }

    pub(super) fn add(
        &self,
        key: FrameKey,
        shown: std::sync::Arc<crate::term::screen::Shown>,
        layout: play::Layout,
        before: Option<u64>,
        bytes: &[u8],
    ) {
        let mut entries = self.lock();
        if entries.len() >= SHARED_KEYS || entries.iter().any(|e| e.key == key) {
            return;
        }
        entries.push(SharedFrame {
            key,
            shown,
            layout,
            diffs: before
                .map(|id| (id, std::sync::Arc::from(bytes)))
                .into_iter()
                .collect(),
        });
    }

    fn ticks(&self) -> std::sync::MutexGuard<'_, std::collections::VecDeque<SharedTick>> {
        self.ticks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The picture that shows `lines` on the shared picture `before`, and
    /// the bytes to it.
    #[allow(clippy::type_complexity)]
    pub(super) fn find_tick(
        &self,
        before: u64,
        lines: &[(usize, crate::term::screen::Line)],
    ) -> Option<(
        std::sync::Arc<crate::term::screen::Shown>,
        std::sync::Arc<[u8]>,
    )> {
        let ticks = self.ticks();
        let t = ticks
            .iter()
            .find(|t| t.before == before && t.lines == lines)?;
        Some((
            std::sync::Arc::clone(&t.shown),
            std::sync::Arc::clone(&t.bytes),
        ))
    }

    pub(super) fn add_tick(
        &self,
        before: u64,
        lines: Vec<(usize, crate::term::screen::Line)>,
        shown: std::sync::Arc<crate::term::screen::Shown>,
        bytes: &[u8],
    ) {
        let mut ticks = self.ticks();
        if ticks.iter().any(|t| t.before == before && t.lines == lines) {
            return;
        }
        if ticks.len() >= SHARED_TICKS {
            ticks.pop_front();
        }
        ticks.push_back(SharedTick {
            before,
            lines,
            shown,
            bytes: std::sync::Arc::from(bytes),
        });
    }

    pub(super) fn add_diff(&self, key: FrameKey, before: u64, bytes: &[u8]) {
        let mut entries = self.lock();
        if let Some(e) = entries.iter_mut().find(|e| e.key == key)
            && e.diffs.len() < SHARED_DIFFS
            && !e.diffs.iter().any(|d| d.0 == before)
        {
            e.diffs.push((before, std::sync::Arc::from(bytes)));
        }
    }
}
