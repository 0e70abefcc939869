//! The `[http]` listener and its bounds. Each connection is served on its
//! own task, so a slow client holds only its own connection:
//!
//! * at most `max_connections` connections, and `max_connections_per_address`
//!   from one address. A new connection beyond either bound closes the
//!   oldest connection (of that address, or of all) that is not in the
//!   middle of a request: clients that open connections and send nothing
//!   cannot keep anyone else out, and one address cannot take the places of
//!   the others. When every connection is serving a request, the new one is
//!   closed at once;
//! * a request's headers must arrive within `header_timeout` of the
//!   connection (or of the previous response), else it is closed;
//! * a connection lives at most [`CONNECTION_LIFETIME`], unless it is
//!   answering a request then (an event stream ends by its own idle time).

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

/// Longest a connection lives (a client that keeps it open reconnects).
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(60);

/// The bounds of the listener (from `[http]`).
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub max_connections: usize,
    pub max_per_address: usize,
    pub header_timeout: Duration,
}

/// The address a request came from (a request extension).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// One open connection, as the registry sees it.
struct Entry {
    ip: IpAddr,
    /// Requests being answered on it now.
    busy: Arc<AtomicUsize>,
    cut: CancellationToken,
}

/// The open connections, oldest first (by the number given at accept).
#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Entry>,
    per_address: HashMap<IpAddr, usize>,
}

impl Registry {
    /// A place for a connection from `ip`, closing the oldest idle
    /// connection where a bound is reached; `None`: every connection in
    /// the way is answering a request.
    fn admit(
        &mut self,
        ip: IpAddr,
        b: &Bounds,
    ) -> Option<(u64, Arc<AtomicUsize>, CancellationToken)> {
        if self.per_address.get(&ip).copied().unwrap_or(0) >= b.max_per_address
            && !self.close_oldest_idle(Some(ip))
        {
            return None;
        }
        if self.open.len() >= b.max_connections && !self.close_oldest_idle(None) {
            return None;
        }
        let id = self.next;
        self.next += 1;
        let busy = Arc::new(AtomicUsize::new(0));
        let cut = CancellationToken::new();
        self.open.insert(
            id,
            Entry {
                ip,
                busy: Arc::clone(&busy),
                cut: cut.clone(),
            },
        );
        *self.per_address.entry(ip).or_insert(0) += 1;
        Some((id, busy, cut))
    }

    /// Closes the oldest connection (from `ip`, or any) with no request
    /// in hand; whether there was one.
    fn close_oldest_idle(&mut self, ip: Option<IpAddr>) -> bool {
        let found = self.open.iter().find_map(|(id, e)| {
            (ip.is_none_or(|ip| e.ip == ip) && e.busy.load(Ordering::Acquire) == 0).then_some(*id)
        });
        match found {
            Some(id) => {
                if let Some(e) = self.remove(id) {
                    e.cut.cancel();
                }
                true
            }
            None => false,
        }
    }

    fn remove(&mut self, id: u64) -> Option<Entry> {
        let e = self.open.remove(&id)?;
        if let Some(n) = self.per_address.get_mut(&e.ip) {
            *n -= 1;
            if *n == 0 {
                self.per_address.remove(&e.ip);
            }
        }
        Some(e)
    }
}

/// Takes a connection out of the registry when its task ends.
struct Leave {
    registry: Arc<Mutex<Registry>>,
    id: u64,
}

impl Drop for Leave {
    fn drop(&mut self) {
        lock(&self.registry).remove(self.id);
    }
}

/// Counts a request as being answered while it lives. A response that
/// streams (server-sent events) keeps one in its stream
/// ([`Connection::busy`]), so its connection is neither closed to make
/// room nor at the end of its lifetime.
pub struct Busy(Arc<AtomicUsize>);

/// The connection a request came on (a request extension).
#[derive(Clone)]
pub struct Connection(Arc<AtomicUsize>);

impl Connection {
    /// Marks the connection busy for as long as the guard lives.
    pub fn busy(&self) -> Busy {
        self.0.fetch_add(1, Ordering::AcqRel);
        Busy(Arc::clone(&self.0))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn lock(r: &Mutex<Registry>) -> std::sync::MutexGuard<'_, Registry> {
    r.lock().unwrap_or_else(|e| e.into_inner())
}

/// Accepts and serves connections with `app` until `stop` is cancelled.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    bounds: Bounds,
    stop: CancellationToken,
) {
    let registry = Arc::new(Mutex::new(Registry::default()));
    loop {
        let (stream, addr) = tokio::select! {
            _ = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, say: wait a little.
                    tracing::debug!(error = %e, "http accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some((id, busy, cut)) = lock(&registry).admit(addr.ip(), &bounds) else {
            tracing::debug!(peer = %addr, "http connection closed at once: every place is answering a request");
            drop(stream);
            continue;
        };
        let leave = Leave {
            registry: Arc::clone(&registry),
            id,
        };
        let app = app.clone();
        let stop = stop.clone();
        let lifetime_busy = Arc::clone(&busy);
        tokio::spawn(async move {
            let _leave = leave;
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                busy.fetch_add(1, Ordering::AcqRel);
                let busy = Busy(Arc::clone(&busy));
                req.extensions_mut().insert(Peer(addr));
                req.extensions_mut().insert(Connection(Arc::clone(&busy.0)));
                let answer = app.clone().oneshot(req);
                async move {
                    let res = answer.await;
                    drop(busy);
                    res
                }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(bounds.header_timeout)
                .max_buf_size(64 * 1024);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            // The lifetime ends a connection between requests; a stream
            // ends by its own idle time.
            let lifetime = async {
                loop {
                    tokio::time::sleep(CONNECTION_LIFETIME).await;
                    if lifetime_busy.load(Ordering::Acquire) == 0 {
                        break;
                    }
                }
            };
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = cut.cancelled() => {}
                _ = lifetime => {}
                _ = stop.cancelled() => {}
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(total: usize, per: usize) -> Bounds {
        Bounds {
            max_connections: total,
            max_per_address: per,
            header_timeout: Duration::from_secs(5),
        }
    }

    #[test]
    fn a_new_connection_beyond_a_bound_closes_the_oldest_idle_one() {
        let mut r = Registry::default();
        let b = bounds(4, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let c: IpAddr = "10.0.0.2".parse().unwrap();
        let (first, first_busy, first_cut) = r.admit(a, &b).unwrap();
        let (_, _, second_cut) = r.admit(a, &b).unwrap();
        // A third from `a`: its oldest goes.
        let (_, _, third_cut) = r.admit(a, &b).unwrap();
        assert!(first_cut.is_cancelled() && !second_cut.is_cancelled());
        assert!(r.remove(first).is_none(), "already taken out");
        drop(first_busy);
        // Both of `a`'s answering a request: a fourth from `a` is refused,
        // and nobody is closed.
        let busy: Vec<_> = r.open.values().map(|e| Arc::clone(&e.busy)).collect();
        for n in &busy {
            n.fetch_add(1, Ordering::AcqRel);
        }
        assert!(r.admit(a, &b).is_none());
        assert!(!second_cut.is_cancelled() && !third_cut.is_cancelled());
        // Another address still gets in, up to the total.
        let (_, _, c1) = r.admit(c, &b).unwrap();
        let (_, _, c2) = r.admit(c, &b).unwrap();
        assert_eq!(r.open.len(), 4);
        // The total reached: the oldest idle of all goes (not a busy one).
        let d: IpAddr = "10.0.0.3".parse().unwrap();
        assert!(r.admit(d, &b).is_some());
        assert!(c1.is_cancelled() && !c2.is_cancelled());
        assert!(!second_cut.is_cancelled() && !third_cut.is_cancelled());
        assert_eq!(r.per_address.get(&c), Some(&1));
    }
}
