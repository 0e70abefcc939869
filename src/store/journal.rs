//! The local journal: finished games the store could not take yet, one JSON
//! line each, appended and fsynced before anyone is told the game is safe.
//! Read back in order; a last line without its newline (the host died
//! mid-append) is skipped, as are lines that do not parse or validate.
//! Once a replay has stored every line read, those lines are dropped
//! (truncate, or rewrite what was appended since through a renamed file).
//!
//! Blocking file IO behind a mutex: callers on the async runtime use
//! `spawn_blocking` for anything but the rare direct append.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::GameRecord;

/// Longest journal line read back (a record is a few KiB at most).
const MAX_LINE: usize = 256 * 1024;
/// Most bytes read back at once; a larger journal is replayed in parts.
const MAX_READ: u64 = 64 * 1024 * 1024;

/// The journal file.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    lock: Mutex<()>,
}

/// What [`Journal::read`] found.
#[derive(Debug, Default)]
pub struct JournalRead {
    /// Valid records, in the order they were appended.
    pub records: Vec<GameRecord>,
    /// Lines skipped: torn, unparsable or invalid.
    pub skipped: usize,
    /// Bytes covered by this read (pass to [`Journal::consume`]).
    pub len: u64,
}

impl Journal {
    /// The journal at `path` (created on first append, with its folder).
    pub fn new(path: impl Into<PathBuf>) -> Journal {
        Journal {
            path: path.into(),
            lock: Mutex::new(()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn guard(&self) -> std::sync::MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Appends records as one write, then fsyncs: when this returns `Ok`,
    /// they survive a crash.
    pub fn append(&self, records: &[GameRecord]) -> io::Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        let mut buf = Vec::new();
        for r in records {
            serde_json::to_writer(&mut buf, r)?;
            buf.push(b'\n');
        }
        let _g = self.guard();
        let fresh = !self.path.exists();
        if fresh && let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        // A torn last line (crash mid-append) must not swallow this record:
        // start on a line of our own.
        let len = f.metadata()?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            let mut r = File::open(&self.path)?;
            r.seek(SeekFrom::Start(len - 1))?;
            r.read_exact(&mut last)?;
            if last[0] != b'\n' {
                buf.insert(0, b'\n');
            }
        }
        f.write_all(&buf)?;
        f.sync_data()?;
        if fresh {
            sync_dir(&self.path);
        }
        Ok(())
    }

    /// Whether there is nothing to replay.
    pub fn is_empty(&self) -> bool {
        let _g = self.guard();
        std::fs::metadata(&self.path)
            .map(|m| m.len() == 0)
            .unwrap_or(true)
    }

    /// How many games the journal holds (its non-empty lines), read from
    /// the file: cheap while the store is reachable (the file is empty),
    /// one pass over it otherwise.
    pub fn count(&self) -> io::Result<usize> {
        let _g = self.guard();
        let mut f = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(e),
        };
        let mut buf = vec![0u8; 64 * 1024];
        let (mut lines, mut last) = (0usize, b'\n');
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break;
            }
            for &b in &buf[..n] {
                if b == b'\n' && last != b'\n' {
                    lines += 1;
                }
                last = b;
            }
        }
        if last != b'\n' {
            lines += 1; // a last line without its newline (torn or in progress)
        }
        Ok(lines)
    }

    /// Reads the records (up to 64 MiB of them) in order.
    pub fn read(&self) -> io::Result<JournalRead> {
        let _g = self.guard();
        let f = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(JournalRead::default()),
            Err(e) => return Err(e),
        };
        let mut bytes = Vec::new();
        f.take(MAX_READ).read_to_end(&mut bytes)?;
        let mut out = JournalRead::default();
        let mut start = 0;
        while let Some(n) = bytes[start..].iter().position(|&b| b == b'\n') {
            let line = &bytes[start..start + n];
            start += n + 1;
            if line.is_empty() {
                continue;
            }
            let record = (line.len() <= MAX_LINE)
                .then(|| serde_json::from_slice::<GameRecord>(line).ok())
                .flatten()
                .filter(|r| r.validate().is_ok());
            match record {
                Some(r) => out.records.push(r),
                None => out.skipped += 1,
            }
        }
        // Bytes after the last newline: a torn line when the file ends there
        // (skipped and dropped with the rest), or more than one read holds.
        let whole = bytes.len() as u64 == f_len(&self.path);
        if start < bytes.len() && whole {
            out.skipped += 1;
            start = bytes.len();
        }
        out.len = start as u64;
        Ok(out)
    }

    /// Drops the first `len` bytes (what a read covered, now stored). What
    /// was appended since is kept: the file is truncated when nothing was,
    /// else rewritten to a new file renamed over it.
    pub fn consume(&self, len: u64) -> io::Result<()> {
        let _g = self.guard();
        let total = f_len(&self.path);
        if len == 0 || total == 0 {
            return Ok(());
        }
        if total <= len {
            let f = OpenOptions::new().write(true).open(&self.path)?;
            f.set_len(0)?;
            f.sync_all()?;
            return Ok(());
        }
        let mut rest = Vec::new();
        let mut f = File::open(&self.path)?;
        f.seek(SeekFrom::Start(len))?;
        f.read_to_end(&mut rest)?;
        let tmp = self.path.with_extension("jsonl.tmp");
        {
            let mut t = File::create(&tmp)?;
            t.write_all(&rest)?;
            t.sync_all()?;
        }
        std::fs::rename(&tmp, &self.path)?;
        sync_dir(&self.path);
        Ok(())
    }
}

fn f_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// Persists a directory entry change (new file, rename); best effort.
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        // Some filesystems refuse to sync a folder; the file's own data
        // was synced before this, which is what the journal promises.
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::record::tests::sample;

    #[test]
    fn torn_and_junk_lines_are_skipped_and_later_appends_kept() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::new(dir.path().join("sub/journal.jsonl"));
        assert!(j.is_empty());
        assert_eq!(j.count().unwrap(), 0);
        assert_eq!(j.read().unwrap().records.len(), 0);
        let (a, b, c) = (sample(), sample(), sample());
        j.append(&[a.clone(), b.clone()]).unwrap();
        // A junk line and a torn one (no newline), as a crash would leave.
        let mut f = OpenOptions::new().append(true).open(j.path()).unwrap();
        f.write_all(b"{\"not\": \"a record\"}\n{\"id\":\"01")
            .unwrap();
        drop(f);
        assert_eq!(
            j.count().unwrap(),
            4,
            "two games, a junk line and a torn one"
        );
        let read = j.read().unwrap();
        assert_eq!(read.records, vec![a.clone(), b.clone()]);
        assert_eq!(read.skipped, 2);
        // An append after the torn line starts a line of its own, and
        // survives consuming what was read before it.
        j.append(std::slice::from_ref(&c)).unwrap();
        j.consume(read.len).unwrap();
        let again = j.read().unwrap();
        assert_eq!(again.records, vec![c]);
        assert_eq!(again.skipped, 0);
        j.consume(again.len).unwrap();
        assert!(j.is_empty());
        assert_eq!(j.count().unwrap(), 0);
    }
}
