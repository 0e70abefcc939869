//! Output to one client, bounded. The session task never waits on the
//! network: it appends to this outbox and goes on; a writer task drains it
//! into the transport. When a client stops reading, the writer blocks, the
//! outbox fills to its bound, and further output is dropped rather than
//! queued: the screen is marked for a full repaint once the client catches
//! up (a board game needs only its latest picture), and a client that stays
//! over the bound past the grace time is cut off.
//!
//! On telnet, data and protocol bytes travel apart: data is escaped (a
//! literal 255 doubled) when it is queued, protocol bytes (negotiation
//! replies) are queued as they are, and the writer sends both untouched.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// Largest piece handed to the transport at once.
const CHUNK: usize = 16 * 1024;

/// Where bytes go.
pub enum Sink {
    Ssh {
        handle: russh::server::Handle,
        channel: russh::ChannelId,
    },
    Telnet(tokio::io::WriteHalf<super::net::Killable<tokio::net::TcpStream>>),
}

impl Sink {
    /// Whether this is a telnet connection (data must be escaped).
    fn is_telnet(&self) -> bool {
        matches!(self, Sink::Telnet(_))
    }

    /// Sends bytes as they are (already escaped where needed).
    async fn write(&mut self, bytes: Vec<u8>) -> Result<(), ()> {
        match self {
            Sink::Ssh { handle, channel } => handle.data(*channel, bytes).await.map_err(|_| ()),
            Sink::Telnet(w) => {
                use tokio::io::AsyncWriteExt;
                w.write_all(&bytes).await.map_err(|_| ())
            }
        }
    }

    /// Ends the session politely (SSH: exit status, EOF, close).
    async fn close(&mut self, exit_status: u32) {
        match self {
            // Courtesies to a client that may have gone already: nothing
            // is lost when they fail.
            Sink::Ssh { handle, channel } => {
                let _ = handle.exit_status_request(*channel, exit_status).await;
                let _ = handle.eof(*channel).await;
                let _ = handle.close(*channel).await;
            }
            Sink::Telnet(w) => {
                use tokio::io::AsyncWriteExt;
                let _ = w.shutdown().await;
            }
        }
    }
}

#[derive(Debug, Default)]
struct State {
    buf: Vec<u8>,
    /// Output was dropped: repaint everything once drained.
    dropped_since: Option<Instant>,
    /// The writer has been waiting on the transport since then.
    writing_since: Option<Instant>,
    /// No more output; close the sink with this exit status once drained.
    closing: Option<u32>,
    /// The writer has finished (drained and closed, or the transport failed).
    done: bool,
    /// The writer holds a chunk it has not finished handing on.
    in_flight: bool,
}

struct Shared {
    state: Mutex<State>,
    wake_writer: Notify,
    writer_done: Notify,
    /// Told when dropped output means the screen must be repainted (a
    /// permit is kept if nobody waits, so the news is never lost).
    resync: Notify,
    limit: usize,
    /// Data is escaped for telnet when queued.
    telnet: bool,
    /// SSH: where output can be handed on directly when nothing is queued
    /// and the connection takes it at once (no wake-up of the writer).
    direct: Option<(russh::server::Handle, russh::ChannelId)>,
    /// The transport, until the writer task takes it: the writer starts
    /// only once output has to wait (an SSH session whose output has
    /// always gone straight through, an idle one say, has no writer task
    /// and keeps no memory for it).
    sink: Mutex<Option<Sink>>,
}

/// The session task's end of the outbox.
#[derive(Clone)]
pub struct Outbox {
    shared: Arc<Shared>,
}

impl Outbox {
    /// Creates the outbox; its writer task starts when output first has
    /// to wait.
    pub fn start(sink: Sink, limit: usize) -> Outbox {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake_writer: Notify::new(),
            writer_done: Notify::new(),
            resync: Notify::new(),
            limit,
            telnet: sink.is_telnet(),
            direct: match &sink {
                Sink::Ssh { handle, channel } => Some((handle.clone(), *channel)),
                Sink::Telnet(_) => None,
            },
            sink: Mutex::new(Some(sink)),
        });
        Outbox { shared }
    }

    /// Wakes the writer, starting it first if it has not started yet.
    fn wake_writer(&self) {
        let sink = self
            .shared
            .sink
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(sink) = sink {
            tokio::spawn(writer(Arc::clone(&self.shared), sink));
        }
        // A permit is kept if the writer is not waiting yet.
        self.shared.wake_writer.notify_one();
    }

    /// Waits until output was dropped and the client has caught up since:
    /// the screen must then be repainted in full.
    pub async fn resync_needed(&self) {
        self.shared.resync.notified().await;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Data as it goes on the wire: on telnet a literal 255 is doubled
    /// (our output is UTF-8 and never holds one, but input echoed back
    /// could).
    fn wire<'a>(&self, data: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        if self.shared.telnet {
            super::telnet_codec::escape(data)
        } else {
            std::borrow::Cow::Borrowed(data)
        }
    }

    /// Queues data. Returns false if it was dropped (the client is behind).
    pub fn push(&self, bytes: &[u8]) -> bool {
        if bytes.is_empty() {
            return true;
        }
        let bytes = &*self.wire(bytes);
        let mut st = self.lock();
        if st.closing.is_some() || st.done {
            return false;
        }
        if st.dropped_since.is_some() {
            return false;
        }
        if st.buf.len() + bytes.len() > self.shared.limit {
            // Keep what is queued (it may be mid escape sequence); drop the
            // rest and repaint later.
            st.dropped_since = Some(Instant::now());
            return false;
        }
        if let Some((handle, channel)) = &self.shared.direct
            && st.buf.is_empty()
            && !st.in_flight
        {
            // Nothing is waiting: hand it on now if the connection's queue
            // has room (in order: the writer has nothing in hand, and
            // output comes only from this session's task).
            use futures_util::FutureExt;
            let data = bytes::Bytes::copy_from_slice(bytes);
            if let Some(Ok(())) = handle.data(*channel, data).now_or_never() {
                return true;
            }
        }
        st.buf.extend_from_slice(bytes);
        drop(st);
        self.wake_writer();
        true
    }

    /// Queues protocol bytes, sent exactly as given (never escaped, never
    /// dropped for being behind: they are few and must arrive, but they
    /// still count towards the bound).
    pub fn push_raw(&self, bytes: &[u8]) {
        let mut st = self.lock();
        if st.closing.is_some() || st.done || st.buf.len() + bytes.len() > self.shared.limit * 2 {
            return;
        }
        st.buf.extend_from_slice(bytes);
        drop(st);
        self.wake_writer();
    }

    /// Queues the last bytes (even over the bound: they restore the
    /// terminal) and closes the transport once they are out.
    pub fn finish(&self, last: &[u8], exit_status: u32) {
        let last = &*self.wire(last);
        let mut st = self.lock();
        if st.dropped_since.is_none() || st.buf.len() + last.len() <= self.shared.limit * 2 {
            st.buf.extend_from_slice(last);
        }
        st.closing = Some(exit_status);
        drop(st);
        self.wake_writer();
    }

    /// How long the client has not been taking output, if it is behind:
    /// since output was first dropped, or since a write started that has
    /// not finished (a client that stops reading blocks it).
    pub fn behind_for(&self) -> Option<Duration> {
        let st = self.lock();
        [st.dropped_since, st.writing_since]
            .into_iter()
            .flatten()
            .map(|t| t.elapsed())
            .max()
    }

    /// Bytes waiting for the client.
    pub fn pending(&self) -> usize {
        self.lock().buf.len()
    }

    /// Waits until the writer has finished, at most `timeout`.
    pub async fn wait_done(&self, timeout: Duration) -> bool {
        let notified = self.shared.writer_done.notified();
        tokio::pin!(notified);
        // Register before looking, so a wake-up in between is not missed.
        notified.as_mut().enable();
        if self.lock().done {
            return true;
        }
        tokio::time::timeout(timeout, notified).await.is_ok() || self.lock().done
    }
}

async fn writer(shared: Arc<Shared>, mut sink: Sink) {
    loop {
        let notified = shared.wake_writer.notified();
        let (chunk, closing, need_resync) = {
            let mut st = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            let n = st.buf.len().min(CHUNK);
            let chunk: Vec<u8> = st.buf.drain(..n).collect();
            st.in_flight = !chunk.is_empty();
            if st.in_flight {
                // A client that stops reading blocks this write: from now
                // on the session counts it as behind until it ends.
                st.writing_since = Some(Instant::now());
            }
            if st.buf.is_empty() {
                // Idle sessions hold no output memory (it adds up over thousands).
                st.buf = Vec::new();
            }
            let need_resync =
                chunk.is_empty() && st.dropped_since.is_some() && st.closing.is_none();
            if need_resync {
                st.dropped_since = None;
            }
            (chunk, st.closing, need_resync)
        };
        if need_resync {
            shared.resync.notify_one();
            continue;
        }
        if chunk.is_empty() {
            if let Some(status) = closing {
                sink.close(status).await;
                break;
            }
            notified.await;
            continue;
        }
        let written = sink.write(chunk).await;
        {
            let mut st = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            st.writing_since = None;
            st.in_flight = false;
        }
        if written.is_err() {
            break;
        }
    }
    let mut st = shared.state.lock().unwrap_or_else(|e| e.into_inner());
    st.done = true;
    st.buf = Vec::new();
    drop(st);
    shared.writer_done.notify_waiters();
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A telnet outbox writing to one end of a loopback connection, and the
    /// other end (the client).
    async fn telnet_pair(limit: usize) -> (Outbox, tokio::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let server =
            super::super::net::Killable::new(server, tokio_util::sync::CancellationToken::new());
        let (_read, write) = tokio::io::split(server);
        (Outbox::start(Sink::Telnet(write), limit), client)
    }

    #[tokio::test]
    async fn the_writer_task_starts_only_when_output_has_to_wait() {
        // Telnet output always waits for the writer; an SSH session's goes
        // straight through while the connection takes it, and an idle one
        // then never holds a writer task.
        let (outbox, mut client) = telnet_pair(4096).await;
        assert_eq!(Arc::strong_count(&outbox.shared), 1, "a writer started");
        assert!(outbox.push(b"hello"));
        assert_eq!(Arc::strong_count(&outbox.shared), 2, "no writer started");
        assert!(outbox.push(b" there"));
        assert_eq!(Arc::strong_count(&outbox.shared), 2, "a second writer");
        let mut buf = [0u8; 11];
        client.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"hello there");
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_is_behind_while_a_write_waits_on_it() {
        // An outbox far larger than the socket buffers: nothing is dropped,
        // but the writer's write waits on a client that reads nothing.
        let (outbox, mut client) = telnet_pair(64 << 20).await;
        assert_eq!(outbox.behind_for(), None);
        let piece = vec![b'x'; 1 << 20];
        for _ in 0..32 {
            assert!(outbox.push(&piece), "output was dropped");
            tokio::task::yield_now().await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let behind = outbox.behind_for();
        assert!(
            behind.is_some_and(|d| d >= Duration::from_millis(200)),
            "behind for {behind:?} with {} bytes queued",
            outbox.pending()
        );
        // Once the client has read it all, it is not behind any more.
        let mut buf = vec![0u8; 1 << 20];
        let mut read = 0usize;
        while read < 32 << 20 {
            let n = client.read(&mut buf).await.unwrap();
            assert!(n > 0, "the connection closed");
            read += n;
        }
        assert_eq!(outbox.pending(), 0);
        assert_eq!(outbox.behind_for(), None);
    }

    #[tokio::test]
    async fn output_dropped_for_a_slow_client_asks_for_a_repaint_once_it_catches_up() {
        let (outbox, mut client) = telnet_pair(4096).await;
        // The client reads nothing: the socket's buffers fill, then the
        // outbox, and output is dropped.
        let piece = [b'x'; 1024];
        let mut pushed = 0usize;
        let mut dropped = false;
        for _ in 0..100_000 {
            if !outbox.push(&piece) {
                dropped = true;
                break;
            }
            pushed += piece.len();
            tokio::task::yield_now().await;
        }
        assert!(dropped, "nothing was dropped after {pushed} bytes");
        assert!(outbox.behind_for().is_some());
        // No repaint is asked for while the client is still behind.
        let early = tokio::time::timeout(Duration::from_millis(100), outbox.resync_needed()).await;
        assert!(early.is_err(), "a repaint was asked for too soon");
        // The client reads everything queued: then, and only then, the
        // session hears that its screen must be drawn again.
        let mut buf = vec![0u8; 64 * 1024];
        let mut read = 0usize;
        let asked = loop {
            tokio::select! {
                n = client.read(&mut buf) => {
                    let n = n.unwrap();
                    assert!(n > 0, "the connection closed");
                    read += n;
                }
                () = outbox.resync_needed() => break true,
                _ = tokio::time::sleep(Duration::from_secs(10)) => break false,
            }
        };
        assert!(asked, "no repaint asked for after reading {read} bytes");
        assert!(read <= pushed, "read {read} of {pushed} bytes");
        // And new output goes through again.
        assert!(outbox.push(b"again"));
    }
}
