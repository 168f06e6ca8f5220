//! The browser test (issue 3): the real `tricorne serve` on a free port with a fresh SQLite file,
//! driven through Debian's headless Chromium over the DevTools protocol (`headless_chrome`). It
//! opens the lobby, starts Hastenbeck against the AI as the French, activates a formation with its
//! button, moves a unit by clicking its hex and then a highlighted hex, plays on with the buttons
//! until the AI has answered, and checks the turn, phase and log on the page. Screenshots are kept
//! in `target/browser-test/`.

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tricorne");
const CHROMIUM: &str = "/usr/bin/chromium";
const WAIT: Duration = Duration::from_secs(30);

/// The server process, killed when the test ends (passed or not).
struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(dir: &Path) -> Server {
        // A free port: bind to port 0, read it, release it for the server.
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free local port")
            .port();
        let log = dir.join("server.log");
        let out = std::fs::File::create(&log).expect("server log file");
        let err = out.try_clone().expect("server log file");
        let child = Command::new(BIN)
            .arg("serve")
            .arg("--port")
            .arg(port.to_string())
            .arg("--database-url")
            .arg(format!("sqlite://{}", dir.join("games.db").display()))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("start tricorne serve");
        let mut server = Server { child, port, log };
        let start = Instant::now();
        loop {
            if let Some(status) = server.child.try_wait().expect("server status") {
                panic!(
                    "tricorne serve exited with {status}:\n{}",
                    server.log_text()
                );
            }
            if http_get(port, "/api/scenarios").is_some_and(|r| r.starts_with("HTTP/1.1 200")) {
                return server;
            }
            if start.elapsed() > WAIT {
                panic!(
                    "tricorne serve did not answer on port {port} within {WAIT:?}:\n{}",
                    server.log_text()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// A bare HTTP/1.1 GET (no client library needed to see whether the server is up).
fn http_get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tricorne-browser-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create temp dir");
    d
}

fn artifacts() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-test");
    std::fs::create_dir_all(&d).expect("create target/browser-test");
    d
}

fn launch(profile: PathBuf) -> Browser {
    let flags = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ];
    Browser::new(LaunchOptions {
        headless: true, // --headless
        sandbox: false, // --no-sandbox
        path: Some(PathBuf::from(CHROMIUM)),
        user_data_dir: Some(profile),
        window_size: Some((1400, 900)),
        args: flags.iter().map(OsStr::new).collect(),
        idle_browser_timeout: Duration::from_secs(300),
        ..LaunchOptions::default()
    })
    .expect("launch headless Chromium")
}

/// Evaluate a JavaScript expression in the page and return its value as JSON (null if none). The
/// page serialises it, since DevTools returns objects and arrays by reference.
fn js(tab: &Tab, expr: &str) -> Value {
    let wrapped = format!("JSON.stringify(({expr}))");
    let v = tab
        .evaluate(&wrapped, false)
        .unwrap_or_else(|e| panic!("evaluating {expr}: {e}"))
        .value;
    match v {
        Some(Value::String(json)) => serde_json::from_str(&json).unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

fn text(tab: &Tab, selector: &str) -> String {
    let expr = format!(
        "(() => {{ const e = document.querySelector({sel}); return e ? e.innerText : ''; }})()",
        sel = Value::String(selector.into())
    );
    js(tab, &expr).as_str().unwrap_or_default().to_string()
}

/// Poll `f` until it gives `Some`, or fail with what the page shows.
fn wait_for<T>(tab: &Tab, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        if start.elapsed() > WAIT {
            let _ = shot(tab, "failure.png");
            panic!(
                "timed out waiting for {what}; the page shows:\ndecision: {}\nstatus: {}\nerror: {}\nlog:\n{}",
                text(tab, "#decision"),
                text(tab, "#status"),
                text(tab, "#action-error"),
                text(tab, "#log")
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn version(tab: &Tab) -> Option<u64> {
    js(tab, "document.body.dataset.version || null")
        .as_str()
        .and_then(|v| v.parse().ok())
}

fn log_lines(tab: &Tab) -> u64 {
    js(tab, "document.querySelectorAll('#log li').length")
        .as_u64()
        .unwrap_or(0)
}

/// Wait until the page shows a version above `v` and no request is in flight, then a moment more
/// for the refetch of any AI answer (server-sent event) to land.
fn wait_version_above(tab: &Tab, v: u64) -> u64 {
    let now = wait_for(tab, &format!("the view to pass version {v}"), || {
        version(tab).filter(|&n| n > v)
    });
    let mut last = now;
    let mut stable = Instant::now();
    while stable.elapsed() < Duration::from_millis(600) {
        std::thread::sleep(Duration::from_millis(100));
        let n = version(tab).unwrap_or(last);
        if n != last {
            last = n;
            stable = Instant::now();
        }
    }
    last
}

/// The `data-action` and `data-hexes` of the first button matching `selector`.
fn button(tab: &Tab, selector: &str) -> Option<(String, Vec<String>)> {
    let expr = format!(
        "(() => {{ const b = document.querySelector({sel}); \
         return b ? [b.dataset.action, b.dataset.hexes || ''] : null; }})()",
        sel = Value::String(selector.into())
    );
    let v = js(tab, &expr);
    let a = v.as_array()?;
    Some((
        a[0].as_str()?.to_string(),
        a[1].as_str()?
            .split_whitespace()
            .map(String::from)
            .collect(),
    ))
}

/// The first action button of the decision panel whose action id starts with `prefix`.
fn action_button(tab: &Tab, prefix: &str) -> Option<(String, Vec<String>)> {
    button(tab, &format!("#actions button[data-action^=\"{prefix}\"]"))
}

fn click(tab: &Tab, selector: &str) {
    tab.wait_for_element_with_custom_timeout(selector, WAIT)
        .unwrap_or_else(|e| panic!("no element {selector}: {e}"))
        .click()
        .unwrap_or_else(|e| panic!("clicking {selector}: {e}"));
}

/// Click a hex of the map; if the page offers a menu of the actions there, pick `action` in it.
fn click_hex_for(tab: &Tab, hex: &str, action: &str) {
    let highlighted = js(
        tab,
        &format!("!!document.querySelector('polygon.hit.target[data-hex=\"{hex}\"]')"),
    );
    assert_eq!(
        highlighted,
        Value::Bool(true),
        "hex {hex} of {action} is not highlighted"
    );
    click(tab, &format!("polygon.hit[data-hex=\"{hex}\"]"));
    std::thread::sleep(Duration::from_millis(200));
    let menu = format!("#menu:not([hidden]) button[data-action=\"{action}\"]");
    if js(tab, &format!("!!document.querySelector('{menu}')")) == Value::Bool(true) {
        click(tab, &menu);
    }
}

fn shot(tab: &Tab, name: &str) -> PathBuf {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("screenshot");
    let path = artifacts().join(name);
    std::fs::write(&path, png).expect("write screenshot");
    path
}

#[test]
fn play_hastenbeck_against_the_ai_in_chromium() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: the browser test needs Debian's Chromium \
         (scripts/test installs it; or run `apt-get install chromium`)"
    );
    let _ = std::fs::remove_file(artifacts().join("failure.png"));
    let dir = temp_dir();
    let server = Server::start(&dir);
    let browser = launch(dir.join("chromium-profile"));
    let tab = browser.new_tab().expect("a browser tab");
    tab.set_default_timeout(WAIT);

    // The lobby: Hastenbeck, against the computer, as the French.
    tab.navigate_to(&server.url("/"))
        .expect("open the lobby")
        .wait_until_navigated()
        .expect("lobby loads");
    click(&tab, "input[name=scenario][value=hastenbeck]");
    click(&tab, "input[name=mode][value=ai]");
    click(&tab, "input[name=human][value=French]");
    // A fixed seed: the same dice (and the same moves of the AI) every run.
    click(&tab, "#seed");
    tab.type_str("7").expect("type the seed");
    click(&tab, "#create");

    // The play page, drawn from the board and the French view.
    wait_for(&tab, "the play page", || {
        tab.get_url().contains("/play/").then_some(())
    });
    wait_for(&tab, "the first decision", || {
        (version(&tab) == Some(0)
            && text(&tab, "#decision").contains("choose a formation to activate"))
        .then_some(())
    });
    let hexes = js(&tab, "document.querySelectorAll('#map polygon.hit').length");
    assert!(
        hexes.as_u64().unwrap_or(0) > 300,
        "the map has its hexes: {hexes}"
    );
    let counters = js(&tab, "document.querySelectorAll('#map g.counter').length");
    assert!(
        counters.as_u64().unwrap_or(0) > 40,
        "the counters are drawn: {counters}"
    );
    assert!(text(&tab, "#turn").contains("Turn 1 of 10"));
    assert!(text(&tab, "#phase").contains("Activation"));
    let lines0 = log_lines(&tab);

    // Activate a formation with its button (16.1: automatic on the first turn).
    let (activate, _) = action_button(&tab, "activate-auto:").expect("an activation button");
    click(
        &tab,
        &format!("#actions button[data-action=\"{activate}\"]"),
    );
    let v = wait_version_above(&tab, 0);
    assert!(
        text(&tab, "#decision").contains("activated"),
        "after {activate}: {}",
        text(&tab, "#decision")
    );

    // Move a unit by clicking on the map: its hex (a menu offers its actions), then a highlighted hex.
    let (mv, at) = action_button(&tab, "move-unit:").expect("a unit of the formation may move");
    click_hex_for(&tab, &at[0], &mv);
    let v = wait_version_above(&tab, v);
    assert!(
        text(&tab, "#decision").contains("moving"),
        "after {mv}: {}",
        text(&tab, "#decision")
    );
    let (step, to) = action_button(&tab, "step:").expect("the moving unit may step");
    click_hex_for(&tab, &to[0], &step);
    let mut v = wait_version_above(&tab, v);
    wait_for(&tab, "the move in the log", || {
        text(&tab, "#log").contains(to[0].as_str()).then_some(())
    });
    assert!(log_lines(&tab) > lines0, "the log shows new lines");
    shot(&tab, "hastenbeck-move.png");

    // Play on with the buttons until the AI has answered (several versions at once).
    let order = [
        "stop",
        "end-activation",
        "end-redoubt-fire",
        "end-combat",
        "end-army-move",
        "end-column",
        "pass",
        "activate-auto:",
        "activate:",
        "activate-independent:",
    ];
    let mut answered = false;
    let mut before = text(&tab, "#log");
    for _ in 0..80 {
        let pick = order
            .iter()
            .find_map(|p| action_button(&tab, p))
            .or_else(|| button(&tab, "#actions .plain button[data-action]"))
            .or_else(|| button(&tab, "#actions button[data-action]"))
            .map(|(id, _)| id);
        let Some(id) = pick else {
            // Nothing to click: the AI is deciding (or the game is over).
            if !text(&tab, "#decision").contains("Game over") {
                wait_version_above(&tab, v);
                answered = true;
            }
            break;
        };
        click(&tab, &format!("#actions button[data-action=\"{id}\"]"));
        let n = wait_version_above(&tab, v);
        if n > v + 1 {
            answered = true;
            break;
        }
        v = n;
        before = text(&tab, "#log");
    }
    assert!(answered, "the AI answered within 80 actions");
    let log = text(&tab, "#log");
    assert_ne!(log, before, "the log shows the AI's answer");
    assert!(
        text(&tab, "#decision").contains("You (French)")
            || text(&tab, "#decision").contains("Game over"),
        "the French decide again: {}",
        text(&tab, "#decision")
    );
    assert!(text(&tab, "#turn").starts_with("Turn "));
    assert!(text(&tab, "#phase").starts_with("Phase: "));
    let path = shot(&tab, "hastenbeck.png");
    assert!(
        std::fs::metadata(&path)
            .map(|m| m.len() > 10_000)
            .unwrap_or(false)
    );
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
