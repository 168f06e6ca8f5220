//! Labels, views (what a side may see: rule 3.6 hides the contents of enemy stacks), the text board
//! and the invariants checked after every action in the playout tests.
use crate::Saxe;
use crate::action::Action;
use crate::event::Line;
use crate::scenario::{Side, Terrain, UnitIx};
use crate::state::*;
use engine::{Seat, Viewer};
use hexmap::HexId;
use serde_json::json;

impl Saxe {
    /// A label a person can read.
    pub fn label(&self, s: &State, a: &Action) -> String {
        let u = |x: UnitIx| self.uname(x).to_string();
        match a {
            Action::RedoubtFire { unit, target } => {
                format!("Redoubt {} fires at {target}", u(*unit))
            }
            Action::EndRedoubtFire => "End redoubt fire".into(),
            Action::Activate { formation } => format!(
                "Test {} for activation",
                self.sc.formations[usize::from(*formation)].name
            ),
            Action::ActivateAuto { formation } => format!(
                "Activate {} automatically ({}, {} turn)",
                self.sc.formations[usize::from(*formation)].name,
                self.auto_activation_rule(),
                match s.turn.saturating_sub(self.sc.first_turn) {
                    0 => "first",
                    1 => "second",
                    _ => "this",
                }
            ),
            Action::ActivateIndependent { unit } => {
                if !self.edition.independent_columns() && self.has(s, *unit, flag::COLUMN) {
                    format!(
                        "Activate independent {} (march column: automatic, 14.4)",
                        u(*unit)
                    )
                } else {
                    format!("Test independent {} for activation", u(*unit))
                }
            }
            Action::ArtilleryFace { unit, clockwise } => format!(
                "{} turns one vertex {}",
                u(*unit),
                if *clockwise {
                    "clockwise"
                } else {
                    "anticlockwise"
                }
            ),
            Action::ArtilleryFire { unit, target } => format!("{} fires at {target}", u(*unit)),
            Action::CommanderStep {
                commander,
                to,
                with_army,
            } => {
                format!(
                    "{} moves to {to}{}",
                    self.cname(*commander),
                    if *with_army {
                        " with the army commander"
                    } else {
                        ""
                    }
                )
            }
            Action::Accompany { commander } => format!(
                "{} goes with the routed unit (12.4)",
                self.cname(*commander)
            ),
            Action::StopAccompanying { commander } => {
                format!("{} stops following the rout here", self.cname(*commander))
            }
            Action::ArmyWithStack => {
                "The army commander moves with the stack he is with (8.5)".into()
            }
            Action::ChiefWithStack { commander } => format!(
                "{} moves with the stack he is with (4.B1 step 3, 8.5)",
                self.cname(*commander)
            ),
            Action::CavalryLineReaction { unit } => {
                format!("Cavalry reaction with the line of {}", u(*unit))
            }
            Action::MoveUnit {
                unit,
                with_commander,
            } => format!(
                "Move {}{}",
                u(*unit),
                if *with_commander {
                    " with its commander"
                } else {
                    ""
                }
            ),
            Action::MoveStack {
                hex,
                with_commander,
            } => format!(
                "Move the stack in {hex}{}",
                if *with_commander {
                    " with its commander"
                } else {
                    ""
                }
            ),
            Action::MoveLine { unit } => format!("Move the line of battle of {}", u(*unit)),
            Action::TurnInPlace { unit, clockwise } => format!(
                "{} turns one vertex {} (morale test)",
                u(*unit),
                if *clockwise {
                    "clockwise"
                } else {
                    "anticlockwise"
                }
            ),
            Action::EndActivation => "End this activation".into(),
            Action::Step { dir } => {
                let to: Vec<String> = match s.frames.last() {
                    Some(Frame::Moving(m)) => m
                        .units
                        .iter()
                        .filter_map(|&x| {
                            s.units[usize::from(x)].hex.and_then(|h| h.neighbour(*dir))
                        })
                        .map(|h| h.to_string())
                        .collect(),
                    _ => Vec::new(),
                };
                // Each hex once, in order (a stacked line names 1208 once, not once a unit).
                let mut to = to;
                to.sort();
                to.dedup();
                format!("Advance {dir:?} to {}", to.join(", "))
            }
            Action::Turn { clockwise } => format!(
                "Turn one vertex {}",
                if *clockwise {
                    "clockwise"
                } else {
                    "anticlockwise"
                }
            ),
            Action::AboutFace => "Turn about (180°)".into(),
            Action::ChangeOrder => "Change the stack order (half MP)".into(),
            Action::Drop { unit } => format!("Leave {} behind", u(*unit)),
            Action::Pivot { pivot, clockwise } => format!(
                "Pivot the cavalry line on {} {}",
                u(*pivot),
                if *clockwise {
                    "clockwise"
                } else {
                    "anticlockwise"
                }
            ),
            Action::LeaveZoc { to, turn } => format!(
                "Fall back out of the enemy ZoC to {to}{}",
                if *turn != 0 {
                    " and turn one vertex"
                } else {
                    ""
                }
            ),
            Action::Stop => "Stop moving".into(),
            Action::ReactionFire { unit, target } => {
                format!("Reaction fire: {} at {target}", u(*unit))
            }
            Action::CavalryReaction { unit } => format!("Cavalry reaction with {}", u(*unit)),
            Action::Pass => "Pass".into(),
            Action::Attack {
                attackers,
                defenders,
            } => {
                let an: Vec<String> = attackers
                    .iter()
                    .flat_map(|&h| self.combat_units_at(s, h))
                    .map(u)
                    .collect();
                format!(
                    "{} attack {}",
                    an.join(" + "),
                    defenders
                        .iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            }
            Action::EndCombat => "End the combat phase".into(),
            Action::Evade => "Retreat before combat (1.3)".into(),
            Action::AllocateLoss { hex } => format!("Take the step loss in {hex}"),
            Action::RetreatTo { to } => format!("Go to {to}"),
            Action::Advance {
                from,
                to,
                whole_stack,
            } => format!(
                "Advance from {from} into {to} with {}",
                if *whole_stack {
                    "the stack"
                } else {
                    "the top unit"
                }
            ),
            Action::ArmyStep { to } => format!("Army commander moves to {to}"),
            Action::EndArmyMove => "End the army commander's move".into(),
            Action::Promote { commander } => {
                format!("{} takes command of the army", self.cname(*commander))
            }
            Action::PlaceAide { unit } => format!("The aide de camp joins {}", u(*unit)),
            Action::PlaceUnit { unit, hex } => format!("Set up {} in {hex}", u(*unit)),
            Action::FaceUnit { facing } => format!("Face {facing:?}"),
            Action::PlaceAbattis { hex } => format!("Place the abattis in {hex}"),
            Action::PlaceCommander { commander, hex } => {
                format!("Set up {} in {hex}", self.cname(*commander))
            }
            Action::SetUpOnMap { formation } => format!(
                "{} sets up on the map",
                self.sc.formations[usize::from(*formation)].name
            ),
            Action::EnterInColumn { formation, hex } => format!(
                "{} enters in march column at {hex}",
                self.sc.formations[usize::from(*formation)].name
            ),
            Action::March { formation } => format!(
                "{} marches in column (MP doubled)",
                self.sc.formations[usize::from(*formation)].name
            ),
            Action::Deploy { formation } => format!(
                "{} deploys",
                self.sc.formations[usize::from(*formation)].name
            ),
            Action::ColumnUnit { unit } => format!("Move {} (column)", u(*unit)),
            Action::EnterUnit { unit } => format!("{} enters the map", u(*unit)),
            Action::Reinforce { unit, hex } => {
                if self
                    .sc
                    .reinforcements
                    .iter()
                    .any(|r| r.unit == *unit && r.column)
                {
                    format!(
                        "{} enters in march column at {hex} (17, 14.4: automatic)",
                        u(*unit)
                    )
                } else {
                    format!("{} arrives as a reinforcement at {hex} (8.8)", u(*unit))
                }
            }
            Action::EndColumn => "End the column's movement".into(),
            Action::IndependentColumn { unit } => {
                format!("Move {} in march column (14.4)", u(*unit))
            }
        }
    }

    /// The hexes an action points at: where a unit goes, what it fires at or attacks, which unit
    /// or stack it selects.
    pub fn hexes_of(&self, s: &State, a: &Action) -> Vec<HexId> {
        let at = |u: UnitIx| s.units[usize::from(u)].hex.into_iter().collect::<Vec<_>>();
        let cat = |c: crate::scenario::CommanderIx| {
            s.commanders[usize::from(c)]
                .hex
                .into_iter()
                .collect::<Vec<_>>()
        };
        match a {
            Action::RedoubtFire { target, .. }
            | Action::ArtilleryFire { target, .. }
            | Action::ReactionFire { target, .. } => vec![*target],
            Action::CommanderStep { to, .. }
            | Action::LeaveZoc { to, .. }
            | Action::RetreatTo { to }
            | Action::ArmyStep { to }
            | Action::Advance { to, .. } => vec![*to],
            Action::MoveStack { hex, .. }
            | Action::AllocateLoss { hex }
            | Action::PlaceUnit { hex, .. }
            | Action::PlaceAbattis { hex }
            | Action::PlaceCommander { hex, .. }
            | Action::EnterInColumn { hex, .. } => vec![*hex],
            Action::ArtilleryFace { unit, .. }
            | Action::MoveUnit { unit, .. }
            | Action::MoveLine { unit }
            | Action::TurnInPlace { unit, .. }
            | Action::Drop { unit }
            | Action::Pivot { pivot: unit, .. }
            | Action::CavalryReaction { unit }
            | Action::CavalryLineReaction { unit }
            | Action::ActivateIndependent { unit }
            | Action::PlaceAide { unit }
            | Action::ColumnUnit { unit }
            | Action::IndependentColumn { unit } => at(*unit),
            Action::Attack { defenders, .. } => defenders.clone(),
            Action::Step { dir } => match s.frames.last() {
                Some(Frame::Moving(m)) => m
                    .units
                    .iter()
                    .filter_map(|&u| s.units[usize::from(u)].hex.and_then(|h| h.neighbour(*dir)))
                    .collect(),
                _ => Vec::new(),
            },
            Action::Promote { commander }
            | Action::Accompany { commander }
            | Action::StopAccompanying { commander } => cat(*commander),
            Action::Activate { formation }
            | Action::ActivateAuto { formation }
            | Action::March { formation }
            | Action::Deploy { formation }
            | Action::SetUpOnMap { formation } => cat(self.formation_commander(*formation)),
            Action::Reinforce { hex, .. } => vec![*hex],
            Action::EnterUnit { unit } => {
                let f = self.sc.units[usize::from(*unit)].formation;
                f.and_then(|f| s.formations[usize::from(f)].column)
                    .into_iter()
                    .collect()
            }
            Action::EndRedoubtFire
            | Action::EndActivation
            | Action::Turn { .. }
            | Action::AboutFace
            | Action::ChangeOrder
            | Action::Stop
            | Action::Pass
            | Action::EndCombat
            | Action::Evade
            | Action::EndArmyMove
            | Action::FaceUnit { .. }
            | Action::EndColumn
            | Action::ArmyWithStack => Vec::new(),
            Action::ChiefWithStack { commander } => cat(*commander),
        }
    }

    /// Describe the pending decision, as `viewer` may read it (the view shows it to both sides and
    /// spectators: 3.6 applies to the units it names).
    pub fn decision_text(&self, s: &State, viewer: Viewer) -> String {
        self.decision_line(s).render(viewer).0
    }

    /// The pending decision as a structured line.
    fn decision_line(&self, s: &State) -> Line {
        Line::from(match s.frames.last() {
            None => match s.phase {
                Phase::Setup => match s.setup.as_ref() {
                    Some(st) if st.facing_for.is_some() => {
                        "free set-up: choose the facing of the unit just placed (16.2)".into()
                    }
                    Some(st) => format!("free set-up (16.2): {:?}", st.stage),
                    None => "free set-up".into(),
                },
                Phase::March(side) => {
                    format!("marching movement of the {} columns (14)", side.name())
                }
                Phase::Rally => "rally phase".into(),
                Phase::RedoubtFire => "fire redoubts".into(),
                Phase::ChooseActivation => "choose a formation to activate".into(),
                Phase::Combat => "declare attacks".into(),
                Phase::ArmyCommander(mp) => format!("move the army commander ({mp} MP)"),
                Phase::EndOfTurn => "end of turn".into(),
                Phase::Over => "game over".into(),
            },
            Some(Frame::Activation(a)) => {
                let name = match a.target {
                    ActTarget::Formation(f) => self.sc.formations[usize::from(f)].name.clone(),
                    ActTarget::Independent(u) => {
                        return self.unit_line(s, &[u]).t(if a.success {
                            " activated — its actions"
                        } else {
                            " not activated (5.3) — its actions"
                        });
                    }
                };
                format!(
                    "{} {} — its actions",
                    name,
                    if a.success {
                        "activated"
                    } else {
                        "not activated (5.3)"
                    }
                )
            }
            Some(Frame::Moving(m)) => {
                return Line::new()
                    .t("moving ")
                    .units(self.named(s, &m.units))
                    .private(
                        self.hidden_any(s, &m.units),
                        format!(" (MP left {:?})", m.mp),
                    );
            }
            Some(Frame::Reaction(_)) => "react to the enemy movement (8.6, 9.3)".into(),
            Some(Frame::Combat(_)) => "combat".into(),
            Some(Frame::Losses { .. }) => "allocate a step loss (11.1)".into(),
            Some(Frame::Retreat(r)) => {
                return Line::new()
                    .t("retreat ")
                    .units(self.named(s, &r.units))
                    .t(format!(" ({} hex(es) to go)", r.left));
            }
            Some(Frame::Rout(r)) => {
                return Line::new()
                    .t("rout ")
                    .units(self.named(s, &[r.unit]))
                    .t(format!(" ({} hex(es) to go)", r.left));
            }
            Some(Frame::Advance(_)) => "advance after combat (11.3)".into(),
            Some(Frame::Evade { hex, .. }) => {
                format!("light troops in {hex}: retreat before combat? (1.3)")
            }
            Some(Frame::NewArmyCommander { .. }) => "choose a new army commander (11.4)".into(),
            Some(Frame::PlaceAide { .. }) => "place the aide de camp (11.4)".into(),
            Some(Frame::Column {
                formation, deploy, ..
            }) => format!(
                "{} {} (14)",
                self.sc.formations[usize::from(*formation)].name,
                if *deploy { "deploys" } else { "marches" }
            ),
        })
    }

    fn unit_json(&self, s: &State, u: UnitIx) -> serde_json::Value {
        let d = &self.sc.units[usize::from(u)];
        let us = &s.units[usize::from(u)];
        json!({
            "id": d.id, "name": d.name, "side": d.side.name(), "kind": format!("{:?}", d.kind),
            "formation": d.formation.map(|f| self.sc.formations[usize::from(f)].id.clone()),
            "cp": self.cp(s, u), "morale": d.morale, "mp": d.mp, "steps": d.steps - us.lost.min(d.steps),
            "facing": if us.has(flag::ROUTED) { serde_json::Value::Null } else { json!(format!("{:?}", us.facing)) },
            "disorganised": us.has(flag::DISORG), "routed": us.has(flag::ROUTED),
            "out_of_command": us.has(flag::OOC), "activated": us.has(flag::ACTIVATED),
            "column": us.has(flag::COLUMN),
        })
    }

    /// What a side may see (`None`: everything). Enemy stacks show only their top unit (3.6).
    pub fn view_json(&self, s: &State, side: Option<Side>) -> serde_json::Value {
        self.view_for(
            s,
            side.map_or(Viewer::All, |x| Viewer::Seat(Seat(x.ix() as u8))),
        )
    }

    /// What a spectator may see: the top counter of every stack of both sides (3.6).
    pub fn public_view_json(&self, s: &State) -> serde_json::Value {
        self.view_for(s, Viewer::Spectator)
    }

    /// What `viewer` may see: every text in it is written for that viewer (3.6).
    pub fn view_for(&self, s: &State, viewer: Viewer) -> serde_json::Value {
        let hide = |owner: Side| match viewer {
            Viewer::All => false,
            Viewer::Seat(x) => Side::from_ix(x.0) != owner,
            Viewer::Spectator => true,
        };
        let standing = self.standing(s);
        let mut stacks = Vec::new();
        let mut hexes: Vec<HexId> = s.units.iter().filter_map(|u| u.hex).collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            let here = self.units_at(s, h);
            let owner = self.side_of(here[0]);
            let hidden = hide(owner);
            let shown: Vec<serde_json::Value> = if hidden {
                // The top counter is visible; artillery sits on top (3.5.3).
                let top = here
                    .iter()
                    .copied()
                    .find(|&u| self.kind(u).is_guns())
                    .unwrap_or(here[0]);
                vec![self.unit_json(s, top)]
            } else {
                here.iter().map(|&u| self.unit_json(s, u)).collect()
            };
            // Built by moving the parts in: `json!` would deep-copy every unit (the view is
            // built for every fetch, docs/server.md "Load test").
            let mut st = serde_json::Map::new();
            st.insert("hex".into(), h.to_string().into());
            st.insert("side".into(), owner.name().into());
            st.insert("units".into(), serde_json::Value::Array(shown));
            st.insert("stacked".into(), (here.len() > 1).into());
            stacks.push(serde_json::Value::Object(st));
        }
        let commanders: Vec<serde_json::Value> = s
            .commanders
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                c.hex.map(|h| json!({ "id": self.sc.commanders[i].id, "name": self.sc.commanders[i].name, "side": self.sc.commanders[i].side.name(), "hex": h.to_string(), "army": c.army, "flipped": c.flipped, "aides": c.aides }))
            })
            .collect();
        let formations: Vec<serde_json::Value> = self
            .sc
            .formations
            .iter()
            .enumerate()
            .map(|(i, f)| json!({ "id": f.id, "name": f.name, "side": f.side.name(), "losses": self.formation_losses(s, i as u8), "demoralisation": f.demoralisation, "demoralised": s.formations[i].demoralised, "tested": s.formations[i].tested, "column": s.formations[i].column.map(|h| h.to_string()), "deploying": s.formations[i].deploying }))
            .collect();
        let mut v = json!({
            "scenario": self.sc.id, "turn": s.turn, "turns": self.sc.turns, "active": s.active.name(),
            "phase": format!("{:?}", s.phase), "decider": self.decider_side(s).map(|x| x.name()),
            "decision": self.decision_text(s, viewer),
            "control": self.sc.objectives.iter().zip(&s.control).map(|(o, c)| (o.name.clone(), json!(c.name()))).collect::<serde_json::Map<_, _>>(),
            "army_demoralised": { "French": self.army_demoralised(s, Side::French), "Allies": self.army_demoralised(s, Side::Allies) },
            "standing": { "winner": standing.0.map(|w| w.name()), "level": standing.1, "rule": format!("{} (if the game ended now)", self.victory_rule()) },
            "result": s.result.as_ref().map(|r| json!({ "winner": r.0.map(|w| w.name()), "level": r.1, "rule": r.2 })),
        });
        if let serde_json::Value::Object(m) = &mut v {
            m.insert("stacks".into(), serde_json::Value::Array(stacks));
            m.insert("commanders".into(), serde_json::Value::Array(commanders));
            m.insert("formations".into(), serde_json::Value::Array(formations));
        }
        v
    }

    /// The board as text: a hex grid (row-first, column 01 at the east/right) and the stacks.
    pub fn render(&self, s: &State, side: Option<Side>) -> String {
        let map = &self.sc.map;
        let mut out = String::new();
        out.push_str(&format!(
            "{} — turn {}/{}, {} active, {:?}\nDecision: {}{}\n{}\n\n",
            self.sc.name,
            s.turn,
            self.sc.turns,
            s.active.name(),
            s.phase,
            self.decider_side(s)
                .map(|d| format!("{} — ", d.name()))
                .unwrap_or_default(),
            self.decision_text(
                s,
                side.map_or(Viewer::All, |x| Viewer::Seat(Seat(x.ix() as u8)))
            ),
            self.sc
                .objectives
                .iter()
                .zip(&s.control)
                .map(|(o, c)| format!("{}: {}", o.name, c.name()))
                .collect::<Vec<_>>()
                .join("   ")
        ));
        // Header: columns from west (high) to east (01) so north is up and east is right.
        out.push_str("     ");
        for c in (map.cols.0..=map.cols.1).rev() {
            out.push_str(&format!("{c:02}  "));
        }
        out.push('\n');
        for r in map.rows.0..=map.rows.1 {
            out.push_str(&format!("{r:02} "));
            if r % 2 == 1 {
                out.push_str("  ");
            }
            for c in (map.cols.0..=map.cols.1).rev() {
                let h = HexId::new(r, c);
                let here = self.units_at(s, h);
                let cell = if let Some(&top) = here.first() {
                    let d = &self.sc.units[usize::from(top)];
                    let hidden = side.is_some_and(|v| v != d.side);
                    let letter = if d.side == Side::French {
                        d.kind.letter().to_ascii_uppercase()
                    } else {
                        d.kind.letter()
                    };
                    let n = if hidden {
                        '?'
                    } else {
                        char::from_digit(here.len() as u32, 10).unwrap_or('+')
                    };
                    let st = if s.units[usize::from(top)].has(flag::ROUTED) {
                        '!'
                    } else if s.units[usize::from(top)].has(flag::DISORG) {
                        'd'
                    } else {
                        ' '
                    };
                    format!("{letter}{n}{st}")
                } else {
                    match map.terrain(h) {
                        Terrain::Clear => if map.level(h) > 0 { " ^ " } else { " . " }.to_string(),
                        Terrain::Marsh => " ~ ".into(),
                        Terrain::Woods => " # ".into(),
                        Terrain::Town | Terrain::FortifiedVillage => " T ".into(),
                        Terrain::Rough => " % ".into(),
                    }
                };
                out.push_str(&cell);
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str("\nUpper case French, lower case Allies: i infantry, l light infantry, c cavalry, h light cavalry, a artillery, r redoubt; digit = units in the stack, d disorganised, ! routed.\n\n");
        let mut hexes: Vec<HexId> = s.units.iter().filter_map(|u| u.hex).collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            let here = self.units_at(s, h);
            let owner = self.side_of(here[0]);
            let hidden = side.is_some_and(|v| v != owner);
            let mut parts = Vec::new();
            for (i, &u) in here.iter().enumerate() {
                if hidden && i > 0 {
                    parts.push("(hidden)".to_string());
                    break;
                }
                let d = &self.sc.units[usize::from(u)];
                let us = &s.units[usize::from(u)];
                let mut t = format!("{} [{:?}", d.name, d.kind);
                if !d.kind.is_guns() {
                    t.push_str(&format!(" {}-{}-{}", self.cp(s, u), d.morale, d.mp));
                }
                if us.has(flag::ROUTED) {
                    t.push_str(" routed");
                } else {
                    t.push_str(&format!(" facing {:?}", us.facing));
                }
                if us.has(flag::DISORG) {
                    t.push_str(" disorganised");
                }
                if us.has(flag::OOC) {
                    t.push_str(" out of command");
                }
                t.push(']');
                parts.push(t);
            }
            let cm: Vec<&str> = self
                .commanders_at(s, h)
                .into_iter()
                .map(|c| self.cname(c))
                .collect();
            out.push_str(&format!(
                "{h} {}: {}{}\n",
                owner.name(),
                parts.join(" / "),
                if cm.is_empty() {
                    String::new()
                } else {
                    format!("  + {}", cm.join(", "))
                }
            ));
        }
        if let Some((w, level, rule)) = &s.result {
            out.push_str(&format!(
                "\nResult ({rule}): {level}{}\n",
                w.map(|w| format!(" — {} win", w.name()))
                    .unwrap_or_default()
            ));
        }
        out
    }

    /// The static board for drawing: map (terrain, levels, hexsides, places, edges, centres of
    /// hexes), counters with their printed values, formations and commanders.
    pub fn board_json(&self) -> serde_json::Value {
        let edges = |v: &[crate::scenario::Edge]| {
            v.iter()
                .map(|e| format!("{e:?}").to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        };
        use crate::scenario::side_bits;
        let map = &self.sc.map;
        let hexes: Vec<serde_json::Value> = map
            .hexes()
            .map(|h| {
                let (x, y) = h.centre();
                json!({ "id": h.to_string(), "terrain": format!("{:?}", map.terrain(h)).to_lowercase(), "level": map.level(h), "x": x, "y": -y })
            })
            .collect();
        let sides: Vec<serde_json::Value> = map
            .hexsides()
            .into_iter()
            .map(|(k, b)| {
                let mut f = Vec::new();
                for (bit, name) in [
                    (side_bits::STREAM, "stream"),
                    (side_bits::RIVER, "river"),
                    (side_bits::BRIDGE, "bridge"),
                    (side_bits::ROAD, "road"),
                    (side_bits::TRAIL, "trail"),
                ] {
                    if b & bit != 0 {
                        f.push(name);
                    }
                }
                json!({ "a": k.0.to_string(), "b": k.1.to_string(), "features": f })
            })
            .collect();
        let places: Vec<serde_json::Value> = map
            .places
            .iter()
            .map(|(n, hs)| json!({ "name": n, "hexes": hs.iter().map(|h| h.to_string()).collect::<Vec<_>>() }))
            .collect();
        let units: Vec<serde_json::Value> = self
            .sc
            .units
            .iter()
            .map(|u| {
                json!({ "id": u.id, "name": u.name, "side": u.side.name(), "kind": format!("{:?}", u.kind),
                    "formation": u.formation.map(|f| self.sc.formations[usize::from(f)].id.clone()),
                    "cp": u.cp, "cp_reduced": u.cp_reduced, "morale": u.morale, "mp": u.mp, "steps": u.steps,
                    "calibre": u.calibre, "crossed_swords": u.crossed_swords, "grenadiers": u.grenadiers })
            })
            .collect();
        let formations: Vec<serde_json::Value> = self
            .sc
            .formations
            .iter()
            .map(|f| json!({ "id": f.id, "name": f.name, "side": f.side.name(), "demoralisation": f.demoralisation }))
            .collect();
        let commanders: Vec<serde_json::Value> = self
            .sc
            .commanders
            .iter()
            .map(|c| json!({ "id": c.id, "name": c.name, "side": c.side.name(), "army": c.army, "radius": c.radius,
                "formation": c.formation.map(|f| self.sc.formations[usize::from(f)].id.clone()) }))
            .collect();
        json!({
            "scenario": self.sc.id, "name": self.sc.name, "turns": self.sc.turns,
            "seats": ["French", "Allies"],
            "map": { "name": map.name, "rows": [map.rows.0, map.rows.1], "cols": [map.cols.0, map.cols.1],
                "orientation": "pointy-top hexes; id RRCC row-first; rows grow south, columns grow west; odd rows shifted half a hex east; x east, y south, hex centre to corner = 1",
                "friendly_edges": { "French": edges(&map.edges[0]), "Allies": edges(&map.edges[1]) },
                "hexes": hexes, "hexsides": sides, "places": places },
            "units": units, "formations": formations, "commanders": commanders,
            "army_demoralisation": { "French": self.sc.army_demoralisation[0], "Allies": self.sc.army_demoralisation[1] },
            "objectives": self.sc.objectives.iter().map(|o| (o.name.clone(), json!(o.hexes.iter().map(|h| h.to_string()).collect::<Vec<_>>()))).collect::<serde_json::Map<_, _>>(),
            "edition": self.edition.id(), "first_turn": self.sc.first_turn,
            // The game's tables as tables.toml prints them, each row with its provenance.
            "tables": self.sc.tables_printed,
        })
    }

    /// Names and ids of enemy units a side may not see now (3.6): every unit of an enemy stack but
    /// the counter on top.
    pub fn hidden_names(&self, s: &State, side: Side) -> Vec<String> {
        self.hidden_where(s, |owner| owner != side)
    }

    fn hidden_where(&self, s: &State, hide: impl Fn(Side) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut hexes: Vec<HexId> = s.units.iter().filter_map(|u| u.hex).collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            let here = self.units_at(s, h);
            if here.len() < 2 || !hide(self.side_of(here[0])) {
                continue;
            }
            let top = here
                .iter()
                .copied()
                .find(|&u| self.kind(u).is_guns())
                .unwrap_or(here[0]);
            for &u in here.iter().filter(|&&u| u != top) {
                let d = &self.sc.units[usize::from(u)];
                // A name shared with a visible counter elsewhere is not a secret in itself.
                out.push(d.name.clone());
                out.push(d.id.clone());
            }
        }
        out
    }

    /// Names and ids a spectator may not see (every unit under the top of any stack).
    pub fn hidden_from_public_names(&self, s: &State) -> Vec<String> {
        self.hidden_where(s, |_| true)
    }

    /// Structural checks of a state read from outside, before anything indexes into it.
    pub fn validate_loaded(&self, s: &State) -> Vec<String> {
        let mut bad = Vec::new();
        let (nu, nc, nf) = (
            self.sc.units.len(),
            self.sc.commanders.len(),
            self.sc.formations.len(),
        );
        if s.scenario != self.sc.id {
            bad.push(format!(
                "state of scenario {:?}, not {:?}",
                s.scenario, self.sc.id
            ));
        }
        if s.units.len() != nu || s.commanders.len() != nc || s.formations.len() != nf {
            bad.push(format!(
                "{} units, {} commanders, {} formations where the scenario has {nu}, {nc}, {nf}",
                s.units.len(),
                s.commanders.len(),
                s.formations.len()
            ));
            return bad;
        }
        if s.turn < self.sc.first_turn || s.turn > self.sc.turns {
            bad.push(format!(
                "turn {} outside {}..={}",
                s.turn, self.sc.first_turn, self.sc.turns
            ));
        }
        if s.control.len() != self.sc.objectives.len() {
            bad.push(format!(
                "{} objectives held where the scenario has {}",
                s.control.len(),
                self.sc.objectives.len()
            ));
            return bad;
        }
        for (i, u) in s.units.iter().enumerate() {
            if u.hex.is_some_and(|h| !self.sc.map.contains(h)) || u.lost > self.sc.units[i].steps {
                bad.push(format!(
                    "unit {} has an impossible hex or loss",
                    self.sc.units[i].id
                ));
            }
        }
        if s.commanders
            .iter()
            .any(|c| c.hex.is_some_and(|h| !self.sc.map.contains(h)))
        {
            bad.push("a commander is off the map".into());
        }
        let ok_u = |u: &UnitIx| usize::from(*u) < nu;
        let ok_h = |h: &HexId| self.sc.map.contains(*h);
        for f in &s.frames {
            let fine = match f {
                Frame::Activation(a) => {
                    a.commanded.iter().all(ok_u)
                        && match a.target {
                            ActTarget::Formation(x) => usize::from(x) < nf,
                            ActTarget::Independent(u) => ok_u(&u),
                        }
                }
                Frame::Moving(m) => {
                    m.units.iter().all(ok_u)
                        && m.units.len() == m.mp.len()
                        && m.commander.is_none_or(|c| usize::from(c) < nc)
                        && m.target.as_ref().is_none_or(ok_u)
                }
                Frame::Reaction(r) => r
                    .movers
                    .iter()
                    .all(|(u, a, b)| ok_u(u) && ok_h(a) && ok_h(b)),
                Frame::Combat(c) => {
                    c.att_units
                        .iter()
                        .chain(&c.def_units)
                        .chain(&c.lost_steps)
                        .chain(&c.disorg_cav_before)
                        .all(ok_u)
                        && c.attackers
                            .iter()
                            .chain(&c.defenders)
                            .chain(&c.evaded)
                            .chain(&c.evade_queue)
                            .all(ok_h)
                }
                Frame::Losses { hexes, which, .. } => hexes.iter().all(ok_h) && *which < 2,
                Frame::Retreat(r) => r.units.iter().all(ok_u) && r.visited.iter().all(ok_h),
                Frame::Rout(r) => ok_u(&r.unit),
                Frame::Advance(a) => a.options.iter().all(|(x, y)| ok_h(x) && ok_h(y)),
                Frame::Evade { hex, .. } => ok_h(hex),
                Frame::NewArmyCommander { .. } => true,
                Frame::PlaceAide { commander, .. } => usize::from(*commander) < nc,
                Frame::Column { formation, .. } => usize::from(*formation) < nf,
            };
            if !fine {
                bad.push("a pending decision refers to unknown units, hexes or formations".into());
            }
        }
        if let Some(st) = &s.setup
            && (!st.units.iter().all(ok_u)
                || st.facing_for.as_ref().is_some_and(|u| !ok_u(u))
                || st.commanders.iter().any(|&c| usize::from(c) >= nc)
                || st.formations.iter().any(|&f| usize::from(f) >= nf))
        {
            bad.push("the set-up refers to unknown units".into());
        }
        bad
    }

    /// Invariants of a position (checked after every action in the playout tests).
    pub fn invariants(&self, s: &State) -> Vec<String> {
        let mut bad = Vec::new();
        let mut hexes: Vec<HexId> = s.units.iter().filter_map(|u| u.hex).collect();
        hexes.sort();
        hexes.dedup();
        let retreating: Vec<UnitIx> = s
            .frames
            .iter()
            .flat_map(|f| match f {
                Frame::Retreat(r) => r.units.clone(),
                Frame::Rout(r) => vec![r.unit],
                _ => Vec::new(),
            })
            .collect();
        for h in hexes {
            if !self.sc.map.contains(h) {
                bad.push(format!("unit off the map at {h}"));
            }
            let here = self.units_at(s, h);
            let sides: Vec<Side> = here.iter().map(|&u| self.side_of(u)).collect();
            if sides.iter().any(|&x| x != sides[0]) {
                bad.push(format!("two sides in {h}"));
            }
            let settled = here.iter().all(|u| !retreating.contains(u))
                && s.frames
                    .iter()
                    .all(|f| !matches!(f, Frame::Retreat(_) | Frame::Rout(_)));
            if settled
                && let Some(f) =
                    self.stacking_fault(h, &here, s, &|u| s.units[usize::from(u)].facing)
            {
                bad.push(format!(
                    "stacking limits broken in {h} ({f}): {:?}",
                    here.iter()
                        .map(|&u| format!("{} {:?}", self.uname(u), s.units[usize::from(u)].facing))
                        .collect::<Vec<_>>()
                ));
            }
        }
        for (i, us) in s.units.iter().enumerate() {
            let d = &self.sc.units[i];
            if us.hex.is_some() && us.lost >= d.steps {
                bad.push(format!("{} on the map with no steps left", d.name));
            }
            if us.has(flag::ROUTED) && us.has(flag::DISORG) {
                bad.push(format!("{} both routed and disorganised", d.name));
            }
            if us.has(flag::ROUTED)
                && (self.has_zoc(s, i as UnitIx) || !self.front_dirs(s, i as UnitIx).is_empty())
            {
                bad.push(format!("{} routed but has a ZoC or facing", d.name));
            }
        }
        if s.phase == Phase::Over && s.result.is_none() {
            bad.push("game over without a result".into());
        }
        if s.phase != Phase::Over && self.legal(s).is_empty() {
            bad.push(format!(
                "no legal action for the decider ({})",
                self.decision_text(s, Viewer::All)
            ));
        }
        bad
    }
}
