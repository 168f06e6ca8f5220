//! Close combat (13.0–15.0): the close combat phase of an activation. Package 3 (issue 16) fills it; until then the phase ends at once.
use crate::event::Event;
use crate::scenario::Scenario;
use crate::state::State;

/// Run the phase for the activation in progress.
pub fn phase(_sc: &Scenario, _st: &mut State, _ev: &mut Vec<Event>) {}
