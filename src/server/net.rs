//! Network plumbing shared by the transports: listeners with a deep accept
//! backlog, admission limits (sessions in all and per address), the input
//! allowance (a [`crate::limit::Bucket`]), and a stream wrapper that can be
//! cut from outside.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

use crate::lang::Lang;
use crate::limit::{Bucket, Rate};

/// Accept backlog. Tokio's default (128) makes a burst of connections wait
/// for SYN retransmits; a deep queue lets the accept loop catch up.
const BACKLOG: u32 = 4096;

/// Binds a TCP listener with a deep backlog (IPv4 or IPv6, per the address).
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Counts sessions, in all and per IP address.
#[derive(Debug)]
pub struct Admission {
    max_total: usize,
    max_per_ip: usize,
    counts: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// A place taken in [`Admission`]; freed when dropped.
#[derive(Debug)]
pub struct Slot {
    admission: Arc<Admission>,
    ip: IpAddr,
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Full,
    TooManyFromAddress,
}

impl Admission {
    /// Why a connection was refused, in words for the person (with the
    /// limit), in `lang`: at accept no one has said which language they
    /// read, so the host's default is all there is.
    pub fn explain(&self, refusal: Refusal, lang: Lang) -> String {
        match refusal {
            Refusal::Full => {
                lang.text_with("refused-host-full", &[("limit", self.max_total.into())])
            }
            Refusal::TooManyFromAddress => {
                lang.text_with("refused-per-address", &[("limit", self.max_per_ip.into())])
            }
        }
    }

    pub fn new(max_total: usize, max_per_ip: usize) -> Arc<Admission> {
        Arc::new(Admission {
            max_total,
            max_per_ip,
            counts: Mutex::new((0, HashMap::new())),
        })
    }

    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, Refusal> {
        let mut guard = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let (total, per_ip) = &mut *guard;
        if *total >= self.max_total {
            return Err(Refusal::Full);
        }
        let n = per_ip.entry(ip).or_insert(0);
        if *n >= self.max_per_ip {
            return Err(Refusal::TooManyFromAddress);
        }
        *n += 1;
        *total += 1;
        Ok(Slot {
            admission: Arc::clone(self),
            ip,
        })
    }

    /// Sessions admitted now.
    pub fn current(&self) -> usize {
        self.counts.lock().map(|c| c.0).unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut guard = self
            .admission
            .counts
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let (total, per_ip) = &mut *guard;
        *total = total.saturating_sub(1);
        if let Some(n) = per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                per_ip.remove(&self.ip);
            }
        }
    }
}

/// What a refused SSH client is sent: the reason as a text line (RFC 4253
/// allows lines before the version string; a person who points a plain
/// socket at the port reads it), our version string, then an unencrypted
/// SSH_MSG_DISCONNECT ("too many connections") with the reason, which the
/// client may receive before any key exchange. The OpenSSH client prints
/// it: "Received disconnect from HOST port PORT:12: REASON", with every
/// byte beyond ASCII as an octal escape: a reason that is not plain ASCII
/// goes in `ascii` (English) there, the line keeps the person's words.
pub fn ssh_refusal(line: &str, ascii: &str) -> Vec<u8> {
    let reason = if line.is_ascii() { line } else { ascii };
    const MSG_DISCONNECT: u8 = 1;
    const TOO_MANY_CONNECTIONS: u32 = 12;
    let mut out = format!("{line}\r\nSSH-2.0-inarow\r\n").into_bytes();
    let mut payload = vec![MSG_DISCONNECT];
    payload.extend_from_slice(&TOO_MANY_CONNECTIONS.to_be_bytes());
    payload.extend_from_slice(&(reason.len() as u32).to_be_bytes());
    payload.extend_from_slice(reason.as_bytes());
    payload.extend_from_slice(&0u32.to_be_bytes()); // language tag: none
    // Binary packet: length, padding length, payload, padding; at least 4
    // bytes of padding, the whole a multiple of 8 (no cipher yet).
    let mut padding = 8 - (4 + 1 + payload.len()) % 8;
    if padding < 4 {
        padding += 8;
    }
    let length = (1 + payload.len() + padding) as u32;
    out.extend_from_slice(&length.to_be_bytes());
    out.push(padding as u8);
    out.extend_from_slice(&payload);
    out.extend(std::iter::repeat_n(0u8, padding));
    out
}

/// Refused connections being told why at once; more are closed silently.
pub const MAX_REFUSALS_AT_ONCE: usize = 64;
/// How long a refused connection is kept for its message to be read.
const REFUSAL_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends a refused client `message`, then closes: the write side first,
/// and the connection once the client has closed too (or after a short
/// time), so that its unread bytes do not turn our close into a reset that
/// could destroy the message before it is read.
pub async fn refuse(mut stream: tokio::net::TcpStream, message: Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // A refused client that does not read, or has gone, is closed all the
    // same: telling it why is a courtesy.
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        if stream.write_all(&message).await.is_err() {
            return;
        }
        let _ = stream.shutdown().await;
        let mut buf = [0u8; 1024];
        // Bounded by the time above, whatever the client sends.
        while let Ok(n) = stream.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    })
    .await;
}

/// A connection's input allowance: `limits.input_bytes_per_sec` bytes a
/// second, bursts up to `limits.input_burst_bytes`. A paste fits in the
/// burst; a flood is cut to the rate. Ask it with
/// [`Bucket::take_up_to`]`(bytes, Instant::now())`.
pub fn input_bucket(limits: &crate::config::ServerLimits) -> Bucket {
    Bucket::new(
        Rate::per_second(limits.input_bytes_per_sec),
        limits.input_burst_bytes,
    )
}

/// A stream that fails every read and write once its token is cancelled,
/// so a connection can be cut whatever the protocol task above is doing
/// (for instance blocked writing to a client that stopped reading).
pub struct Killable<S> {
    inner: S,
    killed: Pin<Box<WaitForCancellationFutureOwned>>,
}

impl<S> Killable<S> {
    pub fn new(inner: S, token: CancellationToken) -> Killable<S> {
        Killable {
            inner,
            killed: Box::pin(token.cancelled_owned()),
        }
    }

    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        match self.killed.as_mut().poll(cx) {
            Poll::Ready(()) => Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "connection cut",
            )),
            Poll::Pending => Ok(()),
        }
    }
}

use std::future::Future;

impl<S: AsyncRead + Unpin> AsyncRead for Killable<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if let Err(e) = self.check(cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Killable<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if let Err(e) = self.check(cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Err(e) = self.check(cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admission_limits_total_and_per_address() {
        let a = Admission::new(3, 2);
        let ip1: IpAddr = "10.0.0.1".parse().unwrap();
        let ip2: IpAddr = "10.0.0.2".parse().unwrap();
        let s1 = a.admit(ip1).unwrap();
        let _s2 = a.admit(ip1).unwrap();
        assert_eq!(a.admit(ip1).unwrap_err(), Refusal::TooManyFromAddress);
        let _s3 = a.admit(ip2).unwrap();
        assert_eq!(a.admit(ip2).unwrap_err(), Refusal::Full);
        drop(s1);
        let _s4 = a.admit(ip1).unwrap();
        assert_eq!(a.current(), 3);
    }

    #[test]
    fn refusals_say_why_with_the_limit() {
        let a = Admission::new(10_000, 50);
        assert_eq!(
            a.explain(Refusal::TooManyFromAddress, Lang::En),
            "too many sessions from your address (limit 50)"
        );
        assert_eq!(
            a.explain(Refusal::Full, Lang::En),
            "the host is full (limit 10000 sessions)"
        );
        assert_eq!(
            Admission::new(1, 1).explain(Refusal::Full, Lang::En),
            "the host is full (limit 1 session)"
        );
        assert_eq!(
            a.explain(Refusal::TooManyFromAddress, Lang::De),
            "zu viele Sitzungen von deiner Adresse (höchstens 50)"
        );
        assert_eq!(
            a.explain(Refusal::Full, Lang::ZhTw),
            "伺服器已滿（上限 10000 個連線）"
        );
    }

    #[test]
    fn the_ssh_refusal_is_a_well_formed_disconnect_packet() {
        let bytes = ssh_refusal("no room", "unused");
        let text = b"no room\r\nSSH-2.0-inarow\r\n";
        assert!(bytes.starts_with(text));
        let packet = &bytes[text.len()..];
        let length = u32::from_be_bytes(packet[..4].try_into().unwrap()) as usize;
        assert_eq!(packet.len(), 4 + length);
        assert_eq!(packet.len() % 8, 0);
        let padding = usize::from(packet[4]);
        assert!(padding >= 4);
        let payload = &packet[5..4 + length - padding];
        assert_eq!(payload[0], 1, "SSH_MSG_DISCONNECT");
        assert_eq!(&payload[1..5], &12u32.to_be_bytes());
        assert_eq!(&payload[5..9], &7u32.to_be_bytes());
        assert_eq!(&payload[9..16], b"no room");
        assert_eq!(&payload[16..], &0u32.to_be_bytes());
        // A reason beyond ASCII is read on the line, and in English in the
        // packet, which OpenSSH would print as octal escapes.
        let line = "伺服器已滿\r\nSSH-2.0-inarow\r\n".as_bytes();
        let bytes = ssh_refusal("伺服器已滿", "full");
        assert!(bytes.starts_with(line));
        let payload = &bytes[line.len() + 5..];
        assert_eq!(&payload[5..9], &4u32.to_be_bytes());
        assert_eq!(&payload[9..13], b"full");
    }

    #[test]
    fn the_input_allowance_is_the_configured_burst_then_the_rate() {
        let limits = crate::config::Config::default().limits;
        let mut b = input_bucket(&limits);
        let t = std::time::Instant::now();
        let burst = limits.input_burst_bytes as usize;
        assert_eq!(b.take_up_to(burst + 100, t), burst);
        assert_eq!(b.take_up_to(10, t), 0);
        let second = t + std::time::Duration::from_secs(1);
        assert_eq!(
            b.take_up_to(burst, second),
            limits.input_bytes_per_sec as usize
        );
    }
}
