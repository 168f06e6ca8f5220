//! Games in play: each behind its own lock, rebuilt from the store by replaying its actions, kept
//! in a bounded cache, with a version channel for live updates.

use crate::error::ApiError;
use crate::store::{GameMeta, Notice, Store};
use crate::token;
use engine::{DynGame, Lines, Seat, Viewer};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::time::Duration;
use tokio::sync::{Mutex, OnceCell, watch};

/// How many log lines a game keeps and sends: the whole game (issue 19.2; a whole game of
/// Hastenbeck is about 1,100 actions and a few thousand lines), bounded so that a runaway game
/// cannot grow it without end.
pub const LOG_KEEP: usize = 100_000;
/// The agent that plays the server's seat.
pub const AI_AGENT: &str = "search";
/// A bound on the actions the agent may take in a row (a runaway would be a rules bug).
const AI_MAX_ACTIONS: usize = 100_000;
/// Games kept in memory; the least recently used idle ones are dropped beyond this (they are
/// rebuilt from the store when asked for again).
pub const CACHE_GAMES: usize = 2_000;

/// Who a token makes its bearer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A seat (0 or 1).
    Seat(Seat),
    /// A read-only spectator.
    Spectator,
}

/// A game in play.
pub struct Live {
    /// What the store keeps besides the actions.
    pub meta: GameMeta,
    /// The game.
    pub game: Box<dyn DynGame>,
    /// Every action applied, in order (the version is their number).
    pub actions: Vec<String>,
    /// The last [`LOG_KEEP`] event lines of each viewer, each written for it by the ruleset.
    pub log: Log,
    /// The events of the last action, for a reader of everything (the record).
    pub last_events: Vec<String>,
}

/// A game's log as each viewer reads it: the lines the ruleset wrote for that viewer (3.6 in the
/// French series), never a text written for everyone and patched afterwards.
#[derive(Clone, Debug, Default)]
pub struct Log {
    /// Everything, seat 0, seat 1, spectators.
    each: [VecDeque<String>; 4],
}

impl Log {
    /// Add the lines of an action, keeping the last [`LOG_KEEP`] of each viewer.
    pub fn push(&mut self, lines: &Lines) {
        for (i, v) in [
            Viewer::All,
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ]
        .into_iter()
        .enumerate()
        {
            push_log(&mut self.each[i], lines.for_viewer(v).iter().cloned());
        }
    }

    /// Put lines every viewer reads before the log, when it still holds its beginning.
    pub fn prepend(&mut self, lines: &[String]) {
        for each in &mut self.each {
            if each.len() >= LOG_KEEP {
                continue;
            }
            for l in lines.iter().rev() {
                each.push_front(l.clone());
            }
            while each.len() > LOG_KEEP {
                each.pop_front();
            }
        }
    }

    /// The lines a role reads.
    pub fn of(&self, role: Role) -> &VecDeque<String> {
        match role {
            Role::Seat(s) => &self.each[1 + usize::from(s.0 & 1)],
            Role::Spectator => &self.each[3],
        }
    }
}

impl Role {
    /// The viewer a role is.
    pub fn viewer(self) -> Viewer {
        match self {
            Role::Seat(s) => Viewer::Seat(s),
            Role::Spectator => Viewer::Spectator,
        }
    }
}

impl Live {
    /// A game in play.
    pub fn new(
        meta: GameMeta,
        game: Box<dyn DynGame>,
        actions: Vec<String>,
        log: Log,
        last_events: Vec<String>,
    ) -> Self {
        Self {
            meta,
            game,
            actions,
            log,
            last_events,
        }
    }

    /// Number of actions applied (AI actions included).
    pub fn version(&self) -> u64 {
        self.actions.len() as u64
    }

    /// The role a token gives, or 403.
    pub fn role(&self, token: Option<&str>) -> Result<Role, ApiError> {
        let Some(t) = token.filter(|t| !t.is_empty()) else {
            return Err(ApiError::Forbidden(
                "a token is required (the secret link of a seat or of spectators)".into(),
            ));
        };
        // Compare with every token, so timing does not tell which matched.
        let mut found = None;
        for (i, s) in self.meta.tokens.seats.iter().enumerate() {
            if s.as_deref().is_some_and(|s| token::matches(t, s)) {
                found = Some(Role::Seat(Seat(i as u8)));
            }
        }
        if token::matches(t, &self.meta.tokens.spectator) {
            found = Some(Role::Spectator);
        }
        found.ok_or_else(|| ApiError::Forbidden("unknown token for this game".into()))
    }

    /// The name of a seat ("French").
    pub fn seat_name(&self, seat: Seat) -> String {
        let names = self.game.seat_names();
        names[usize::from(seat.0 & 1)].clone()
    }
}

/// What a role may see of a game (the ruleset's view for it).
pub fn view_for(game: &dyn DynGame, role: Role) -> serde_json::Value {
    match role {
        Role::Seat(s) => game.view_json(Some(s)),
        Role::Spectator => game.public_view(),
    }
}

/// Add lines to a log, keeping the last [`LOG_KEEP`].
pub fn push_log<I: IntoIterator<Item = String>>(log: &mut VecDeque<String>, lines: I) {
    for l in lines {
        if log.len() == LOG_KEEP {
            log.pop_front();
        }
        log.push_back(l);
    }
}

/// The lines a game with verifiable dice begins its log with: the commitment (published before
/// any client seed is taken), each client seed added, and the start once every seed is in
/// (docs/server.md, "Dice anyone can verify"). Derived from the stored seeds, so a rebuilt game
/// shows the same lines.
pub fn dice_lines(meta: &GameMeta, names: &[String; 2]) -> Vec<String> {
    let Some(d) = &meta.dice else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "Dice ({}, docs/server.md): the server's secret seed is drawn; its SHA-256 commitment is {}.          It is revealed when the game ends; each side adds a client seed before the first roll.",
        engine::fair::SCHEME,
        engine::fair::commitment(&d.server_seed)
    )];
    for (i, c) in d.client_seeds.iter().enumerate() {
        if let Some(c) = c {
            lines.push(format!(
                "Dice: the {} add the client seed {c:?}.",
                names[i & 1]
            ));
        }
    }
    if meta.started() {
        lines.push(
            "Dice: every seed is in; the dice's seed is derived from the server seed and the              client seeds, and the game begins."
                .into(),
        );
    }
    lines
}

/// Put a game's dice lines before its log, when the log still holds its beginning.
pub fn prepend_dice_lines(log: &mut Log, meta: &GameMeta, names: &[String; 2]) {
    if meta.dice.is_none() {
        return;
    }
    log.prepend(&dice_lines(meta, names));
}

/// A game rebuilt from its scenario, options, seed and actions.
pub struct Rebuilt {
    /// The game.
    pub game: Box<dyn DynGame>,
    /// Its last [`LOG_KEEP`] event lines of each viewer.
    pub log: Log,
    /// The events of the last action (of the start if none), for every viewer.
    pub last: Lines,
    /// The events of the last action, for a reader of everything.
    pub last_events: Vec<String>,
    /// Who decided the last action (`None` for the start).
    pub last_decider: Option<Seat>,
}

/// Replay a game from the start: the action list is the game.
pub fn rebuild(
    scenario: &str,
    options: &[String],
    seed: u64,
    actions: &[String],
    data_dir: Option<&Path>,
) -> Result<Rebuilt, catalog::CatalogError> {
    let (mut game, start) = catalog::open_lines(scenario, options, data_dir, seed)?;
    let mut log = Log::default();
    log.push(&start);
    let mut last = start;
    let mut last_decider = None;
    for (i, a) in actions.iter().enumerate() {
        last_decider = game.decider();
        let ev = game
            .apply_lines(a)
            .map_err(|e| catalog::CatalogError::Replay {
                index: i + 1,
                action: a.clone(),
                reason: e.to_string(),
            })?;
        log.push(&ev);
        last = ev;
    }
    let last_events = last.for_viewer(Viewer::All).to_vec();
    Ok(Rebuilt {
        game,
        log,
        last,
        last_events,
        last_decider,
    })
}

/// Let the server's agent play its seat, and each side's reaction policy (issue 19,
/// `DynGame::policy_answer`) answer the prompts it covers, until a person decides or the game
/// ends. Each of the agent's choices is seeded by the game's seed and the version, so the same
/// game gets the same answers. A policy's answer is logged as that side's own decision, in a line
/// written for that side alone (its opponent reads only what the answer did, not the policy).
pub fn play_ai(
    agent_name: &str,
    game: &mut dyn DynGame,
    ai_seat: Option<u8>,
    seed: u64,
    version: u64,
    actions: &mut Vec<String>,
    events: &mut Lines,
) -> Result<(), String> {
    let mut v = version;
    let mut n = 0;
    while let Some(decider) = game.decider() {
        if n >= AI_MAX_ACTIONS {
            return Err(format!("the agent took {n} actions in a row"));
        }
        if let Some(answer) = game.policy_answer() {
            let seat = game.seat_names()[usize::from(decider.0 & 1)].clone();
            let line = format!(
                "{seat} (policy: {}): {}",
                game.policy(decider).describe(),
                answer.label
            );
            events.extend(Lines::render(|w| match w {
                Viewer::All => vec![line.clone()],
                Viewer::Seat(s) if s == decider => vec![line.clone()],
                Viewer::Seat(_) | Viewer::Spectator => Vec::new(),
            }));
            let ev = game
                .apply_lines(&answer.id)
                .map_err(|e| format!("the policy's answer failed: {e}"))?;
            actions.push(answer.id);
            events.extend(ev);
            v += 1;
            n += 1;
            continue;
        }
        let Some(ai) = ai_seat.filter(|&a| decider == Seat(a)) else {
            break;
        };
        let mut agent = ai::agent(agent_name, seed ^ v.wrapping_mul(0x9e37_79b9_7f4a_7c15))?;
        let d = agent.decide(&*game);
        // Issue 4: what the computer intends, as a log line written for each viewer (3.6: its
        // opponent may not learn what its hidden units are). The agent's own words (its search's
        // figures) follow the ruleset's intent; without one, they are shown only when the rules
        // hide nothing (an action's label names the agent's own units).
        if let Some(text) = d.explanation {
            let seat = game.seat_names()[usize::from(ai & 1)].clone();
            match game.intent_lines(d.index) {
                Some(intent) => {
                    let all = intent.for_viewer(Viewer::All).concat();
                    let tail = text
                        .strip_prefix(all.as_str())
                        .unwrap_or_default()
                        .to_string();
                    events.extend(Lines::render(|v| {
                        intent
                            .for_viewer(v)
                            .iter()
                            .map(|t| format!("{seat} (computer): {t}{tail}"))
                            .collect()
                    }));
                }
                None if !game.hides_information() => {
                    events.extend(Lines::public(vec![format!("{seat} (computer): {text}")]));
                }
                None => {}
            }
        }
        let (id, ev) = game
            .apply_index_lines(d.index)
            .map_err(|e| format!("the agent's action failed: {e}"))?;
        actions.push(id);
        events.extend(ev);
        v += 1;
        n += 1;
    }
    Ok(())
}

/// The channel that tells a game's version to its live-update streams. A stream holds the
/// channel, not the game: the game may leave memory while it is watched, and when it is rebuilt
/// it takes the same channel again ([`Hub`] keeps a weak reference to each).
pub type Versions = Arc<watch::Sender<u64>>;

/// One game's place in the cache: its lock, and the channel that tells its version.
pub struct Slot {
    /// The game; one lock per game, so two submissions for it are taken one after the other.
    pub live: Mutex<Live>,
    /// The current version, for live updates.
    pub version: Versions,
    last_used: AtomicU64,
    /// Another server wrote to the game since it was loaded (a notification said so): it is
    /// brought up to date from the store before the next answer.
    stale: AtomicBool,
}

impl Slot {
    fn new(live: Live, version: Versions) -> Arc<Self> {
        // A rebuilt game may be further on than its streams were told (another server wrote).
        version.send_if_modified(|v| {
            let changed = *v != live.version();
            *v = live.version();
            changed
        });
        Arc::new(Self {
            live: Mutex::new(live),
            version,
            last_used: AtomicU64::new(0),
            stale: AtomicBool::new(false),
        })
    }
}

/// A game's state after some of its actions, kept to answer replays.
struct Snapshot {
    /// Actions applied.
    at: usize,
    game: Box<dyn DynGame>,
    log: Log,
    last: Lines,
    last_decider: Option<Seat>,
}

impl Snapshot {
    fn copy(&self) -> Rebuilt {
        Rebuilt {
            game: self.game.boxed_clone(),
            log: self.log.clone(),
            last: self.last.clone(),
            last_events: self.last.for_viewer(Viewer::All).to_vec(),
            last_decider: self.last_decider,
        }
    }
}

/// Snapshots of one game for its replays: one every `every` actions (at most
/// [`REPLAY_SNAPSHOTS`]; beyond, `every` doubles and every other one goes), and the state of the
/// last replay asked (stepping through a game moves one action at a time).
struct Snapshots {
    every: usize,
    kept: BTreeMap<usize, Snapshot>,
    last: Option<Snapshot>,
    used: u64,
}

/// Actions between two replay snapshots at first.
pub const REPLAY_EVERY: usize = 50;
/// Most snapshots kept for one game's replays.
pub const REPLAY_SNAPSHOTS: usize = 16;
/// Games whose replay snapshots are kept (the most recently replayed).
pub const REPLAY_GAMES: usize = 64;

/// What a look for abandoned games did ([`Hub::expire_idle`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expired {
    /// Abandoned games deleted.
    pub expired: usize,
    /// Idle games kept because they are over.
    pub kept: usize,
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

type Cell = Arc<OnceCell<Arc<Slot>>>;

/// The games in play: a cache in front of the store.
pub struct Hub {
    /// The agent that plays the computer's seat (`ai::agent` name).
    agent: String,
    store: Arc<dyn Store>,
    data_dir: Option<PathBuf>,
    cache: StdMutex<HashMap<String, Cell>>,
    clock: AtomicU64,
    capacity: usize,
    /// Each game's version channel, while a slot or a live-update stream holds it.
    channels: StdMutex<HashMap<String, Weak<watch::Sender<u64>>>>,
    replays: StdMutex<HashMap<String, Arc<StdMutex<Snapshots>>>>,
    replayed: AtomicU64,
    /// Other servers may write to the store (PostgreSQL): a game in memory may fall behind.
    shared: bool,
    /// The notifications of the other servers' writes flow ([`Notice::Up`]).
    notified: AtomicBool,
    /// Games brought up to date from the store after another server wrote (for the tests).
    caught_up: AtomicU64,
}

impl Hub {
    /// A hub over a store, keeping at most `capacity` idle games in memory.
    pub fn new(store: Arc<dyn Store>, data_dir: Option<PathBuf>, capacity: usize) -> Self {
        Self {
            agent: AI_AGENT.to_string(),
            store,
            data_dir,
            cache: StdMutex::new(HashMap::new()),
            clock: AtomicU64::new(1),
            capacity,
            channels: StdMutex::new(HashMap::new()),
            replays: StdMutex::new(HashMap::new()),
            replayed: AtomicU64::new(0),
            shared: false,
            notified: AtomicBool::new(false),
            caught_up: AtomicU64::new(0),
        }
    }

    /// The same hub over a store other servers also write to: it follows their writes through
    /// [`Hub::notice`] (and checks the store while the notifications are down).
    pub fn shared(mut self, shared: bool) -> Self {
        self.shared = shared;
        self
    }

    /// Whether other servers may write to this hub's store.
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// Whether the notifications of the other servers' writes flow.
    pub fn notified(&self) -> bool {
        self.notified.load(Ordering::SeqCst)
    }

    /// Games brought up to date from the store because another server wrote to them.
    pub fn caught_up(&self) -> u64 {
        self.caught_up.load(Ordering::Relaxed)
    }

    /// Take a notification of the store (docs/server.md, "Several servers on one database"): a
    /// game another server wrote to is marked stale in memory (brought up to date before its
    /// next answer) and its live-update streams are told its new version at once.
    pub fn notice(&self, n: Notice) {
        match n {
            Notice::Up => {
                // Writes may have been missed while the notifications were down: every game in
                // memory is checked once, then the notifications are trusted.
                for cell in self.map().values() {
                    if let Some(slot) = cell.get() {
                        slot.stale.store(true, Ordering::SeqCst);
                    }
                }
                self.notified.store(true, Ordering::SeqCst);
            }
            Notice::Down => self.notified.store(false, Ordering::SeqCst),
            Notice::Changed { game, version } => {
                if let Some(slot) = self.map().get(&game).and_then(|c| c.get()) {
                    slot.stale.store(true, Ordering::SeqCst);
                }
                let tx = self
                    .channels
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(&game)
                    .and_then(Weak::upgrade);
                if let Some(tx) = tx {
                    // A change of seats keeps the version: the streams are woken all the same
                    // (as on the server that wrote it).
                    // An action taken back lowers the version (issue 19): the streams are told
                    // the store's number, whatever it is.
                    tx.send_replace(version);
                }
            }
        }
    }

    /// Bring a game in memory up to date with the store, if another server wrote to it: a
    /// notification said so, or the store's head (its number of actions, seats and seeds; one
    /// indexed read) differs from the game in memory. The head is read before every answer, not
    /// only while the notifications are down: a notification may arrive a moment after the
    /// writer answered, and a player who acted through one server and reads through another
    /// the next millisecond must see his action. Only the new actions are applied when the
    /// seats and seeds are unchanged; else the game is rebuilt. A game the store no longer has
    /// leaves memory (404).
    async fn catch_up(&self, id: &str, slot: &Arc<Slot>) -> Result<(), ApiError> {
        let sure = slot.stale.swap(false, Ordering::SeqCst);
        let r = self.catch_up_now(id, slot, sure).await;
        if r.is_err() {
            slot.stale.store(true, Ordering::SeqCst);
        }
        r
    }

    async fn catch_up_now(&self, id: &str, slot: &Arc<Slot>, sure: bool) -> Result<(), ApiError> {
        let mut live = slot.live.lock().await;
        if !sure {
            match self.store.head(id).await? {
                Some(h) if h.matches(&live.meta, live.version()) => return Ok(()),
                Some(_) => {}
                None => {
                    drop(live);
                    self.forget(id, slot);
                    return Err(ApiError::NotFound(format!("no game {id:?}")));
                }
            }
        }
        let Some((meta, actions)) = self.store.load(id).await? else {
            drop(live);
            self.forget(id, slot);
            return Err(ApiError::NotFound(format!("no game {id:?}")));
        };
        let held = live.actions.len();
        if meta == live.meta && actions.len() == held {
            return Ok(());
        }
        self.caught_up.fetch_add(1, Ordering::Relaxed);
        let same_dice = meta.seed == live.meta.seed && meta.dice == live.meta.dice;
        if same_dice && actions.len() >= held && actions[..held] == live.actions[..] {
            // Only the new actions, on a copy (off the async workers).
            let mut game = live.game.boxed_clone();
            let new = actions[held..].to_vec();
            let gid = id.to_string();
            let (game, lines) = tokio::task::spawn_blocking(move || {
                let mut lines = Vec::new();
                for (i, a) in new.iter().enumerate() {
                    let ev = game.apply_lines(a).map_err(|e| {
                        ApiError::Internal(format!(
                            "stored game {gid} does not replay at action {}: {e}",
                            held + i + 1
                        ))
                    })?;
                    lines.push(ev);
                }
                Ok::<_, ApiError>((game, lines))
            })
            .await??;
            live.game = game;
            live.actions = actions;
            for ev in &lines {
                live.log.push(ev);
            }
            if let Some(last) = lines.last() {
                live.last_events = last.for_viewer(Viewer::All).to_vec();
            }
            live.meta = meta;
        } else {
            // Actions were taken back (issue 19): the replay snapshots past the start may be of
            // actions the game no longer has.
            self.forget_replays_after(id, 0);
            *live = self.load_live(id).await?;
        }
        let v = live.version();
        slot.version.send_if_modified(|cur| {
            let changed = *cur != v;
            *cur = v;
            changed
        });
        Ok(())
    }

    /// A game's version channel: the one its streams hold, or a new one.
    fn channel(&self, id: &str, version: u64) -> Versions {
        // One lookup or insert per operation: a poisoned lock is still consistent.
        let mut channels = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tx) = channels.get(id).and_then(Weak::upgrade) {
            return tx;
        }
        let tx = Arc::new(watch::channel(version).0);
        channels.insert(id.to_string(), Arc::downgrade(&tx));
        tx
    }

    /// The same hub with another agent for the computer's seats (`random`, `heuristic`,
    /// `search`, `search:N`).
    pub fn with_agent(mut self, agent: &str) -> Self {
        self.agent = agent.to_string();
        self
    }

    /// The agent that plays the computer's seats.
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The scenario data directory.
    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.as_deref()
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cell>> {
        // A panic while holding this lock cannot leave the map inconsistent (each operation is
        // one insert or remove), so a poisoned lock is used as it is.
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn touch(&self, slot: &Slot) {
        slot.last_used.store(
            self.clock.fetch_add(1, Ordering::Relaxed),
            Ordering::Relaxed,
        );
    }

    /// A game by id: from the cache, or rebuilt from the store (404 if unknown).
    pub async fn get(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if !token::plausible_id(id) {
            return Err(ApiError::NotFound(format!("no game {id:?}")));
        }
        let cell = self.map().entry(id.to_string()).or_default().clone();
        let mut loaded = false;
        let load = || {
            loaded = true;
            self.load(id)
        };
        match cell.get_or_try_init(load).await {
            Ok(slot) => {
                let slot = slot.clone();
                // A game just loaded is the store's; one held from before may be behind.
                if self.shared && !loaded {
                    self.catch_up(id, &slot).await?;
                }
                self.touch(&slot);
                self.evict();
                Ok(slot)
            }
            Err(e) => {
                let mut map = self.map();
                if map
                    .get(id)
                    .is_some_and(|c| Arc::ptr_eq(c, &cell) && !c.initialized())
                {
                    map.remove(id);
                }
                Err(e)
            }
        }
    }

    async fn load(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let live = self.load_live(id).await?;
        let version = self.channel(id, live.version());
        Ok(Slot::new(live, version))
    }

    /// A game rebuilt from the store.
    async fn load_live(&self, id: &str) -> Result<Live, ApiError> {
        let Some((meta, actions)) = self.store.load(id).await? else {
            return Err(ApiError::NotFound(format!("no game {id:?}")));
        };
        let dd = self.data_dir.clone();
        let (m, a) = (meta.clone(), actions.clone());
        let rebuilt = tokio::task::spawn_blocking(move || {
            rebuild(&m.scenario, &m.options, m.seed, &a, dd.as_deref())
        })
        .await?
        .map_err(|e| ApiError::Internal(format!("stored game {id} does not replay: {e}")))?;
        let mut log = if meta.started() {
            rebuilt.log
        } else {
            // The set-up is shown, but no line of a start whose dice are not drawn yet.
            Log::default()
        };
        prepend_dice_lines(&mut log, &meta, &rebuilt.game.seat_names());
        let mut live = Live::new(meta, rebuilt.game, actions, log, rebuilt.last_events);
        if !live.meta.started() {
            // Its dice wait for client seeds: nobody moves, the agent neither.
            return Ok(live);
        }
        // A game stored while the agent was to move (it cannot happen through this server, whose
        // writes include the agent's answers, but a store may be shared): let it move now.
        let mut more = Vec::new();
        let mut events = Lines::default();
        let version = live.version();
        play_ai(
            live.meta.agent(&self.agent),
            live.game.as_mut(),
            live.meta.ai_seat,
            live.meta.seed,
            version,
            &mut more,
            &mut events,
        )
        .map_err(ApiError::Internal)?;
        if !more.is_empty() {
            self.store
                .append(id, live.version() + 1, &more)
                .await
                .map_err(ApiError::from)?;
            live.actions.extend(more);
            live.log.push(&events);
            live.last_events = events.for_viewer(Viewer::All).to_vec();
        }
        Ok(live)
    }

    /// Store a new game (with its first actions) and put it in play.
    pub async fn create(&self, live: Live) -> Result<Arc<Slot>, ApiError> {
        self.store.create(&live.meta, &live.actions).await?;
        let id = live.meta.id.clone();
        let version = self.channel(&id, live.version());
        let slot = Slot::new(live, version);
        self.touch(&slot);
        let cell: Cell = Arc::new(OnceCell::new_with(Some(slot.clone())));
        self.map().insert(id, cell);
        self.evict();
        Ok(slot)
    }

    /// Drop a game from the cache (after the store refused a write the cache thought valid: the
    /// next request rebuilds it from the store).
    pub fn forget(&self, id: &str, slot: &Arc<Slot>) {
        let mut map = self.map();
        if map
            .get(id)
            .and_then(|c| c.get())
            .is_some_and(|s| Arc::ptr_eq(s, slot))
        {
            map.remove(id);
        }
    }

    /// Number of games in memory.
    pub fn cached(&self) -> usize {
        self.map().len()
    }

    /// Drop the least recently used idle games beyond the capacity. A game is idle when no
    /// request holds it (a live-update stream holds its version channel only).
    fn evict(&self) {
        let mut map = self.map();
        if map.len() <= self.capacity {
            return;
        }
        self.channels
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|_, tx| tx.strong_count() > 0);
        let mut idle: Vec<(u64, String)> = map
            .iter()
            .filter(|(_, c)| Arc::strong_count(c) == 1)
            .filter_map(|(k, c)| {
                let s = c.get()?;
                (Arc::strong_count(s) == 1)
                    .then(|| (s.last_used.load(Ordering::Relaxed), k.clone()))
            })
            .collect();
        idle.sort();
        let excess = map.len() - self.capacity;
        for (_, k) in idle.into_iter().take(excess) {
            map.remove(&k);
        }
    }

    /// A game after its first `upto` actions (of `actions`, the game's), for a replay: from the
    /// nearest snapshot at or before `upto`, replaying only what lies between; the snapshots met
    /// on the way are kept. Blocking (replaying takes time): call it off the async workers.
    pub fn replay(
        &self,
        meta: &GameMeta,
        actions: &[String],
        upto: usize,
    ) -> Result<Rebuilt, catalog::CatalogError> {
        let upto = upto.min(actions.len());
        let snaps = self.snapshots(&meta.id);
        // The nearest state to start from; the lock is held only to copy it.
        let (start, every) = {
            let s = snaps.lock().unwrap_or_else(|p| p.into_inner());
            let kept = s.kept.range(..=upto).next_back().map(|(_, k)| k);
            let last = s.last.as_ref().filter(|l| l.at <= upto);
            let best = match (kept, last) {
                (Some(k), Some(l)) => Some(if l.at > k.at { l } else { k }),
                (k, l) => k.or(l),
            };
            (best.map(|b| (b.at, b.copy())), s.every)
        };
        let (mut at, mut rb) = match start {
            Some(s) => s,
            None => {
                let (game, start) = catalog::open_lines(
                    &meta.scenario,
                    &meta.options,
                    self.data_dir.as_deref(),
                    meta.seed,
                )?;
                let mut log = Log::default();
                log.push(&start);
                (
                    0,
                    Rebuilt {
                        game,
                        log,
                        last_events: start.for_viewer(Viewer::All).to_vec(),
                        last: start,
                        last_decider: None,
                    },
                )
            }
        };
        let mut met = Vec::new();
        if at == 0 {
            met.push(snapshot(0, &rb));
        }
        while at < upto {
            let a = &actions[at];
            rb.last_decider = rb.game.decider();
            let ev = rb
                .game
                .apply_lines(a)
                .map_err(|e| catalog::CatalogError::Replay {
                    index: at + 1,
                    action: a.clone(),
                    reason: e.to_string(),
                })?;
            rb.log.push(&ev);
            rb.last_events = ev.for_viewer(Viewer::All).to_vec();
            rb.last = ev;
            at += 1;
            self.replayed.fetch_add(1, Ordering::Relaxed);
            if at % every == 0 {
                met.push(snapshot(at, &rb));
            }
        }
        let mut s = snaps.lock().unwrap_or_else(|p| p.into_inner());
        for snap in met {
            if snap.at % s.every == 0 {
                s.kept.entry(snap.at).or_insert(snap);
            }
        }
        while s.kept.len() > REPLAY_SNAPSHOTS {
            s.every *= 2;
            let every = s.every;
            s.kept.retain(|at, _| at % every == 0);
        }
        s.last = Some(snapshot(upto, &rb));
        Ok(rb)
    }

    /// Forget a game's replay snapshots after its first `keep` actions (issue 19: the actions
    /// after them were taken back, and others may follow).
    pub fn forget_replays_after(&self, id: &str, keep: usize) {
        let snaps = self
            .replays
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        if let Some(snaps) = snaps {
            let mut s = snaps.lock().unwrap_or_else(|p| p.into_inner());
            s.kept.retain(|&at, _| at <= keep);
            if s.last.as_ref().is_some_and(|l| l.at > keep) {
                s.last = None;
            }
        }
    }

    /// The replay snapshots of a game (kept for the [`REPLAY_GAMES`] most recently replayed).
    fn snapshots(&self, id: &str) -> Arc<StdMutex<Snapshots>> {
        let mut all = self.replays.lock().unwrap_or_else(|p| p.into_inner());
        let now = self.clock.fetch_add(1, Ordering::Relaxed);
        if let Some(s) = all.get(id) {
            s.lock().unwrap_or_else(|p| p.into_inner()).used = now;
            return s.clone();
        }
        if all.len() >= REPLAY_GAMES {
            let oldest = all
                .iter()
                .min_by_key(|(_, s)| s.lock().unwrap_or_else(|p| p.into_inner()).used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                all.remove(&k);
            }
        }
        let s = Arc::new(StdMutex::new(Snapshots {
            every: REPLAY_EVERY,
            kept: BTreeMap::new(),
            last: None,
            used: now,
        }));
        all.insert(id.to_string(), s.clone());
        s
    }

    /// Actions applied to answer replays since the server started (a replay from a snapshot
    /// applies only the actions after it).
    pub fn replayed_actions(&self) -> u64 {
        self.replayed.load(Ordering::Relaxed)
    }

    /// Delete the games abandoned before `now - max_age`: not over, and no action (nor their
    /// creation) since. A game found over is marked so in the store and kept for good. Returns
    /// how many went and how many were kept.
    pub async fn expire_idle(&self, now: i64, max_age: Duration) -> Result<Expired, ApiError> {
        let before = now.saturating_sub(i64::try_from(max_age.as_secs()).unwrap_or(i64::MAX));
        let mut out = Expired::default();
        for id in self.store.idle_games(before).await? {
            if self.is_over(&id).await? {
                self.store.keep(&id).await?;
                out.kept += 1;
            } else if self.store.expire(&id, before).await? {
                self.map().remove(&id);
                self.replays
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&id);
                out.expired += 1;
            }
        }
        Ok(out)
    }

    /// Whether a game is over: from memory if it is there, else rebuilt aside (not cached).
    async fn is_over(&self, id: &str) -> Result<bool, ApiError> {
        let cached = self.map().get(id).and_then(|c| c.get().cloned());
        if let Some(slot) = cached {
            return Ok(slot.live.lock().await.game.decider().is_none());
        }
        let Some((meta, actions)) = self.store.load(id).await? else {
            return Ok(false);
        };
        let dd = self.data_dir.clone();
        let over = tokio::task::spawn_blocking(move || {
            rebuild(
                &meta.scenario,
                &meta.options,
                meta.seed,
                &actions,
                dd.as_deref(),
            )
            .map(|rb| rb.game.decider().is_none())
        })
        .await?
        .map_err(|e| ApiError::Internal(format!("stored game {id} does not replay: {e}")))?;
        Ok(over)
    }
}

fn snapshot(at: usize, rb: &Rebuilt) -> Snapshot {
    Snapshot {
        at,
        game: rb.game.boxed_clone(),
        log: rb.log.clone(),
        last: rb.last.clone(),
        last_decider: rb.last_decider,
    }
}
