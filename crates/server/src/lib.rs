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
pub mod limits;
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
pub use limits::{Limits, Rate};
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
    limits: Limits,
    rates: limits::RateLimits,
    public_url: Option<String>,
}

/// How a server's state is set up (`AppState::with_settings`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// The agent that plays the computer's seats (`ai::agent` names; default `search`).
    pub agent: String,
    /// Idle games kept in memory (default [`live::CACHE_GAMES`]).
    pub cache_games: usize,
    /// What one client may do ([`Limits::default`]: what `tricorne serve` uses).
    pub limits: Limits,
    /// The address the server is reached at from outside (`https://example.org`): the links in
    /// the answers are built on it. `None`: relative links (`/play/…`), never the request's
    /// `Host`, which the client chooses.
    pub public_url: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            agent: live::AI_AGENT.to_string(),
            cache_games: live::CACHE_GAMES,
            limits: Limits::default(),
            public_url: None,
        }
    }
}

impl AppState {
    /// A server's state over a store; `data_dir` replaces the built-in scenario data.
    pub fn new(store: Arc<dyn Store>, data_dir: Option<PathBuf>) -> Self {
        Self::with_settings(store, data_dir, Settings::default())
    }

    /// As [`AppState::new`], keeping at most `games` idle games in memory.
    pub fn with_cache(store: Arc<dyn Store>, data_dir: Option<PathBuf>, games: usize) -> Self {
        Self::with_settings(
            store,
            data_dir,
            Settings {
                cache_games: games,
                ..Settings::default()
            },
        )
    }

    /// A server's state with the agent that plays the computer's seats (`ai::agent` names).
    pub fn with_agent(store: Arc<dyn Store>, data_dir: Option<PathBuf>, agent: &str) -> Self {
        Self::with_settings(
            store,
            data_dir,
            Settings {
                agent: agent.to_string(),
                ..Settings::default()
            },
        )
    }

    /// A server's state set up in full.
    pub fn with_settings(store: Arc<dyn Store>, data_dir: Option<PathBuf>, s: Settings) -> Self {
        let (shutdown, _) = watch::channel(false);
        // Several servers on one database: the writes of the others, as the store tells them.
        let notices = store.notifications();
        let state = Self {
            inner: Arc::new(Inner {
                hub: live::Hub::new(store, data_dir, s.cache_games)
                    .with_agent(&s.agent)
                    .shared(notices.is_some()),
                boards: Mutex::new(HashMap::new()),
                scenario_list: tokio::sync::OnceCell::new(),
                shutdown,
                rates: limits::RateLimits::new(&s.limits),
                limits: s.limits,
                public_url: s
                    .public_url
                    .map(|u| u.trim_end_matches('/').to_string())
                    .filter(|u| !u.is_empty()),
            }),
        };
        if let (Some(mut rx), Ok(rt)) = (notices, tokio::runtime::Handle::try_current()) {
            // The task ends with the state (or the store's feed); without a runtime the hub
            // checks the store before each answer instead.
            let inner = Arc::downgrade(&state.inner);
            rt.spawn(async move {
                while let Some(n) = rx.recv().await {
                    let Some(inner) = inner.upgrade() else { return };
                    inner.hub.notice(n);
                }
            });
        }
        state
    }

    /// What one client may do.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    pub(crate) fn rates(&self) -> &limits::RateLimits {
        &self.inner.rates
    }

    /// The base of the links in the answers: the configured public URL, or "" (relative links).
    pub fn public_url(&self) -> &str {
        self.inner.public_url.as_deref().unwrap_or("")
    }

    /// Now and then (every [`Limits::expire_every`], the first time at once): delete the
    /// abandoned games and let the rate limiters forget idle clients. Runs until the server
    /// shuts down.
    pub async fn maintain(self) {
        let mut tick = tokio::time::interval(self.limits().expire_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let stop = self.shutting_down();
        tokio::pin!(stop);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = &mut stop => return,
            }
            self.rates().forget_idle();
            if let Some(age) = self.limits().expire_after {
                match self.hub().expire_idle(live::unix_now(), age).await {
                    Ok(r) if r.expired > 0 => tracing::info!(
                        "deleted {} abandoned games (no action for {} s); {} finished games kept",
                        r.expired,
                        age.as_secs(),
                        r.kept
                    ),
                    Ok(_) => {}
                    Err(e) => tracing::warn!("expiring abandoned games: {e}"),
                }
            }
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
    /// What one client may do, and when abandoned games go.
    pub limits: Limits,
    /// The address the server is reached at from outside, for the links (`--public-url`).
    pub public_url: Option<String>,
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
    let state = AppState::with_settings(
        store,
        cfg.data_dir,
        Settings {
            agent: cfg.agent,
            limits: cfg.limits,
            public_url: cfg.public_url,
            ..Settings::default()
        },
    );
    serve_on(listener, state, async {
        stop_signal().await;
        tracing::info!("shutting down");
    })
    .await?;
    Ok(())
}

/// Serve [`app`] on a bound listener until `stop` resolves, then end the live-update streams,
/// let the requests in progress finish and return. Each connection is HTTP/1.1 with a
/// header-read timeout ([`Limits::header_timeout`]); a client with
/// [`Limits::max_connections_per_client`] open gets a 429 on a new one, which is closed. Runs
/// [`AppState::maintain`] beside.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    stop: impl std::future::Future<Output = ()> + Send,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let limits = state.limits().clone();
    let router = app(state.clone());
    let conns = limits::Connections::new(limits.max_connections_per_client);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let (close, closing) = watch::channel(false);
    // Each connection holds a sender; when all are gone, every connection has closed.
    let (open_tx, mut all_closed) = tokio::sync::mpsc::channel::<()>(1);
    let maintenance = tokio::spawn(state.clone().maintain());
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was taken: wait a
                    // moment rather than spin.
                    tracing::debug!("accept: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Some(admitted) = conns.admit(peer.ip()) else {
            tracing::debug!("refused a connection: too many open from its address");
            // Best effort, without waiting: the refusal fits in the socket's buffer.
            let _ = stream.try_write(limits::TOO_MANY_CONNECTIONS);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            tower::ServiceExt::oneshot(router.clone(), req.map(axum::body::Body::new))
        });
        let conn = http.serve_connection(TokioIo::new(stream), service);
        let mut closing = closing.clone();
        let open = open_tx.clone();
        tokio::spawn(async move {
            tokio::pin!(conn);
            let mut asked = false;
            loop {
                tokio::select! {
                    r = conn.as_mut() => {
                        if let Err(e) = r {
                            tracing::debug!("connection: {e}");
                        }
                        break;
                    }
                    _ = closing.wait_for(|c| *c), if !asked => {
                        asked = true;
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(admitted);
            drop(open);
        });
    }
    drop(listener);
    state.shutdown();
    close.send_replace(true);
    drop(open_tx);
    let _ = all_closed.recv().await;
    maintenance.abort();
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
