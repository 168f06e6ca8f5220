//! The planning agent: online evolutionary planning of the searching seat's decisions up to the
//! search's horizon (Justesen et al., *Playing Multi-Action Adversarial Games: Online
//! Evolutionary Planning versus Tree Search*, IEEE TCIAIG 2018), on the same determinised copies
//! of the game as [`crate::SearchAgent`].
//!
//! Where the search compares a few first actions, each followed by the heuristic, a *plan* here
//! is a genome: gene `j` says which of the heuristic's best actions the seat takes at its `j`-th
//! decision worth searching before the horizon (0: the heuristic's own choice, 1: its second
//! best, …; lesser decisions and the other seat's are the heuristic's). A gene is a rank, not an
//! action, so a plan still reads after dice have changed the position. Each generation plays
//! every plan of the population in one new world (common random numbers, as the search's k-th
//! playouts), keeps the better half by their mean over the worlds they have seen, and fills the
//! population again with mutated and crossed copies of them. The first gene of the best plan is
//! played; the rest of that plan seeds the next decision's population while the horizon is the
//! same (the plan goes on across the activation).
use crate::{Agent, Decision, ranked};
use engine::{DynGame, Seat};

/// The budget and shape of a plan search.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanConfig {
    /// Plans in the population.
    pub population: usize,
    /// Generations (each plays every plan of the population once).
    pub generations: u32,
    /// A gene picks among this many of the heuristic's best actions.
    pub candidates: usize,
    /// Horizon in steps of [`engine::AgentHooks::progress`], as [`crate::SearchConfig::horizon`].
    pub horizon: u32,
    /// At most this many actions per playout.
    pub max_playout: usize,
    /// A decision's work limit in playout actions (every plan of the first generation is played).
    pub max_actions: usize,
}

impl Default for PlanConfig {
    fn default() -> Self {
        Self {
            population: 6,
            generations: 6,
            candidates: 4,
            horizon: 1,
            max_playout: 400,
            max_actions: usize::MAX,
        }
    }
}

/// A plan with the worlds it was played in.
#[derive(Clone, Debug)]
struct Plan {
    genes: Vec<u8>,
    total: f64,
    visits: u32,
    /// How many of the seat's searched decisions its playouts met (the genes that mattered).
    used: usize,
}

impl Plan {
    fn new(genes: Vec<u8>) -> Self {
        Self {
            genes,
            total: 0.0,
            visits: 0,
            used: 0,
        }
    }
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            f64::NEG_INFINITY
        } else {
            self.total / f64::from(self.visits)
        }
    }
    fn gene(&self, j: usize) -> u8 {
        self.genes.get(j).copied().unwrap_or(0)
    }
}

/// Online evolutionary planning; see the module documentation.
pub struct PlanAgent {
    seed: u64,
    config: PlanConfig,
    decisions: u64,
    /// The rest of the last plan played, with the seat and horizon it was made for.
    carried: Option<(Seat, u32, Vec<u8>)>,
}

impl PlanAgent {
    /// A planning agent with its own seed (for determinisations, mutations and ties).
    pub fn new(seed: u64, config: PlanConfig) -> Self {
        Self {
            seed: seed ^ 0x0e9a_11ed_5eed_2018,
            config,
            decisions: 0,
            carried: None,
        }
    }

    fn mix(&self, a: u64, b: u64) -> u64 {
        crate::mix(self.seed, a, b)
    }

    /// Play `plan` (its first gene an index into `root`, the root's ranked actions) in `world`:
    /// the value for `seat`, the actions applied and the searched decisions met.
    fn playout(
        &self,
        game: &dyn DynGame,
        seat: Seat,
        root: &[Option<String>],
        plan: &Plan,
        world: u64,
    ) -> (f64, usize, usize) {
        let mut g = game.determinized(seat, world);
        // By id: the order of the legal actions may differ in a determinised copy.
        let first = &root[usize::from(plan.gene(0)).min(root.len() - 1)];
        if first.as_ref().is_none_or(|id| g.apply(id).is_err()) {
            return (0.0, 1, 1);
        }
        let start = g.progress();
        let (mut n, mut met) = (1usize, 1usize);
        while g.decider().is_some()
            && n < self.config.max_playout
            && g.progress() < start + self.config.horizon
        {
            let salt = world.wrapping_add(n as u64);
            let r = if g.decider() == Some(seat) && g.legal_count() > 1 && g.worth_searching() {
                let k = usize::from(plan.gene(met));
                met += 1;
                if k == 0 {
                    g.apply_best(salt).map(|_| ())
                } else {
                    let ranked = ranked(&g.action_scores(), salt, self.config.candidates);
                    g.apply_index_quiet(ranked[k.min(ranked.len() - 1)])
                }
            } else {
                g.apply_best(salt).map(|_| ())
            };
            if r.is_err() {
                break;
            }
            n += 1;
        }
        (g.evaluate(seat), n, met)
    }

    /// A mutated copy of `p`: each gene that mattered changes with probability 1/len, at least
    /// one does.
    fn mutate(&self, p: &Plan, salt: u64) -> Vec<u8> {
        let len = p.used.max(1);
        let mut genes = p.genes.clone();
        genes.resize(len.max(genes.len()), 0);
        let c = self.config.candidates.max(1) as u64;
        let forced = (salt % len as u64) as usize;
        for (j, g) in genes.iter_mut().enumerate().take(len) {
            let r = self.mix(salt, j as u64 + 1);
            if j == forced || r.is_multiple_of(len as u64) {
                // Towards the heuristic's choice half the time (plans stay near it).
                *g = if (r >> 20) & 1 == 0 {
                    0
                } else {
                    ((r >> 21) % c) as u8
                };
            }
        }
        genes
    }
}

impl Agent for PlanAgent {
    fn name(&self) -> &str {
        "plan"
    }

    fn decide(&mut self, game: &dyn DynGame) -> Decision {
        self.decisions += 1;
        let scores = game.action_scores();
        if scores.len() <= 1 {
            return Decision::quiet(0);
        }
        let salt = self.mix(self.decisions, 0);
        let Some(seat) = game.decider() else {
            return Decision::quiet(0);
        };
        let root = ranked(&scores, salt, self.config.candidates);
        if !game.worth_searching() {
            return Decision {
                index: root[0],
                explanation: game.intent(root[0]),
            };
        }
        let progress = game.progress();
        let ids: Vec<Option<String>> = root
            .iter()
            .map(|&i| game.action_info(i).map(|a| a.id))
            .collect();
        // The population: the heuristic's plan, each other first action, the plan carried on.
        let mut pop: Vec<Plan> = (0..root.len()).map(|k| Plan::new(vec![k as u8])).collect();
        if let Some((s, p, genes)) = self.carried.take()
            && s == seat
            && p == progress
            && genes.iter().any(|&g| g != 0)
        {
            pop.push(Plan::new(genes));
        }
        let initial = pop.len();
        let size = self.config.population.max(initial);
        let mut work = 0usize;
        let mut made = 0u64;
        let mut playouts = 0u32;
        for round in 0..self.config.generations.max(1) {
            while pop.len() < size {
                made += 1;
                let pick = |k: u64| (self.mix(self.decisions, k) % pop.len() as u64) as usize;
                let a = &pop[pick(1000 + made)];
                let mut genes = self.mutate(a, self.mix(self.decisions, 2000 + made));
                // Every other child also takes each gene from a second parent half the time
                // (uniform crossover).
                if made.is_multiple_of(2) {
                    let b = &pop[pick(3000 + made)];
                    let r = self.mix(self.decisions, 4000 + made);
                    for (j, g) in genes.iter_mut().enumerate().skip(1) {
                        if (r >> (j % 64)) & 1 == 1 {
                            *g = b.gene(j);
                        }
                    }
                }
                pop.push(Plan::new(genes));
            }
            let world = self.mix(self.decisions, u64::from(round) + 1);
            for p in &mut pop {
                let (v, n, met) = self.playout(game, seat, &ids, p, world);
                p.total += v;
                p.visits += 1;
                p.used = p.used.max(met);
                work += n;
                playouts += 1;
            }
            if work >= self.config.max_actions {
                break;
            }
            // Keep the better half (stable: earlier plans win ties).
            pop.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
            pop.truncate(size.div_ceil(2));
        }
        // The winner among the plans played in at least three worlds (or the most any was): a plan
        // new in the last generation has one world's dice behind it, and the best of many such
        // means is mostly luck.
        let tried = pop.iter().map(|p| p.visits).max().unwrap_or(0).min(3);
        pop.retain(|p| p.visits >= tried);
        pop.sort_by(|a, b| b.mean().total_cmp(&a.mean()).then(b.visits.cmp(&a.visits)));
        let best = &pop[0];
        let index = root[usize::from(best.gene(0)).min(root.len() - 1)];
        self.carried = Some((seat, progress, best.genes.iter().skip(1).copied().collect()));
        let what = game
            .intent(index)
            .or_else(|| game.action_info(index).map(|a| a.label))
            .unwrap_or_default();
        Decision {
            index,
            explanation: Some(format!(
                "{what} — best of {} plans ({playouts} playouts), {} decisions planned, {:.0}% \
                 expected",
                made as usize + initial,
                best.used,
                100.0 * best.mean().clamp(0.0, 1.0)
            )),
        }
    }
}
