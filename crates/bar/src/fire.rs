//! Fire (12.0): the fire phase of an activation, opportunity fire, return fire and the resolution
//! every fire shares (defensive fire in close combat calls `resolve` too). Package 3 (issue 16)
//! fills it; until then the phase ends at once and `resolve` does nothing.
use crate::event::Event;
use crate::scenario::{Scenario, UnitIx};
use crate::state::State;
use hexmap::HexId;
use serde::{Deserialize, Serialize};

/// Which fire (12.0): it picks the Fire Results Table's column of results (12.1: regular on the
/// left, opportunity and defensive on the right), the special results table (12.11) and the
/// checks that follow (12.9d–e).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireKind {
    /// Fire phase (12.1).
    Regular,
    /// Return fire after an 'R' (12.10): as regular fire, but an 'R' is no effect.
    Return,
    /// Opportunity fire in the movement phase (12.8).
    Opportunity,
    /// Defensive fire in close combat (13.10): infantry and artillery combine.
    Defensive,
}

/// Units of one side firing together from one hex (12.2f: all the SPs of one type in a hex fire at
/// one target; in defensive fire the hex's infantry and artillery fire together, 13.10b).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The hex fired from.
    pub hex: HexId,
    /// The units of that hex that fire.
    pub units: Vec<UnitIx>,
    /// The SPs fired, when a square or a 2-hex line splits its fire (12.2g, 12.3c); `None`: all
    /// that may fire from the hex.
    pub sp: Option<u8>,
}

/// What a fire did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// SPs the target lost.
    pub lost: u8,
    /// An 'R' result: the target may return fire (12.9i, 12.10).
    pub return_fire: bool,
    /// The target failed the disorder check (C or E) that follows an opportunity or defensive
    /// fire (12.9e): a moving unit stops (18.2d).
    pub failed_dc: bool,
    /// Target units that routed (their rout retreat is a job on the state).
    pub routed: Vec<UnitIx>,
}

/// Run the phase for the activation in progress.
pub fn phase(_sc: &Scenario, _st: &mut State, _ev: &mut Vec<Event>) {}

/// The groups of `side` that may fire now at the target stack under `kind` (12.2a–b: a unit
/// that may fire, the target in its front arc, in range and line of sight, 12.6), one per hex and,
/// except in defensive fire, per type (12.2e).
pub fn groups_at(
    _sc: &Scenario,
    _st: &State,
    _side: u8,
    _target: &[UnitIx],
    _kind: FireKind,
) -> Vec<Group> {
    Vec::new()
}

/// Resolve one fire (12.1) of `groups` at the target stack: strength, ratio, the roll and its
/// modifiers, the result, losses (12.9), the checks that follow (12.9d–e), a rout's retreat as a
/// job on the state. Every step is logged with its rule.
pub fn resolve(
    _sc: &Scenario,
    _st: &mut State,
    _kind: FireKind,
    _groups: &[Group],
    _target: &[UnitIx],
    _ev: &mut Vec<Event>,
) -> Outcome {
    Outcome::default()
}
