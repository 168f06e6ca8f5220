//! `tricorne`: play and simulate the battles from the command line. JSON in and out; a malformed
//! file, an unknown scenario or an illegal action gives one line on stderr, a non-zero exit, and
//! leaves the game file untouched.
use anyhow::{Context, Result, anyhow, bail};
use clap::{Parser, Subcommand};
use engine::{DynGame, GameRecord, RECORD_FORMAT, RECORD_VERSION};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

mod tournament;

/// mimalloc instead of the system allocator: the server's answers and the simulations allocate
/// many small JSON values and states, and `malloc`/`free` were a quarter of the server's processor
/// time under load (docs/server.md, "Load test").
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "tricorne",
    version,
    about = "Linear battles of the 18th century under their printed rules"
)]
struct Cli {
    /// Read scenario data from this directory (`<dir>/<battle>/map.toml` …) instead of the built-in files.
    #[arg(long, global = true)]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List the scenarios and their options (a table; `--json` for scripts).
    Scenarios {
        /// Print the list as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Start a new game and save it.
    New {
        scenario: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game option (repeatable), e.g. `--option perception` (rule 15.3).
        #[arg(long = "option")]
        options: Vec<String>,
        #[arg(short = 'o', long)]
        out: PathBuf,
    },
    /// Show the board, turn, phase, whose decision and the latest events.
    Show {
        game: PathBuf,
        /// Show what this side may see (French or Allies); default: everything.
        #[arg(long)]
        side: Option<String>,
        /// Print the view as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the legal actions (id and label; `--json` for scripts).
    Legal {
        game: PathBuf,
        /// Print the actions as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Apply one action by id, save, print the events.
    Apply { game: PathBuf, action: String },
    /// Rebuild the game from scenario + seed + actions and check it equals the saved state.
    Replay { game: PathBuf },
    /// Check a record offline: the revealed server seed against its commitment, the dice's seed
    /// against the seeds, and every logged roll, the last events and the state against a replay
    /// (docs/server.md, "Dice anyone can verify").
    Verify { game: PathBuf },
    /// Play many games with agents on all cores and tabulate the results.
    Simulate {
        scenario: String,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "random,random")]
        agents: String,
        #[arg(long = "option")]
        options: Vec<String>,
        /// Print the table as JSON.
        #[arg(long)]
        json: bool,
        /// Check the rules' invariants after every action; a game that breaks one stops there and
        /// is counted (and its first break printed) instead of reaching a victory level.
        #[arg(long)]
        check: bool,
    },
    /// Two agents play many games, sides swapped every other game, on all cores: wins, draws and
    /// losses per agent and side, and each victory level (agents: random, heuristic, search,
    /// search:N, plan, plan:P:G; docs/ai.md).
    Tournament {
        scenario: String,
        #[arg(long, default_value = "heuristic,random")]
        agents: String,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "option")]
        options: Vec<String>,
        /// Print the table as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Every pair of agents plays N games on every scenario (sides swapped every other game):
    /// Elo ratings per scenario and over all, with 95% intervals (docs/ai.md, "The ladder").
    Ladder {
        /// Scenarios (repeat the flag); default: every scenario of the catalogue.
        #[arg(long = "scenario")]
        scenarios: Vec<String>,
        /// The agents and levels on the ladder.
        #[arg(long, default_value = "random,easy,normal,hard")]
        agents: String,
        /// Games per pairing and scenario.
        #[arg(long, default_value_t = 20)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the table as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Validate a scenario's data: all problems, provenance counts, printed totals.
    Validate { scenario: String },
    /// Serve the game in the browser (see docs/server.md): against the AI, hot-seat, or a friend.
    Serve {
        /// Port to listen on (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Where games are stored: `sqlite://FILE` or `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "sqlite://tricorne.db")]
        database_url: String,
        /// Address to listen on; the default serves this machine only.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// The computer's strength when a game does not choose one: a level (easy, normal, hard;
        /// default normal) or an agent (search, search:N, heuristic, random).
        #[arg(long, default_value = "normal")]
        ai: String,
        /// The address players reach the server at (`https://games.example.org`): the secret
        /// links in the answers are built on it. Unset: relative links (`/play/…`), never the
        /// request's `Host`.
        #[arg(long)]
        public_url: Option<String>,
        /// Games one client may create a minute (0: no limit); 429 beyond.
        #[arg(long, default_value_t = 10)]
        games_per_minute: u32,
        /// Records one client may import a minute (0: no limit); 429 beyond.
        #[arg(long, default_value_t = 4)]
        imports_per_minute: u32,
        /// Actions one client may submit a second, all its games together (0: no limit); 429 beyond.
        #[arg(long, default_value_t = 10)]
        actions_per_second: u32,
        /// The header in which a trusted reverse proxy names the client (`X-Forwarded-For`,
        /// `X-Real-IP`), for the per-client limits. Set it only when every request comes through
        /// that proxy.
        #[arg(long)]
        client_header: Option<String>,
        /// Most actions in a game; a submission beyond gets 409.
        #[arg(long, default_value_t = 10_000)]
        max_game_actions: u64,
        /// Most actions in an imported record; a larger one gets 413.
        #[arg(long, default_value_t = 10_000)]
        max_import_actions: u64,
        /// Seconds a connection may take to send a request head (and stay idle between
        /// requests) before it is closed.
        #[arg(long, default_value_t = 10)]
        header_timeout: u64,
        /// Connections one address may hold open at once (0: no cap). Behind a reverse proxy,
        /// every connection comes from the proxy: raise it, or 0.
        #[arg(long, default_value_t = 64)]
        max_connections_per_client: usize,
        /// Days after its last action that a game not over is deleted (0: never). Finished
        /// games are kept.
        #[arg(long, default_value_t = 60)]
        expire_days: u64,
    },
    /// Play one whole game with agents, print its log and save it (then `show`, `replay` work).
    Autoplay {
        scenario: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "random,random")]
        agents: String,
        #[arg(long = "option")]
        options: Vec<String>,
        #[arg(short = 'o', long)]
        out: PathBuf,
        /// Print every event (default: only the outcome).
        #[arg(long)]
        log: bool,
        /// Check the rules' invariants after every action (as `simulate --check`); stop at the
        /// first break and save the game as it stands then.
        #[arg(long)]
        check: bool,
        /// Stop after this many actions and save the game as it stands then (to look at a
        /// position on the way, e.g. the one before a `--check` break).
        #[arg(long)]
        stop_after: Option<usize>,
    },
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("tricorne: {e:#}");
        std::process::exit(1);
    }
}

fn open(
    scenario: &str,
    options: &[String],
    data_dir: Option<&Path>,
    seed: u64,
) -> Result<(Box<dyn DynGame>, Vec<String>)> {
    catalog::open(scenario, options, data_dir, seed).map_err(|e| anyhow!("{e}"))
}

fn read_record(path: &Path) -> Result<GameRecord> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    GameRecord::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

fn load(path: &Path, data_dir: Option<&Path>) -> Result<(GameRecord, Box<dyn DynGame>)> {
    let rec = read_record(path)?;
    // The action list is the game: rebuild it, and accept the file only if the saved state agrees.
    let g =
        catalog::replay(&rec, data_dir, true).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok((rec, g))
}

/// Write atomically: a temporary file in the same directory, then rename.
fn save(path: &Path, rec: &GameRecord) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("game")
    ));
    std::fs::write(&tmp, rec.to_json())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn side_seat(s: &str) -> Result<engine::Seat> {
    match s.to_ascii_lowercase().as_str() {
        "french" | "0" => Ok(engine::Seat(0)),
        "allies" | "allied" | "1" => Ok(engine::Seat(1)),
        o => bail!("unknown side {o:?} (French or Allies)"),
    }
}

fn run(cli: Cli) -> Result<()> {
    let dd = cli.data_dir.as_deref();
    match cli.cmd {
        Cmd::Scenarios { json } => {
            if json {
                println!("{}", serde_json::to_string_pretty(&catalog::scenarios())?);
            } else {
                print!("{}", scenarios_table(&catalog::scenarios()));
            }
        }
        Cmd::New {
            scenario,
            seed,
            options,
            out,
        } => {
            let (g, ev) = open(&scenario, &options, dd, seed)?;
            let rec = GameRecord {
                format: RECORD_FORMAT.into(),
                version: RECORD_VERSION,
                ruleset: g.ruleset_id(),
                scenario,
                options,
                seed,
                actions: Vec::new(),
                state: g.state_json(),
                last_events: ev.clone(),
                dice: None,
                log: Vec::new(),
            };
            save(&out, &rec)?;
            for e in ev {
                println!("{e}");
            }
            println!("saved {}", out.display());
        }
        Cmd::Show { game, side, json } => {
            let rec = read_record(&game)?;
            // The action list is the game: rebuild it (the saved state must agree), and with it
            // the last action's events as each side read them then (3.6).
            let (g, last) = catalog::replay_lines(&rec, dd, true)
                .map_err(|e| anyhow!("{}: {e}", game.display()))?;
            let seat = side.as_deref().map(side_seat).transpose()?;
            let latest = last.for_viewer(seat.map_or(engine::Viewer::All, engine::Viewer::Seat));
            if json {
                println!("{}", serde_json::to_string_pretty(&g.view_json(seat))?);
            } else {
                print!("{}", g.render(seat));
                println!("\nActions so far: {}", rec.actions.len());
                if !latest.is_empty() {
                    println!("Latest events:");
                    for e in latest {
                        println!("  {e}");
                    }
                }
                if let Some(o) = g.outcome() {
                    println!("Outcome: {} ({})", o.level, o.rule);
                }
            }
        }
        Cmd::Legal { game, json } => {
            let (_, g) = load(&game, dd)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&g.legal())?);
            } else {
                print!("{}", legal_table(&g.legal()));
            }
        }
        Cmd::Apply { game, action } => {
            let (mut rec, mut g) = load(&game, dd)?;
            let ev = g.apply(&action).map_err(|e| anyhow!("{e}"))?;
            rec.actions.push(action);
            rec.state = g.state_json();
            if !rec.log.is_empty() {
                rec.log.extend(ev.iter().cloned());
            }
            rec.last_events = ev.clone();
            save(&game, &rec)?;
            for e in ev {
                println!("{e}");
            }
            if let Some(o) = g.outcome() {
                println!("Outcome: {} ({})", o.level, o.rule);
            }
        }
        Cmd::Replay { game } => {
            let rec = read_record(&game)?;
            let (mut g, _) = open(&rec.scenario, &rec.options, dd, rec.seed)?;
            for (i, a) in rec.actions.iter().enumerate() {
                g.apply(a)
                    .map_err(|e| anyhow!("action {} ({a}): {e}", i + 1))?;
            }
            if g.state_json() != rec.state {
                bail!(
                    "replay of {} actions does not reach the saved state",
                    rec.actions.len()
                );
            }
            println!(
                "replay ok: {} actions reproduce the saved state",
                rec.actions.len()
            );
        }
        Cmd::Verify { game } => {
            let rec = read_record(&game)?;
            let v = catalog::verify(&rec, dd)
                .map_err(|e| anyhow!("{}: refused: {e}", game.display()))?;
            if v.committed {
                println!(
                    "verified: the server seed matches its commitment, the dice seed follows from the seeds, and {} actions give the {} logged event lines and the saved state{}",
                    v.actions,
                    v.lines,
                    if v.over { " (the game is over)" } else { "" }
                );
            } else {
                println!(
                    "replay ok: {} actions give the saved state{}; the seed {} was chosen openly (hot-seat, import or the command line), so there is no commitment to check",
                    v.actions,
                    if v.lines > 0 {
                        " and every logged event line"
                    } else {
                        ""
                    },
                    rec.seed
                );
            }
        }
        Cmd::Simulate {
            scenario,
            games,
            seed,
            agents,
            options,
            json,
            check,
        } => {
            let names: Vec<String> = agents.split(',').map(|s| s.trim().to_string()).collect();
            if names.len() != 2 {
                bail!(
                    "--agents takes two names, e.g. random,random (known: {})",
                    ai::AGENTS.join(", ")
                );
            }
            for n in &names {
                ai::agent(n, 0).map_err(|e| anyhow!(e))?;
            }
            // Check the scenario once before spawning work; it also lists the victory levels.
            let (probe, _) = open(&scenario, &options, dd, seed)?;
            let levels = probe.outcome_levels();
            let seats = probe.seat_names();
            let pb = ProgressBar::new(games);
            pb.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games {elapsed_precise} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            type Played = std::result::Result<(String, String, usize), String>;
            let results: Vec<Result<Played>> = (0..games)
                .into_par_iter()
                .map(|i| {
                    let gseed = seed.wrapping_mul(1_000_003).wrapping_add(i);
                    let (mut g, _) = open(&scenario, &options, dd, gseed)?;
                    let mut ag = [
                        ai::agent(&names[0], gseed * 2).map_err(|e| anyhow!(e))?,
                        ai::agent(&names[1], gseed * 2 + 1).map_err(|e| anyhow!(e))?,
                    ];
                    let n = if check {
                        match ai::play_out_checked(g.as_mut(), &mut ag, 2_000_000)
                            .map_err(|e| anyhow!("game {i} (seed {gseed}): {e}"))?
                        {
                            Ok(n) => n,
                            Err(broken) => {
                                pb.inc(1);
                                return Ok(Err(format!("game {i} (seed {gseed}) {broken}")));
                            }
                        }
                    } else {
                        ai::play_out(g.as_mut(), &mut ag, 2_000_000)
                            .map_err(|e| anyhow!("game {i} (seed {gseed}): {e}"))?
                    };
                    pb.inc(1);
                    let o = g
                        .outcome()
                        .ok_or_else(|| anyhow!("game {i} ended without an outcome"))?;
                    Ok(Ok((o.level, o.rule, n)))
                })
                .collect();
            pb.finish_and_clear();
            // Every level the rules know, in the book's order, then anything else seen.
            let mut table: Vec<((String, String), u64)> =
                levels.into_iter().map(|k| (k, 0)).collect();
            let mut actions = 0usize;
            let mut broken: Vec<String> = Vec::new();
            for r in results {
                let (level, rule, n) = match r? {
                    Ok(x) => x,
                    Err(b) => {
                        broken.push(b);
                        continue;
                    }
                };
                actions += n;
                let key = (level, rule);
                match table.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, c)) => *c += 1,
                    None => table.push((key, 1)),
                }
            }
            if json {
                let rows: Vec<_> = table.iter().map(|((l, r), c)| serde_json::json!({"level": l, "rule": r, "games": c, "share": *c as f64 / games as f64})).collect();
                let mut v = serde_json::json!({"scenario": scenario, "games": games, "seed": seed, "agents": names, "results": rows});
                if check {
                    v["invariant_breaks"] = broken.len().into();
                    v["first_break"] = broken.first().cloned().into();
                }
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                println!(
                    "{scenario}: {games} games, seed {seed}, agents {} ({}) vs {} ({})",
                    names[0], seats[0], names[1], seats[1]
                );
                println!(
                    "{:<32} {:>6} {:>7} {:>7}",
                    "victory level", "rule", "games", "share"
                );
                for ((l, r), c) in &table {
                    println!(
                        "{:<32} {:>6} {:>7} {:>6.1}%",
                        l,
                        r,
                        c,
                        100.0 * *c as f64 / games as f64
                    );
                }
                println!(
                    "mean actions per game: {:.0}",
                    actions as f64 / (games as usize - broken.len()).max(1) as f64
                );
                if check {
                    println!(
                        "invariant breaks: {} (checked after every action)",
                        broken.len()
                    );
                    for b in &broken {
                        println!("break: {b}");
                    }
                }
            }
            if !broken.is_empty() {
                bail!("{} of {games} games broke an invariant", broken.len());
            }
        }
        Cmd::Autoplay {
            scenario,
            seed,
            agents,
            options,
            out,
            log,
            check,
            stop_after,
        } => {
            let names: Vec<&str> = agents.split(',').map(|s| s.trim()).collect();
            if names.len() != 2 {
                bail!(
                    "--agents takes two names, e.g. random,random (known: {})",
                    ai::AGENTS.join(", ")
                );
            }
            let mut ag = [
                ai::agent(names[0], seed * 2).map_err(|e| anyhow!(e))?,
                ai::agent(names[1], seed * 2 + 1).map_err(|e| anyhow!(e))?,
            ];
            let (mut g, ev0) = open(&scenario, &options, dd, seed)?;
            if log {
                for e in &ev0 {
                    println!("{e}");
                }
            }
            let mut actions = Vec::new();
            let mut last = Vec::new();
            while let Some(seat) = g.decider() {
                if stop_after.is_some_and(|n| actions.len() >= n) {
                    break;
                }
                if actions.len() > 2_000_000 {
                    bail!("no result after {} actions", actions.len());
                }
                let d = ag[usize::from(seat.0 & 1)].decide(g.as_ref());
                let (id, ev) = g.apply_index(d.index).map_err(|e| anyhow!("{e}"))?;
                if log {
                    if let Some(e) = &d.explanation {
                        println!("[{}] » {e}", g.seat_names()[usize::from(seat.0 & 1)]);
                    }
                    println!("[{}] {id}", g.seat_names()[usize::from(seat.0 & 1)]);
                    for e in &ev {
                        println!("    {e}");
                    }
                }
                actions.push(id);
                last = ev;
                let bad = if check { g.invariants() } else { Vec::new() };
                if !bad.is_empty() {
                    println!(
                        "invariant broken after {} actions: {}",
                        actions.len(),
                        bad.join("; ")
                    );
                    break;
                }
            }
            let rec = GameRecord {
                format: RECORD_FORMAT.into(),
                version: RECORD_VERSION,
                ruleset: g.ruleset_id(),
                scenario,
                options,
                seed,
                actions,
                state: g.state_json(),
                last_events: last,
                dice: None,
                log: Vec::new(),
            };
            save(&out, &rec)?;
            if let Some(o) = g.outcome() {
                println!(
                    "Outcome: {} ({}) after {} actions; saved {}",
                    o.level,
                    o.rule,
                    rec.actions.len(),
                    out.display()
                );
            }
        }
        Cmd::Serve {
            port,
            database_url,
            host,
            ai,
            public_url,
            games_per_minute,
            imports_per_minute,
            actions_per_second,
            client_header,
            max_game_actions,
            max_import_actions,
            header_timeout,
            max_connections_per_client,
            expire_days,
        } => {
            if let Some(u) = &public_url
                && !(u.starts_with("http://") || u.starts_with("https://"))
            {
                return Err(anyhow!(
                    "--public-url: {u:?} is not an http:// or https:// address"
                ));
            }
            let client_header = client_header
                .map(|h| {
                    server::limits::header_name(&h)
                        .ok_or_else(|| anyhow!("--client-header: {h:?} is not a header name"))
                })
                .transpose()?;
            let limits = server::Limits {
                create: server::Rate::per_minute(games_per_minute),
                import: server::Rate::per_minute(imports_per_minute),
                act: server::Rate::per_second(actions_per_second),
                client_header,
                max_game_actions,
                max_import_actions,
                header_timeout: std::time::Duration::from_secs(header_timeout.max(1)),
                max_connections_per_client,
                expire_after: (expire_days > 0)
                    .then(|| std::time::Duration::from_secs(expire_days.saturating_mul(86_400))),
                ..server::Limits::default()
            };
            server::run(server::ServeConfig {
                host,
                port,
                database_url,
                data_dir: cli.data_dir.clone(),
                agent: ai,
                limits,
                public_url,
            })
            .map_err(|e| anyhow!("{e}"))?;
        }
        Cmd::Tournament {
            scenario,
            agents,
            games,
            seed,
            options,
            json,
        } => {
            let names: Vec<String> = agents.split(',').map(|s| s.trim().to_string()).collect();
            let [a, b] = names.as_slice() else {
                bail!("--agents takes two names, e.g. heuristic,random");
            };
            tournament::run(tournament::Options {
                scenario: &scenario,
                options: &options,
                data_dir: dd,
                agents: [a.clone(), b.clone()],
                games,
                seed,
                json,
            })?;
        }
        Cmd::Ladder {
            scenarios,
            agents,
            games,
            seed,
            json,
        } => {
            let scenarios = if scenarios.is_empty() {
                catalog::scenarios()
                    .into_iter()
                    .map(|s| s.id.to_string())
                    .collect()
            } else {
                scenarios
            };
            tournament::ladder(tournament::LadderOptions {
                scenarios,
                data_dir: dd,
                agents: agents.split(',').map(|s| s.trim().to_string()).collect(),
                games,
                seed,
                json,
            })?;
        }
        Cmd::Validate { scenario } => {
            let (ok, report) = catalog::validate(&scenario, dd)
                .map_err(|e| anyhow!("{}", e.to_string().replace("; ", "\n  ")))?;
            print!("{report}");
            if !ok {
                bail!("validation failed");
            }
            println!("valid");
        }
    }
    Ok(())
}

/// `tricorne scenarios` for people (issue 19): id, battle, ruleset, and each option with its name
/// and what it does.
fn scenarios_table(list: &[catalog::ScenarioInfo]) -> String {
    let w = list.iter().map(|s| s.id.len()).max().unwrap_or(2).max(2);
    let mut out = format!("{:w$}  {:7}  {}\n", "id", "rules", "battle");
    for s in list {
        out.push_str(&format!("{:w$}  {:7}  {}\n", s.id, s.ruleset, s.name));
        for o in &s.option_details {
            out.push_str(&format!(
                "{:w$}    --option {}: {} — {}\n",
                "", o.id, o.name, o.about
            ));
        }
    }
    out
}

/// `tricorne legal` for people (issue 19): one action a line, its id then its label.
fn legal_table(legal: &[engine::ActionInfo]) -> String {
    let w = legal.iter().map(|a| a.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for a in legal {
        out.push_str(&format!("{:w$}  {}\n", a.id, a.label));
    }
    if legal.is_empty() {
        out.push_str("(no legal action: the game is over)\n");
    }
    out
}
