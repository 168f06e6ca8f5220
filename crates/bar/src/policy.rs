//! Reaction policies (issue 19, `engine::Policy`) in BAR: a side that set "never" or "when" is
//! not asked at each movement trigger (12.8c–e, 17.0); the policy answers for it, as its own
//! decision, logged like any other.
//!
//! - `never`: `pass` at every trigger.
//! - `when`: opportunity fire (12.8) when a unit that may fire stands within `fire_within` hexes
//!   of the mover's hexes (infantry before artillery, at the mover's aspect now — never the
//!   earlier aspect of 12.8c, which is a finer choice left to a player who asks); otherwise `pass`.
//! - `ask`: the player is asked (`None`).
use crate::action::Action;
use crate::movement::{Trigger, target_in};
use crate::scenario::Scenario;
use crate::state::{Phase, State};
use engine::policy::React;

/// The action a policy takes at the decision now, or `None` to ask the player.
pub fn answer(sc: &Scenario, st: &State, policy: &engine::Policy) -> Option<Action> {
    let Phase::Reaction { mover, trigger, .. } = &st.phase else {
        return None;
    };
    match policy.react {
        React::Ask => None,
        React::Never => Some(Action::Pass),
        React::When => {
            let hexes = match trigger {
                Trigger::Change(h) | Trigger::Leave(h) => h,
            };
            let legal = crate::flow::legal(sc, st);
            let target = target_in(sc, st, mover.side, hexes, &mover.units);
            let near = |art: bool| {
                policy.fire_within > 0
                    && crate::fire::opportunity_groups(sc, st, 1 - mover.side, &target, art)
                        .iter()
                        .any(|g| {
                            hexes
                                .iter()
                                .any(|h| g.hex.distance(*h) <= u32::from(policy.fire_within))
                        })
            };
            [false, true]
                .into_iter()
                .map(|art| Action::OppFire(art, false))
                .find(|a| legal.contains(a) && matches!(a, Action::OppFire(art, _) if near(*art)))
                .or(Some(Action::Pass))
        }
    }
}
