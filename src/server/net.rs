//! Network plumbing shared by the transports: listeners with a deep accept
//! backlog, admission limits (sessions in all and per address), a token
//! bucket for input, and a stream wrapper that can be cut from outside.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

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

/// Input allowance: `rate` bytes per second, bursts up to `burst`. A paste
/// fits in the burst; a flood is cut to the rate.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(rate: u32, burst: u32) -> TokenBucket {
        TokenBucket {
            rate: f64::from(rate),
            burst: f64::from(burst),
            tokens: f64::from(burst),
            last: Instant::now(),
        }
    }

    /// How many of `n` bytes may pass now.
    pub fn take(&mut self, n: usize) -> usize {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        let allowed = (n as f64).min(self.tokens.floor()).max(0.0);
        self.tokens -= allowed;
        allowed as usize
    }
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
    fn bucket_allows_a_burst_then_the_rate() {
        let mut b = TokenBucket::new(100, 1000);
        assert_eq!(b.take(600), 600);
        assert_eq!(b.take(600), 400);
        assert_eq!(b.take(10), 0);
    }
}
