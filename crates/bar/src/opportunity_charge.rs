//! Opportunity charge (17.0): package 4 (issue 17).
use serde::{Deserialize, Serialize};

/// An opportunity charge being decided (17.1–17.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OppCharge {}

use crate::action::Action;
use crate::event::Event;
use crate::scenario::Scenario;
use crate::state::{Phase, State};

/// Who decides.
pub fn decider(_o: &OppCharge) -> u8 {
    0
}
/// Legal actions.
pub fn legal(_sc: &Scenario, _st: &State, _o: &OppCharge) -> Vec<Action> {
    Vec::new()
}
/// Apply.
pub fn apply(
    _sc: &Scenario,
    _st: &mut State,
    _o: OppCharge,
    _a: &Action,
    _ev: &mut Vec<Event>,
) -> Phase {
    Phase::Idle
}
/// Labels.
pub fn label_of(_sc: &Scenario, _a: &Action) -> Option<String> {
    None
}
/// Text.
pub fn decision_text(_o: &OppCharge) -> &'static str {
    "opportunity charge (17)"
}
