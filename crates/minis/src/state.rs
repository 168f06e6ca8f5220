//! The state of a game, its actions and its events.
use crate::data::{Order, Sector};
use engine::Dice;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a unit did in the current phase (its sector's turn).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct PhaseFlags {
    /// A pip was paid for it.
    pub acted: bool,
    /// Its order is over.
    pub done: bool,
    /// Movement used (cm).
    pub used: f64,
    /// About-faces made.
    pub about_faces: u8,
    /// It moved (Musketry: −1).
    pub moved: bool,
    /// A gun fired (may not move).
    pub fired: bool,
    /// Changed formation, mounted, limbered…: may not fire.
    pub no_fire: bool,
    /// The variation was rolled.
    pub varied: bool,
}

/// A unit on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// Facing (degrees).
    pub facing: f64,
    /// Order.
    pub order: Order,
    /// Effectiveness left, in quarters (0–4).
    pub eff: u8,
    /// Hits taken towards the next quarter (option `two-hits-a-quarter`).
    pub hits: u8,
    /// Retreating (Morale).
    pub retreating: bool,
    /// Eliminated.
    pub gone: bool,
    /// This phase.
    pub ph: PhaseFlags,
}

/// A general.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct General {
    /// The unit he is attached to (index).
    pub with: usize,
    /// Lost.
    pub gone: bool,
    /// Moved this phase.
    pub moved: bool,
}

/// A retreat waiting for its owner's choice of direction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingRetreat {
    /// Unit index.
    pub unit: usize,
    /// Where the enemy it turns its back to stands.
    pub from: [f64; 2],
    /// The first move of a retreat (obstruction eliminates).
    pub first: bool,
}

/// Steps of a sector's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Roll the pips.
    TurnStart,
    /// The active player picks the next sector.
    ChooseSector,
    /// Rally retreating units.
    Rally,
    /// Fire guns.
    Guns,
    /// Move units.
    Move,
    /// Musketry.
    Musketry,
    /// Melees.
    Melee,
    /// The sector is done.
    SectorEnd,
}

/// The state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Turn (both players' moves make a turn).
    pub turn: u32,
    /// The player moving.
    pub active: u8,
    /// Pips left per sector (centre, right, left).
    pub pips: [u8; 3],
    /// Sectors played this move.
    pub sectors_done: [bool; 3],
    /// The sector being played.
    pub sector: Option<Sector>,
    /// The step.
    pub step: Step,
    /// Units (scenario order).
    pub units: Vec<Unit>,
    /// Generals (scenario order).
    pub generals: Vec<General>,
    /// Retreats waiting for a direction.
    pub retreats: Vec<PendingRetreat>,
    /// Units that lost effectiveness to firing this phase (Morale).
    pub shaken: Vec<(usize, [f64; 2])>,
    /// Contacts made by a move and still held: (the unit that made it, the unit contacted). The
    /// contacted unit is the defender of the melee however often it is fought (docs C3).
    #[serde(default)]
    pub contacts: Vec<(usize, usize)>,
    /// The winner and how, once over.
    pub over: Option<(Option<u8>, String, String)>,
    /// Dice.
    pub dice: Dice,
}

/// A retreat direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Veer {
    /// Straight away from the enemy.
    Straight,
    /// 30° to the left of straight away.
    Left,
    /// 30° to the right.
    Right,
}

impl Veer {
    /// Id.
    pub fn id(self) -> &'static str {
        match self {
            Veer::Straight => "straight",
            Veer::Left => "left",
            Veer::Right => "right",
        }
    }
    /// Degrees (counter-clockwise).
    pub fn deg(self) -> f64 {
        match self {
            Veer::Straight => 0.0,
            Veer::Left => 30.0,
            Veer::Right => -30.0,
        }
    }
}

/// An action. Distances in tenths of a centimetre, angles in tenths of a degree, so that the
/// text id is exact.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play a sector next.
    Sector(Sector),
    /// Fire a gun at a target.
    Fire(usize, usize),
    /// No more gun fire in this sector.
    GunsDone,
    /// Move straight: offset from the facing (tenths of a degree, ±450 at most) and distance.
    Move(usize, i32, u32),
    /// Wheel on the inner front corner (tenths of a degree, counter-clockwise positive).
    Wheel(usize, i32),
    /// Pivot an unlimbered gun on its centre.
    Pivot(usize, i32),
    /// About-face.
    AboutFace(usize),
    /// Adopt (`true`) or leave (`false`) firing order.
    Formation(usize, bool),
    /// Mount (`true`) or dismount (`false`).
    Mount(usize, bool),
    /// Limber.
    Limber(usize),
    /// Unlimber, pivoting by the angle.
    Unlimber(usize, i32),
    /// A general joins another unit.
    Attach(usize, usize),
    /// No more moves in this sector.
    MovesDone,
    /// Retreat a unit.
    Retreat(usize, Veer),
}

impl Action {
    /// The unit a move-step action orders (Movement); `None` for the others (a general joining a
    /// unit orders no unit).
    pub fn moving_unit(&self) -> Option<usize> {
        match self {
            Action::Move(u, ..)
            | Action::Wheel(u, _)
            | Action::Pivot(u, _)
            | Action::AboutFace(u)
            | Action::Formation(u, _)
            | Action::Mount(u, _)
            | Action::Limber(u)
            | Action::Unlimber(u, _) => Some(*u),
            Action::Attach(..)
            | Action::Sector(_)
            | Action::Fire(..)
            | Action::GunsDone
            | Action::MovesDone
            | Action::Retreat(..) => None,
        }
    }
}

/// Something that happened, with its paragraph of the rule text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Event {
    /// Dice rolled.
    Roll {
        /// Paragraph ("Musketry").
        rule: String,
        /// What for.
        what: String,
        /// The dice.
        dice: Vec<u8>,
        /// Modifiers with reasons.
        mods: Vec<(String, i32)>,
        /// What it gives.
        result: String,
    },
    /// A rule applied.
    Rule {
        /// Paragraph.
        rule: String,
        /// Text.
        text: String,
    },
}

impl Event {
    /// A rule event.
    pub fn rule(rule: &str, text: impl Into<String>) -> Event {
        Event::Rule {
            rule: rule.into(),
            text: text.into(),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Roll {
                rule,
                what,
                dice,
                mods,
                result,
            } => {
                let ds: Vec<String> = dice.iter().map(u8::to_string).collect();
                write!(f, "{rule}: {what}: {}d [{}]", dice.len(), ds.join(" "))?;
                for (why, v) in mods {
                    if *v >= 0 {
                        write!(f, ", +{v} {why}")?;
                    } else {
                        write!(f, ", −{} {why}", -v)?;
                    }
                }
                write!(f, " → {result}")
            }
            Event::Rule { rule, text } => write!(f, "{rule}: {text}"),
        }
    }
}
