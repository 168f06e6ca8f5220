//! Movement (11.0), formations (8.0), facing (9.0): the movement phase of an activation. Package 2 (issue 15) fills it; until then the phase ends at once.
use crate::event::Event;
use crate::scenario::Scenario;
use crate::state::State;

/// Run the phase for the activation in progress.
pub fn phase(_sc: &Scenario, _st: &mut State, _ev: &mut Vec<Event>) {}
