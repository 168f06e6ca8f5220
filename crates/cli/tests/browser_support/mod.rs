//! What the browser tests share (`browser.rs`: the French series and the miniatures; `browser_bar.rs`:
//! BAR): the real `tricorne serve` on a free port with a fresh SQLite file, Debian's headless
//! Chromium driven over the DevTools protocol (`headless_chrome`), and the page's helpers.
#![allow(dead_code)]

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::types::Bounds;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_tricorne");
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const WAIT: Duration = Duration::from_secs(30);

/// The server process, killed when the test ends (passed or not).
pub struct Server {
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
    pub fn start(dir: &Path) -> Server {
        Server::start_with(dir, None)
    }

    /// The server reading its scenarios from `data` (`--data-dir`) when given.
    pub fn start_with(dir: &Path, data: Option<&Path>) -> Server {
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
            .args(
                data.map(|d| vec![OsStr::new("--data-dir"), d.as_os_str()])
                    .unwrap_or_default(),
            )
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

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// A bare HTTP/1.1 GET (no client library needed to see whether the server is up).
pub fn http_get(port: u16, path: &str) -> Option<String> {
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

/// A fresh directory of this test process (each test its own: they run at the same time).
pub fn temp_dir(name: &str) -> PathBuf {
    // Tests of one process may share a name (two of Hastenbeck): a counter keeps them apart.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "tricorne-browser-test-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create temp dir");
    d
}

pub fn artifacts() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-test");
    std::fs::create_dir_all(&d).expect("create target/browser-test");
    d
}

/// A server and a browser of their own in a fresh temporary directory `name`, the lobby open.
pub fn lobby(name: &str) -> (PathBuf, Server, Browser, Arc<Tab>) {
    lobby_with(name, None)
}

/// A copy of the project's scenarios in `dir/data`, for a test to edit a set-up (the CLI's
/// `--data-dir`).
pub fn scenario_copy(dir: &Path) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("create a data directory");
        for e in std::fs::read_dir(from).expect("read the scenarios") {
            let e = e.expect("a scenario file");
            let path = e.path();
            if path.is_dir() {
                copy(&path, &to.join(e.file_name()));
            } else {
                std::fs::copy(&path, to.join(e.file_name())).expect("copy a scenario file");
            }
        }
    }
    let data = dir.join("data");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
        &data,
    );
    data
}

/// As [`lobby`], the server reading its scenarios from `data` when given.
pub fn lobby_with(
    name: &str,
    data: Option<&dyn Fn(&Path)>,
) -> (PathBuf, Server, Browser, Arc<Tab>) {
    let dir = temp_dir(name);
    let data = data.map(|edit| {
        let d = scenario_copy(&dir);
        edit(&d);
        d
    });
    let server = Server::start_with(&dir, data.as_deref());
    let browser = launch(dir.join("chromium-profile"));
    let tab = browser.new_tab().expect("a browser tab");
    tab.set_default_timeout(WAIT);
    tab.navigate_to(&server.url("/"))
        .expect("open the lobby")
        .wait_until_navigated()
        .expect("lobby loads");
    (dir, server, browser, tab)
}

/// A server and a browser of their own (in a temporary directory named after the scenario); the
/// lobby filled in for a game of `scenario` against the computer as `side`, the game created, and
/// the client seed step passed with a seed typed over the one the page made (issue 13: the dice
/// come from the server's committed seed and this one, so they differ from run to run; the test
/// asks nothing of them).
pub fn against_the_computer(
    scenario: &str,
    side: &str,
    seed: &str,
) -> (PathBuf, Server, Browser, Arc<Tab>) {
    against_the_computer_with(scenario, side, seed, None)
}

/// As [`against_the_computer`], the scenarios copied and edited by `data` first when given.
pub fn against_the_computer_with(
    scenario: &str,
    side: &str,
    seed: &str,
    data: Option<&dyn Fn(&Path)>,
) -> (PathBuf, Server, Browser, Arc<Tab>) {
    let (dir, server, browser, tab) = lobby_with(scenario, data);
    click(&tab, &format!("input[name=scenario][value={scenario}]"));
    click(&tab, "input[name=mode][value=ai]");
    click(&tab, &format!("input[name=human][value={side}]"));
    assert_eq!(
        js(&tab, "document.querySelector('#seed-label').hidden"),
        Value::Bool(true),
        "no chosen seed against the computer"
    );
    click(&tab, "#create");
    add_client_seed(&tab, &format!("browser test {seed}"));
    (dir, server, browser, tab)
}

/// The client seed step: the page shows the commitment and a seed it made; type `seed` over it
/// and add it.
pub fn add_client_seed(tab: &Tab, seed: &str) {
    let made = wait_for(tab, "the client seed step", || {
        js(
            tab,
            "(document.querySelector('#client-seed') || {}).value || null",
        )
        .as_str()
        .map(str::to_string)
    });
    assert_eq!(made.len(), 32, "the page makes a random seed: {made}");
    let commitment = text(tab, "#commitment");
    assert_eq!(
        commitment.len(),
        64,
        "the commitment is shown: {commitment}"
    );
    js(tab, "document.querySelector('#client-seed').value = ''");
    click(tab, "#client-seed");
    tab.type_str(seed).expect("type a seed");
    click(tab, "#seed-button");
    wait_for(tab, "the seed step to close", || {
        (js(tab, "document.querySelector('#gate').hidden") == Value::Bool(true)).then_some(())
    });
}

/// Screenshots of the page at the two sizes of issue 13 (1280×720 and 1440×900), then back to the
/// test's size.
pub fn shots_at_two_sizes(tab: &Tab, name: &str) {
    for (w, h) in [(1280.0, 720.0), (1440.0, 900.0)] {
        tab.set_bounds(Bounds::Normal {
            left: Some(0),
            top: Some(0),
            width: Some(w),
            height: Some(h),
        })
        .expect("resize the window");
        std::thread::sleep(Duration::from_millis(400));
        shot_of_a_drawn_page(tab, &format!("{name}-{w}x{h}.png"));
    }
    tab.set_bounds(Bounds::Normal {
        left: Some(0),
        top: Some(0),
        width: Some(1400.0),
        height: Some(900.0),
    })
    .expect("resize the window");
}

pub fn launch(profile: PathBuf) -> Browser {
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
pub fn js(tab: &Tab, expr: &str) -> Value {
    let wrapped = format!("JSON.stringify(({expr}))");
    // A page that is navigating (the lobby opening the play page) has no context to evaluate in
    // for a moment: ask again, a few times, before calling it a failure.
    let mut tries = 0;
    let v = loop {
        match tab.evaluate(&wrapped, false) {
            Ok(r) => break r.value,
            Err(e)
                if tries < 50
                    && (e.to_string().contains("navigated")
                        || e.to_string().contains("context")) =>
            {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            Err(e) => panic!("evaluating {expr}: {e}"),
        }
    };
    match v {
        Some(Value::String(json)) => serde_json::from_str(&json).unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

pub fn text(tab: &Tab, selector: &str) -> String {
    let expr = format!(
        "(() => {{ const e = document.querySelector({sel}); return e ? e.innerText : ''; }})()",
        sel = Value::String(selector.into())
    );
    js(tab, &expr).as_str().unwrap_or_default().to_string()
}

/// Poll `f` until it gives `Some`, or fail with what the page shows.
pub fn wait_for<T>(tab: &Tab, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
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

pub fn version(tab: &Tab) -> Option<u64> {
    js(tab, "document.body.dataset.version || null")
        .as_str()
        .and_then(|v| v.parse().ok())
}

pub fn log_lines(tab: &Tab) -> u64 {
    js(tab, "document.querySelectorAll('#log li').length")
        .as_u64()
        .unwrap_or(0)
}

/// Wait until the page shows a version above `v` and no request is in flight, then a moment more
/// for the refetch of any AI answer (server-sent event) to land.
pub fn wait_version_above(tab: &Tab, v: u64) -> u64 {
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
pub fn button(tab: &Tab, selector: &str) -> Option<(String, Vec<String>)> {
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
pub fn action_button(tab: &Tab, prefix: &str) -> Option<(String, Vec<String>)> {
    button(tab, &format!("#actions button[data-action^=\"{prefix}\"]"))
}

/// Click the element `selector` names. The page re-renders parts of itself when the game moves on
/// (the log on each poll), so the node found can be replaced before the click lands ("Node is
/// detached from document"): then it is looked up again, a few times, before the test fails.
pub fn click(tab: &Tab, selector: &str) {
    let mut tries = 0;
    loop {
        let el = tab
            .wait_for_element_with_custom_timeout(selector, WAIT)
            .unwrap_or_else(|e| panic!("no element {selector}: {e}"));
        match el.click().map(|_| ()) {
            Ok(_) => return,
            Err(e) if tries < 5 && e.to_string().contains("detached") => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => panic!("clicking {selector}: {e}"),
        }
    }
}

/// Click the decision's button of action `id`; when the page first shows the action on its card
/// (its odds, or a question such as "Stop anyway?", issue 19), declare it there.
pub fn click_action(tab: &Tab, id: &str) {
    click(tab, &format!("#actions button[data-action=\"{id}\"]"));
    std::thread::sleep(Duration::from_millis(100));
    let declare = format!("#odds:not([hidden]) button.declare[data-action=\"{id}\"]");
    if js(tab, &format!("!!document.querySelector('{declare}')")) == Value::Bool(true) {
        click(tab, &declare);
    }
}

/// Click a hex of the map; if the page offers a menu of the actions there, pick `action` in it.
pub fn click_hex_for(tab: &Tab, hex: &str, action: &str) {
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

pub fn shot(tab: &Tab, name: &str) -> PathBuf {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("screenshot");
    let path = artifacts().join(name);
    std::fs::write(&path, png).expect("write screenshot");
    path
}

/// A screenshot of the page that shows something: more than 10 kB of PNG.
pub fn shot_of_a_drawn_page(tab: &Tab, name: &str) {
    let path = shot(tab, name);
    let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    assert!(len > 10_000, "{}: {len} bytes", path.display());
}
