//! Storage behind a trait: the action list is the game. A game is its metadata (scenario,
//! options, seed, mode, tokens) and its actions, each a row keyed by `(game_id, seq)`; a write is
//! one transaction. SQLite in a file by default, PostgreSQL with a `postgres://` URL.

/// SQL: when a game `g` was last played, its last action's time (or its creation's without
/// one), for the expiry of abandoned games (both stores).
macro_rules! last_active {
    () => {
        "COALESCE((SELECT written FROM actions a WHERE a.game_id = g.id \
         ORDER BY a.seq DESC LIMIT 1), g.created)"
    };
}

mod postgres;
mod sqlite;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How the seats of a game are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One person against the server's agent.
    Ai,
    /// Two people at one screen (one browser holds both seats).
    Hotseat,
    /// Two people in two browsers, one secret link each.
    Friend,
}

impl Mode {
    /// The name used in the API and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Hotseat => "hotseat",
            Mode::Friend => "friend",
        }
    }

    /// Parse the API/database name.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "ai" => Some(Mode::Ai),
            "hotseat" => Some(Mode::Hotseat),
            "friend" => Some(Mode::Friend),
            _ => None,
        }
    }
}

/// The capabilities of a game: one secret token per seat held by a person (none for the AI's
/// seat, none yet for the seat of a friend who has not claimed the invitation) and one for
/// spectators.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// Seat 0's and seat 1's tokens.
    pub seats: [Option<String>; 2],
    /// The read-only token.
    pub spectator: String,
    /// A friend game's one-time invitation to the creator's opponent (absent in rows written
    /// before invitations: their two seats' tokens were both given at creation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation: Option<Invitation>,
}

/// The one-time invitation of a friend game: claiming it mints the seat's token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    /// The seat it gives.
    pub seat: u8,
    /// The invitation's secret (its digest in the store).
    pub token: String,
    /// Whether it was claimed (a second claim is refused).
    pub claimed: bool,
}

impl Tokens {
    /// The same capabilities as the store keeps them: each token's digest (`token::digest`).
    pub fn digests(&self) -> Tokens {
        Tokens {
            seats: [0, 1].map(|i| self.seats[i].as_deref().map(crate::token::digest)),
            spectator: crate::token::digest(&self.spectator),
            invitation: self.invitation.as_ref().map(|i| Invitation {
                token: crate::token::digest(&i.token),
                ..i.clone()
            }),
        }
    }
}

/// The seeds of a game whose dice anyone can verify (docs/server.md, `engine::fair`): the
/// server's secret seed (its commitment is published at once, the seed itself when the game
/// ends) and the client seed each person adds when taking a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceSeeds {
    /// 64 lowercase hex digits.
    pub server_seed: String,
    /// Each seat's client seed once added (the computer's seat adds none).
    pub client_seeds: [Option<String>; 2],
}

/// What the store keeps of a game besides its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMeta {
    /// Game id.
    pub id: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Scenario id.
    pub scenario: String,
    /// Game options.
    pub options: Vec<String>,
    /// Seed of the dice (with verifiable dice: derived from the seeds once every person added
    /// one; 0 before).
    pub seed: u64,
    /// How the seats are held.
    pub mode: Mode,
    /// The seat the server plays (mode `ai`).
    pub ai_seat: Option<u8>,
    /// The capabilities.
    pub tokens: Tokens,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// Verifiable dice (modes `ai` and `friend`); `None`: a seed chosen openly (hot-seat, import,
    /// and every game stored before verifiable dice).
    pub dice: Option<DiceSeeds>,
    /// The computer's level chosen for this game (`ai::LEVELS`, mode `ai`); `None`: the server's
    /// own (`tricorne serve --ai`).
    pub ai_level: Option<String>,
    /// Actions taken back so far ([`Store::take_back`], issue 19): with the number of actions,
    /// it tells a server sharing the store whether the game it holds is still the stored one
    /// (an action taken back and another taken leave the count as it was).
    pub undone: u64,
}

impl GameMeta {
    /// The agent that plays the computer's seat: the game's level, else the server's agent.
    pub fn agent<'a>(&'a self, server: &'a str) -> &'a str {
        self.ai_level.as_deref().unwrap_or(server)
    }

    /// The seats whose client seed the dice still wait for (a person's seat without one).
    pub fn waiting(&self) -> Vec<u8> {
        match &self.dice {
            None => Vec::new(),
            Some(d) => (0..2u8)
                .filter(|&i| self.ai_seat != Some(i) && d.client_seeds[usize::from(i)].is_none())
                .collect(),
        }
    }

    /// Whether the game has started: its dice have their seed (always, for a plain seed).
    pub fn started(&self) -> bool {
        self.waiting().is_empty()
    }

    /// The client seeds in seat order as the derivation takes them ("" for none).
    pub fn client_seeds(&self) -> [String; 2] {
        match &self.dice {
            None => [String::new(), String::new()],
            Some(d) => [0, 1].map(|i| d.client_seeds[i].clone().unwrap_or_default()),
        }
    }
}

/// Storage failures.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A sequence number or game id already taken (another writer was first), or a gap.
    #[error("{0}")]
    Conflict(String),
    /// Actions for a game that does not exist.
    #[error("no game {0:?}")]
    UnknownGame(String),
    /// The database failed.
    #[error("database: {0}")]
    Database(String),
    /// A row that does not decode.
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

/// What a store shared by several servers tells each of them about the writes of the others
/// (PostgreSQL `LISTEN/NOTIFY`, docs/server.md "Several servers on one database").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The notifications flow (again): a write missed while they did not may be anywhere.
    Up,
    /// The notifications stopped (the connection was lost): until [`Notice::Up`], live viewers
    /// learn of the others' writes only when a request brings the game up to date.
    Down,
    /// Another server wrote to a game (actions or seats); it now has `version` actions.
    Changed {
        /// The game.
        game: String,
        /// Its number of actions after the write.
        version: u64,
    },
}

/// What a server sharing the store checks of a game it holds before answering from memory: its
/// number of actions and its seats and seeds (what [`Store::append`] and
/// [`Store::update_seats`] change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// Actions stored.
    pub actions: u64,
    /// The capabilities.
    pub tokens: Tokens,
    /// The dice's seeds.
    pub dice: Option<DiceSeeds>,
    /// The dice's seed.
    pub seed: u64,
    /// Actions taken back so far.
    pub undone: u64,
}

impl Head {
    /// Whether a game held in memory (its metadata and number of actions) is this one.
    pub fn matches(&self, meta: &GameMeta, actions: u64) -> bool {
        self.actions == actions
            && self.tokens == meta.tokens
            && self.dice == meta.dice
            && self.seed == meta.seed
            && self.undone == meta.undone
    }
}

/// Where games live. Every method is one transaction.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Store a new game with its first actions (seq 1, 2, …), all or nothing.
    async fn create(&self, meta: &GameMeta, actions: &[String]) -> Result<(), StoreError>;
    /// Append actions numbered `first_seq`, `first_seq + 1`, … to a game, all or nothing.
    /// `first_seq` must be one more than the number of actions stored, else
    /// [`StoreError::Conflict`] (two writers for one decision: the second fails).
    async fn append(
        &self,
        game: &str,
        first_seq: u64,
        actions: &[String],
    ) -> Result<(), StoreError>;
    /// A game's metadata and every action in order; `None` for an unknown id.
    async fn load(&self, game: &str) -> Result<Option<(GameMeta, Vec<String>)>, StoreError>;
    /// Take back the last actions of a game (issue 19, undo): delete those numbered after
    /// `keep` if the game has exactly `stored` actions, and count them as taken back, in one
    /// transaction; else [`StoreError::Conflict`] (another decision was stored meanwhile).
    async fn take_back(&self, game: &str, stored: u64, keep: u64) -> Result<(), StoreError>;
    /// Replace a game's seats and seeds (its tokens, invitation, seeds and dice's seed) with
    /// those of `after`, if the store still holds those of `before`; else
    /// [`StoreError::Conflict`] (another request changed them first: a second claim of one
    /// invitation fails here even across servers).
    async fn update_seats(&self, before: &GameMeta, after: &GameMeta) -> Result<(), StoreError>;
    /// Ids of every stored game, oldest first.
    async fn game_ids(&self) -> Result<Vec<String>, StoreError>;
    /// Ids of the games not marked as over ([`Store::keep`]) whose last action (or, without
    /// one, their creation) is older than `before` (seconds since the Unix epoch). Each action
    /// is stored with the time it was written; actions stored before that time was kept count
    /// as written when the database was upgraded.
    async fn idle_games(&self, before: i64) -> Result<Vec<String>, StoreError>;
    /// Mark a game as over: it is kept for good.
    async fn keep(&self, game: &str) -> Result<(), StoreError>;
    /// Delete a game and its actions if it is still idle since before `before` and not marked
    /// as over (checked in the same transaction as the deletion: an action written meanwhile
    /// keeps the game). True if it was deleted.
    async fn expire(&self, game: &str, before: i64) -> Result<bool, StoreError>;
    /// A short description for the log ("SQLite file x.db").
    fn describe(&self) -> String;
    /// The writes of the other servers sharing this store, as they are committed; `None` for a
    /// store only this process writes (SQLite), whose games in memory are always the latest.
    /// Called once, from within the Tokio runtime; the feed ends when the receiver is dropped.
    fn notifications(&self) -> Option<tokio::sync::mpsc::Receiver<Notice>> {
        None
    }
    /// A game's number of actions and its seats, `None` for an unknown id (the check of a game
    /// held in memory by a server sharing the store with others).
    async fn head(&self, game: &str) -> Result<Option<Head>, StoreError> {
        Ok(self.load(game).await?.map(|(meta, actions)| Head {
            actions: actions.len() as u64,
            tokens: meta.tokens,
            dice: meta.dice,
            seed: meta.seed,
            undone: meta.undone,
        }))
    }
}

/// Open the store a URL names: `postgres://…` or `postgresql://…` for PostgreSQL; `sqlite://…`,
/// `sqlite:…` or a plain file path for SQLite (the file is created if missing).
pub async fn connect(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::connect(url).await?))
    } else {
        Ok(Arc::new(SqliteStore::open(url).await?))
    }
}

/// Seconds since the Unix epoch, as stored with each action.
pub(crate) fn now_column() -> i64 {
    crate::live::unix_now()
}

/// Database error to store error: a unique or primary key violation is a conflict, a foreign key
/// violation an unknown game.
pub(crate) fn db_error(e: sqlx::Error, game: &str) -> StoreError {
    if let sqlx::Error::Database(d) = &e {
        if d.is_unique_violation() {
            return StoreError::Conflict(
                "this decision was already taken (the action's sequence number is stored)".into(),
            );
        }
        if d.is_foreign_key_violation() {
            return StoreError::UnknownGame(game.to_string());
        }
    }
    StoreError::Database(e.to_string())
}

/// Seats' JSON column.
pub(crate) fn encode_tokens(t: &Tokens) -> String {
    // A struct of strings always serialises.
    serde_json::to_string(t).unwrap_or_default()
}

/// The dice seeds' JSON column (NULL for a plain seed).
pub(crate) fn encode_dice(d: &Option<DiceSeeds>) -> Option<String> {
    // A struct of strings always serialises.
    d.as_ref()
        .map(|d| serde_json::to_string(d).unwrap_or_default())
}

/// Options' JSON column.
pub(crate) fn encode_options(o: &[String]) -> String {
    // A list of strings always serialises.
    serde_json::to_string(o).unwrap_or_default()
}

/// Decode a game row's columns.
#[allow(clippy::too_many_arguments)]
pub(crate) fn decode_meta(
    id: String,
    ruleset: String,
    scenario: String,
    options: &str,
    seed: i64,
    mode: &str,
    ai_seat: Option<i32>,
    tokens: &str,
    created: i64,
    dice: Option<&str>,
    ai_level: Option<String>,
    undone: i64,
) -> Result<GameMeta, StoreError> {
    let dice: Option<DiceSeeds> = dice
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| StoreError::Corrupt(format!("game {id}: dice: {e}")))?;
    let options: Vec<String> = serde_json::from_str(options)
        .map_err(|e| StoreError::Corrupt(format!("game {id}: options: {e}")))?;
    let tokens: Tokens = serde_json::from_str(tokens)
        .map_err(|e| StoreError::Corrupt(format!("game {id}: tokens: {e}")))?;
    let mode = Mode::parse(mode)
        .ok_or_else(|| StoreError::Corrupt(format!("game {id}: mode {mode:?}")))?;
    let ai_seat = match ai_seat {
        None => None,
        Some(s @ (0 | 1)) => Some(s as u8),
        Some(s) => return Err(StoreError::Corrupt(format!("game {id}: ai seat {s}"))),
    };
    Ok(GameMeta {
        id,
        ruleset,
        scenario,
        options,
        seed: u64::from_le_bytes(seed.to_le_bytes()),
        mode,
        ai_seat,
        tokens,
        created,
        dice,
        ai_level,
        undone: u64::try_from(undone).unwrap_or(0),
    })
}

/// The seed as the signed 64-bit integer both databases store (bit for bit).
pub(crate) fn seed_column(seed: u64) -> i64 {
    i64::from_le_bytes(seed.to_le_bytes())
}

/// A sequence number as a database integer.
pub(crate) fn seq_column(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::Conflict(format!("sequence number {seq} too large")))
}
