//! The search agent: Monte Carlo search over determinised copies of the game.
//!
//! At a decision worth searching ([`engine::AgentHooks::worth_searching`]: the plan of an activation,
//! an attack, an advance, a reaction) the agent takes the heuristic's best few actions as
//! candidates and shares its playouts among them by UCB1. Each playout starts from a *determinised*
//! copy of the game ([`engine::AgentHooks::determinize`]): the dice re-seeded and whatever the rules
//! hide from the agent's seat re-dealt, so the search never reads the real future rolls or the real
//! contents of enemy stacks. The same determinisation serves the k-th playout of every candidate
//! (common random numbers), which makes their comparison fair with few playouts. A playout plays
//! the candidate, then the heuristic for both seats until the horizon (by default the end of the
//! current half-turn, or an action limit), and scores the position with
//! [`engine::AgentHooks::evaluate`]. Lesser decisions (the hexes of a move already chosen, losses,
//! retreat paths) are the heuristic's.
use crate::{Agent, Decision, ranked};
use engine::DynGame;
use std::time::{Duration, Instant};

/// The budget and shape of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Playouts per searched decision (the budget; deterministic).
    pub iterations: u32,
    /// How many of the heuristic's best actions are searched.
    pub candidates: usize,
    /// Horizon: playouts stop once the game has advanced this many steps of
    /// [`engine::AgentHooks::progress`] past the candidate (in the French series: the end of the
    /// activation, or of the combat phase, under way).
    pub horizon: u32,
    /// Horizon: at most this many actions per playout.
    pub max_playout: usize,
    /// Exploration constant of UCB1.
    pub exploration: f64,
    /// A decision's work limit: no further playout once the playouts of this decision have
    /// applied this many actions in all (every candidate tried once first). Deterministic, unlike
    /// `time_limit`; bounds the longest decisions (long moves, combat phases). A ruleset may
    /// set a lower one of its own ([`engine::AgentHooks::search_work_limit`]: BAR).
    pub max_actions: usize,
    /// Optional wall-clock limit per decision, on top of `iterations`. Off by default: with it the
    /// same seed may give a different game on a slower machine.
    pub time_limit: Option<Duration>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            iterations: 24,
            candidates: 4,
            horizon: 1,
            max_playout: 400,
            exploration: 0.25,
            max_actions: usize::MAX,
            time_limit: None,
        }
    }
}

/// Monte Carlo search with determinisation; see the module documentation.
pub struct SearchAgent {
    seed: u64,
    config: SearchConfig,
    decisions: u64,
}

impl SearchAgent {
    /// A search agent with its own seed (for determinisations and ties).
    pub fn new(seed: u64, config: SearchConfig) -> Self {
        Self {
            seed: seed ^ 0x51ea_4c4a_9e37_79b9,
            config,
            decisions: 0,
        }
    }

    fn mix(&self, a: u64, b: u64) -> u64 {
        crate::mix(self.seed, a, b)
    }

    /// One playout of `id` in world `world`: its value for the searching seat, and the actions it
    /// applied.
    fn playout(&self, game: &dyn DynGame, id: &str, world: u64) -> Option<(f64, usize)> {
        let seat = game.decider()?;
        let mut g = game.determinized(seat, world);
        g.apply(id).ok()?;
        // The horizon counts from after the candidate (an activation's test is itself a step).
        let root = g.progress();
        let mut n = 0;
        while g.decider().is_some()
            && n < self.config.max_playout
            && g.progress() < root + self.config.horizon
        {
            if g.apply_best(world.wrapping_add(n as u64)).is_err() {
                break;
            }
            n += 1;
        }
        Some((g.evaluate(seat), n + 1))
    }
}

impl Agent for SearchAgent {
    fn name(&self) -> &str {
        "search"
    }

    fn decide(&mut self, game: &dyn DynGame) -> Decision {
        self.decisions += 1;
        let scores = game.action_scores();
        if scores.len() <= 1 {
            return Decision::quiet(0);
        }
        let salt = self.mix(self.decisions, 0);
        // Candidates: the heuristic's choice, then its next best, best first.
        let order = ranked(&scores, salt, self.config.candidates);
        if !game.worth_searching() {
            return Decision {
                index: order[0],
                explanation: game.intent(order[0]),
            };
        }
        let ids: Vec<Option<String>> = order
            .iter()
            .map(|&i| game.action_info(i).map(|a| a.id))
            .collect();
        let k = order.len();
        let mut visits = vec![0u32; k];
        let mut total = vec![0.0f64; k];
        let start = Instant::now();
        let mut done = 0u32;
        let mut work = 0usize;
        // The ruleset's own bound (costly actions) and the configuration's, whichever is less.
        let max_actions = game
            .search_work_limit()
            .map_or(self.config.max_actions, |w| w.min(self.config.max_actions));
        for _ in 0..self.config.iterations.max(k as u32) {
            if done >= k as u32
                && (work >= max_actions
                    || self.config.time_limit.is_some_and(|l| start.elapsed() > l))
            {
                break;
            }
            // UCB1 (every candidate once first, in the heuristic's order).
            let c = match visits.iter().position(|&v| v == 0) {
                Some(c) => c,
                None => {
                    let ln = f64::from(done.max(1)).ln();
                    let mut best = 0;
                    let mut best_u = f64::NEG_INFINITY;
                    for j in 0..k {
                        let mean = total[j] / f64::from(visits[j]);
                        let u = mean + self.config.exploration * (ln / f64::from(visits[j])).sqrt()
                            - 1e-9 * j as f64;
                        if u > best_u {
                            best_u = u;
                            best = j;
                        }
                    }
                    best
                }
            };
            // The k-th playout of every candidate sees the same world.
            let world = self.mix(self.decisions, u64::from(visits[c]) + 1);
            let (v, n) = match &ids[c] {
                Some(id) => self.playout(game, id, world).unwrap_or((0.0, 1)),
                None => (0.0, 1),
            };
            work += n;
            visits[c] += 1;
            total[c] += v;
            done += 1;
        }
        let mut best = 0;
        let mut best_mean = f64::NEG_INFINITY;
        for j in 0..k {
            if visits[j] == 0 {
                continue;
            }
            let mean = total[j] / f64::from(visits[j]);
            if mean > best_mean + 1e-12 {
                best_mean = mean;
                best = j;
            }
        }
        let index = order[best];
        let what = game
            .intent(index)
            .or_else(|| game.action_info(index).map(|a| a.label))
            .unwrap_or_default();
        Decision {
            index,
            explanation: Some(format!(
                "{what} — best of {k} plans, {:.0}% expected in search ({done} playouts)",
                100.0 * best_mean.clamp(0.0, 1.0)
            )),
        }
    }
}
