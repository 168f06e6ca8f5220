//! The ruleset-agnostic core of tricorne: the [`Ruleset`] trait, seeded [`Dice`], game records and
//! replay, and the object-safe [`DynGame`] adapter through which the CLI (and later the server)
//! drive any ruleset with JSON.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod dice;
pub mod fair;
mod lines;
pub mod playout;
pub mod points;
pub mod policy;
mod record;

pub use dice::{Dice, Percentile};
pub use lines::{Lines, Viewer};
pub use points::{Half, drop_fraction, round_half_up};
pub use policy::Policy;
pub use record::{GameRecord, RECORD_FORMAT, RECORD_VERSION, RecordError};

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::{Debug, Display};

/// A seat at the table: index 0 or 1. Each ruleset names its seats (French / Allies …).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub struct Seat(pub u8);

/// Per-seat data.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct BySeat<T>(pub [T; 2]);

impl<T> BySeat<T> {
    /// The value for a seat.
    pub fn get(&self, s: Seat) -> &T {
        &self.0[usize::from(s.0 & 1)]
    }
    /// The value for a seat, mutably.
    pub fn get_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[usize::from(s.0 & 1)]
    }
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<Seat>,
    /// The victory level as the rule book names it ("Brilliant French victory").
    pub level: String,
    /// The rule that decided it ("15.2").
    pub rule: String,
}

/// A legal action as the outside world sees it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ActionInfo {
    /// Stable text id (what `apply` takes).
    pub id: String,
    /// A label a person can read.
    pub label: String,
    /// The map places (hex ids) the action points at, for a front end's map clicks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexes: Vec<String>,
    /// [`Ruleset::odds`]: for an attack or a fire, what may come of it, before committing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<serde_json::Value>,
}

/// Errors of applying an action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The id names no legal action now.
    #[error("{0:?} is not a legal action now (see `legal`)")]
    Illegal(String),
    /// The rules engine reached a state it cannot continue from (a bug).
    #[error("rules engine error: {0}")]
    Internal(String),
}

/// Why an action may not be taken back (issue 19: a player may take back his own decisions until
/// a die is rolled, something hidden is revealed, or the other side decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UndoBlock {
    /// The action rolled a die.
    #[error("a die was rolled")]
    DiceRolled,
    /// The action showed a side something the rules hid from it.
    #[error("something hidden was revealed")]
    Revealed,
    /// The ruleset does not say whether its actions roll dice ([`Ruleset::dice`]).
    #[error("this game's rules do not say whether a die was rolled")]
    Unknown,
}

/// A game's rules: the hooks a ruleset provides. Procedures run by themselves until a seat must
/// decide; `legal_actions` lists that seat's choices and `apply` takes one of them.
pub trait Ruleset {
    /// Everything needed to go on (clone it to search, serialise it to save).
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// A choice a seat can make.
    type Action: Clone + Debug + PartialEq;
    /// Something that happened, for the log: carries its rule number and numbers.
    type Event: Clone + Debug + Display + Serialize;

    /// Short ruleset id ("saxe").
    fn ruleset_id(&self) -> &str;
    /// Scenario id this instance plays.
    fn scenario_id(&self) -> &str;
    /// Names of the seats.
    fn seat_name(&self, seat: Seat) -> &str;
    /// Start a game.
    fn start(&self, seed: u64, events: &mut Vec<Self::Event>) -> Self::State;
    /// Who must decide now (`None`: the game is over).
    fn decider(&self, state: &Self::State) -> Option<Seat>;
    /// The legal actions of the decider, in a stable order.
    fn legal_actions(&self, state: &Self::State) -> Vec<Self::Action>;
    /// Stable text id of an action.
    fn action_id(&self, action: &Self::Action) -> String;
    /// Label of an action for people.
    fn action_label(&self, state: &Self::State, action: &Self::Action) -> String;
    /// Apply a legal action; may be called only with an element of `legal_actions`.
    fn apply_legal(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    );
    /// A uniformly random legal action, drawn with `pick`: each entry of `legal_actions` as
    /// likely as the others (`None`: there is none). Random playouts use it. The default lists
    /// the actions and draws one (`pick.below` of their number, once); a ruleset may sample
    /// without listing them all, with the same chances.
    fn random_action(&self, state: &Self::State, pick: &mut Dice) -> Option<Self::Action> {
        pick.take(self.legal_actions(state))
    }
    /// The outcome, once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// What a seat (or a spectator, `None`) may see, as JSON.
    fn view(&self, state: &Self::State, seat: Option<Seat>) -> serde_json::Value;
    /// The board as text for a seat (or everything for `None`).
    fn render_text(&self, state: &Self::State, seat: Option<Seat>) -> String;
    /// Check the ruleset's invariants; a description of each violation.
    fn check_invariants(&self, state: &Self::State) -> Vec<String>;

    /// The log lines of `events` as `viewer` may read them: rendered for that viewer from the
    /// events' structured data, so that nothing the rules hide from it is ever written (3.6 in the
    /// French series). Default: every viewer reads every event (a ruleset without hidden
    /// information).
    fn render_events(&self, events: &[Self::Event], _viewer: Viewer) -> Vec<String> {
        events.iter().map(|e| e.to_string()).collect()
    }

    /// Whether the rules hide anything from a side (3.6 in the French series). A ruleset that hides
    /// nothing lets every viewer read every text, an agent's explanation included. Default: no.
    fn hides_information(&self) -> bool {
        false
    }

    /// The map places an action points at (hex ids), for map clicks. Default: none.
    fn action_hexes(&self, _state: &Self::State, _action: &Self::Action) -> Vec<String> {
        Vec::new()
    }

    /// What anyone may see (a spectator): no side's secrets. Default: the view of no seat.
    fn public_view(&self, state: &Self::State) -> serde_json::Value {
        self.view(state, None)
    }

    /// Names and ids nobody but their owner may learn now (for spectators); for tests, like
    /// [`Ruleset::hidden_from`]. Default: none.
    fn hidden_from_public(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// The static board of the scenario (map, counters) as JSON, for drawing it. Default: null.
    fn board(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// Names and ids a seat may not learn now (3.6: the units under the top of enemy stacks).
    /// Only for tests that check that nothing a seat receives names them: what a seat receives
    /// is written for it ([`Ruleset::render_events`], `view`), never patched. Default: none.
    fn hidden_from(&self, _state: &Self::State, _seat: Seat) -> Vec<String> {
        Vec::new()
    }

    /// Every way a game can end, as (level, rule), for tables of results. Default: none listed.
    fn outcome_levels(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Check that a state read from outside (a saved game) fits this scenario before it is used;
    /// every problem found. The default checks nothing beyond the invariants' preconditions.
    fn validate_state(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// The dice in the state, for undo (issue 19): an action that moved them rolled a die, and
    /// may not be taken back. Default: `None`, "this ruleset does not say" — its actions are never
    /// undone.
    fn dice<'s>(&self, _state: &'s Self::State) -> Option<&'s Dice> {
        None
    }

    /// Whether going from `before` to `after` showed a side something the rules had hidden from
    /// it (3.6 in the French series: a unit under the top of a stack comes to the top or moves
    /// out alone), so that the action may not be taken back. Default: some name or id hidden
    /// from a seat before is no longer hidden from it after ([`Ruleset::hidden_from`]).
    fn revealed(&self, before: &Self::State, after: &Self::State) -> bool {
        [Seat(0), Seat(1)].into_iter().any(|seat| {
            let now = self.hidden_from(after, seat);
            self.hidden_from(before, seat)
                .iter()
                .any(|name| !now.contains(name))
        })
    }

    /// What a player may read before committing to an action (issue 19): for an attack or a fire,
    /// the ratio, every modifier with its rule, the chance of each result over the die's faces —
    /// as JSON the page draws. Default: none.
    fn odds(&self, _state: &Self::State, _action: &Self::Action) -> Option<serde_json::Value> {
        None
    }

    /// The action a reaction policy (issue 19) takes for `seat` at the decision now: `Some` when
    /// the decision is a reactive prompt of the rules (8.6, 9.3 in the French series) and the
    /// policy answers it, `None` to ask the player. Called only when `seat` decides; the action
    /// must be one of `legal_actions`. Default: always ask.
    fn policy_answer(
        &self,
        _state: &Self::State,
        _seat: Seat,
        _policy: &Policy,
    ) -> Option<Self::Action> {
        None
    }

    /// Apply the action with this id if it is legal; otherwise an error and the state untouched.
    fn apply_id(
        &self,
        state: &mut Self::State,
        id: &str,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), ApplyError> {
        if self.decider(state).is_none() {
            return Err(ApplyError::GameOver);
        }
        let action = self
            .legal_actions(state)
            .into_iter()
            .find(|a| self.action_id(a) == id)
            .ok_or_else(|| ApplyError::Illegal(id.to_string()))?;
        let mut next = state.clone();
        let mut evs = Vec::new();
        self.apply_legal(&mut next, &action, &mut evs);
        *state = next;
        events.extend(evs);
        Ok(())
    }
}

/// What agents (`crates/ai`) may ask a ruleset beyond its rules. Every hook has a default, so a
/// ruleset opts in with an empty `impl AgentHooks for MyRules {}` and gets a legal, if aimless,
/// agent; the ruleset that knows its game overrides them (the French series does in
/// `saxe::ai_support`). A separate trait so that a ruleset's agent support lives in its own file.
pub trait AgentHooks: Ruleset {
    /// How good the state is for `seat`, from 0 (lost) to 1 (won); a draw is 0.5. Agents use it at
    /// the leaves of a search. Default: the outcome once over, otherwise 0.5.
    fn evaluate(&self, state: &Self::State, seat: Seat) -> f64 {
        match self.outcome(state) {
            Some(Outcome {
                winner: Some(w), ..
            }) => {
                if w == seat {
                    1.0
                } else {
                    0.0
                }
            }
            _ => 0.5,
        }
    }

    /// A rule-aware score for each of `actions` (the legal actions, in order): higher is better for
    /// the decider. The heuristic agent plays the best; search tries the best first. Default: all 0.
    fn action_scores(&self, _state: &Self::State, actions: &[Self::Action]) -> Vec<f64> {
        vec![0.0; actions.len()]
    }

    /// The scores a search's playouts choose by ([`DynGame::apply_best`]): a ruleset whose
    /// `action_scores` are costly (a look ahead at every choice) may play its playouts with a
    /// cheaper policy. Default: `action_scores`.
    fn playout_scores(&self, state: &Self::State, actions: &[Self::Action]) -> Vec<f64> {
        self.action_scores(state, actions)
    }

    /// The most actions the playouts of one searched decision should apply in all (every
    /// candidate is still tried once): a ruleset whose actions are costly bounds its searches so
    /// that the slowest decision stays within a player's patience, deterministically (no wall
    /// clock). The search takes the smaller of this and its own limit. Default: none.
    fn search_work_limit(&self) -> Option<usize> {
        None
    }

    /// A copy of the state as `seat` could imagine it: what the rules hide from that seat (hidden
    /// stacks, future dice) replaced by a guess drawn from `seed`, consistent with what the seat
    /// sees. Search plays on such copies so that it never reads what it may not know. Default: a
    /// clone (right only for a ruleset without hidden information or dice in its state).
    fn determinize(&self, state: &Self::State, _seat: Seat, _seed: u64) -> Self::State {
        state.clone()
    }

    /// Whether the decision now is worth a search (a plan, an attack) rather than a detail the
    /// heuristic can settle (one hex of a move already chosen). Default: whenever there is a choice.
    fn worth_searching(&self, _state: &Self::State, actions: &[Self::Action]) -> bool {
        actions.len() > 1
    }

    /// A number that grows as the game advances in big steps (half-turns): a search looks ahead
    /// until it changes. Default: 0 (searches then run to their action limit).
    fn progress(&self, _state: &Self::State) -> u32 {
        0
    }

    /// The terms of [`AgentHooks::evaluate`] from the first seat's side, each a number, for
    /// studying or fitting the evaluation (docs/ai.md). Default: none.
    fn eval_terms(&self, _state: &Self::State) -> Vec<f64> {
        Vec::new()
    }

    /// What an action intends, in a short line a player can read ("Broglie: moves the line of Du Roi
    /// (4 units) toward Hastenbeck"), or `None` for a detail, as `viewer` may read it (an agent's
    /// explanation is shown to its opponent too). Default: none.
    fn intent(
        &self,
        _state: &Self::State,
        _action: &Self::Action,
        _viewer: Viewer,
    ) -> Option<String> {
        None
    }
}

/// Object-safe face of a game in progress: any ruleset through JSON and text ids.
pub trait DynGame: Send {
    /// Ruleset id.
    fn ruleset_id(&self) -> String;
    /// Scenario id.
    fn scenario_id(&self) -> String;
    /// Seat names.
    fn seat_names(&self) -> [String; 2];
    /// Who decides now.
    fn decider(&self) -> Option<Seat>;
    /// Legal actions with ids and labels.
    fn legal(&self) -> Vec<ActionInfo>;
    /// Apply by id; returns the events as log lines for everyone who may read everything (the
    /// game's owner at one screen, a finished game's record).
    fn apply(&mut self, id: &str) -> Result<Vec<String>, ApplyError>;
    /// Apply by id; returns the events rendered for every viewer ([`Lines`]).
    fn apply_lines(&mut self, id: &str) -> Result<Lines, ApplyError>;
    /// The outcome once over.
    fn outcome(&self) -> Option<Outcome>;
    /// The full state as JSON.
    fn state_json(&self) -> serde_json::Value;
    /// A seat's view as JSON.
    fn view_json(&self, seat: Option<Seat>) -> serde_json::Value;
    /// The board as text.
    fn render(&self, seat: Option<Seat>) -> String;
    /// Invariant violations.
    fn invariants(&self) -> Vec<String>;
    /// Every way a game can end, as (level, rule).
    fn outcome_levels(&self) -> Vec<(String, String)>;
    /// The static board (map, counters) as JSON.
    fn board(&self) -> serde_json::Value;
    /// Names and ids a seat may not learn now (hidden information).
    fn hidden_from(&self, seat: Seat) -> Vec<String>;
    /// What a spectator may see.
    fn public_view(&self) -> serde_json::Value;
    /// Names and ids hidden from spectators.
    fn hidden_from_public(&self) -> Vec<String>;
    /// Number of legal actions (cheaper than `legal` for agents).
    fn legal_count(&self) -> usize;
    /// Apply the `i`-th legal action; its id and its events for everyone who may read everything.
    fn apply_index(&mut self, i: usize) -> Result<(String, Vec<String>), ApplyError>;
    /// Apply the `i`-th legal action; its id and its events rendered for every viewer.
    fn apply_index_lines(&mut self, i: usize) -> Result<(String, Lines), ApplyError>;
    /// Replace the state by one read from JSON (a saved game); the state is untouched on error.
    fn load_state(&mut self, v: serde_json::Value) -> Result<(), String>;
    /// A boxed copy (agents search on copies).
    fn boxed_clone(&self) -> Box<dyn DynGame>;
    /// Approximate size of the state in memory, in bytes (heap included).
    fn state_bytes(&self) -> usize;
    /// [`AgentHooks::evaluate`]: how good the state is for `seat`, 0 to 1.
    fn evaluate(&self, seat: Seat) -> f64;
    /// [`AgentHooks::action_scores`] for the legal actions, in the order of `legal`.
    fn action_scores(&self) -> Vec<f64>;
    /// [`AgentHooks::determinize`]: a copy of the game as `seat` could imagine it.
    fn determinized(&self, seat: Seat, seed: u64) -> Box<dyn DynGame>;
    /// [`AgentHooks::worth_searching`] now.
    fn worth_searching(&self) -> bool;
    /// [`AgentHooks::search_work_limit`].
    fn search_work_limit(&self) -> Option<usize>;
    /// [`AgentHooks::progress`] now.
    fn progress(&self) -> u32;
    /// [`AgentHooks::eval_terms`] now.
    fn eval_terms(&self) -> Vec<f64>;
    /// [`AgentHooks::intent`] of the `i`-th legal action, for everyone who may read everything.
    fn intent(&self, i: usize) -> Option<String>;
    /// [`AgentHooks::intent`] of the `i`-th legal action, rendered for every viewer.
    fn intent_lines(&self, i: usize) -> Option<Lines>;
    /// [`Ruleset::hides_information`].
    fn hides_information(&self) -> bool;
    /// Apply the `i`-th legal action without rendering its events (for search).
    fn apply_index_quiet(&mut self, i: usize) -> Result<(), ApplyError>;
    /// Id and label of the `i`-th legal action.
    fn action_info(&self, i: usize) -> Option<ActionInfo>;
    /// Whether the action `id`, applied to this state, could be taken back (issue 19): `Ok(None)`
    /// if it rolls no die and reveals nothing hidden ([`Ruleset::dice`], [`Ruleset::revealed`]);
    /// the state is untouched. An error if `id` is not legal now.
    fn undo_blocker(&self, id: &str) -> Result<Option<UndoBlock>, ApplyError>;
    /// The reaction policy a seat set ([`Policy`]; the default asks).
    fn policy(&self, seat: Seat) -> Policy;
    /// What the decider's reaction policy answers now ([`Ruleset::policy_answer`]): the action's
    /// id and label, or `None` to ask the player.
    fn policy_answer(&self) -> Option<ActionInfo>;
    /// [`Ruleset::odds`] of the `i`-th legal action.
    fn odds(&self, i: usize) -> Option<serde_json::Value>;
    /// Apply the legal action with the best [`AgentHooks::playout_scores`] (ties broken by `salt`),
    /// without rendering events; its index. One pass over the legal actions: a search's playouts.
    fn apply_best(&mut self, salt: u64) -> Result<usize, ApplyError>;
}

/// The index of the best score, ties broken by `salt` (agents).
pub fn best_index(scores: &[f64], salt: u64) -> usize {
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, v) in scores.iter().enumerate() {
        let v = v + tie_jitter(salt, i);
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    best
}

/// A tiny deterministic jitter in [0, 1e-6) to break ties between equal scores (agents).
pub fn tie_jitter(salt: u64, i: usize) -> f64 {
    let mut x = salt ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x >> 11) as f64 / (1u64 << 53) as f64 * 1e-6
}

/// A [`Ruleset`] together with its state.
pub struct Game<R: Ruleset> {
    /// The rules.
    pub rules: R,
    /// The state.
    pub state: R::State,
    /// Each seat's reaction policy (issue 19), set by `policy:` entries of the action list.
    pub policies: BySeat<Policy>,
}

impl<R: Ruleset> Game<R> {
    /// Start a new game.
    pub fn new(rules: R, seed: u64) -> (Self, Vec<R::Event>) {
        let mut ev = Vec::new();
        let state = rules.start(seed, &mut ev);
        (
            Self {
                rules,
                state,
                policies: BySeat::default(),
            },
            ev,
        )
    }

    /// Apply a `policy:` entry of the action list if `id` is one: the seat's policy changes, and
    /// the line that says so is written for that seat alone (its opponent may not learn how it
    /// will answer). `None` if `id` is not a policy entry.
    fn apply_policy(&mut self, id: &str) -> Option<Result<Lines, ApplyError>> {
        let (seat, policy) = match Policy::parse_action(id)? {
            Ok(p) => p,
            Err(e) => return Some(Err(ApplyError::Illegal(e))),
        };
        if self.rules.decider(&self.state).is_none() {
            return Some(Err(ApplyError::GameOver));
        }
        *self.policies.get_mut(seat) = policy;
        let line = format!(
            "{} set their reaction policy: {}",
            self.rules.seat_name(seat),
            policy.describe()
        );
        Some(Ok(Lines::render(|v| match v {
            Viewer::All => vec![line.clone()],
            Viewer::Seat(s) if s == seat => vec![line.clone()],
            Viewer::Seat(_) | Viewer::Spectator => Vec::new(),
        })))
    }
}

impl<R> DynGame for Game<R>
where
    R: Ruleset + AgentHooks + Send + Clone + 'static,
    R::State: Send,
{
    fn load_state(&mut self, v: serde_json::Value) -> Result<(), String> {
        let st: R::State = serde_json::from_value(v)
            .map_err(|e| format!("the saved state does not fit this scenario: {e}"))?;
        let mut bad = self.rules.validate_state(&st);
        if bad.is_empty() {
            bad = self.rules.check_invariants(&st);
        }
        if let Some(first) = bad.first() {
            return Err(format!("the saved state is impossible: {first}"));
        }
        self.state = st;
        Ok(())
    }
    fn boxed_clone(&self) -> Box<dyn DynGame> {
        Box::new(Game {
            rules: self.rules.clone(),
            state: self.state.clone(),
            policies: self.policies,
        })
    }
    fn state_bytes(&self) -> usize {
        // The serialised size is a close upper bound of the in-memory size of a compact state.
        serde_json::to_vec(&self.state)
            .map(|v| v.len())
            .unwrap_or(0)
    }
    fn ruleset_id(&self) -> String {
        self.rules.ruleset_id().to_string()
    }
    fn scenario_id(&self) -> String {
        self.rules.scenario_id().to_string()
    }
    fn seat_names(&self) -> [String; 2] {
        [
            self.rules.seat_name(Seat(0)).to_string(),
            self.rules.seat_name(Seat(1)).to_string(),
        ]
    }
    fn decider(&self) -> Option<Seat> {
        self.rules.decider(&self.state)
    }
    fn legal(&self) -> Vec<ActionInfo> {
        if self.decider().is_none() {
            return Vec::new();
        }
        self.rules
            .legal_actions(&self.state)
            .iter()
            .map(|a| ActionInfo {
                id: self.rules.action_id(a),
                label: self.rules.action_label(&self.state, a),
                hexes: self.rules.action_hexes(&self.state, a),
                odds: self.rules.odds(&self.state, a),
            })
            .collect()
    }
    fn apply(&mut self, id: &str) -> Result<Vec<String>, ApplyError> {
        if let Some(r) = self.apply_policy(id) {
            return r.map(|l| l.for_viewer(Viewer::All).to_vec());
        }
        let mut ev = Vec::new();
        self.rules.apply_id(&mut self.state, id, &mut ev)?;
        Ok(self.rules.render_events(&ev, Viewer::All))
    }
    fn apply_lines(&mut self, id: &str) -> Result<Lines, ApplyError> {
        if let Some(r) = self.apply_policy(id) {
            return r;
        }
        let mut ev = Vec::new();
        self.rules.apply_id(&mut self.state, id, &mut ev)?;
        Ok(Lines::render(|v| self.rules.render_events(&ev, v)))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome(&self.state)
    }
    fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).unwrap_or(serde_json::Value::Null)
    }
    fn view_json(&self, seat: Option<Seat>) -> serde_json::Value {
        self.rules.view(&self.state, seat)
    }
    fn render(&self, seat: Option<Seat>) -> String {
        self.rules.render_text(&self.state, seat)
    }
    fn invariants(&self) -> Vec<String> {
        self.rules.check_invariants(&self.state)
    }
    fn outcome_levels(&self) -> Vec<(String, String)> {
        self.rules.outcome_levels()
    }
    fn board(&self) -> serde_json::Value {
        self.rules.board()
    }
    fn hidden_from(&self, seat: Seat) -> Vec<String> {
        self.rules.hidden_from(&self.state, seat)
    }
    fn public_view(&self) -> serde_json::Value {
        self.rules.public_view(&self.state)
    }
    fn hidden_from_public(&self) -> Vec<String> {
        self.rules.hidden_from_public(&self.state)
    }
    fn legal_count(&self) -> usize {
        if self.decider().is_none() {
            return 0;
        }
        self.rules.legal_actions(&self.state).len()
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        self.rules.evaluate(&self.state, seat)
    }
    fn action_scores(&self) -> Vec<f64> {
        if self.decider().is_none() {
            return Vec::new();
        }
        let legal = self.rules.legal_actions(&self.state);
        self.rules.action_scores(&self.state, &legal)
    }
    fn determinized(&self, seat: Seat, seed: u64) -> Box<dyn DynGame> {
        Box::new(Game {
            rules: self.rules.clone(),
            state: self.rules.determinize(&self.state, seat, seed),
            policies: self.policies,
        })
    }
    fn worth_searching(&self) -> bool {
        if self.decider().is_none() {
            return false;
        }
        let legal = self.rules.legal_actions(&self.state);
        self.rules.worth_searching(&self.state, &legal)
    }
    fn search_work_limit(&self) -> Option<usize> {
        self.rules.search_work_limit()
    }
    fn progress(&self) -> u32 {
        self.rules.progress(&self.state)
    }
    fn eval_terms(&self) -> Vec<f64> {
        self.rules.eval_terms(&self.state)
    }
    fn intent(&self, i: usize) -> Option<String> {
        let legal = self.rules.legal_actions(&self.state);
        legal
            .get(i)
            .and_then(|a| self.rules.intent(&self.state, a, Viewer::All))
    }
    fn hides_information(&self) -> bool {
        self.rules.hides_information()
    }
    fn intent_lines(&self, i: usize) -> Option<Lines> {
        let legal = self.rules.legal_actions(&self.state);
        let a = legal.get(i)?;
        // The explanation exists for every viewer or for none: whether there is one depends on
        // the action, not on who reads it.
        self.rules.intent(&self.state, a, Viewer::All)?;
        Some(Lines::render(|v| {
            self.rules.intent(&self.state, a, v).into_iter().collect()
        }))
    }
    fn apply_index_quiet(&mut self, i: usize) -> Result<(), ApplyError> {
        if self.decider().is_none() {
            return Err(ApplyError::GameOver);
        }
        let legal = self.rules.legal_actions(&self.state);
        let a = legal
            .get(i)
            .ok_or_else(|| ApplyError::Illegal(format!("#{i}")))?;
        let mut ev = Vec::new();
        self.rules.apply_legal(&mut self.state, a, &mut ev);
        Ok(())
    }
    fn apply_best(&mut self, salt: u64) -> Result<usize, ApplyError> {
        if self.decider().is_none() {
            return Err(ApplyError::GameOver);
        }
        let legal = self.rules.legal_actions(&self.state);
        if legal.is_empty() {
            return Err(ApplyError::Internal(
                "a decider without legal actions".into(),
            ));
        }
        let scores = self.rules.playout_scores(&self.state, &legal);
        let best = best_index(&scores, salt);
        let mut ev = Vec::new();
        self.rules
            .apply_legal(&mut self.state, &legal[best], &mut ev);
        Ok(best)
    }
    fn undo_blocker(&self, id: &str) -> Result<Option<UndoBlock>, ApplyError> {
        if let Some(p) = Policy::parse_action(id) {
            // Setting a policy rolls nothing and shows nothing.
            return p.map(|_| None).map_err(ApplyError::Illegal);
        }
        let mut after = self.state.clone();
        let mut ev = Vec::new();
        self.rules.apply_id(&mut after, id, &mut ev)?;
        let (Some(d0), Some(d1)) = (self.rules.dice(&self.state), self.rules.dice(&after)) else {
            return Ok(Some(UndoBlock::Unknown));
        };
        if d0 != d1 {
            return Ok(Some(UndoBlock::DiceRolled));
        }
        if self.rules.revealed(&self.state, &after) {
            return Ok(Some(UndoBlock::Revealed));
        }
        Ok(None)
    }
    fn policy(&self, seat: Seat) -> Policy {
        *self.policies.get(seat)
    }
    fn policy_answer(&self) -> Option<ActionInfo> {
        let seat = self.rules.decider(&self.state)?;
        let policy = self.policies.get(seat);
        if policy.react == policy::React::Ask {
            return None;
        }
        let a = self.rules.policy_answer(&self.state, seat, policy)?;
        Some(ActionInfo {
            id: self.rules.action_id(&a),
            label: self.rules.action_label(&self.state, &a),
            hexes: self.rules.action_hexes(&self.state, &a),
            odds: None,
        })
    }
    fn odds(&self, i: usize) -> Option<serde_json::Value> {
        self.decider()?;
        let legal = self.rules.legal_actions(&self.state);
        legal.get(i).and_then(|a| self.rules.odds(&self.state, a))
    }
    fn action_info(&self, i: usize) -> Option<ActionInfo> {
        self.decider()?;
        let legal = self.rules.legal_actions(&self.state);
        legal.get(i).map(|a| ActionInfo {
            id: self.rules.action_id(a),
            label: self.rules.action_label(&self.state, a),
            hexes: self.rules.action_hexes(&self.state, a),
            // Agents ask for ids and labels: the odds are for people ([`DynGame::odds`]).
            odds: None,
        })
    }
    fn apply_index(&mut self, i: usize) -> Result<(String, Vec<String>), ApplyError> {
        let (id, ev) = self.apply_index_events(i)?;
        Ok((id, self.rules.render_events(&ev, Viewer::All)))
    }
    fn apply_index_lines(&mut self, i: usize) -> Result<(String, Lines), ApplyError> {
        let (id, ev) = self.apply_index_events(i)?;
        Ok((id, Lines::render(|v| self.rules.render_events(&ev, v))))
    }
}

impl<R: Ruleset> Game<R> {
    /// Apply the `i`-th legal action: its id and its structured events.
    fn apply_index_events(&mut self, i: usize) -> Result<(String, Vec<R::Event>), ApplyError> {
        if self.rules.decider(&self.state).is_none() {
            return Err(ApplyError::GameOver);
        }
        let legal = self.rules.legal_actions(&self.state);
        let a = legal
            .get(i)
            .ok_or_else(|| ApplyError::Illegal(format!("#{i}")))?;
        let id = self.rules.action_id(a);
        let mut ev = Vec::new();
        self.rules.apply_legal(&mut self.state, a, &mut ev);
        Ok((id, ev))
    }
}
