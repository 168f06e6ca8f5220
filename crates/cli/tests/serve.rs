//! `tricorne serve` as a person runs it: the real binary on a free port with a temporary SQLite
//! file, or over a throwaway PostgreSQL, spoken to over HTTP. Killed with SIGKILL in the middle
//! of a game and started again on the same database, it continues the game with every accepted
//! action.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The server tests' throwaway PostgreSQL (initdb and pg_ctl into a temporary directory; fails,
/// never skips, when PostgreSQL is not installed: `./scripts/test` installs it).
#[path = "../../server/tests/common/pg.rs"]
mod pg;

const BIN: &str = env!("CARGO_BIN_EXE_tricorne");

fn sqlite_url(db: &Path) -> String {
    format!("sqlite://{}", db.display())
}

/// A running `tricorne serve`.
struct Server {
    child: Child,
    addr: String,
    _stdout: BufReader<ChildStdout>,
}

impl Server {
    /// Start on a database URL (`sqlite://…` or `postgres://…`).
    fn start(database_url: &str) -> Server {
        Self::start_with(database_url, &[])
    }

    /// Start with more arguments (`--ai random`).
    fn start_with(database_url: &str, more: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            // A player here submits as fast as the server answers, a bot's pace: no action rate.
            .args([
                "serve",
                "--port",
                "0",
                "--database-url",
                database_url,
                "--actions-per-second",
                "0",
            ])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tricorne serve");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("the server says where it listens");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server {
            child,
            addr,
            _stdout: out,
        }
    }

    /// SIGKILL: no shutdown, no flush, nothing but what is already on disk.
    fn kill9(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on a fresh connection: (status, body).
fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no header end in {text:?}")))?;
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status in {head:?}")))?;
    Ok((status, rest.to_string()))
}

fn json_of(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

struct Game {
    id: String,
    french: String,
    allies: String,
    spectator: String,
}

fn create(addr: &str, seed: u64) -> Game {
    let (st, body) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": seed})),
    )
    .expect("create");
    assert_eq!(st, 201, "{body}");
    let v = json_of(&body);
    let s = |p: &str| v.pointer(p).and_then(Value::as_str).expect(p).to_string();
    Game {
        id: s("/game"),
        french: s("/seats/French"),
        allies: s("/seats/Allies"),
        spectator: s("/spectator"),
    }
}

fn state(addr: &str, g: &Game, token: &str) -> std::io::Result<Value> {
    let (st, body) = http(
        addr,
        "GET",
        &format!("/api/games/{}?token={token}", g.id),
        None,
    )?;
    if st != 200 {
        return Err(std::io::Error::other(format!("{st}: {body}")));
    }
    Ok(json_of(&body))
}

/// The deciding seat's token, the version, and a legal action chosen by `pick`.
fn next_move(addr: &str, g: &Game, pick: &mut u64) -> std::io::Result<(String, u64, String)> {
    let s = state(addr, g, &g.spectator)?;
    let token = match s["decider"].as_str() {
        Some("French") => g.french.clone(),
        Some("Allies") => g.allies.clone(),
        other => return Err(std::io::Error::other(format!("no decider: {other:?}"))),
    };
    let mine = state(addr, g, &token)?;
    let legal = mine["legal"].as_array().cloned().unwrap_or_default();
    *pick = pick
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let i = (*pick >> 33) as usize % legal.len().max(1);
    let action = legal[i]["id"].as_str().unwrap_or_default().to_string();
    Ok((token, mine["version"].as_u64().unwrap_or_default(), action))
}

/// Play one action; Ok(action) when accepted.
fn play(addr: &str, g: &Game, pick: &mut u64) -> std::io::Result<String> {
    let (token, version, action) = next_move(addr, g, pick)?;
    let (st, body) = http(
        addr,
        "POST",
        &format!("/api/games/{}/actions", g.id),
        Some(&json!({"token": token, "action": action, "version": version})),
    )?;
    if st != 200 {
        return Err(std::io::Error::other(format!("{st}: {body}")));
    }
    Ok(action)
}

fn record(addr: &str, g: &Game) -> Value {
    let (st, body) = http(
        addr,
        "GET",
        &format!("/api/games/{}/record?token={}", g.id, g.french),
        None,
    )
    .expect("record");
    assert_eq!(st, 200, "{body}");
    json_of(&body)
}

#[test]
fn kill_9_in_the_middle_of_a_game_loses_no_accepted_action() {
    let dir = tempfile::tempdir().expect("temp dir");
    kill_9_loses_nothing(&sqlite_url(&dir.path().join("games.db")));
}

/// The same over PostgreSQL: the server is killed, the database server keeps running, and the
/// restarted server finds every accepted action there.
#[test]
fn kill_9_in_the_middle_of_a_game_loses_no_accepted_action_postgres() {
    let pg = pg::Postgres::start();
    kill_9_loses_nothing(&pg.url);
}

/// Play, kill the server with SIGKILL while a player keeps submitting, restart it on the same
/// database, and check that every accepted action is there and the game goes on.
fn kill_9_loses_nothing(database_url: &str) {
    let server = Server::start(database_url);
    let addr = server.addr.clone();
    let g = Arc::new(create(&addr, 5));
    let mut pick = 99u64;
    let accepted = Arc::new(Mutex::new(Vec::new()));
    for _ in 0..30 {
        let a = play(&addr, &g, &mut pick).expect("accepted");
        accepted.lock().expect("lock").push(a);
    }
    // Keep playing as fast as possible while the server is killed.
    let player = {
        let (addr, g, accepted) = (addr.clone(), g.clone(), accepted.clone());
        std::thread::spawn(move || {
            let mut pick = 7u64;
            let deadline = Instant::now() + Duration::from_secs(30);
            while Instant::now() < deadline {
                match play(&addr, &g, &mut pick) {
                    Ok(a) => accepted.lock().expect("lock").push(a),
                    Err(_) => break,
                }
            }
        })
    };
    std::thread::sleep(Duration::from_millis(400));
    server.kill9();
    player.join().expect("player");
    let accepted = accepted.lock().expect("lock").clone();
    assert!(accepted.len() > 30, "actions were accepted during the run");

    let server = Server::start(database_url);
    let addr = server.addr.clone();
    let s = state(&addr, &g, &g.spectator).expect("the game is there");
    let version = s["version"].as_u64().expect("version") as usize;
    // Every accepted action is there, in order; at most one more (sent, stored, and the answer
    // lost with the server).
    assert!(
        version == accepted.len() || version == accepted.len() + 1,
        "version {version}, {} accepted",
        accepted.len()
    );
    let rec = record(&addr, &g);
    let stored: Vec<String> = rec["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a.as_str().expect("id").to_string())
        .collect();
    assert_eq!(&stored[..accepted.len()], &accepted[..]);
    // And the game goes on.
    let mut pick = 3u64;
    for _ in 0..5 {
        play(&addr, &g, &mut pick).expect("the game goes on");
    }
    assert_eq!(
        state(&addr, &g, &g.spectator).expect("state")["version"],
        version as u64 + 5
    );
}

#[test]
fn simultaneous_submissions_over_http_one_is_applied() {
    let dir = tempfile::tempdir().expect("temp dir");
    one_of_two_applied(&sqlite_url(&dir.path().join("games.db")));
}

#[test]
fn simultaneous_submissions_over_http_one_is_applied_postgres() {
    let pg = pg::Postgres::start();
    one_of_two_applied(&pg.url);
}

/// Ten rounds of two simultaneous submissions for one decision: one 200 and one 409 each time.
fn one_of_two_applied(database_url: &str) {
    let server = Server::start(database_url);
    let addr = server.addr.clone();
    let g = Arc::new(create(&addr, 8));
    let mut pick = 1u64;
    for round in 0..10u64 {
        let (token, version, action) = next_move(&addr, &g, &mut pick).expect("move");
        assert_eq!(version, round);
        let barrier = Arc::new(std::sync::Barrier::new(2));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (addr, g, token, action, barrier) = (
                    addr.clone(),
                    g.clone(),
                    token.clone(),
                    action.clone(),
                    barrier.clone(),
                );
                std::thread::spawn(move || {
                    barrier.wait();
                    http(
                        &addr,
                        "POST",
                        &format!("/api/games/{}/actions", g.id),
                        Some(&json!({"token": token, "action": action, "version": version})),
                    )
                    .expect("answer")
                })
            })
            .collect();
        let mut statuses: Vec<u16> = threads
            .into_iter()
            .map(|t| {
                let (st, body) = t.join().expect("thread");
                if st == 409 {
                    assert!(body.contains("stale version"), "{body}");
                }
                st
            })
            .collect();
        statuses.sort();
        assert_eq!(statuses, [200, 409], "round {round}");
    }
    assert_eq!(
        state(&addr, &g, &g.spectator).expect("state")["version"],
        10
    );
    assert_eq!(
        record(&addr, &g)["actions"].as_array().expect("a").len(),
        10
    );
}

#[test]
fn serve_refuses_a_database_it_cannot_open() {
    let out = Command::new(BIN)
        .args([
            "serve",
            "--port",
            "0",
            "--database-url",
            "sqlite:///nonexistent-dir/x/y.db",
        ])
        .output()
        .expect("run");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("tricorne: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `tricorne verify FILE`: (success, stdout, stderr).
fn verify(path: &Path) -> (bool, String, String) {
    let out = Command::new(BIN)
        .arg("verify")
        .arg(path)
        .output()
        .expect("run tricorne verify");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 13, dice anyone can verify: a game against the computer played to its end through the
/// real server; its record (the server seed revealed) passes `tricorne verify`, and a record
/// whose server seed, commitment, client seed, dice seed or one logged roll was altered is
/// refused with one line saying what differs. A record of `tricorne autoplay` (a seed chosen
/// openly) passes as a plain replay.
#[test]
fn verify_accepts_a_finished_game_of_the_server_and_refuses_altered_records() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start_with(
        &sqlite_url(&dir.path().join("games.db")),
        &["--ai", "random"],
    );
    let addr = server.addr.clone();
    let (st, body) = http(
        &addr,
        "POST",
        "/api/games",
        Some(&json!({"scenario": "hastenbeck", "mode": "ai", "human": "French"})),
    )
    .expect("create");
    assert_eq!(st, 201, "{body}");
    let v = json_of(&body);
    let id = v["game"].as_str().expect("id").to_string();
    let token = v["seats"]["French"].as_str().expect("token").to_string();
    let commitment = v["dice"]["commitment"]
        .as_str()
        .expect("commitment")
        .to_string();
    let (st, body) = http(
        &addr,
        "POST",
        &format!("/api/games/{id}/seed"),
        Some(&json!({"token": token, "client_seed": "verify me"})),
    )
    .expect("seed");
    assert_eq!(st, 200, "{body}");
    let mut pick = 11u64;
    let mut over = false;
    for _ in 0..5_000 {
        let (st, body) = http(
            &addr,
            "GET",
            &format!("/api/games/{id}?token={token}"),
            None,
        )
        .expect("game");
        assert_eq!(st, 200, "{body}");
        let g = json_of(&body);
        if g["decider"].is_null() {
            over = true;
            break;
        }
        let legal = g["legal"].as_array().cloned().unwrap_or_default();
        pick = pick
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let action = legal[(pick >> 33) as usize % legal.len()]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let (st, body) = http(
            &addr,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&json!({"token": token, "action": action, "version": g["version"]})),
        )
        .expect("act");
        assert_eq!(st, 200, "{body}");
    }
    assert!(over, "the game ended");
    let (st, body) = http(
        &addr,
        "GET",
        &format!("/api/games/{id}/record?token={token}"),
        None,
    )
    .expect("record");
    assert_eq!(st, 200, "{body}");
    drop(server);
    let rec = json_of(&body);
    assert_eq!(rec["dice"]["commitment"], commitment.as_str());
    let file = dir.path().join("record.json");
    std::fs::write(&file, &body).expect("write");
    let (ok, out, err) = verify(&file);
    assert!(ok, "{out}{err}");
    assert!(out.starts_with("verified:"), "{out}");

    // Each alteration, and the reason it is refused for.
    let flip = |s: &str| -> String {
        let mut c: Vec<char> = s.chars().collect();
        c[5] = if c[5] == '0' { '1' } else { '0' };
        c.into_iter().collect()
    };
    let server_seed = rec["dice"]["server_seed"]
        .as_str()
        .expect("revealed")
        .to_string();
    let roll = rec["log"]
        .as_array()
        .expect("log")
        .iter()
        .position(|l| l.as_str().is_some_and(|l| l.contains("1d6=")))
        .expect("a logged roll");
    let line = rec["log"][roll].as_str().expect("line").to_string();
    let at = line.find("1d6=").expect("roll") + 4;
    let face = line.as_bytes()[at];
    let other = if face == b'6' {
        '1'
    } else {
        (face + 1) as char
    };
    let altered_roll = format!("{}{other}{}", &line[..at], &line[at + 1..]);
    type Alteration<'a> = Box<dyn Fn(&mut Value) + 'a>;
    let cases: Vec<(&str, Alteration, &str)> = vec![
        (
            "server seed",
            Box::new(|r: &mut Value| r["dice"]["server_seed"] = json!(flip(&server_seed))),
            "does not match the commitment",
        ),
        (
            "commitment",
            Box::new(|r: &mut Value| r["dice"]["commitment"] = json!(flip(&commitment))),
            "does not match the commitment",
        ),
        (
            "client seed",
            Box::new(|r: &mut Value| r["dice"]["client_seeds"][0] = json!("verify mf")),
            "does not follow from the seeds",
        ),
        (
            "dice seed",
            Box::new(|r: &mut Value| {
                let s = r["seed"].as_u64().expect("seed");
                r["seed"] = json!(s ^ 1);
            }),
            "does not follow from the seeds",
        ),
        (
            "roll",
            Box::new(|r: &mut Value| r["log"][roll] = json!(altered_roll)),
            "differs from what the dice give",
        ),
    ];
    for (what, alter, reason) in cases {
        let mut bad = rec.clone();
        alter(&mut bad);
        let f = dir
            .path()
            .join(format!("altered-{}.json", what.replace(' ', "-")));
        std::fs::write(&f, bad.to_string()).expect("write");
        let (ok, out, err) = verify(&f);
        assert!(!ok, "an altered {what} is refused: {out}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.contains("refused") && err.contains(reason),
            "{what}: {err}"
        );
    }

    // A record of the command line (a seed chosen openly) replays and passes as such.
    let auto = dir.path().join("auto.json");
    let out = Command::new(BIN)
        .args(["autoplay", "minis-encounter", "--seed", "4", "-o"])
        .arg(&auto)
        .output()
        .expect("autoplay");
    assert!(out.status.success());
    let (ok, out, err) = verify(&auto);
    assert!(ok && out.contains("chosen openly"), "{out}{err}");
}
