//! The tricorne game server (`tricorne serve`): a page where a person picks a scenario and plays
//! it against the server's agent, hot-seat, or against a friend in another browser; the HTTP API
//! behind it (`docs/api.md`); live updates by server-sent events; games stored as their action
//! lists in SQLite or PostgreSQL.
//!
//! The server is authoritative and ruleset-agnostic: every ruleset is reached through
//! [`catalog`] and the object-safe [`engine::DynGame`]. A browser holds a capability — a secret
//! token per seat, one for spectators — and gets only what that role may see: its view, its legal
//! actions when it decides, and log lines, each written for that role by the ruleset
//! ([`engine::Lines`]): nothing it may not see is ever written into them.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod error;
pub mod live;
pub mod routes;
pub mod store;
pub mod token;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

pub use error::ApiError;
pub use routes::app;
pub use store::{Store, StoreError, connect};

/// Largest request body in general (bytes).
pub const BODY_LIMIT: usize = 64 * 1024;
/// Largest imported game record (bytes): a whole game's record is larger than an action.
pub const IMPORT_LIMIT: usize = 1024 * 1024;

/// What every handler shares: the games in play and a few caches.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    hub: live::Hub,
    boards: Mutex<HashMap<String, Arc<String>>>,
    scenario_list: tokio::sync::OnceCell<Arc<String>>,
    shutdown: watch::Sender<bool>,
}

impl AppState {
    /// A server's state over a store; `data_dir` replaces the built-in scenario data.
    pub fn new(store: Arc<dyn Store>, data_dir: Option<PathBuf>) -> Self {
        Self::with_cache(store, data_dir, live::CACHE_GAMES)
    }

    /// As [`AppState::new`], keeping at most `games` idle games in memory.
    pub fn with_cache(store: Arc<dyn Store>, data_dir: Option<PathBuf>, games: usize) -> Self {
        Self::configured(store, data_dir, games, live::AI_AGENT)
    }

    /// A server's state with the agent that plays the computer's seats (`ai::agent` names).
    pub fn with_agent(store: Arc<dyn Store>, data_dir: Option<PathBuf>, agent: &str) -> Self {
        Self::configured(store, data_dir, live::CACHE_GAMES, agent)
    }

    fn configured(
        store: Arc<dyn Store>,
        data_dir: Option<PathBuf>,
        games: usize,
        agent: &str,
    ) -> Self {
        let (shutdown, _) = watch::channel(false);
        Self {
            inner: Arc::new(Inner {
                hub: live::Hub::new(store, data_dir, games).with_agent(agent),
                boards: Mutex::new(HashMap::new()),
                scenario_list: tokio::sync::OnceCell::new(),
                shutdown,
            }),
        }
    }

    /// The games in play.
    pub fn hub(&self) -> &live::Hub {
        &self.inner.hub
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        self.inner.hub.store()
    }

    /// End every live-update stream (at shutdown, so that connections can close).
    pub fn shutdown(&self) {
        self.inner.shutdown.send_replace(true);
    }

    /// Resolves when [`AppState::shutdown`] is called.
    pub fn shutting_down(&self) -> impl std::future::Future<Output = ()> + Send + use<> {
        let mut rx = self.inner.shutdown.subscribe();
        async move {
            let _ = rx.wait_for(|v| *v).await;
        }
    }

    fn scenario_list(&self) -> &tokio::sync::OnceCell<Arc<String>> {
        &self.inner.scenario_list
    }

    fn board_cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<String>>> {
        // Each operation on the map is one insert or lookup; a poisoned lock is still consistent.
        self.inner.boards.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on (127.0.0.1 by default: this machine only).
    pub host: IpAddr,
    /// Port (0: any free port; the address is printed).
    pub port: u16,
    /// `sqlite://file.db` (default `sqlite://tricorne.db`) or `postgres://…`.
    pub database_url: String,
    /// Scenario data instead of the built-in files.
    pub data_dir: Option<PathBuf>,
    /// The agent that plays the computer's seats (default `search`).
    pub agent: String,
}

/// Failures starting or running the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The store could not be opened.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The address could not be bound, or the server failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Serve until Ctrl-C or SIGTERM, on a runtime of its own (for the `tricorne serve` command).
pub fn run(cfg: ServeConfig) -> Result<(), ServeError> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(cfg))
}

/// Open the store, bind, print `tricorne: serving http://ADDR/ …` on stdout, and serve until
/// Ctrl-C or SIGTERM.
pub async fn serve(cfg: ServeConfig) -> Result<(), ServeError> {
    let store = connect(&cfg.database_url).await?;
    let listener = tokio::net::TcpListener::bind((cfg.host, cfg.port)).await?;
    let addr = listener.local_addr()?;
    println!(
        "tricorne: serving http://{addr}/ with games in {}",
        store.describe()
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    ai::agent(&cfg.agent, 0)
        .map_err(|e| ServeError::Io(std::io::Error::new(std::io::ErrorKind::InvalidInput, e)))?;
    let state = AppState::with_agent(store, cfg.data_dir, &cfg.agent);
    let on_signal = state.clone();
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async move {
            stop_signal().await;
            tracing::info!("shutting down");
            on_signal.shutdown();
        })
        .await?;
    Ok(())
}

async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
