//! Events: what a player reads in the log. Each is structured (names, hexes, numbers, the rule)
//! and written as text by [`std::fmt::Display`]; BAR hides nothing from either side (bar-notes C9),
//! so every viewer reads the same line.
use serde::Serialize;
use std::fmt;

/// A percentile roll as the two dice show it (1.5a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pct {
    /// The tens die.
    pub tens: u8,
    /// The units die.
    pub units: u8,
}

impl Pct {
    /// 00–99.
    pub fn value(self) -> u8 {
        self.tens * 10 + self.units
    }
}

impl fmt::Display for Pct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tens {}, units {} = {:02}",
            self.tens,
            self.units,
            self.value()
        )
    }
}

/// An ER modifier as applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// What it is ("routed").
    pub label: String,
    /// Its value.
    pub value: i32,
    /// The rule ("19.9d").
    pub rule: String,
}

/// A disorder or morale check (18.1, 19.1) as rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckEvent {
    /// "Disorder check" or "Morale check".
    pub kind: &'static str,
    /// The case letter (1.1c).
    pub case: char,
    /// What called for it ("Rally", "Disorder recovery").
    pub what: String,
    /// The rule that calls for it.
    pub rule: String,
    /// The testing unit (the top unit of the stack, 18.7a, 19.4a).
    pub unit: String,
    /// The other units of the stack that share the result.
    pub with: Vec<String>,
    /// Printed ER.
    pub er: i32,
    /// Modifiers applied.
    pub mods: Vec<Modifier>,
    /// Modified ER.
    pub total: i32,
    /// The roll.
    pub roll: Pct,
    /// A special result's text, when 00–09 read the special table.
    pub special: Option<String>,
    /// The second roll a special result ordered, with its ER.
    pub second: Option<(Pct, i32)>,
    /// Whether it passed.
    pub passed: bool,
    /// What follows ("shaken", "−1 SP, rout retreat (19.5c)").
    pub result: String,
}

/// How an initiative roll ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum InitiativeOutcome {
    /// A side won.
    Winner(u8),
    /// A tie after the CRs: roll again (6.1c).
    Tie,
    /// Both rolled '0': roll again (4.0 B).
    DoubleZero,
    /// One '0': the special result, read with the other die, for the other side (6.9a).
    Special {
        /// The side it applies to.
        side: u8,
        /// The die read.
        die: u8,
        /// The result's text.
        text: String,
    },
    /// A side without an army leader: the other wins (21.6a).
    Decapitated(u8),
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Event {
    /// A game turn begins.
    Turn {
        /// Number.
        turn: u16,
        /// Clock.
        clock: String,
    },
    /// An army's Current Loss Total and whether it checks (23.1).
    LossTotal {
        /// Army name.
        army: String,
        /// SP lost.
        lost: u32,
        /// SP routed.
        routed: u32,
        /// Leader loss points.
        leaders: u32,
        /// The column heading reached, if any.
        column: Option<u16>,
        /// Why no check ("below 50+", "the 50+ column was used").
        no_check: Option<String>,
    },
    /// An army morale check (23.2).
    ArmyMorale {
        /// Army.
        army: String,
        /// Column heading.
        column: u16,
        /// The d10.
        die: u8,
        /// CR spent.
        spent: u8,
        /// The result added.
        result: u8,
        /// The new modifier.
        morale: u8,
    },
    /// The initiative dice (6.1, 6.7).
    Initiative {
        /// Army names.
        armies: [String; 2],
        /// Dice.
        dice: [u8; 2],
        /// CRs used (after 6.1b reductions).
        cr: [u8; 2],
        /// The reasons for CR reductions, per side.
        cr_notes: [String; 2],
        /// How it ended.
        outcome: InitiativeOutcome,
        /// ETN.
        etn: u8,
        /// END TURN marker's new box when it moved.
        end_box: Option<u8>,
        /// Number of boxes before End.
        end_boxes: u8,
    },
    /// A side's choice after winning (6.1a).
    Choice {
        /// Army.
        army: String,
        /// What.
        text: String,
    },
    /// An activation begins (6.3, 6.5, 6.8).
    Activates {
        /// Army.
        army: String,
        /// Brigade names.
        brigades: Vec<String>,
        /// Wing name of a wing activation.
        wing: Option<String>,
        /// Limited (6.8).
        limited: bool,
    },
    /// A declaration in the command control phase (6.4, 6.6).
    Declared {
        /// The rule.
        rule: &'static str,
        /// What ("activates independent", "attaches").
        what: &'static str,
        /// The unit or leader.
        name: String,
    },
    /// A leader initiative roll (7.4a–b).
    LeaderInitiative {
        /// The rule.
        rule: &'static str,
        /// Leader.
        leader: String,
        /// Die.
        die: u8,
        /// Rating.
        rating: u8,
        /// Passed.
        passed: bool,
    },
    /// A unit initiative roll (7.4c).
    UnitInitiative {
        /// The (top) unit.
        unit: String,
        /// Roll.
        roll: Pct,
        /// ER.
        er: u8,
        /// Passed.
        passed: bool,
    },
    /// The command status of the activation (7.6a).
    Command {
        /// Leaders and units in command, with how ("LOC 3½ of 4 from Manstein").
        in_command: Vec<String>,
        /// Out of command, with why.
        out: Vec<String>,
    },
    /// A check.
    Check(CheckEvent),
    /// Units recover from disorder automatically with a leader (18.6b).
    Recovered {
        /// Units.
        units: Vec<String>,
        /// The leader.
        leader: String,
    },
    /// The phases of an activation that later packages fill (4.0 C).
    Frames {
        /// Army.
        army: String,
    },
    /// A step of the movement phase (11.0): who, what, the rule.
    Movement {
        /// Army.
        army: String,
        /// What happened.
        text: String,
        /// The rule.
        rule: String,
    },
    /// A step of a fire (12.0), every factor with its rule in the text.
    Fire {
        /// The firing army (empty for a note on the target's side).
        army: String,
        /// What happened.
        text: String,
    },
    /// Nobody can answer a move: the reactive player is not asked (12.8, 17.0).
    NoReaction {
        /// The moving units.
        units: Vec<String>,
        /// The trigger ("leaving the hex").
        what: String,
        /// Where.
        hexes: Vec<String>,
    },
    /// An activation ends (6.3d).
    ActivationEnds {
        /// Army.
        army: String,
    },
    /// Limited activations for the rest of the turn (6.7b, 24.2b).
    Limited {
        /// The rule.
        rule: &'static str,
        /// What is limited.
        what: String,
    },
    /// The rally order dice (4.0 D).
    RallyOrder {
        /// Armies.
        armies: [String; 2],
        /// Dice.
        dice: [u8; 2],
        /// Who rallies first (none: tie, roll again).
        first: Option<u8>,
    },
    /// A rout retreat (20.2).
    Rout {
        /// Units.
        units: Vec<String>,
        /// Hexes entered.
        path: Vec<String>,
        /// SP lost on the way (EZOC, blocked).
        losses: u8,
        /// Why.
        note: String,
    },
    /// SP lost.
    Loss {
        /// Unit.
        unit: String,
        /// SP.
        sp: u8,
        /// Why.
        why: String,
        /// The rule.
        rule: &'static str,
    },
    /// A unit eliminated.
    Eliminated {
        /// Unit.
        unit: String,
        /// Why.
        why: String,
    },
    /// A unit's state changes (shaken, routed, disordered).
    State {
        /// Units.
        units: Vec<String>,
        /// New state.
        state: String,
        /// The rule.
        rule: &'static str,
    },
    /// A leader casualty roll (21.4, T18).
    LeaderLoss {
        /// Leader.
        leader: String,
        /// Die.
        die: u8,
        /// Result text.
        result: String,
    },
    /// A leader placed, returning or replaced (21.5).
    LeaderPlaced {
        /// Leader.
        leader: String,
        /// Hex.
        hex: String,
        /// What.
        what: String,
    },
    /// A leader removed without loss points (21.7) or displaced.
    LeaderRemoved {
        /// Leader.
        leader: String,
        /// Why.
        why: String,
    },
    /// Reinforcements arrive (22).
    Arrive {
        /// Units.
        units: Vec<String>,
        /// Hex.
        hex: String,
        /// The rule.
        rule: &'static str,
    },
    /// A rallied unit's formation and facing (19.5e, 8.4k).
    Faces {
        /// Unit.
        unit: String,
        /// Formation adopted.
        formation: String,
        /// Facing.
        facing: String,
    },
    /// A detachment rejoins the army (24.3).
    Reintegrated {
        /// Detachment.
        detachment: String,
    },
    /// The turn ends (4.0 E).
    EndOfTurn {
        /// Turn.
        turn: u16,
    },
    // close combat (13–15)
    /// A step of the close combat phase (13.0–15.2), with its rule.
    CloseCombat {
        /// The rule.
        rule: String,
        /// What happened.
        text: String,
    },
    // pursuit (16) / opportunity charge (17)
    /// A step of a cavalry pursuit (16).
    Pursuit {
        /// The rule.
        rule: String,
        /// What happened.
        text: String,
    },
    /// A step of an opportunity charge (17).
    OppCharge {
        /// The rule.
        rule: String,
        /// What happened.
        text: String,
    },
    /// The game is over.
    GameOver {
        /// Level.
        level: String,
        /// Army CLTs.
        clt: [u32; 2],
    },
}

fn list(v: &[String]) -> String {
    v.join(", ")
}

impl fmt::Display for CheckEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {} {}): {}",
            self.what, self.rule, self.kind, self.case, self.unit
        )?;
        if !self.with.is_empty() {
            write!(f, " (with {})", list(&self.with))?;
        }
        write!(f, " ER {}", self.er)?;
        for m in &self.mods {
            let sign = if m.value < 0 { '−' } else { '+' };
            write!(f, " {sign} {} ({}, {})", m.value.abs(), m.label, m.rule)?;
        }
        if !self.mods.is_empty() {
            write!(f, " = {}", self.total)?;
        }
        write!(f, "; d100 {}", self.roll)?;
        if let Some(s) = &self.special {
            write!(f, " — special result: {s}")?;
        }
        if let Some((r, er)) = &self.second {
            write!(f, "; second roll against ER {er}: d100 {r}")?;
        }
        write!(
            f,
            " — {}{}",
            if self.passed { "passes" } else { "fails" },
            if self.result.is_empty() {
                String::new()
            } else {
                format!(": {}", self.result)
            }
        )
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Turn { turn, clock } => write!(f, "Game turn {turn} ({clock})"),
            Event::LossTotal {
                army,
                lost,
                routed,
                leaders,
                column,
                no_check,
            } => {
                write!(
                    f,
                    "Army morale (23.1a): {army} CLT {} = {lost} SP lost + {routed} SP routed + {leaders} leader points",
                    lost + routed + leaders
                )?;
                match (column, no_check) {
                    (_, Some(w)) => write!(f, " — no check ({w}, 23.1c)"),
                    (Some(c), None) => write!(f, " — checks in the {c}+ column"),
                    (None, None) => Ok(()),
                }
            }
            Event::ArmyMorale {
                army,
                column,
                die,
                spent,
                result,
                morale,
            } => {
                write!(f, "Army morale check (23.2): {army} d10 {die}")?;
                if *spent > 0 {
                    write!(
                        f,
                        " − {spent} CR spent (23.2b) = {}",
                        die.saturating_sub(*spent)
                    )?;
                }
                if *result == 0 {
                    write!(
                        f,
                        " in the {column}+ column: O, no change (modifier {morale})"
                    )
                } else {
                    write!(
                        f,
                        " in the {column}+ column: +{result}, army morale modifier now {morale}"
                    )
                }
            }
            Event::Initiative {
                armies,
                dice,
                cr,
                cr_notes,
                outcome,
                etn,
                end_box,
                end_boxes,
            } => {
                let side = |s: usize| {
                    let mut t = format!("{} d10 {}", armies[s], dice[s]);
                    if !matches!(
                        outcome,
                        InitiativeOutcome::Special { .. } | InitiativeOutcome::DoubleZero
                    ) {
                        t += &format!(" + CR {}{} = {}", cr[s], cr_notes[s], dice[s] + cr[s]);
                    }
                    t
                };
                write!(f, "Initiative (6.1): {}, {}", side(0), side(1))?;
                match outcome {
                    InitiativeOutcome::Winner(w) => {
                        write!(f, " — {} wins", armies[usize::from(*w)])?
                    }
                    InitiativeOutcome::Tie => write!(f, " — tie: roll again (6.1c)")?,
                    InitiativeOutcome::DoubleZero => {
                        write!(f, " — both rolled 0: roll again (4.0 B)")?
                    }
                    InitiativeOutcome::Special { side, die, text } => write!(
                        f,
                        " — one 0: Initiative Special Result (6.9a) read with {die} for {}: {text}",
                        armies[usize::from(*side)]
                    )?,
                    InitiativeOutcome::Decapitated(w) => write!(
                        f,
                        " — {} wins: the other army has no army leader (21.6a)",
                        armies[usize::from(*w)]
                    )?,
                }
                let sum = dice[0] + dice[1];
                match end_box {
                    Some(b) if b == end_boxes => write!(
                        f,
                        "; sum {sum} > ETN {etn}: END TURN to End — limited activations for the rest of the turn (6.7a–b)"
                    ),
                    Some(b) => write!(f, "; sum {sum} > ETN {etn}: END TURN to box {b} (6.7a)"),
                    None => write!(f, "; sum {sum} ≤ ETN {etn}: END TURN stays (6.7a)"),
                }
            }
            Event::Choice { army, text } => write!(f, "{army} {text} (6.1a)"),
            Event::Activates {
                army,
                brigades,
                wing,
                limited,
            } => {
                let kind = if *limited {
                    "limited activation (6.8)"
                } else {
                    "activation"
                };
                match wing {
                    Some(w) => write!(f, "{army}: wing {kind} (6.5) of {w}: {}", list(brigades)),
                    None => write!(f, "{army}: {kind} (6.3) of {}", list(brigades)),
                }
            }
            Event::Declared { rule, what, name } => {
                write!(f, "Command control ({rule}): {what} {name}")
            }
            Event::LeaderInitiative {
                rule,
                leader,
                die,
                rating,
                passed,
            } => write!(
                f,
                "Leader initiative ({rule}): {leader} d10 {die} {} {rating} — {}",
                if *passed { "≤" } else { ">" },
                if *passed {
                    "in command"
                } else {
                    "out of command"
                }
            ),
            Event::UnitInitiative {
                unit,
                roll,
                er,
                passed,
            } => write!(
                f,
                "Unit initiative (7.4c): {unit} d100 {roll} {} ER {er} — {}",
                if *passed { "≥" } else { "<" },
                if *passed {
                    "in command"
                } else {
                    "out of command"
                }
            ),
            Event::Command { in_command, out } => {
                write!(f, "Command (7.6a): ")?;
                if out.is_empty() {
                    write!(f, "all in command")?;
                } else {
                    write!(f, "out of command: {}", list(out))?;
                }
                if !in_command.is_empty() {
                    write!(f, "; in command: {}", list(in_command))?;
                }
                Ok(())
            }
            Event::Check(c) => write!(f, "{c}"),
            Event::Recovered { units, leader } => write!(
                f,
                "Disorder recovery (18.6b): {} stacked with {leader} — back in order",
                list(units)
            ),
            Event::Frames { army } => write!(
                f,
                "{army}: fire (12.0) and close combat (13.0) — not yet played by tricorne (issues 16–17)"
            ),
            Event::Movement { army, text, rule } => write!(f, "{army}: {text} ({rule})"),
            Event::Fire { army, text } if army.is_empty() => write!(f, "{text}"),
            Event::Fire { army, text } => write!(f, "{army}: {text}"),
            Event::NoReaction { units, what, hexes } => write!(
                f,
                "{} {what} in {}: no enemy unit there could fire or charge (12.8, 17.1) — not asked",
                list(units),
                hexes.join("-")
            ),
            Event::ActivationEnds { army } => {
                write!(
                    f,
                    "{army}: activation ends; leaders flipped, FINISHED markers (6.3d)"
                )
            }
            Event::Limited { rule, what } => write!(f, "Limited activations ({rule}): {what}"),
            Event::RallyOrder {
                armies,
                dice,
                first,
            } => {
                write!(
                    f,
                    "Rally phase (4.0 D): {} d10 {}, {} d10 {}",
                    armies[0], dice[0], armies[1], dice[1]
                )?;
                match first {
                    Some(s) => write!(f, " — {} rallies first", armies[usize::from(*s)]),
                    None => write!(f, " — tie: roll again"),
                }
            }
            Event::Rout {
                units,
                path,
                losses,
                note,
            } => {
                write!(f, "Rout retreat (20.2): {}", list(units))?;
                if path.is_empty() {
                    write!(f, " cannot move")?;
                } else {
                    write!(f, " to {}", path.join(" → "))?;
                }
                if *losses > 0 {
                    write!(f, ", −{losses} SP")?;
                }
                if !note.is_empty() {
                    write!(f, " ({note})")?;
                }
                Ok(())
            }
            Event::Loss {
                unit,
                sp,
                why,
                rule,
            } => write!(f, "{unit} loses {sp} SP: {why} ({rule})"),
            Event::Eliminated { unit, why } => write!(f, "{unit} is eliminated: {why}"),
            Event::State { units, state, rule } => {
                write!(f, "{} {} ({rule})", list(units), state)
            }
            Event::LeaderLoss {
                leader,
                die,
                result,
            } => write!(
                f,
                "Leader loss (21.4, Leader Loss Table): {leader} d10 {die} — {result}"
            ),
            Event::LeaderPlaced { leader, hex, what } => {
                write!(f, "{leader} {what} at {hex} (21.5)")
            }
            Event::LeaderRemoved { leader, why } => write!(f, "{leader} {why}"),
            Event::Arrive { units, hex, rule } => {
                write!(
                    f,
                    "Reinforcements ({rule}): {} arrive at {hex}",
                    list(units)
                )
            }
            Event::Faces {
                unit,
                formation,
                facing,
            } => write!(
                f,
                "{unit} rallied: {formation}, faces {facing} (19.5e, 8.4k)"
            ),
            Event::Reintegrated { detachment } => {
                write!(f, "Detachment {detachment} rejoins the main army (24.3)")
            }
            Event::EndOfTurn { turn } => write!(
                f,
                "Maintenance (4.0 E): end of game turn {turn}; FINISHED markers removed, END TURN back to 0"
            ),
            // close combat (13–15)
            Event::CloseCombat { rule, text } => write!(f, "Close combat ({rule}): {text}"),
            // pursuit (16) / opportunity charge (17)
            Event::Pursuit { rule, text } => write!(f, "Pursuit ({rule}): {text}"),
            Event::OppCharge { rule, text } => write!(f, "Opportunity charge ({rule}): {text}"),
            Event::GameOver { level, clt } => write!(
                f,
                "Game over: {level} (current loss totals {} and {})",
                clt[0], clt[1]
            ),
        }
    }
}
