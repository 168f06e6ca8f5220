//! What the Hastenbeck and the Fontenoy/Lauffeld behaviour tests share.
use ai::Agent;
use engine::{Game, Ruleset, Seat};
use saxe::Saxe;
use saxe::scenario::Side;
use saxe::state::State;

/// Let `agent` take every decision of `side` (the other side's decisions: its first legal action,
/// usually "pass") while `until` is false; at most `limit` actions.
pub fn drive(
    r: &Saxe,
    s: &mut State,
    agent: &mut dyn Agent,
    side: Side,
    limit: usize,
    until: impl Fn(&State) -> bool,
) {
    for _ in 0..limit {
        if until(s) {
            return;
        }
        let Some(d) = r.decider(s) else { return };
        let g = Game {
            rules: r.clone(),
            state: s.clone(),
            policies: Default::default(),
        };
        let i = if d == Seat(side.ix() as u8) {
            agent.decide(&g).index
        } else {
            let ids: Vec<String> = engine::DynGame::legal(&g)
                .into_iter()
                .map(|a| a.id)
                .collect();
            ids.iter().position(|x| x == "pass").unwrap_or(0)
        };
        let legal = r.legal_actions(s);
        let mut ev = Vec::new();
        r.apply_legal(s, &legal[i], &mut ev);
    }
}
