//! Agents that play any ruleset through the object-safe [`engine::DynGame`] adapter.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use engine::{Dice, DynGame};

/// An agent picks one of the legal actions.
pub trait Agent: Send {
    /// Name.
    fn name(&self) -> &str;
    /// Index of the chosen legal action.
    fn choose(&mut self, game: &dyn DynGame) -> usize;
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
    fn choose(&mut self, game: &dyn DynGame) -> usize {
        self.dice.below(game.legal_count())
    }
}

/// Build an agent by name.
pub fn agent(name: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        other => Err(format!("unknown agent {other:?} (known: random)")),
    }
}

/// Play a game to its end with one agent per seat; returns the number of actions applied.
pub fn play_out(
    game: &mut dyn DynGame,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: usize,
) -> Result<usize, String> {
    let mut n = 0;
    while let Some(seat) = game.decider() {
        if n >= max_actions {
            return Err(format!("no result after {max_actions} actions"));
        }
        let i = agents[usize::from(seat.0 & 1)].choose(game);
        game.apply_index(i).map_err(|e| e.to_string())?;
        n += 1;
    }
    Ok(n)
}
