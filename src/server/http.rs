//! The operators' endpoints, on their own port (`[http]`): `/healthz`
//! (the process is up), `/readyz` (taking players: not shutting down, the
//! store answers) and `/metrics` (Prometheus text format). At most
//! [`MAX_CONNECTIONS`] connections at once, each for at most
//! [`CONNECTION_LIFETIME`].

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::Ctx;
use super::net::Killable;

/// How long `/readyz` waits for the store.
const STORE_PING: Duration = Duration::from_secs(2);
/// Connections served at once; more wait in the listen queue.
pub const MAX_CONNECTIONS: usize = 32;
/// Longest a connection lives (a scraper that keeps it open reconnects;
/// one that sends nothing is cut).
const CONNECTION_LIFETIME: Duration = Duration::from_secs(60);

/// The listener with a bound on connections and on their lifetime.
struct Bounded {
    listener: tokio::net::TcpListener,
    permits: Arc<Semaphore>,
}

/// A connection holding its place among [`MAX_CONNECTIONS`]; dropping it
/// frees the place and stops its lifetime timer.
struct Held {
    stream: tokio::net::TcpStream,
    _permit: OwnedSemaphorePermit,
    _timer: tokio_util::sync::DropGuard,
}

impl axum::serve::Listener for Bounded {
    type Io = Killable<Held>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
                std::future::pending::<()>().await;
                continue;
            };
            match self.listener.accept().await {
                Ok((stream, addr)) => {
                    let cut = CancellationToken::new();
                    let timer = cut.clone();
                    tokio::spawn(async move {
                        tokio::select! {
                            _ = timer.cancelled() => {}
                            _ = tokio::time::sleep(CONNECTION_LIFETIME) => timer.cancel(),
                        }
                    });
                    let held = Held {
                        stream,
                        _permit: permit,
                        _timer: cut.clone().drop_guard(),
                    };
                    return (Killable::new(held, cut), addr);
                }
                Err(e) => {
                    tracing::debug!(error = %e, "http accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

impl AsyncRead for Held {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Held {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Serves until `stop` is cancelled.
pub async fn serve(ctx: Arc<Ctx>, listener: tokio::net::TcpListener, stop: CancellationToken) {
    let app = Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .with_state(ctx);
    let listener = Bounded {
        listener,
        permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
    };
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(async move { stop.cancelled().await })
        .await;
    if let Err(e) = served {
        tracing::warn!(error = %e, "http endpoints stopped");
    }
}

/// 200 while the host takes players; 503 with the reason otherwise.
async fn readyz(State(ctx): State<Arc<Ctx>>) -> impl IntoResponse {
    if ctx.shutdown.is_cancelled() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "draining: the host is shutting down\n",
        );
    }
    if let Some(cluster) = &ctx.cluster
        && !cluster.connected()
    {
        return (StatusCode::SERVICE_UNAVAILABLE, "nats unreachable\n");
    }
    match tokio::time::timeout(STORE_PING, ctx.store.ping()).await {
        Ok(Ok(())) => (StatusCode::OK, "ready\n"),
        Ok(Err(_)) | Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "store unreachable\n"),
    }
}

async fn metrics(State(ctx): State<Arc<Ctx>>) -> impl IntoResponse {
    let m = &ctx.metrics;
    // The gauges that mirror a length kept elsewhere are read now.
    let (waiting, running) = ctx.computer.load();
    m.computer_waiting.set(waiting as i64);
    m.computer_running.set(running as i64);
    m.store_queue.set(ctx.recorder.queued() as i64);
    let recorder = Arc::clone(&ctx.recorder);
    // Counting the journal reads a file: off the async threads.
    if let Ok(Ok(n)) = tokio::task::spawn_blocking(move || recorder.journaled()).await {
        m.journal_games.set(n as i64);
    }
    (
        [(
            CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        m.encode(),
    )
}
