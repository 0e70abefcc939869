//! The `[http]` listener: the operators' endpoints `/healthz` (the
//! process is up), `/readyz` (taking players: not shutting down, the
//! store answers) and `/metrics` (Prometheus text format), and the web
//! pages ([`pages`]), served within the bounds of [`listener`].

pub mod listener;
mod live;
mod pages;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use tokio_util::sync::CancellationToken;

use super::Ctx;

/// How long `/readyz` waits for the store.
const STORE_PING: Duration = Duration::from_secs(2);

/// Serves until `stop` is cancelled.
pub async fn serve(ctx: Arc<Ctx>, listener: tokio::net::TcpListener, stop: CancellationToken) {
    let http = &ctx.config.http;
    let bounds = listener::Bounds {
        max_connections: http.max_connections,
        max_per_address: http.max_connections_per_address,
        header_timeout: http.header_timeout,
    };
    let app = Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .with_state(Arc::clone(&ctx))
        .merge(pages::routes(ctx));
    listener::serve(listener, app, bounds, stop).await;
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
