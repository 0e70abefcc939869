//! The telnet transport: a guest session (the name is asked for) over a
//! plain TCP connection, with the same lobby, games and limits as SSH.
//!
//! Connection life: offer our options, give the client a moment to report
//! its window size, terminal type and locale (so the first picture fits and
//! speaks the person's language), start the
//! session task, then read: the codec strips telnet commands and yields
//! keystrokes, sizes and the terminal type; negotiation replies go out
//! through the session's outbox.
//!
//! A client that never sends a telnet command (plain `nc`) is in line mode:
//! its terminal edits a line and sends it on Enter, so input is handed over
//! a line at a time ([`crate::session::Session::line`]).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::mailbox as mpsc;
use tokio::io::AsyncReadExt;
use tokio_util::sync::CancellationToken;

use super::Ctx;
use super::conn::{self, ConnEvent, ConnParams};
use super::net::{Killable, Slot};
use super::outbox::Sink;
use super::telnet_codec::{Codec, Event};
use crate::limit::Bucket;
use crate::term::board::Theme;

/// How long a new connection may take to report its size, terminal and
/// locale.
const NEGOTIATION_WAIT: Duration = Duration::from_millis(400);

/// Serves one TCP connection over telnet until it ends.
pub async fn serve(ctx: Arc<Ctx>, stream: tokio::net::TcpStream, peer: SocketAddr, slot: Slot) {
    let kill = CancellationToken::new();
    let stream = Killable::new(stream, kill.clone());
    let (mut reader, mut writer) = tokio::io::split(stream);
    let mut codec = Codec::new();
    let limits = &ctx.config.limits;
    let mut bucket = super::net::input_bucket(limits);

    // Offer our options and collect the first answers.
    {
        use tokio::io::AsyncWriteExt;
        if writer.write_all(&codec.greeting()).await.is_err() {
            return;
        }
    }
    let mut size = (0u32, 0u32);
    let mut term = String::new();
    let mut environ: Vec<(String, String)> = Vec::new();
    let mut early: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 4096];
    let deadline = tokio::time::Instant::now() + NEGOTIATION_WAIT;
    while !(codec.negotiation_settled()
        && (size != (0, 0) || !codec.naws_on())
        && (!term.is_empty() || !codec.seen_iac)
        && !codec.environ_pending())
    {
        match tokio::time::timeout_at(deadline, reader.read(&mut buf)).await {
            Err(_) => break,
            Ok(Ok(0)) | Ok(Err(_)) => return,
            Ok(Ok(n)) => {
                let d = codec.decode(&buf[..n]);
                if !d.reply.is_empty() {
                    // Answer at once: the terminal type is asked for here.
                    use tokio::io::AsyncWriteExt;
                    if writer.write_all(&d.reply).await.is_err() {
                        return;
                    }
                }
                if early.len() < 1024 {
                    early.extend_from_slice(&d.data);
                }
                for ev in d.events {
                    match ev {
                        Event::Size(w, h) => size = (u32::from(w), u32::from(h)),
                        Event::TermType(t) => term = t,
                        Event::Environ(vars) => environ = vars,
                    }
                }
                // Someone typing before any negotiation: a plain socket.
                if !codec.seen_iac && !early.is_empty() {
                    break;
                }
            }
        }
    }

    let (tx, rx) = mpsc::channel(conn::EVENT_QUEUE);
    let params = ConnParams {
        id: ctx.new_session_id(),
        peer,
        user: String::new(),
        identity: None,
        theme: Theme::for_term(&term),
        size,
        join_code: None,
        ask_name: true,
        transport: "telnet",
        // The locale the client exported (`environ export LANG` in
        // inetutils telnet), if inarow speaks it.
        lang: crate::lang::Lang::from_vars(|name| {
            environ
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        }),
    };
    ctx.tracker.spawn(conn::run(
        Arc::clone(&ctx),
        params,
        rx,
        Sink::Telnet(writer),
        kill.clone(),
    ));

    let mut lines = LineMode::new(ctx.config.limits.max_line_length);
    let mut deliver =
        |data: &[u8], codec: &Codec, tx: &mpsc::Sender<ConnEvent>, bucket: &mut Bucket| {
            if data.is_empty() {
                return;
            }
            let allowed = bucket.take_up_to(data.len(), std::time::Instant::now());
            let mut ok = allowed == data.len();
            let data = &data[..allowed];
            if codec.seen_iac {
                ok &= data.is_empty() || tx.try_send(ConnEvent::Input(data.to_vec())).is_ok();
            } else {
                for line in lines.push(data) {
                    ok &= tx.try_send(ConnEvent::Line(line)).is_ok();
                }
            }
            if !ok {
                // Only a note for the person; a full queue has one already.
                let _ = tx.try_send(ConnEvent::InputDropped);
            }
        };
    deliver(&early, &codec, &tx, &mut bucket);

    loop {
        let n = tokio::select! {
            r = reader.read(&mut buf) => match r {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            },
            _ = tx.closed() => break,
            _ = async {
                ctx.shutdown.cancelled().await;
                tokio::time::sleep(super::SHUTDOWN_GRACE * 2).await;
            } => break,
        };
        let d = codec.decode(&buf[..n]);
        // The queue is full only while the session is behind a flood of
        // input (then cut above, and told): a negotiation answer or a size
        // lost then is replaced by the next. A session gone needs none.
        if !d.reply.is_empty() {
            let _ = tx.try_send(ConnEvent::Raw(d.reply));
        }
        for ev in d.events {
            let _ = tx.try_send(match ev {
                Event::Size(w, h) => ConnEvent::Resize(u32::from(w), u32::from(h)),
                Event::TermType(t) => ConnEvent::Theme(Theme::for_term(&t)),
                // Late (after the first picture): the person has [L].
                Event::Environ(_) => continue,
            });
        }
        deliver(&d.data, &codec, &tx, &mut bucket);
    }
    // If the queue is full, the session learns it from the cut below.
    let _ = tx.try_send(ConnEvent::Closed);
    // The session task ends the connection (it owns the writer); wait for
    // it, a while: the connection is cut next either way.
    let _ = tokio::time::timeout(Duration::from_secs(10), kill.cancelled()).await;
    kill.cancel();
    drop(slot);
}

/// Assembles lines from a client in line mode, each at most `max` bytes
/// (the rest of a longer line is dropped).
struct LineMode {
    max: usize,
    current: Vec<u8>,
}

impl LineMode {
    fn new(max: usize) -> LineMode {
        LineMode {
            max,
            current: Vec::new(),
        }
    }

    fn push(&mut self, data: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for &b in data {
            match b {
                b'\n' => {
                    let mut line = std::mem::take(&mut self.current);
                    while line.last() == Some(&b'\r') || line.last() == Some(&0) {
                        line.pop();
                    }
                    out.push(line);
                }
                _ if self.current.len() < self.max => self.current.push(b),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_trimmed_and_bounded() {
        let mut l = LineMode::new(5);
        assert_eq!(l.push(b"ab"), Vec::<Vec<u8>>::new());
        assert_eq!(
            l.push(b"c\r\nxyz1234567\n\n"),
            vec![b"abc".to_vec(), b"xyz12".to_vec(), Vec::new()]
        );
    }
}
