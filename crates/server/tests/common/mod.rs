//! Shared test helpers: an in-process server over a temporary SQLite file, requests through
//! `tower::ServiceExt::oneshot`, a tiny seeded generator, and a throwaway PostgreSQL server.
#![allow(dead_code)]

pub mod pg;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use server::{AppState, Store};
use std::sync::Arc;
use tower::ServiceExt;

/// A server in this process.
pub struct Api {
    pub app: Router,
    pub state: AppState,
    pub dir: Option<tempfile::TempDir>,
    /// The address requests come from (as a real connection gives it); none: in-process.
    pub peer: Option<std::net::SocketAddr>,
    /// Headers sent with every request besides the content type.
    pub headers: Vec<(String, String)>,
}

/// An answer.
#[derive(Debug)]
pub struct Resp {
    pub status: StatusCode,
    pub content_type: String,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    /// The `error` reason of an error answer (and it must be one).
    pub fn error(&self) -> String {
        let v = self.json();
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error field: {}", self.body))
            .to_string()
    }
}

impl Api {
    /// A server over a new SQLite file.
    pub async fn sqlite() -> Api {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("games.db").display());
        let store = server::connect(&url).await.expect("open SQLite");
        let mut api = Api::over(store);
        api.dir = Some(dir);
        api
    }

    /// A server over a store, without the per-client rates (the tests play many games quickly,
    /// all as one client; `tests/limits.rs` tests the rates).
    pub fn over(store: Arc<dyn Store>) -> Api {
        let settings = server::Settings {
            limits: server::Limits::default().without_rates(),
            ..server::Settings::default()
        };
        Api::with(store, settings)
    }

    /// A server over a store, set up as given.
    pub fn with(store: Arc<dyn Store>, settings: server::Settings) -> Api {
        Api::of(AppState::with_settings(store, None, settings))
    }

    /// A server of a state.
    pub fn of(state: AppState) -> Api {
        Api {
            app: server::app(state.clone()),
            state,
            dir: None,
            peer: None,
            headers: Vec::new(),
        }
    }

    /// The same server, reached from another address (`"192.0.2.1"`).
    pub fn from(&self, ip: &str) -> Api {
        Api {
            app: self.app.clone(),
            state: self.state.clone(),
            dir: None,
            peer: Some(std::net::SocketAddr::new(ip.parse().expect("ip"), 40000)),
            headers: self.headers.clone(),
        }
    }

    /// The same client, sending a header with every request.
    pub fn with_header(mut self, name: &str, value: &str) -> Api {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub async fn request(&self, method: Method, uri: &str, body: Option<String>) -> Resp {
        self.request_as(method, uri, Some("application/json"), body)
            .await
    }

    /// A request with a given content type (none: no header).
    pub async fn request_as(
        &self,
        method: Method,
        uri: &str,
        content_type: Option<&str>,
        body: Option<String>,
    ) -> Resp {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        for (k, v) in &self.headers {
            req = req.header(k, v);
        }
        let mut req = req
            .body(body.map(Body::from).unwrap_or_else(Body::empty))
            .expect("request");
        if let Some(peer) = self.peer {
            req.extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
        }
        let res = self.app.clone().oneshot(req).await.expect("infallible");
        let status = res.status();
        let headers = res.headers().clone();
        let content_type = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        Resp {
            status,
            content_type,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    pub async fn get(&self, uri: &str) -> Resp {
        self.request(Method::GET, uri, None).await
    }

    pub async fn post(&self, uri: &str, body: &Value) -> Resp {
        self.request(Method::POST, uri, Some(body.to_string()))
            .await
    }

    /// Create a game; panics unless 201. Its seats are then taken as players would: a friend
    /// game's invitation is claimed, and each person's seat adds a client seed, so the game has
    /// started (`create_raw`: only the creation).
    pub async fn create(&self, body: Value) -> Created {
        let mut c = self.create_raw(body).await;
        if let Some(inv) = c.raw["invitation"]["token"].as_str() {
            let r = self
                .post(
                    &format!("/api/games/{}/claim", c.id),
                    &json!({ "invitation": inv }),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
            let v = r.json();
            let t = v["token"].as_str().expect("token").to_string();
            match v["seat"].as_str() {
                Some("French") => c.french = Some(t),
                _ => c.allies = Some(t),
            }
        }
        if c.raw["dice"].is_object() {
            for t in [c.french.clone(), c.allies.clone()].into_iter().flatten() {
                let r = self.add_seed(&c, &t, "test seed").await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.body);
            }
        }
        c
    }

    /// Create a game and nothing more; panics unless 201.
    pub async fn create_raw(&self, body: Value) -> Created {
        let r = self.post("/api/games", &body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        Created::of(&r.json())
    }

    /// A seat adds its client seed.
    pub async fn add_seed(&self, c: &Created, token: &str, seed: &str) -> Resp {
        self.post(
            &format!("/api/games/{}/seed", c.id),
            &json!({"token": token, "client_seed": seed}),
        )
        .await
    }

    pub async fn game(&self, c: &Created, token: &str) -> Value {
        let r = self
            .get(&format!("/api/games/{}?token={token}", c.id))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.json()
    }

    pub async fn act(&self, c: &Created, token: &str, action: &str, version: u64) -> Resp {
        self.post(
            &format!("/api/games/{}/actions", c.id),
            &json!({"token": token, "action": action, "version": version}),
        )
        .await
    }

    /// Play one random legal action for whoever decides (both seats' tokens needed unless an
    /// agent holds the other); returns the action and the answer, or None if the game is over.
    pub async fn play_one(&self, c: &Created, rng: &mut Rng) -> Option<(String, Value)> {
        let any = c.any_token();
        let g = self.game(c, any).await;
        let decider = g["decider"].as_str()?.to_string();
        let token = c
            .seat(&decider)
            .unwrap_or_else(|| panic!("no token for the deciding seat {decider}"));
        let g = self.game(c, token).await;
        let legal = g["legal"].as_array().expect("legal").clone();
        assert!(!legal.is_empty(), "the decider has no legal action");
        let pick = legal[rng.below(legal.len())]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let v = g["version"].as_u64().expect("version");
        let r = self.act(c, token, &pick, v).await;
        assert_eq!(r.status, StatusCode::OK, "{pick}: {}", r.body);
        Some((pick, r.json()))
    }
}

/// The answer to a game's creation.
#[derive(Clone, Debug)]
pub struct Created {
    pub id: String,
    pub french: Option<String>,
    pub allies: Option<String>,
    pub spectator: String,
    pub raw: Value,
}

impl Created {
    pub fn of(v: &Value) -> Created {
        let s = |k: &str| v["seats"][k].as_str().map(str::to_string);
        Created {
            id: v["game"].as_str().expect("game id").to_string(),
            french: s("French"),
            allies: s("Allies"),
            spectator: v["spectator"].as_str().expect("spectator").to_string(),
            raw: v.clone(),
        }
    }
    pub fn seat(&self, name: &str) -> Option<&str> {
        match name {
            "French" => self.french.as_deref(),
            "Allies" => self.allies.as_deref(),
            _ => None,
        }
    }
    pub fn any_token(&self) -> &str {
        self.french
            .as_deref()
            .or(self.allies.as_deref())
            .unwrap_or(&self.spectator)
    }
}

/// A small seeded generator (splitmix64) for reproducible random play.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
