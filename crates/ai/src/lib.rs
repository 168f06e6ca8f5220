//! Agents that play any ruleset through the object-safe [`engine::DynGame`] adapter:
//!
//! - [`RandomAgent`]: uniform over the legal actions (the baseline);
//! - [`HeuristicAgent`]: the best action by the ruleset's rule-aware scores
//!   ([`engine::AgentHooks::action_scores`]);
//! - [`SearchAgent`]: Monte Carlo search over determinised copies of the game (information-set
//!   style: hidden information and future dice are re-dealt from the agent's own view, never read),
//!   with the heuristic as playout policy and the ruleset's evaluation at the horizon.
//!
//! Every agent is deterministic given its seed. See `docs/ai.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod plan;
mod search;

pub use plan::{PlanAgent, PlanConfig};

pub use search::{SearchAgent, SearchConfig};

pub use engine::best_index;
use engine::{Dice, DynGame, Seat};

/// A hash of an agent's seed with two numbers (its decision count, a playout or plan number):
/// the seeds of its determinisations and mutations and its tie-breaking salts.
pub(crate) fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut x =
        seed ^ a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 29;
    x
}

/// The indices of the `m` best `scores`, best first: the heuristic's choice ([`best_index`] with
/// `salt`), then the rest by score (ties by index). The candidates of a search or a plan.
pub(crate) fn ranked(scores: &[f64], salt: u64, m: usize) -> Vec<usize> {
    let best = best_index(scores, salt);
    let mut order: Vec<usize> = (0..scores.len()).filter(|&i| i != best).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    order.insert(0, best);
    order.truncate(m.max(1));
    order
}

/// A choice and, for a major choice, a line a player can read about what it intends.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Index of the chosen legal action.
    pub index: usize,
    /// "Broglie: attacks … — best of 4 plans, 61% expected in search", or `None` for a detail.
    pub explanation: Option<String>,
}

impl Decision {
    /// A choice without explanation.
    pub fn quiet(index: usize) -> Self {
        Self {
            index,
            explanation: None,
        }
    }
}

/// An agent picks one of the legal actions.
pub trait Agent: Send {
    /// Name.
    fn name(&self) -> &str;
    /// The chosen legal action with an explanation when the choice matters.
    fn decide(&mut self, game: &dyn DynGame) -> Decision;
    /// Index of the chosen legal action.
    fn choose(&mut self, game: &dyn DynGame) -> usize {
        self.decide(game).index
    }
}

/// Uniform over the legal actions (the baseline).
pub struct RandomAgent {
    dice: Dice,
}

impl RandomAgent {
    /// A random agent with its own seeded generator (never the game's dice).
    pub fn new(seed: u64) -> Self {
        Self {
            dice: Dice::new(seed ^ 0x9e37_79b9_7f4a_7c15),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }
    fn decide(&mut self, game: &dyn DynGame) -> Decision {
        Decision::quiet(self.dice.below(game.legal_count()))
    }
}

/// The best action by the ruleset's rule-aware scores, ties broken by its seed. Fast (one pass over
/// the legal actions) and explains its major choices with the ruleset's
/// [`engine::AgentHooks::intent`].
pub struct HeuristicAgent {
    salt: u64,
    decisions: u64,
}

impl HeuristicAgent {
    /// A heuristic agent; the seed only breaks ties.
    pub fn new(seed: u64) -> Self {
        Self {
            salt: seed ^ 0x2545_f491_4f6c_dd1d,
            decisions: 0,
        }
    }
}

impl Agent for HeuristicAgent {
    fn name(&self) -> &str {
        "heuristic"
    }
    fn decide(&mut self, game: &dyn DynGame) -> Decision {
        self.decisions += 1;
        let scores = game.action_scores();
        if scores.len() <= 1 {
            return Decision::quiet(0);
        }
        let salt = self
            .salt
            .wrapping_add(self.decisions.wrapping_mul(0x9e37_79b9));
        let index = best_index(&scores, salt);
        Decision {
            index,
            explanation: game.intent(index),
        }
    }
}

/// The agents [`agent`] knows.
pub const AGENTS: [&str; 3] = ["random", "heuristic", "search"];

/// The levels a player can choose ([`agent`] builds them by name), weakest first, each with a
/// line a player can read: `easy` is the heuristic, `normal` the default search, `hard` a
/// longer search. Each decides within 2 s at its slowest on one core (docs/ai.md, "Levels").
pub const LEVELS: [(&str, &str); 3] = [
    (
        "easy",
        "plays the best-looking move at once (the heuristic)",
    ),
    ("normal", "searches each plan a little ahead (the default)"),
    (
        "hard",
        "searches each plan with twice the playouts; slower to answer",
    ),
];

/// The level the server and the lobby offer when none is chosen.
pub const DEFAULT_LEVEL: &str = "normal";

/// The search of the `hard` level: twice the playouts over the same four candidates (a wider
/// search lost games, docs/ai.md), bounded to 20,000 playout actions a decision so that its
/// slowest decision stays within the time budget.
pub fn hard_config() -> SearchConfig {
    SearchConfig {
        iterations: 48,
        max_actions: 20_000,
        ..SearchConfig::default()
    }
}

/// Build an agent by name: `random`, `heuristic`, `search` (default budget), `search:N` (N
/// playouts per searched decision), `search:N:C:H` or `search:N:C:H:W` (also C candidates, a
/// horizon of H progress steps and at most W playout actions per decision; [`SearchConfig`]),
/// `plan`, `plan:P:G` or `plan:P:G:C:H:W` (online evolutionary planning, [`PlanConfig`]),
/// or a level of [`LEVELS`] (`easy`, `normal`, `hard`).
pub fn agent(name: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "heuristic" | "easy" => Ok(Box::new(HeuristicAgent::new(seed))),
        "search" | "normal" => Ok(Box::new(SearchAgent::new(seed, SearchConfig::default()))),
        "hard" => Ok(Box::new(SearchAgent::new(seed, hard_config()))),
        other => {
            if other == "plan" {
                return Ok(Box::new(PlanAgent::new(seed, PlanConfig::default())));
            }
            if let Some(spec) = other.strip_prefix("plan:")
                && let Some(config) = plan_config(spec)
            {
                return Ok(Box::new(PlanAgent::new(seed, config)));
            }
            if let Some(spec) = other.strip_prefix("search:")
                && let Some(config) = search_config(spec)
            {
                return Ok(Box::new(SearchAgent::new(seed, config)));
            }
            Err(format!(
                "unknown agent {other:?} (known: random, heuristic, search, search:N, \
                 search:N:C:H, search:N:C:H:W, plan, plan:P:G, plan:P:G:C:H:W, and the levels \
                 easy, normal, hard)"
            ))
        }
    }
}

/// `P:G` or `P:G:C:H:W`: a population of P plans, G generations, genes over C candidates, a
/// horizon of H steps, at most W playout actions a decision (all positive; [`PlanConfig`]).
fn plan_config(spec: &str) -> Option<PlanConfig> {
    let v: Vec<u32> = spec
        .split(':')
        .map(|p| p.parse::<u32>().ok().filter(|&n| n > 0))
        .collect::<Option<_>>()?;
    let mut config = PlanConfig::default();
    match v[..] {
        [p, g] => {
            config.population = p as usize;
            config.generations = g;
        }
        [p, g, c, h, w] => {
            config.population = p as usize;
            config.generations = g;
            config.candidates = c.min(255) as usize;
            config.horizon = h;
            config.max_actions = w as usize;
        }
        _ => return None,
    }
    Some(config)
}

/// `N`, or `N:C:H`: N playouts per searched decision, C candidates, a horizon of H steps (all
/// positive).
fn search_config(spec: &str) -> Option<SearchConfig> {
    let mut parts = spec
        .split(':')
        .map(|p| p.parse::<u32>().ok().filter(|&n| n > 0));
    let mut config = SearchConfig {
        iterations: parts.next()??,
        ..SearchConfig::default()
    };
    if let Some(c) = parts.next() {
        config.candidates = c? as usize;
        config.horizon = parts.next()??;
        if let Some(w) = parts.next() {
            config.max_actions = w? as usize;
        }
    }
    if parts.next().is_some() {
        return None;
    }
    Some(config)
}

/// Play a game to its end with one agent per seat; returns the number of actions applied.
pub fn play_out(
    game: &mut dyn DynGame,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: usize,
) -> Result<usize, String> {
    play_out_explained(game, agents, max_actions, &mut |_, _| {})
}

/// [`play_out`], checking the rules' invariants after every action: `Ok(Err(..))` names the first
/// broken invariant and the action count where the game stopped (`tricorne simulate --check`).
pub fn play_out_checked(
    game: &mut dyn DynGame,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: usize,
) -> Result<Result<usize, String>, String> {
    let mut n = 0;
    let bad = game.invariants();
    if !bad.is_empty() {
        return Ok(Err(format!("at the start: {}", bad.join("; "))));
    }
    while let Some(seat) = game.decider() {
        if n >= max_actions {
            return Err(format!("no result after {max_actions} actions"));
        }
        let d = agents[usize::from(seat.0 & 1)].decide(game);
        game.apply_index_quiet(d.index).map_err(|e| e.to_string())?;
        n += 1;
        let bad = game.invariants();
        if !bad.is_empty() {
            return Ok(Err(format!("after {n} actions: {}", bad.join("; "))));
        }
    }
    Ok(Ok(n))
}

/// [`play_out`], handing each explanation to `explained` with the seat that gave it.
pub fn play_out_explained(
    game: &mut dyn DynGame,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: usize,
    explained: &mut dyn FnMut(Seat, &str),
) -> Result<usize, String> {
    let mut n = 0;
    while let Some(seat) = game.decider() {
        if n >= max_actions {
            return Err(format!("no result after {max_actions} actions"));
        }
        let d = agents[usize::from(seat.0 & 1)].decide(game);
        if let Some(e) = &d.explanation {
            explained(seat, e);
        }
        game.apply_index_quiet(d.index).map_err(|e| e.to_string())?;
        n += 1;
    }
    Ok(n)
}
