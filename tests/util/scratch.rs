//! Scratch room in the real services for one test: a NATS bucket prefix
//! and a PostgreSQL schema, each removed when dropped (also when the test
//! panics).

use std::time::Duration;

pub fn nats_url() -> String {
    std::env::var("INAROW_TEST_NATS").unwrap_or_else(|_| "nats://127.0.0.1:4222".into())
}

/// This run's bucket prefix, and the buckets' removal when dropped (also
/// when the test panics).
pub struct Scratch {
    pub prefix: String,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            prefix: format!("itest_{}", uuid::Uuid::now_v7().simple()),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let prefix = self.prefix.clone();
        cleanup(async move {
            let Ok(Ok(client)) =
                tokio::time::timeout(Duration::from_secs(3), async_nats::connect(nats_url())).await
            else {
                return;
            };
            let js = async_nats::jetstream::new(client);
            for bucket in ["hosts", "people", "queue", "codes", "rooms", "seats"] {
                let _ = js.delete_stream(format!("KV_{prefix}_{bucket}")).await;
            }
        });
    }
}

/// Runs a cleanup to its end on a thread and runtime of its own: a drop
/// may run while a test unwinds, or inside another runtime.
fn cleanup(work: impl std::future::Future<Output = ()> + Send + 'static) {
    let _ = std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(work);
    })
    .join();
}

/// A PostgreSQL schema of this run, shared by its hosts as their store
/// (the cluster's hosts share one store: accounts are the same on all),
/// dropped afterwards.
pub struct PgScratch {
    pub schema: String,
}

pub fn pg_url() -> String {
    std::env::var("INAROW_TEST_PG").unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
}

impl PgScratch {
    pub async fn new() -> PgScratch {
        use sqlx::Executor;
        let schema = format!("cluster_test_{}", uuid::Uuid::now_v7().simple());
        let admin = sqlx::PgPool::connect(&pg_url())
            .await
            .unwrap_or_else(|e| panic!("PostgreSQL at {}: {e}", pg_url()));
        admin
            .execute(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .await
            .unwrap();
        admin.close().await;
        PgScratch { schema }
    }

    /// The store URL whose connections work in this schema.
    pub fn url(&self) -> String {
        format!("{}?options=-c%20search_path%3D{}", pg_url(), self.schema)
    }

    /// The `[store]` section for a host: this schema, and a journal of
    /// the host's own (several tests' hosts run in one folder).
    pub fn section(&self) -> String {
        let journal = std::env::temp_dir().join(format!(
            "inarow-test-journal-{}-{}.jsonl",
            self.schema,
            uuid::Uuid::now_v7().simple()
        ));
        format!(
            "[store]\nurl = \"{}\"\njournal = \"{}\"\n",
            self.url(),
            journal.display()
        )
    }
}

impl Drop for PgScratch {
    fn drop(&mut self) {
        let schema = self.schema.clone();
        let journals = format!("inarow-test-journal-{schema}-");
        if let Ok(dir) = std::fs::read_dir(std::env::temp_dir()) {
            for e in dir.flatten() {
                if e.file_name().to_string_lossy().starts_with(&journals) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        cleanup(async move {
            use sqlx::Executor;
            if let Ok(admin) = sqlx::PgPool::connect(&pg_url()).await {
                let _ = admin
                    .execute(sqlx::AssertSqlSafe(format!(
                        "DROP SCHEMA IF EXISTS {schema} CASCADE"
                    )))
                    .await;
                admin.close().await;
            }
        });
    }
}
