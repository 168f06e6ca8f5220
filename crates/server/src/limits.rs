//! Limits, so that one client cannot take the server down (issue 13; `docs/server.md`, "Limits").
//!
//! - Per-client rates on creating games, importing records and acting: a client over its rate
//!   gets `429 Too Many Requests` with a `Retry-After` (whole seconds, at least 1). A client is
//!   its address (an IPv6 address by its /64 network, which one host usually holds whole); the
//!   address a trusted reverse proxy puts in a header is used only when that header is
//!   configured ([`Limits::client_header`]).
//! - A cap on the actions of a game and of an imported record (checked by the handlers).
//! - A header-read timeout and a cap on the open connections of a client (the connection loop,
//!   [`crate::serve_on`]).
//! - Expiry of abandoned games ([`crate::live::Hub::expire_idle`]).
//!
//! Besides: `POST`s only with `Content-Type: application/json` (415 otherwise), `Cache-Control:
//! no-store` on every answer about a game, and request logs that carry no token.

use crate::AppState;
use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// At most `count` requests per `per`: a burst of `count`, then one more each `per / count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests.
    pub count: u32,
    /// Over this time.
    pub per: Duration,
}

impl Rate {
    /// `count` a minute (0: no limit).
    pub fn per_minute(count: u32) -> Option<Rate> {
        (count > 0).then_some(Rate {
            count,
            per: Duration::from_secs(60),
        })
    }

    /// `count` a second (0: no limit).
    pub fn per_second(count: u32) -> Option<Rate> {
        (count > 0).then_some(Rate {
            count,
            per: Duration::from_secs(1),
        })
    }

    fn quota(self) -> Option<Quota> {
        let burst = NonZeroU32::new(self.count)?;
        Quota::with_period(self.per / self.count).map(|q| q.allow_burst(burst))
    }
}

/// What one client may do, and how long an abandoned game is kept. `Default` is what `tricorne
/// serve` uses: limits a person playing never reaches.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games created by one client (`POST /api/games`); default 10 a minute.
    pub create: Option<Rate>,
    /// Records imported by one client (`POST /api/import`); default 4 a minute.
    pub import: Option<Rate>,
    /// Actions submitted by one client (`POST /api/games/{id}/actions`), all its games together;
    /// default 10 a second.
    pub act: Option<Rate>,
    /// The header in which a trusted reverse proxy names the client (`X-Forwarded-For`,
    /// `X-Real-IP`): its last address is the client. Unset (the default), headers are ignored and
    /// the client is the connection's address. Set it only when every request comes through that
    /// proxy: anyone reaching the server directly could name himself anyone.
    pub client_header: Option<HeaderName>,
    /// Most actions in a game (the agent's included); an action beyond gets 409. Default 10,000
    /// (a whole game of Hastenbeck takes about 1,100).
    pub max_game_actions: u64,
    /// Most actions in an imported record; a larger record gets 413. Default 10,000.
    pub max_import_actions: u64,
    /// A connection that has not sent a whole request head this long after it opened (or after
    /// its last answer) is closed. Default 10 s.
    pub header_timeout: Duration,
    /// Most connections open at once from one address (0: no cap); beyond, a new connection is
    /// answered 429 and closed. Default 64. Behind a reverse proxy every connection comes from
    /// the proxy: raise it there (the proxy limits its own clients).
    pub max_connections_per_client: usize,
    /// A game that is not over and has had no action (nor creation) for this long is deleted
    /// (`None`: games are kept for ever). Default 60 days.
    pub expire_after: Option<Duration>,
    /// How often abandoned games are looked for (and the rate limiters forget idle clients).
    /// Default one hour; the first look is at start-up.
    pub expire_every: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            create: Rate::per_minute(10),
            import: Rate::per_minute(4),
            act: Rate::per_second(10),
            client_header: None,
            max_game_actions: 10_000,
            max_import_actions: 10_000,
            header_timeout: Duration::from_secs(10),
            max_connections_per_client: 64,
            expire_after: Some(Duration::from_secs(60 * 24 * 3600)),
            expire_every: Duration::from_secs(3600),
        }
    }
}

impl Limits {
    /// The same limits without the per-client rates (tests that play many games quickly).
    pub fn without_rates(mut self) -> Self {
        self.create = None;
        self.import = None;
        self.act = None;
        self
    }
}

/// A header name as `--client-header` gives it (any case), or `None` if it is not one.
pub fn header_name(name: &str) -> Option<HeaderName> {
    HeaderName::from_bytes(name.trim().to_ascii_lowercase().as_bytes()).ok()
}

type Limiter = DefaultKeyedRateLimiter<IpAddr>;

/// The rate limiters of a server: one per limited route, keyed by client.
pub(crate) struct RateLimits {
    create: Option<Limiter>,
    import: Option<Limiter>,
    act: Option<Limiter>,
    client_header: Option<HeaderName>,
}

/// The routes with a rate.
#[derive(Clone, Copy)]
enum Limited {
    Create,
    Import,
    Act,
}

impl RateLimits {
    pub(crate) fn new(l: &Limits) -> Self {
        let limiter = |r: Option<Rate>| r.and_then(Rate::quota).map(Limiter::keyed);
        RateLimits {
            create: limiter(l.create),
            import: limiter(l.import),
            act: limiter(l.act),
            client_header: l.client_header.clone(),
        }
    }

    fn limiter(&self, what: Limited) -> Option<&Limiter> {
        match what {
            Limited::Create => self.create.as_ref(),
            Limited::Import => self.import.as_ref(),
            Limited::Act => self.act.as_ref(),
        }
    }

    /// Forget the clients whose quota is full again (their state is the same as a new
    /// client's), so that the limiters' memory follows the active clients.
    pub(crate) fn forget_idle(&self) {
        for l in [&self.create, &self.import, &self.act]
            .into_iter()
            .flatten()
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// Which rate a request counts against: `POST /api/games`, `POST /api/import`,
/// `POST /api/games/{id}/actions`.
fn limited(method: &Method, path: &str) -> Option<Limited> {
    if method != Method::POST {
        return None;
    }
    match path {
        "/api/games" => Some(Limited::Create),
        "/api/import" => Some(Limited::Import),
        _ => {
            let rest = path.strip_prefix("/api/games/")?;
            let (id, tail) = rest.split_once('/')?;
            // Claiming an invitation and adding a client seed are acts of a seat too.
            (!id.is_empty() && matches!(tail, "actions" | "claim" | "seed")).then_some(Limited::Act)
        }
    }
}

/// The key of a client: an IPv4 address, or the /64 network of an IPv6 address (an IPv4 address
/// written as IPv6 is that IPv4 address).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The client a request comes from: the last address in the trusted header when one is
/// configured and holds one, else the connection's address. A request that came through no
/// connection (in-process tests) is the unspecified address: all such requests are one client.
fn client_of(req: &Request, trusted: Option<&HeaderName>) -> IpAddr {
    let from_header = trusted.and_then(|h| forwarded_client(req.headers(), h));
    let ip = from_header.unwrap_or_else(|| {
        req.extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED), |c| c.0.ip())
    });
    client_key(ip)
}

/// The last address in a header (`X-Forwarded-For: client, proxy1` lists the addresses each proxy
/// saw; the last one was added by the proxy nearest to this server, the trusted one). An address
/// may carry a port (`1.2.3.4:5678`, `[::1]:5678`).
fn forwarded_client(headers: &HeaderMap, name: &HeaderName) -> Option<IpAddr> {
    let mut all = headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let last = all.next_back()?;
    last.parse::<IpAddr>()
        .ok()
        .or_else(|| last.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

/// The layer that counts creations, imports and actions per client (the `governor` crate's
/// keyed GCRA limiters): 429 with `Retry-After` beyond the rate. It runs after the content-type
/// check, so a cross-site form (415) does not use up its victim's quota.
pub(crate) async fn rate_limit(State(st): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(what) = limited(req.method(), req.uri().path()) {
        let rates = st.rates();
        if let Some(limiter) = rates.limiter(what) {
            let client = client_of(&req, rates.client_header.as_ref());
            if let Err(not_until) = limiter.check_key(&client) {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                return too_many(what, wait);
            }
        }
    }
    next.run(req).await
}

fn too_many(what: Limited, wait: Duration) -> Response {
    // Whole seconds, rounded up: `Retry-After: 0` would invite the same request at once.
    let secs = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
    let doing = match what {
        Limited::Create => "games created",
        Limited::Import => "records imported",
        Limited::Act => "actions submitted",
    };
    let mut res = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(serde_json::json!({
            "error": format!("too many {doing} from your address: try again in {secs} s")
        })),
    )
        .into_response();
    res.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    res
}

/// `POST` takes JSON only: a cross-site `<form>` can post `text/plain` or form data without the
/// browser asking the server first, but not `application/json`. 415 otherwise.
pub(crate) async fn require_json(req: Request, next: Next) -> Response {
    if req.method() == Method::POST && !is_json(req.headers()) {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Json(serde_json::json!({
                "error": "a POST takes a JSON body with Content-Type: application/json"
            })),
        )
            .into_response();
    }
    next.run(req).await
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

/// `Cache-Control: no-store` on every answer about a game (the answers that carry tokens, the
/// seats' views) and on the play page (its address holds a token): no cache keeps them.
pub(crate) async fn no_store(req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let private =
        path.starts_with("/api/games") || path == "/api/import" || path.starts_with("/play/");
    let mut res = next.run(req).await;
    if private {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

/// The span of a request in the log: its method and path, never its query (where the tokens
/// are).
pub(crate) fn request_span<B>(req: &axum::http::Request<B>) -> tracing::Span {
    tracing::debug_span!("request", method = %req.method(), path = %req.uri().path())
}

/// The open connections of each client, capped.
#[derive(Clone)]
pub(crate) struct Connections {
    cap: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One open connection: counted until dropped.
pub(crate) struct Admitted {
    key: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Connections {
    pub(crate) fn new(cap: usize) -> Self {
        Connections {
            cap,
            open: Arc::default(),
        }
    }

    /// Count a new connection from `ip`, or `None` if its client has `cap` open already.
    pub(crate) fn admit(&self, ip: IpAddr) -> Option<Admitted> {
        let key = client_key(ip);
        // One insert or decrement per operation: a poisoned lock is still consistent.
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(key).or_insert(0);
        if self.cap > 0 && *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(Admitted {
            key,
            open: self.open.clone(),
        })
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// What a connection over the cap is sent before it is closed.
pub(crate) const TOO_MANY_CONNECTIONS: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\n\
Content-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 55\r\n\r\n\
{\"error\":\"too many open connections from your address\"}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_says_its_length() {
        let text = std::str::from_utf8(TOO_MANY_CONNECTIONS).expect("text");
        let (_, body) = text.split_once("\r\n\r\n").expect("head");
        assert_eq!(body.len(), 55);
    }

    #[test]
    fn routes_with_a_rate() {
        assert!(matches!(
            limited(&Method::POST, "/api/games"),
            Some(Limited::Create)
        ));
        assert!(matches!(
            limited(&Method::POST, "/api/import"),
            Some(Limited::Import)
        ));
        assert!(matches!(
            limited(&Method::POST, "/api/games/abc/actions"),
            Some(Limited::Act)
        ));
        assert!(limited(&Method::GET, "/api/games/abc").is_none());
        assert!(limited(&Method::POST, "/api/games/abc/other").is_none());
        assert!(limited(&Method::POST, "/api/games//actions").is_none());
    }

    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(
            client_key(mapped),
            "192.0.2.7".parse::<IpAddr>().expect("ip")
        );
    }

    #[test]
    fn the_trusted_header_names_its_last_address() {
        let mut h = HeaderMap::new();
        let name = HeaderName::from_static("x-forwarded-for");
        h.insert(
            name.clone(),
            HeaderValue::from_static("203.0.113.9, 192.0.2.1"),
        );
        assert_eq!(
            forwarded_client(&h, &name),
            Some("192.0.2.1".parse().expect("ip"))
        );
        h.insert(name.clone(), HeaderValue::from_static("[2001:db8::1]:443"));
        assert_eq!(
            forwarded_client(&h, &name),
            Some("2001:db8::1".parse().expect("ip"))
        );
        h.insert(name.clone(), HeaderValue::from_static("unknown"));
        assert_eq!(forwarded_client(&h, &name), None);
    }
}
