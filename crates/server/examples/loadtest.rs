//! Load test of the game server: it starts a server on a free port of 127.0.0.1 over a temporary
//! SQLite file, then plays many games at once over real HTTP with scripted clients that choose
//! random legal actions (half the games hot-seat, half against the server's agent), and prints
//! the latency of action submission (p50, p90, p99, max) and the throughput.
//!
//! ```sh
//! cargo run --release -p server --example loadtest                 # 100 games, 300 submissions each
//! cargo run --release -p server --example loadtest -- --games 100 --actions 300 --think-ms 0
//! cargo run --release -p server --example loadtest -- --instances 2    # two servers, one PostgreSQL
//! ```
//!
//! With `--instances 2` (or more) it starts that many servers on one PostgreSQL database, each
//! with its own store and cache as separate `tricorne serve` processes would have (issue 13,
//! "Several servers on one database"), and the clients play through all of them: with
//! `--route request` (the default) each request goes to a server drawn at random, as behind a
//! load balancer without sticky sessions, so nearly every action is read back through another
//! server than the one that stored it; with `--route game` game n always goes to server n mod N.
//! The database is `--database-url postgres://…` or, without one, a throwaway PostgreSQL
//! started from Debian's server binaries (as the tests do).
//!
//! It is not a test with a time limit: it reports figures (docs/server.md keeps the latest).
//! Its traffic goes to 127.0.0.1 only, and it stops by itself: after `--actions` submissions per
//! game (or the game's end) or `--max-seconds`, whichever comes first.
//!
//! The server is served as `tricorne serve` serves it (`server::serve_on`: the header timeout,
//! the per-client limits), with the default limits but two: the clients are 100 players behind
//! one reverse proxy, each named by the `X-Forwarded-For` the proxy adds (a documentation
//! address; no traffic goes there), so the cap on connections per address is lifted as behind a
//! proxy; and a saturated client submits 30 and more actions a second, a bot's pace that the
//! default of 10 a second per client stops (a person never nears it), so the action rate is
//! raised to `--actions-per-second` (default 1,000). A 429 is counted as an error.

use serde_json::{Value, json};

/// The throwaway PostgreSQL of the tests (for `--instances 2` without `--database-url`).
#[allow(dead_code)]
#[path = "../tests/common/pg.rs"]
mod pg;

/// The same allocator as the `tricorne` binary (crates/cli/src/main.rs), so the figures are its.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    /// The agent that answers in the AI games (the server's default is `search`, whose thinking
    /// time is not server overhead; the load test measures the server with `random`).
    ai: String,
    games: usize,
    actions: usize,
    think_ms: u64,
    max_seconds: u64,
    seed: u64,
    actions_per_second: u32,
    /// Servers sharing the database.
    instances: usize,
    /// `postgres://…`; none: a temporary SQLite file (one server) or a throwaway PostgreSQL.
    database_url: Option<String>,
    /// Each request to a random server (`false`: each game to one server).
    route_requests: bool,
}

fn args() -> Args {
    let mut a = Args {
        ai: "random".to_string(),
        games: 100,
        actions: 300,
        think_ms: 0,
        max_seconds: 600,
        seed: 1,
        actions_per_second: 1000,
        instances: 1,
        database_url: None,
        route_requests: true,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let val = |i: usize| -> u64 {
            argv.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| {
                    eprintln!("{} needs a number", argv[i]);
                    std::process::exit(2)
                })
        };
        match argv[i].as_str() {
            "--ai" => {
                a.ai = argv.get(i + 1).cloned().unwrap_or_else(|| {
                    eprintln!("--ai needs an agent name");
                    std::process::exit(2)
                })
            }
            "--games" => a.games = val(i) as usize,
            "--actions" => a.actions = val(i) as usize,
            "--think-ms" => a.think_ms = val(i),
            "--max-seconds" => a.max_seconds = val(i),
            "--seed" => a.seed = val(i),
            "--actions-per-second" => a.actions_per_second = val(i) as u32,
            "--instances" => a.instances = (val(i) as usize).max(1),
            "--database-url" => a.database_url = argv.get(i + 1).cloned(),
            "--route" => {
                a.route_requests = match argv.get(i + 1).map(String::as_str) {
                    Some("request") => true,
                    Some("game") => false,
                    _ => {
                        eprintln!("--route needs request or game");
                        std::process::exit(2)
                    }
                }
            }
            other => {
                eprintln!(
                    "unknown argument {other}; use --games N --actions N --think-ms N \
                     --max-seconds N --seed N --ai AGENT --actions-per-second N \
                     --instances N --database-url URL --route request|game"
                );
                std::process::exit(2)
            }
        }
        i += 2;
    }
    a
}

/// A client's requests, with the address the reverse proxy names it by.
struct ClientAs {
    http: reqwest::Client,
    me: String,
}

impl ClientAs {
    fn get(&self, url: String) -> reqwest::RequestBuilder {
        self.http.get(url).header("x-forwarded-for", &self.me)
    }
    fn post(&self, url: String) -> reqwest::RequestBuilder {
        self.http.post(url).header("x-forwarded-for", &self.me)
    }
}

/// splitmix64.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

/// Processor time in clock ticks (1/100 s on Linux), from `/proc`: (this process, the whole
/// machine busy). None where `/proc` is not there.
fn ticks() -> Option<(u64, u64)> {
    let own = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command name in parentheses: state is field 3, utime and stime fields 14-15.
    let rest = own.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let own = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    let all = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu: Vec<u64> = all
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .filter_map(|v| v.parse().ok())
        .collect();
    // user, nice, system, (idle, iowait,) irq, softirq
    let busy = [0, 1, 2, 5, 6].iter().filter_map(|&i| cpu.get(i)).sum();
    Some((own, busy))
}

/// The part of `GET /api/games/{id}` a scripted client reads.
#[derive(Default, serde::Deserialize)]
struct Fetched {
    version: u64,
    legal: Vec<Legal>,
}

#[derive(Default, serde::Deserialize)]
struct Legal {
    id: String,
}

#[derive(Default)]
struct Stats {
    submit_hotseat: Vec<Duration>,
    submit_ai: Vec<Duration>,
    fetch: Vec<Duration>,
    errors: Vec<String>,
    finished: usize,
    actions_stored: u64,
}

fn pct(v: &mut [Duration], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

fn line(name: &str, v: &mut [Duration]) {
    println!(
        "{name:<28} {:>7} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
        v.len(),
        pct(v, 0.50),
        pct(v, 0.90),
        pct(v, 0.99),
        pct(v, 1.0)
    );
}

async fn play_game(
    http: reqwest::Client,
    bases: Arc<Vec<String>>,
    n: usize,
    a: Arc<Args>,
    deadline: Instant,
) -> Stats {
    let mut st = Stats::default();
    // Each client has its own address (an IPv6 client is its /64 network), as the proxy in
    // front of the server tells it.
    let me = format!("2001:db8:{:x}::1", n + 1);
    let http = ClientAs { http, me };
    // Which server each request goes to: one per game, or one drawn per request.
    let mut route = Rng(a.seed.wrapping_mul(77).wrapping_add(n as u64));
    let mut base = || -> String {
        let i = if a.route_requests {
            route.below(bases.len())
        } else {
            n % bases.len()
        };
        bases[i].clone()
    };
    let ai = n % 2 == 1;
    let body = if ai {
        json!({"scenario": "hastenbeck", "mode": "ai",
               "human": if n % 4 == 1 { "French" } else { "Allies" }})
    } else {
        json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": a.seed + n as u64})
    };
    let created: Value = match http
        .post(format!("{}/api/games", base()))
        .json(&body)
        .send()
        .await
    {
        Ok(r) if r.status().is_success() => r.json().await.unwrap_or(Value::Null),
        Ok(r) => {
            st.errors.push(format!("create: {}", r.status()));
            return st;
        }
        Err(e) => {
            st.errors.push(format!("create: {e}"));
            return st;
        }
    };
    let id = created["game"].as_str().unwrap_or_default().to_string();
    let token_of = |seat: &str| created["seats"][seat].as_str().map(str::to_string);
    // Against the computer the dice wait for the person's client seed (verifiable dice).
    if ai {
        let seat = if n % 4 == 1 { "French" } else { "Allies" };
        let seeded = http
            .post(format!("{}/api/games/{id}/seed", base()))
            .json(&json!({"token": token_of(seat), "client_seed": format!("load test {n}")}))
            .send()
            .await;
        if let Err(e) = seeded {
            st.errors.push(format!("seed: {e}"));
            return st;
        }
    }
    let mut rng = Rng(a.seed.wrapping_mul(31).wrapping_add(n as u64));
    let mut decider: Option<String> = None;
    // Whose move: ask the spectators' view once, then follow the answers.
    let spec = created["spectator"].as_str().unwrap_or_default();
    if let Ok(r) = http
        .get(format!("{}/api/games/{id}?token={spec}", base()))
        .send()
        .await
    {
        let v: Value = r.json().await.unwrap_or(Value::Null);
        decider = v["decider"].as_str().map(str::to_string);
    }
    for _ in 0..a.actions {
        if Instant::now() > deadline {
            break;
        }
        let Some(seat) = decider.clone() else {
            st.finished += 1;
            break;
        };
        let Some(token) = token_of(&seat) else {
            st.errors.push(format!("no token for {seat}"));
            break;
        };
        let t0 = Instant::now();
        // Only what a scripted client needs is decoded (the view is skipped).
        let g: Fetched = match http
            .get(format!("{}/api/games/{id}?token={token}", base()))
            .send()
            .await
        {
            Ok(r) => r.json().await.unwrap_or_default(),
            Err(e) => {
                st.errors.push(format!("fetch: {e}"));
                break;
            }
        };
        st.fetch.push(t0.elapsed());
        if g.legal.is_empty() {
            st.errors
                .push(format!("no legal action at version {}", g.version));
            break;
        }
        let action = g.legal[rng.below(g.legal.len())].id.clone();
        let version = g.version;
        if a.think_ms > 0 {
            tokio::time::sleep(Duration::from_millis(a.think_ms)).await;
        }
        let t0 = Instant::now();
        let res = http
            .post(format!("{}/api/games/{id}/actions", base()))
            .json(&json!({"token": token, "action": action, "version": version}))
            .send()
            .await;
        let (status, answer) = match res {
            Ok(r) => (r.status(), r.json::<Value>().await.unwrap_or(Value::Null)),
            Err(e) => {
                st.errors.push(format!("submit: {e}"));
                break;
            }
        };
        let took = t0.elapsed();
        if !status.is_success() {
            st.errors
                .push(format!("submit {status}: {}", answer["error"]));
            break;
        }
        if ai {
            st.submit_ai.push(took);
        } else {
            st.submit_hotseat.push(took);
        }
        st.actions_stored = answer["version"].as_u64().unwrap_or(0);
        decider = answer["decider"].as_str().map(str::to_string);
    }
    st
}

fn main() {
    let a = Arc::new(args());
    let dir = std::env::temp_dir().join(format!("tricorne-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("load.db");

    // A throwaway PostgreSQL for several servers without a database given.
    let throwaway = (a.instances > 1 && a.database_url.is_none()).then(pg::Postgres::start);
    let url = match (&a.database_url, &throwaway) {
        (Some(u), _) => u.clone(),
        (None, Some(p)) => p.url.clone(),
        (None, None) => format!("sqlite://{}", db.display()),
    };
    if a.instances > 1 && !url.starts_with("postgres") {
        eprintln!(
            "--instances {} needs a PostgreSQL --database-url",
            a.instances
        );
        std::process::exit(2)
    }

    // Each server on a runtime of its own (as `tricorne serve` runs), with its own store.
    let mut servers = Vec::new();
    let mut stops = Vec::new();
    let mut addrs = Vec::new();
    let mut describe = String::new();
    for _ in 0..a.instances {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (desc_tx, desc_rx) = std::sync::mpsc::channel();
        let agent = a.ai.clone();
        let actions_per_second = a.actions_per_second;
        let url = url.clone();
        servers.push(std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("server runtime");
            rt.block_on(async move {
                let store = server::connect(&url).await.expect("open the database");
                let _ = desc_tx.send(store.describe());
                let limits = server::Limits {
                    act: server::Rate::per_second(actions_per_second),
                    client_header: server::limits::header_name("x-forwarded-for"),
                    max_connections_per_client: 0,
                    ..server::Limits::default()
                };
                let state = server::AppState::with_settings(
                    store,
                    None,
                    server::Settings {
                        agent,
                        limits,
                        ..server::Settings::default()
                    },
                );
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                addr_tx
                    .send(listener.local_addr().expect("addr"))
                    .expect("send addr");
                server::serve_on(listener, state, async move {
                    let _ = stop_rx.await;
                })
                .await
                .expect("serve");
            });
        }));
        stops.push(stop_tx);
        addrs.push(addr_rx.recv().expect("server address"));
        describe = desc_rx.recv().expect("store description");
    }
    let bases: Arc<Vec<String>> = Arc::new(addrs.iter().map(|a| format!("http://{a}")).collect());
    let addr = addrs
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" and ");
    if a.instances > 1 {
        describe = format!(
            "{} servers on {describe}, {}",
            a.instances,
            if a.route_requests {
                "each request to a random one"
            } else {
                "each game to one"
            }
        );
    }

    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("client runtime");
    let started = Instant::now();
    let ticks_before = ticks();
    let deadline = started + Duration::from_secs(a.max_seconds);
    let results: Vec<Stats> = rt.block_on(async {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(a.games * 2)
            .build()
            .expect("client");
        let tasks: Vec<_> = (0..a.games)
            .map(|n| {
                tokio::spawn(play_game(
                    http.clone(),
                    bases.clone(),
                    n,
                    a.clone(),
                    deadline,
                ))
            })
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.expect("client task"));
        }
        out
    });
    let wall = started.elapsed();
    let ticks_after = ticks();
    for stop in stops {
        let _ = stop.send(());
    }
    for server in servers {
        server.join().expect("server thread");
    }
    drop(throwaway);

    let mut all = Stats::default();
    for s in results {
        all.submit_hotseat.extend(s.submit_hotseat);
        all.submit_ai.extend(s.submit_ai);
        all.fetch.extend(s.fetch);
        all.errors.extend(s.errors);
        all.finished += s.finished;
        all.actions_stored += s.actions_stored;
    }
    let mut submits: Vec<Duration> = all
        .submit_hotseat
        .iter()
        .chain(&all.submit_ai)
        .copied()
        .collect();
    let n_submits = submits.len();
    let size = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0)
        + std::fs::metadata(dir.join("load.db-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    println!(
        "tricorne load test: {} concurrent games over HTTP on {addr}, {}, \
         think time {} ms, {} cores",
        a.games,
        describe,
        a.think_ms,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "{:<28} {:>7} {:>8} {:>8} {:>8} {:>8}",
        "latency (ms)", "count", "p50", "p90", "p99", "max"
    );
    line("submit an action (all)", &mut submits);
    line("  hot-seat games", &mut all.submit_hotseat);
    line("  against the agent", &mut all.submit_ai);
    line("fetch the game (GET)", &mut all.fetch);
    println!(
        "{n_submits} submissions in {:.1} s: {:.0} submissions/s; {} actions stored (agent's \
         included), {:.0} actions/s; {} games finished; database {:.1} MB; {} errors",
        wall.as_secs_f64(),
        n_submits as f64 / wall.as_secs_f64(),
        all.actions_stored,
        all.actions_stored as f64 / wall.as_secs_f64(),
        all.finished,
        size as f64 / 1e6,
        all.errors.len()
    );
    if let (Some((own0, busy0)), Some((own1, busy1))) = (ticks_before, ticks_after) {
        // Ticks are hundredths of a second.
        let own = own1.saturating_sub(own0) as f64 / 100.0;
        let others = busy1.saturating_sub(busy0) as f64 / 100.0 - own;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        println!(
            "processor time: {own:.1} s for server and clients ({:.2} ms a submission); \
             other work on the machine used {:.0}% of its processors meanwhile",
            own * 1000.0 / n_submits.max(1) as f64,
            (others.max(0.0) / (wall.as_secs_f64() * cores) * 100.0)
        );
    }
    for e in all.errors.iter().take(5) {
        println!("  error: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    if !all.errors.is_empty() {
        std::process::exit(1);
    }
}
