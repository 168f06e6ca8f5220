//! Rule knowledge for the agents of `crates/ai`: how good a position is (15, 13.1), a score for each
//! legal action (lines of battle 6.5/8.7, command radius 6.3, combat odds 10.2–10.3, objectives 15,
//! rally and retreat 11.2/12.4, cavalry reaction 8.6), and the determinisation that lets a search
//! play from one side's view only (3.6 hidden stacks, and the dice of the state re-seeded).
//!
//! Everything here reads the state; nothing changes the rules. The hooks are those of
//! [`engine::AgentHooks`].
use crate::Saxe;
use crate::action::Action;
use crate::event::{Hidden, Line};
use crate::query::Mover;
use crate::scenario::{Kind, Side, Terrain, UnitIx};
use crate::state::{ActTarget, Combat, Frame, GroupKind, Moving, Phase, Retreat, State, flag};
use engine::{AgentHooks, Dice, Seat};
use hexmap::{Arc, HexId, Vertex};

/// Distances beyond this are "no goal in reach": units that far from any goal stay where they are.
const FAR: f64 = 14.0;
/// Unreachable.
const INF: f64 = 1e9;

/// Per-hex distance (in movement points) to the nearest goal of one arm, row-major over the map.
struct Field {
    d: Vec<f64>,
}

/// What the scoring of one decision needs, computed once.
struct Ctx<'a> {
    r: &'a Saxe,
    s: &'a State,
    side: Side,
    inf: Option<std::rc::Rc<Field>>,
    cav: Option<std::rc::Rc<Field>>,
    /// Per map hex: combat points of enemy units whose ZoC reaches it (7, 10.1).
    zoc_cp: Vec<u32>,
    /// Per map hex: directions (bits of `Dir::index`) toward adjacent enemy combat units.
    enemy_dirs: Vec<u8>,
    /// Per map hex: combat points of the deciding side's stack there.
    own_cp: Vec<u32>,
}

impl Saxe {
    /// The first two victory places (15: Hastenbeck, then Afferde), in the order of
    /// `State::control`; an empty slice where a scenario has fewer.
    fn ai_objectives(&self) -> [&[HexId]; 2] {
        let get = |i: usize| {
            self.sc
                .objectives
                .get(i)
                .map(|o| o.hexes.as_slice())
                .unwrap_or(&[])
        };
        [get(0), get(1)]
    }

    /// The side that must take the objectives (15.2: the French; the other side holds them at the
    /// start).
    fn ai_attacker(&self) -> Side {
        self.sc.initial_control.other()
    }

    fn ai_is_objective(&self, h: HexId) -> bool {
        self.ai_objectives().iter().any(|o| o.contains(&h))
    }

    /// How far a formation is towards demoralisation (13.1): losses over the printed value, 1 once
    /// demoralised.
    fn ai_morale_progress(&self, s: &State, f: u8) -> f64 {
        if s.formations[usize::from(f)].demoralised {
            return 1.0;
        }
        let d = self.sc.formations[usize::from(f)].demoralisation.max(1);
        (f64::from(self.formation_losses(s, f)) / f64::from(d)).min(0.95)
    }

    /// The expected score of the French (win 1, draw 0.5, loss 0) from 15.1/15.2 and the progress
    /// towards them, read from the scenario's own victory conditions: Hastenbeck's (15.2) here,
    /// Fontenoy's and Lauffeld's (16.1, 16.2, 15.1) in [`Saxe::ai_fl_french_value`].
    pub fn ai_french_value(&self, s: &State) -> f64 {
        if let Some((w, _, _)) = &s.result {
            return match w {
                Some(Side::French) => 1.0,
                Some(Side::Allies) => 0.0,
                None => 0.5,
            };
        }
        if self.sc.objective_ix("fontenoy").is_some() || self.sc.objective_ix("lauffeld").is_some()
        {
            return self.ai_fl_french_value(s);
        }
        self.ai_hastenbeck_value(s)
    }

    /// [`AgentHooks::eval_terms`] at Hastenbeck: the terms of [`Saxe::ai_hastenbeck_value`] from
    /// the French side, and the value itself last (docs/ai.md, "An evaluation ranking sibling
    /// candidates"): French control of Hastenbeck and of Afferde (15.2); the Allied formations'
    /// progress toward demoralisation, worst, second worst and at the army's count (13.1, 13.3);
    /// the French ones' at the army's count, one before it and the worst; French troops in and next
    /// to Hastenbeck, Allied troops in and next to it; the attacker's distance to its goals (signed
    /// for the French); the 15.2 standing now (1, ½, 0), that times the share of turns gone cubed;
    /// control of Hastenbeck times the share of turns gone; the value.
    pub fn ai_hastenbeck_terms(&self, s: &State) -> Vec<f64> {
        let att = self.ai_attacker();
        let [fr, al] = self.ai_progress_by_side(s);
        let f_need = usize::from(self.sc.army_demoralisation[0]).clamp(1, 4);
        let a_need = usize::from(self.sc.army_demoralisation[1]).clamp(1, 4);
        let (inside, near) = self.ai_presence(s);
        let holds = |i: usize| f64::from(u8::from(s.control.get(i) == Some(&Side::French)));
        let fi = Side::French.ix();
        let ai = Side::Allies.ix();
        let closeness = self.ai_attacker_distance(s);
        let (now, t) = self.ai_standing_and_time(s);
        vec![
            holds(0),
            holds(1),
            al[0],
            al[1],
            al[a_need.saturating_sub(1).max(1)],
            fr[f_need - 1],
            fr[f_need.saturating_sub(2)],
            fr[0],
            inside[fi].min(4.0),
            near[fi].min(6.0),
            inside[ai].min(4.0),
            near[ai].min(6.0),
            if att == Side::French {
                closeness
            } else {
                -closeness
            },
            now,
            now * t * t * t,
            holds(0) * t,
            self.ai_hastenbeck_value(s),
        ]
    }

    /// Each side's formations by their progress toward demoralisation (13.1), worst first, at
    /// least four entries (0 beyond the side's formations).
    fn ai_progress_by_side(&self, s: &State) -> [Vec<f64>; 2] {
        let mut prog: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for (i, f) in self.sc.formations.iter().enumerate() {
            prog[f.side.ix()].push(self.ai_morale_progress(s, i as u8));
        }
        for p in prog.iter_mut() {
            p.sort_by(|a, b| b.total_cmp(a));
            p.resize(p.len().max(4), 0.0);
        }
        prog
    }

    /// Per side: combat units (not routed, not guns) in the first objective and next to it.
    fn ai_presence(&self, s: &State) -> ([f64; 2], [f64; 2]) {
        let key = self.ai_objectives()[0];
        let mut near = [0.0f64; 2];
        let mut inside = [0.0f64; 2];
        for (i, us) in s.units.iter().enumerate() {
            let u = i as UnitIx;
            let Some(h) = us.hex else { continue };
            if us.has(flag::ROUTED) || self.kind(u).is_guns() {
                continue;
            }
            let sd = self.side_of(u).ix();
            if key.contains(&h) {
                inside[sd] += 1.0;
            } else if key.iter().any(|&o| o.distance(h) <= 1) {
                near[sd] += 1.0;
            }
        }
        (inside, near)
    }

    /// How far the attacker's infantry stands from its goals (objectives and contact): its mean
    /// goal distance over [`FAR`], times 0.8 — so that a search sees an advance before its combat.
    fn ai_attacker_distance(&self, s: &State) -> f64 {
        let att = self.ai_attacker();
        let field = goal_field(self, s, att, false);
        let mut dsum = 0.0;
        let mut n = 0.0;
        for (i, us) in s.units.iter().enumerate() {
            let u = i as UnitIx;
            let Some(h) = us.hex else { continue };
            if self.side_of(u) != att || us.has(flag::ROUTED) || !self.kind(u).is_infantry() {
                continue;
            }
            if let Some(ix) = self.sc.map.index(h) {
                dsum += field.d[ix].min(FAR);
                n += 1.0;
            }
        }
        if n > 0.0 { 0.8 * (dsum / n) / FAR } else { 0.0 }
    }

    /// The French result of 15.2 "if the game ended now" (1, ½, 0), and the share of the turns
    /// gone (0 at the start of the first turn, 1 at the last).
    fn ai_standing_and_time(&self, s: &State) -> (f64, f64) {
        let (w, _) = self.standing(s);
        let now = match w {
            Some(Side::French) => 1.0,
            Some(Side::Allies) => 0.0,
            None => 0.5,
        };
        let turns = f64::from(self.sc.turns.max(1));
        let t =
            ((f64::from(s.turn) - 1.0 + if s.second { 0.5 } else { 0.0 }) / turns).clamp(0.0, 1.0);
        (now, t)
    }

    /// The shaped estimate leans on the standing of 15.2 "if the game ended now" as the last turn
    /// nears.
    fn ai_lean_on_standing(&self, s: &State, shaped: f64) -> f64 {
        let (now, t) = self.ai_standing_and_time(s);
        let k = t * t * t;
        (1.0 - k) * shaped + k * (0.6 * now + 0.4 * shaped)
    }

    /// Hastenbeck (15.2): a logistic of control of Hastenbeck and Afferde, formation losses against
    /// their demoralisation values (13.1, 13.3), troops at the objectives, and the turns left.
    fn ai_hastenbeck_value(&self, s: &State) -> f64 {
        let att = self.ai_attacker();
        let [fr, al] = self.ai_progress_by_side(s);
        // 13.3: the army breaks at its count of demoralised formations.
        let f_need = usize::from(self.sc.army_demoralisation[0]).clamp(1, 4);
        let a_need = usize::from(self.sc.army_demoralisation[1]).clamp(1, 4);
        let (inside, near) = self.ai_presence(s);
        let holds = |i: usize| s.control.get(i) == Some(&Side::French);
        let mut x = -2.4;
        x += if holds(0) { 2.4 } else { 0.0 };
        x += if holds(1) { 0.6 } else { 0.0 };
        x += 2.4 * al[0] + 1.0 * al[1] + 0.6 * al[a_need.saturating_sub(1).max(1)];
        x -= 2.6 * fr[f_need - 1] + 0.9 * fr[f_need.saturating_sub(2)] + 0.3 * fr[0];
        let fi = Side::French.ix();
        let ai = Side::Allies.ix();
        x += 0.35 * inside[fi].min(4.0) + 0.12 * near[fi].min(6.0);
        x -= 0.35 * inside[ai].min(4.0) + 0.05 * near[ai].min(6.0);
        let closeness = self.ai_attacker_distance(s);
        x -= if att == Side::French {
            closeness
        } else {
            -closeness
        };
        self.ai_lean_on_standing(s, 1.0 / (1.0 + (-x).exp()))
    }

    /// Fontenoy and Lauffeld (16.1, 16.2, 15.1): the chance of each side's victory as their
    /// conditions state it, from the chance that the attacker holds each objective at the end and
    /// the chance that each army has its count of demoralised formations (13.1, 13.3), less the
    /// risk to Louis XV and Cumberland (15.1: either one killed ends the game).
    ///
    /// - Fontenoy (16.1; the Allies attack): the Allies win holding Fontenoy with two French
    ///   formations demoralised, or Fontenoy and the pontoon bridge with the French army
    ///   demoralised, their own army not; the French win holding Fontenoy with an Allied
    ///   formation demoralised and their army not; anything else is forfeited.
    /// - Lauffeld (16.2; the French attack): the French win holding Lauffeld with their army not
    ///   demoralised (a brilliant victory also needs the Allied army demoralised, and with 17.2
    ///   option 2 Vlitingen: the same score); the Allies win when the French army is demoralised
    ///   and theirs is not.
    pub fn ai_fl_french_value(&self, s: &State) -> f64 {
        let att = self.ai_attacker();
        let (a, d) = (att.ix(), att.other().ix());
        let prog = self.ai_progress_by_side(s);
        let (fr, al) = (&prog[Side::French.ix()], &prog[Side::Allies.ix()]);
        let need = |side: Side| usize::from(self.sc.army_demoralisation[side.ix()]).clamp(1, 4);
        // P(at least k formations demoralised) ≈ the progress of the k-th worst.
        let f_army = fr[need(Side::French) - 1];
        let a_army = al[need(Side::Allies) - 1];
        let (inside, near) = self.ai_presence(s);
        let distance = self.ai_attacker_distance(s);
        // The attacker's hold on objective i at the end: held now, troops in and around the first
        // objective, the attacker's distance to its goals, and how battered each army is.
        let hold = |i: usize| -> f64 {
            let mut x = if s.control.get(i) == Some(&att) {
                1.2
            } else {
                -1.2
            };
            if i == 0 {
                x += 0.35 * inside[a].min(4.0) + 0.12 * near[a].min(6.0);
                x -= 0.35 * inside[d].min(4.0) + 0.05 * near[d].min(6.0);
                x -= distance;
                x += 0.8 * prog[d][0] - 0.8 * prog[a][0];
            }
            1.0 / (1.0 + (-x).exp())
        };
        let (french, allies) = if self.sc.objective_ix("fontenoy").is_some() {
            // The Allies attack Fontenoy (objective 0) and the pontoon bridge (objective 1).
            let fontenoy = hold(0);
            let pontoon = self.sc.objective_ix("pontoon").map(hold).unwrap_or(0.0);
            let allies = fontenoy * (1.0 - a_army) * (pontoon * f_army).max(fr[1]);
            let french = (1.0 - fontenoy) * (1.0 - f_army) * al[0];
            (french, allies)
        } else {
            let lauffeld = hold(0);
            (lauffeld * (1.0 - f_army), f_army * (1.0 - a_army))
        };
        let mut v = french + 0.5 * (1.0 - french - allies);
        // 15.1: Louis XV or Cumberland next to an enemy combat unit may die in its combat.
        let [king, duke] = self.ai_commanders_at_risk(s);
        v = (1.0 - king - duke) * v + duke;
        self.ai_lean_on_standing(s, v.clamp(0.0, 1.0))
    }

    /// 15.1: the chance, roughly, that Louis XV (French) and the Allied army commander (Allies) die
    /// soon: 0.06 each while an enemy combat unit stands within one hex.
    fn ai_commanders_at_risk(&self, s: &State) -> [f64; 2] {
        let mut risk = [0.0; 2];
        for (i, c) in self.sc.commanders.iter().enumerate() {
            let slot = if c.king {
                0
            } else if c.army && c.side == Side::Allies && s.commanders[i].army {
                1
            } else {
                continue;
            };
            let Some(h) = s.commanders[i].hex else {
                continue;
            };
            let threatened = std::iter::once(h)
                .chain(h.neighbours().map(|(_, nb)| nb))
                .any(|nb| {
                    self.combat_units_at(s, nb)
                        .iter()
                        .any(|&u| self.side_of(u) != c.side && !self.has(s, u, flag::ROUTED))
                });
            if threatened {
                risk[slot] = 0.06;
            }
        }
        risk
    }

    /// [`AgentHooks::evaluate`] for a side.
    pub fn ai_evaluate(&self, s: &State, side: Side) -> f64 {
        let f = self.ai_french_value(s);
        match side {
            Side::French => f,
            Side::Allies => 1.0 - f,
        }
    }

    /// The units a side may not identify (3.6): every unit under the top counter of an enemy stack.
    pub fn ai_hidden_units(&self, s: &State, side: Side) -> Vec<UnitIx> {
        let mut out = Vec::new();
        for h in self.occupied_hexes(s, side.other()) {
            let here = self.units_at(s, h);
            if here.len() < 2 {
                continue;
            }
            // As text.rs: guns are on top (3.5.3), else the first unit.
            let top = here
                .iter()
                .copied()
                .find(|&u| self.kind(u).is_guns())
                .unwrap_or(here[0]);
            out.extend(here.into_iter().filter(|&u| u != top));
        }
        out
    }

    /// [`AgentHooks::determinize`]: the dice re-seeded (the future is unknown), and the hidden enemy
    /// units (3.6) re-dealt among the hidden places of their arm, keeping what the side sees (the
    /// top counters, the number of units in each stack, their facing) and the stacking rules (3.1).
    /// Units named in a pending procedure stay where they are.
    pub fn ai_determinize(&self, s: &State, side: Side, seed: u64) -> State {
        let mut t = s.clone();
        t.dice = Dice::new(seed);
        let mut rng = Dice::new(seed ^ 0x5eed_d1ce_0bad_cafe);
        let pinned = frame_units(s);
        let hidden: Vec<UnitIx> = self
            .ai_hidden_units(s, side)
            .into_iter()
            .filter(|u| !pinned.contains(u))
            .collect();
        for arm in [0u8, 1] {
            let group: Vec<UnitIx> = hidden
                .iter()
                .copied()
                .filter(|&u| u8::from(self.kind(u).is_cavalry()) == arm)
                .collect();
            if group.len() < 2 {
                continue;
            }
            let slots: Vec<(Option<HexId>, Vertex, u8)> = group
                .iter()
                .map(|&u| {
                    let us = &s.units[usize::from(u)];
                    (us.hex, us.facing, us.order)
                })
                .collect();
            let mut perm: Vec<usize> = (0..group.len()).collect();
            for i in (1..perm.len()).rev() {
                let j = rng.below(i + 1);
                perm.swap(i, j);
            }
            for (k, &u) in group.iter().enumerate() {
                let (hex, facing, order) = slots[perm[k]];
                let us = &mut t.units[usize::from(u)];
                us.hex = hex;
                us.facing = facing;
                us.order = order;
            }
        }
        // A re-deal that breaks a stacking rule (3.1: grenadiers in villages) is not a possible
        // world: keep the real places then.
        let mut hexes: Vec<HexId> = hidden
            .iter()
            .filter_map(|&u| t.units[usize::from(u)].hex)
            .collect();
        hexes.sort();
        hexes.dedup();
        if hexes
            .iter()
            .any(|&h| !self.stacking_ok(h, &self.units_at(&t, h), &t))
        {
            for &u in &hidden {
                let us = &s.units[usize::from(u)];
                let ts = &mut t.units[usize::from(u)];
                ts.hex = us.hex;
                ts.facing = us.facing;
                ts.order = us.order;
            }
        }
        t
    }

    /// [`AgentHooks::action_scores`].
    pub fn ai_scores(&self, s: &State, actions: &[Action]) -> Vec<f64> {
        let Some(side) = self.decider_side(s) else {
            return vec![0.0; actions.len()];
        };
        let mut cx = Ctx::new(self, s, side);
        actions.iter().map(|a| cx.score(a)).collect()
    }

    /// Whether a search should look at this decision (the plan of an activation, an attack, an
    /// advance, a reaction) rather than leave it to the heuristic (the hexes of a move, losses,
    /// retreat paths).
    pub fn ai_worth_searching(&self, s: &State, actions: &[Action]) -> bool {
        if actions.len() < 2 {
            return false;
        }
        match s.frames.last() {
            None => matches!(s.phase, Phase::ChooseActivation | Phase::Combat),
            Some(Frame::Activation(a)) => {
                a.actions_left > 0
                    && actions.iter().any(|x| {
                        matches!(
                            x,
                            Action::MoveUnit { .. }
                                | Action::MoveStack { .. }
                                | Action::MoveLine { .. }
                        )
                    })
                    && {
                        // Leave the commander's and the guns' details to the heuristic.
                        let sc = self.ai_scores(s, actions);
                        let best = argmax(&sc);
                        matches!(
                            actions[best],
                            Action::MoveUnit { .. }
                                | Action::MoveStack { .. }
                                | Action::MoveLine { .. }
                                | Action::EndActivation
                        )
                    }
            }
            Some(Frame::Advance(_)) | Some(Frame::Evade { .. }) => true,
            Some(Frame::Reaction(_)) => actions.iter().any(|x| {
                matches!(
                    x,
                    Action::CavalryReaction { .. } | Action::CavalryLineReaction { .. }
                )
            }),
            Some(_) => false,
        }
    }

    /// [`AgentHooks::intent`]: what an action means, for the log.
    pub fn ai_intent(&self, s: &State, a: &Action) -> Option<Line> {
        let side = self.decider_side(s)?;
        // 3.6: the agent's explanation is read by its opponent too: how many units it moves is
        // its own.
        let own = Hidden::but_from(side);
        let who = |f: Option<u8>| -> String {
            match f {
                Some(f) => self.cname(self.formation_commander(f)).to_string(),
                None => side.name().to_string(),
            }
        };
        // The scenario's own objectives by their names on the map (15, 16.1, 16.2).
        let goal_name = |h: HexId| -> String {
            self.sc
                .objectives
                .iter()
                .find(|o| o.hexes.iter().any(|&x| x.distance(h) <= 2))
                .map(|o| o.name.clone())
                .unwrap_or_else(|| format!("{h}"))
        };
        match a {
            Action::Activate { formation } | Action::ActivateAuto { formation } => {
                let n = self.formation_units(s, *formation).len();
                Some(
                    Line::new()
                        .t(format!("{}: activates", who(Some(*formation))))
                        .private(own, format!(" ({n} units)"))
                        .t(if matches!(a, Action::ActivateAuto { .. }) {
                            ", automatically (16.1)"
                        } else {
                            ""
                        }),
                )
            }
            Action::MoveLine { unit } | Action::MoveUnit { unit, .. } => {
                let f = self.sc.units[usize::from(*unit)].formation;
                let n = match a {
                    Action::MoveLine { .. } => {
                        let pool = self.formation_units(s, f.unwrap_or(0));
                        let line = self.line_of(s, *unit, &pool);
                        line.len()
                    }
                    _ => 1,
                };
                let h = s.units[usize::from(*unit)].hex?;
                let target = self.ai_goal_near(s, side, h);
                let mut line = Line::new().t(format!("{}: moves ", who(f)));
                if n > 1 {
                    line = line
                        .t("the line of ")
                        .units(self.named(s, &[*unit]))
                        .private(own, format!(" ({n} units)"));
                } else {
                    line = line.units(self.named(s, &[*unit]));
                }
                Some(line.t(format!(
                    " toward {}",
                    target.map(goal_name).unwrap_or_else(|| "the enemy".into())
                )))
            }
            Action::MoveStack { hex, .. } => {
                let top = self.combat_units_at(s, *hex).first().copied()?;
                let f = self.sc.units[usize::from(top)].formation;
                let target = self.ai_goal_near(s, side, *hex);
                Some(
                    Line::new()
                        .t(format!("{}: moves the stack of ", who(f)))
                        .units(self.named(s, &[top]))
                        .t(format!(
                            " toward {}",
                            target.map(goal_name).unwrap_or_else(|| "the enemy".into())
                        )),
                )
            }
            Action::EndActivation => match s.frames.last() {
                Some(Frame::Activation(act)) if act.actions_left > 0 => {
                    let f = match act.target {
                        ActTarget::Formation(f) => Some(f),
                        ActTarget::Independent(_) => None,
                    };
                    Some(format!("{}: holds its ground", who(f)).into())
                }
                _ => None,
            },
            Action::Attack {
                attackers,
                defenders,
            } => {
                let c = self.ai_combat(s, attackers, defenders);
                let (drm, _) = self.combat_modifiers(s, &c);
                let att_cp: u32 = c.att_units.iter().map(|&u| self.cp(s, u)).sum();
                let def_cp: u32 = c.def_units.iter().map(|&u| self.cp(s, u)).sum();
                let f = c
                    .att_units
                    .first()
                    .and_then(|&u| self.sc.units[usize::from(u)].formation);
                let tops: Vec<UnitIx> = defenders
                    .iter()
                    .filter_map(|&h| self.top_counter(s, h))
                    .collect();
                let secret = self
                    .hidden_any(s, &c.att_units)
                    .or(self.hidden_any(s, &c.def_units));
                Some(
                    Line::new()
                        .t(format!("{}: attacks ", who(f)))
                        .units(self.named(s, &tops))
                        .t(format!(" near {}", goal_name(defenders[0])))
                        .private(
                            secret,
                            format!(
                                " with {} units, {att_cp} against {def_cp} CP",
                                c.att_units.len()
                            ),
                        )
                        .t(format!(", {drm:+} on the die")),
                )
            }
            Action::EndCombat => {
                Some(format!("{}: no further attack at these odds", side.name()).into())
            }
            Action::Advance { to, .. } => Some(
                format!(
                    "{}: advances into {to}{}",
                    side.name(),
                    if self.ai_is_objective(*to) {
                        " to hold the objective"
                    } else {
                        ""
                    }
                )
                .into(),
            ),
            Action::CavalryReaction { unit } | Action::CavalryLineReaction { unit } => Some(
                Line::new()
                    .t(format!("{}: ", side.name()))
                    .units(self.named(s, &[*unit]))
                    .verb(" charges", " charge")
                    .t(" the enemy that came near (8.6)"),
            ),
            _ => None,
        }
    }

    /// The nearest goal (objective or enemy) a unit at `h` heads for, for explanations.
    fn ai_goal_near(&self, s: &State, side: Side, h: HexId) -> Option<HexId> {
        let mut best: Option<(u32, HexId)> = None;
        let mut consider = |g: HexId| {
            let d = g.distance(h);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, g));
            }
        };
        if side == self.ai_attacker() {
            for &o in self.ai_objectives()[0] {
                consider(o);
            }
        }
        for g in self.occupied_hexes(s, side.other()) {
            consider(g);
        }
        best.map(|(_, g)| g)
    }

    /// A combat as `declare_attack` would set it up, without declaring it (10.1).
    fn ai_combat(&self, s: &State, attackers: &[HexId], defenders: &[HexId]) -> Combat {
        Combat {
            attackers: attackers.to_vec(),
            defenders: defenders.to_vec(),
            att_units: attackers
                .iter()
                .flat_map(|&h| self.combat_units_at(s, h))
                .collect(),
            def_units: defenders
                .iter()
                .flat_map(|&h| self.combat_units_at(s, h))
                .collect(),
            stage: 0,
            result: None,
            losses_left: [0, 0],
            lost_steps: Vec::new(),
            lost_hexes: Vec::new(),
            evaded: Vec::new(),
            evade_queue: Vec::new(),
            disorg_cav_before: Vec::new(),
        }
    }

    /// The expected value of an attack for the attacker (10.2, 10.3, CRT, 11.1): what the defender
    /// is expected to suffer less what the attacker is, in steps (a morale test counts by its chance
    /// to disorganise, a disorganised unit's disorganisation as a rout).
    pub fn ai_attack_value(&self, s: &State, attackers: &[HexId], defenders: &[HexId]) -> f64 {
        let c = self.ai_combat(s, attackers, defenders);
        let (drm, _) = self.combat_modifiers(s, &c);
        // 11.2: whether the units of these hexes would have nowhere to retreat.
        let trapped = |units: &[UnitIx], hexes: &[HexId]| -> bool {
            hexes.iter().any(|&h| {
                let here: Vec<UnitIx> = units
                    .iter()
                    .copied()
                    .filter(|&u| {
                        s.units[usize::from(u)].hex == Some(h)
                            && !self.kind(u).is_guns()
                            && !self.has(s, u, flag::ROUTED)
                    })
                    .collect();
                let Some(&u) = here.first() else {
                    return false;
                };
                let r = Retreat {
                    side: self.side_of(u),
                    units: here,
                    left: 1,
                    visited: vec![h],
                    evasion: false,
                };
                self.retreat_options(s, &r).is_empty()
            })
        };
        let def_trapped = trapped(&c.def_units, defenders);
        let att_trapped = trapped(&c.att_units, attackers);
        let harm = |o: &crate::scenario::Outcome,
                    units: &[UnitIx],
                    hexes: &[HexId],
                    trapped: bool|
         -> f64 {
            let mut v = 0.0;
            let disorg = units.iter().any(|&u| self.has(s, u, flag::DISORG));
            // The morale of the top unit (12.1), a commander -1.
            let morale = hexes
                .iter()
                .filter_map(|&h| self.combat_units_at(s, h).first().copied())
                .map(|u| self.morale(s, u))
                .max()
                .unwrap_or(4);
            let cmd = hexes.iter().any(|&h| !self.commanders_at(s, h).is_empty());
            let dis_cost = if disorg { 1.6 } else { 0.45 };
            if o.eliminate {
                v += 4.0;
            }
            v += f64::from(o.steps) * 1.0;
            if o.disorganise {
                v += dis_cost;
            }
            if let Some(m) = o.tm {
                let need = morale - i32::from(m) - i32::from(cmd);
                let fail = (f64::from(6 - need.clamp(0, 6))) / 6.0;
                v += fail * dis_cost;
            }
            if o.retreat > 0 {
                v += if trapped {
                    // 11.2: a unit that cannot retreat is eliminated.
                    units
                        .iter()
                        .map(|&u| {
                            let left = i32::from(self.sc.units[usize::from(u)].steps)
                                - i32::from(s.units[usize::from(u)].lost);
                            f64::from(left.max(0))
                        })
                        .sum::<f64>()
                } else {
                    0.2 * f64::from(o.retreat)
                };
            }
            if o.star
                && units
                    .iter()
                    .any(|&u| self.kind(u).is_cavalry() && self.has(s, u, flag::DISORG))
            {
                v += 2.0;
            }
            v
        };
        let mut total = 0.0;
        for die in 1..=6 {
            let (_, ao, dout) = self.sc.tables.crt(die + drm);
            total += harm(&dout, &c.def_units, defenders, def_trapped)
                - 1.1 * harm(&ao, &c.att_units, attackers, att_trapped);
        }
        // 12.3: routed defenders are eliminated as soon as they are attacked: their remaining
        // steps are lost (13.1 counts each step of an eliminated unit).
        let routed: f64 = c
            .def_units
            .iter()
            .filter(|&&u| self.has(s, u, flag::ROUTED))
            .map(|&u| {
                let left = i32::from(self.sc.units[usize::from(u)].steps)
                    - i32::from(s.units[usize::from(u)].lost);
                f64::from(left.max(1))
            })
            .sum();
        total / 6.0 + routed
    }
}

/// Units named by a pending procedure (they must stay as they are in a determinisation).
fn frame_units(s: &State) -> Vec<UnitIx> {
    let mut v = Vec::new();
    for f in &s.frames {
        match f {
            Frame::Activation(a) => {
                v.extend(a.commanded.iter().copied());
                if let ActTarget::Independent(u) = a.target {
                    v.push(u);
                }
            }
            Frame::Moving(m) => {
                v.extend(m.units.iter().copied());
                v.extend(m.target);
            }
            Frame::Reaction(r) => v.extend(r.movers.iter().map(|m| m.0)),
            Frame::Combat(c) => {
                v.extend(c.att_units.iter().copied());
                v.extend(c.def_units.iter().copied());
            }
            Frame::Retreat(r) => v.extend(r.units.iter().copied()),
            Frame::Rout(r) => v.push(r.unit),
            Frame::Losses { .. }
            | Frame::Advance(_)
            | Frame::Evade { .. }
            | Frame::NewArmyCommander { .. }
            | Frame::Column { .. }
            | Frame::PlaceAide { .. } => {}
        }
    }
    v
}

/// Whether the pending activation succeeded (`None`: no activation pending). 5.3: a failed one
/// moves one unit or stack at half its MP.
fn s_activation(s: &State) -> Option<bool> {
    s.frames.iter().rev().find_map(|f| match f {
        Frame::Activation(a) => Some(a.success),
        _ => None,
    })
}

fn argmax(v: &[f64]) -> usize {
    let mut b = 0;
    for (i, x) in v.iter().enumerate() {
        if *x > v[b] {
            b = i;
        }
    }
    b
}

impl<'a> Ctx<'a> {
    fn new(r: &'a Saxe, s: &'a State, side: Side) -> Self {
        let map = &r.sc.map;
        let n = map.len();
        let mut zoc_cp = vec![0u32; n];
        let mut enemy_dirs = vec![0u8; n];
        let mut own_cp = vec![0u32; n];
        for (i, us) in s.units.iter().enumerate() {
            let x = i as UnitIx;
            let Some(h) = us.hex else { continue };
            if r.side_of(x) == side {
                if let Some(ix) = map.index(h) {
                    own_cp[ix] += r.cp(s, x);
                }
                continue;
            }
            if us.has(flag::ROUTED) || r.kind(x).is_guns() {
                continue;
            }
            let cp = r.cp(s, x);
            for (_, nb) in h.neighbours() {
                let Some(ix) = map.index(nb) else { continue };
                if r.zoc_reaches(s, x, nb) {
                    zoc_cp[ix] += cp;
                }
                if let Some(d) = nb.direction_to(h) {
                    enemy_dirs[ix] |= 1 << d.index();
                }
            }
        }
        Ctx {
            r,
            s,
            side,
            inf: None,
            cav: None,
            zoc_cp,
            enemy_dirs,
            own_cp,
        }
    }

    fn at(v: &[u32], map: &crate::scenario::Map, h: HexId) -> u32 {
        map.index(h).map(|i| v[i]).unwrap_or(0)
    }

    /// The goal field of an arm of the deciding side, computed on first use.
    fn field(&mut self, cavalry: bool) -> &Field {
        let slot = if cavalry {
            &mut self.cav
        } else {
            &mut self.inf
        };
        if slot.is_none() {
            *slot = Some(goal_field(self.r, self.s, self.side, cavalry));
        }
        // invariant: just filled
        slot.as_ref().expect("field computed above")
    }

    fn dist(&mut self, u: UnitIx, h: HexId) -> f64 {
        let cav = self.r.kind(u).is_cavalry();
        let map = &self.r.sc.map;
        let i = map.index(h);
        let f = self.field(cav);
        i.map(|i| f.d[i]).unwrap_or(INF)
    }

    /// How good it is for unit `u` to stand at `h` facing `f`: near its goal (capped at FAR, so
    /// units with nothing in reach stay), facing it (movement is through front hexes, 8.1), in
    /// command (6.3), not outmatched in an enemy's front.
    fn potential(&mut self, u: UnitIx, h: HexId, f: Vertex) -> f64 {
        let r = self.r;
        let s = self.s;
        let d = self.dist(u, h).min(FAR);
        let mut p = -d;
        if d > 0.0 && d < FAR && !r.kind(u).is_light() {
            let here = d;
            let mut ok = false;
            for dir in f.front() {
                if let Some(n) = h.neighbour(dir)
                    && self.dist(u, n) < here
                {
                    ok = true;
                }
            }
            if !ok {
                p -= 0.6;
            }
        }
        if r.ai_is_objective(h) && r.kind(u).is_infantry() {
            p += 1.0;
        }
        // 6.3: a unit beyond its commander's radius is out of command next time.
        if let Some(form) = r.sc.units[usize::from(u)].formation {
            let c = r.formation_commander(form);
            if let Some(ch) = s.commanders[usize::from(c)].hex {
                let radius = u32::from(r.sc.commanders[usize::from(c)].radius);
                let reach = radius + 2;
                if ch.distance(h) > reach {
                    p -= 0.8 + 0.3 * f64::from(ch.distance(h) - reach);
                }
            }
        }
        // In the front of enemies: compare strength (10.2) and the flank (10.3).
        let map = &r.sc.map;
        let mine = s.units[usize::from(u)]
            .hex
            .map(|uh| Self::at(&self.own_cp, map, uh))
            .unwrap_or(0)
            .max(r.cp(s, u));
        let theirs = Self::at(&self.zoc_cp, map, h);
        let dirs = map.index(h).map(|i| self.enemy_dirs[i]).unwrap_or(0);
        let exposed = !r.kind(u).is_light()
            && hexmap::Dir::ALL
                .iter()
                .any(|d| dirs & (1 << d.index()) != 0 && f.arc_of_dir(*d) != Arc::Front);
        if theirs > 0 {
            let ratio = f64::from(mine) / f64::from(theirs);
            if ratio < 0.7 {
                p -= 1.5;
            } else if ratio < 1.0 {
                p -= 0.5;
            }
        }
        if exposed {
            p -= 1.2;
        }
        p
    }

    fn unit_state(&self, u: UnitIx) -> (Option<HexId>, Vertex) {
        let us = &self.s.units[usize::from(u)];
        (us.hex, us.facing)
    }

    /// The best gain a group could make by moving now (for choosing what to move, 4.B1 3a–3c).
    fn group_gain(&mut self, units: &[UnitIx]) -> f64 {
        let mut g = 0.0;
        for &u in units {
            if self.r.kind(u).is_guns() {
                continue;
            }
            let (Some(h), f) = self.unit_state(u) else {
                continue;
            };
            let d = self.dist(u, h);
            if d <= 0.0 || d >= FAR {
                continue;
            }
            let mp = f64::from(self.r.sc.units[usize::from(u)].mp);
            let mut facing_ok = self.r.kind(u).is_light();
            for dir in f.front() {
                if let Some(n) = h.neighbour(dir)
                    && self.dist(u, n) < d
                {
                    facing_ok = true;
                }
            }
            // Units already in an enemy ZoC cannot advance (7.1).
            if Self::at(&self.zoc_cp, &self.r.sc.map, h) > 0 {
                continue;
            }
            let reach = d.min(mp);
            g += if facing_ok { reach } else { 0.4 * reach };
        }
        g
    }

    fn score(&mut self, a: &Action) -> f64 {
        let r = self.r;
        let s = self.s;
        let side = self.side;
        let enemy = side.other();
        match a {
            // ---- phase decisions
            Action::Activate { formation } | Action::ActivateAuto { formation } => {
                let units = r.formation_units(s, *formation);
                let g = self.group_gain(&units);
                let auto = matches!(a, Action::ActivateAuto { .. });
                // 16.1: the automatic activation goes to the formation with most to do.
                1.0 + 0.05 * g + if auto { 0.5 + 0.1 * g } else { 0.0 }
            }
            Action::ActivateIndependent { unit } => 0.8 + 0.05 * self.group_gain(&[*unit]),
            Action::RedoubtFire { target, .. } | Action::ArtilleryFire { target, .. } => {
                1.0 + 0.05
                    * r.combat_units_at(s, *target)
                        .iter()
                        .map(|&x| r.cp(s, x) as f64)
                        .sum::<f64>()
            }
            Action::EndRedoubtFire => 0.0,
            Action::ArtilleryFace { .. } => -0.3,
            Action::CommanderStep { commander, to, .. } => {
                // 6.3: stand where the formation's units are all within the radius, with its
                // leading units (10.3: +1 in combat, 12.1: -1 to morale tests).
                let Some(f) = r.sc.commanders[usize::from(*commander)].formation else {
                    return -0.5;
                };
                let Some(from) = s.commanders[usize::from(*commander)].hex else {
                    return -0.5;
                };
                let units = r.formation_units(s, f);
                let radius = u32::from(r.sc.commanders[usize::from(*commander)].radius);
                let cost = |h: HexId| -> f64 {
                    let mut c = 0.0;
                    for &u in &units {
                        if let Some(uh) = s.units[usize::from(u)].hex {
                            let d = uh.distance(h);
                            c += f64::from(d.saturating_sub(radius.saturating_sub(1))) * 1.0
                                + 0.05 * f64::from(d);
                        }
                    }
                    // Alone is dangerous (3.2): prefer a friendly stack.
                    if r.side_at(s, h) != Some(side) {
                        c += 0.3;
                    }
                    c
                };
                // Lead toward the goal (6.3: the radius must cover the units after they move).
                let lead = |cx: &mut Self, h: HexId| -> f64 {
                    let i = r.sc.map.index(h);
                    let f = cx.field(false);
                    i.map(|i| f.d[i].min(FAR)).unwrap_or(FAR)
                };
                let g = 0.4 * (lead(self, from) - lead(self, *to));
                0.3 * (cost(from) - cost(*to)) + g - 0.08
            }
            Action::MoveUnit {
                unit,
                with_commander,
            } => {
                self.plan_value(&[*unit], GroupKind::Unit) - 0.2
                    + if *with_commander { 0.05 } else { 0.0 }
            }
            Action::MoveStack {
                hex,
                with_commander,
            } => {
                let units: Vec<UnitIx> = r
                    .units_at(s, *hex)
                    .into_iter()
                    .filter(|&u| r.side_of(u) == side)
                    .collect();
                self.plan_value(&units, GroupKind::Stack) - 0.2
                    + if *with_commander { 0.05 } else { 0.0 }
            }
            Action::MoveLine { unit } => {
                let pool = match s.frames.last() {
                    Some(Frame::Activation(act)) => act.commanded.clone(),
                    _ => Vec::new(),
                };
                let line = r.line_of(s, *unit, &pool);
                self.plan_value(&line, GroupKind::Line) - 0.2
            }
            Action::TurnInPlace { unit, clockwise } => {
                let (Some(h), f) = self.unit_state(*unit) else {
                    return -1.0;
                };
                let nf = f.turned(if *clockwise { 1 } else { -1 });
                self.potential(*unit, h, nf) - self.potential(*unit, h, f) - 0.15
            }
            Action::IndependentColumn { .. } => -1.0,
            Action::EndActivation => 0.0,
            // ---- a group moving (8, 8.7)
            Action::Step { dir } => {
                let Some(Frame::Moving(m)) = s.frames.last() else {
                    return 0.0;
                };
                let m = m.clone();
                self.step_value(&m, Some(*dir))
            }
            Action::Turn { clockwise } => {
                let Some(Frame::Moving(m)) = s.frames.last() else {
                    return 0.0;
                };
                let m = m.clone();
                let mut v = -0.1;
                for &u in &m.units {
                    let (Some(h), f) = self.unit_state(u) else {
                        continue;
                    };
                    if r.kind(u).is_guns() {
                        continue;
                    }
                    let nf = f.turned(if *clockwise { 1 } else { -1 });
                    v += self.potential(u, h, nf) - self.potential(u, h, f);
                }
                if r.in_zoc_of(
                    s,
                    s.units[usize::from(m.units[0])]
                        .hex
                        .unwrap_or(HexId::new(0, 0)),
                    enemy,
                ) {
                    v -= 0.5; // 8.3: a morale test
                }
                v
            }
            Action::AboutFace => -0.6,
            Action::ChangeOrder => -1.0,
            Action::Drop { unit } => {
                let Some(Frame::Moving(m)) = s.frames.last() else {
                    return -1.0;
                };
                let mut m2 = m.clone();
                if let Some(i) = m2.units.iter().position(|x| x == unit) {
                    m2.units.remove(i);
                    m2.mp.remove(i);
                }
                if m2.units.is_empty() {
                    return -1.0;
                }
                let now = self.best_step(&m.clone());
                let after = self.best_step(&m2);
                if after > now + 0.5 {
                    after - now - 0.6
                } else {
                    -1.0
                }
            }
            Action::Pivot { .. } => -0.4,
            Action::LeaveZoc { .. } => {
                // 8.4: fall back when outmatched.
                let Some(Frame::Moving(m)) = s.frames.last() else {
                    return -1.0;
                };
                let u = m.units[0];
                let (Some(h), f) = self.unit_state(u) else {
                    return -1.0;
                };
                let p = self.potential(u, h, f);
                if p < -FAR - 1.0 { 0.1 } else { -0.5 }
            }
            Action::Stop => 0.0,
            // ---- the inactive player (8.6, 9.3)
            Action::ReactionFire { target, .. } => {
                // 9.5: guns alone are not hurt by fire; only combat units are worth a shot.
                // 9.3: aimed at the hex entered, everything there is hit; aimed at the hex left,
                // only the units that moved out of it.
                let movers: Vec<(UnitIx, HexId, HexId)> = match s.frames.last() {
                    Some(Frame::Reaction(re)) => re.movers.clone(),
                    _ => Vec::new(),
                };
                let entered = movers.iter().any(|m| m.2 == *target);
                let cp: f64 = if entered {
                    r.combat_units_at(s, *target)
                        .iter()
                        .filter(|&&x| r.side_of(x) == enemy)
                        .map(|&x| r.cp(s, x) as f64)
                        .sum()
                } else {
                    movers
                        .iter()
                        .filter(|m| m.1 == *target)
                        .map(|m| r.cp(s, m.0) as f64)
                        .sum()
                };
                if cp <= 0.0 { -0.5 } else { 1.0 + 0.05 * cp }
            }
            Action::CavalryReaction { unit } | Action::CavalryLineReaction { unit } => {
                self.reaction_value(*unit)
            }
            Action::Pass => match s.frames.last() {
                Some(Frame::Evade { .. }) => 0.0,
                _ => 0.0,
            },
            // ---- combat (10, 11)
            Action::Attack {
                attackers,
                defenders,
            } => {
                let mut v = r.ai_attack_value(s, attackers, defenders);
                // Clearing an objective is worth a risk (15).
                if defenders.iter().any(|&h| r.ai_is_objective(h)) {
                    v += 0.4;
                }
                // Several hexes attacking one: fine; attacking out of an objective risks it.
                if attackers.iter().any(|&h| r.ai_is_objective(h)) {
                    v -= 0.2;
                }
                // 15.2: the side that must take the objectives also needs a demoralised enemy
                // formation; it accepts even odds.
                v - 0.15
            }
            Action::EndCombat => 0.0,
            Action::Evade => {
                // 1.3: light troops avoid combat unless they hold an objective.
                match s.frames.last() {
                    Some(Frame::Evade { hex, .. }) if r.ai_is_objective(*hex) => -0.2,
                    _ => 0.3,
                }
            }
            Action::AllocateLoss { hex } => {
                // 11.1: take the step where it costs least: units with steps to spare, not the
                // holders of an objective.
                let top = r.combat_units_at(s, *hex);
                let mut v = 0.0;
                if let Some(&u) = top.first() {
                    let left = i32::from(r.sc.units[usize::from(u)].steps)
                        - i32::from(s.units[usize::from(u)].lost);
                    v += f64::from(left);
                    if left <= 1 {
                        v -= 2.0;
                    }
                }
                if r.ai_is_objective(*hex) {
                    v -= 1.0;
                }
                v
            }
            Action::RetreatTo { to } => {
                // 11.2 / 12.4: away from enemy fronts, toward friends and the friendly edge.
                let mut v = 0.0;
                match r.enemy_arc_at(s, *to, enemy) {
                    Some(Arc::Front) => v -= 2.0,
                    Some(Arc::Flank) => v -= 1.0,
                    _ => {}
                }
                for (_, n) in to.neighbours() {
                    if r.side_at(s, n) == Some(side) {
                        v += 0.2;
                    }
                }
                if r.side_at(s, *to) == Some(side) {
                    v -= 0.4; // 11.2.1: friends crossed are tested
                }
                v -= 0.05 * f64::from(r.sc.map.edge_distance(side, *to).min(20));
                v
            }
            Action::Advance {
                to, whole_stack, ..
            } => {
                let mut v = if r.ai_is_objective(*to) {
                    1.5
                } else {
                    let threats = to
                        .neighbours()
                        .filter(|(_, n)| r.side_at(s, *n) == Some(enemy))
                        .count();
                    if threats >= 2 { -0.5 } else { 0.1 }
                };
                if *whole_stack {
                    v += 0.1;
                }
                v
            }
            Action::Accompany { .. } => -0.2,
            Action::StopAccompanying { .. } => 0.1,
            // ---- army commander (4.B5, 8.5)
            Action::ArmyStep { to } => {
                let Some(c) = r.army_commander(s, side) else {
                    return -1.0;
                };
                let Some(from) = s.commanders[usize::from(c)].hex else {
                    return -1.0;
                };
                let radius = u32::from(r.sc.commanders[usize::from(c)].radius);
                let cost = |h: HexId| -> f64 {
                    let mut v = 0.0;
                    for (i, cd) in r.sc.commanders.iter().enumerate() {
                        if cd.side != side || i == usize::from(c) || cd.formation.is_none() {
                            continue;
                        }
                        if let Some(ch) = s.commanders[i].hex {
                            v += f64::from(ch.distance(h).saturating_sub(radius.saturating_sub(1)));
                        }
                    }
                    if r.side_at(s, h) != Some(side) {
                        v += 0.5;
                    }
                    if r.in_zoc_of(s, h, enemy) {
                        v += 0.5;
                    }
                    v
                };
                0.4 * (cost(from) - cost(*to)) - 0.1
            }
            Action::ArmyWithStack | Action::ChiefWithStack { .. } => -1.0,
            Action::EndArmyMove => 0.0,
            Action::Promote { .. } | Action::PlaceAide { .. } => 0.0,
            // ---- free set-up and march columns (16.2, 14): legal choices, lightly guided
            Action::PlaceUnit { hex, .. } => {
                -0.05
                    * f64::from(
                        r.ai_objectives()[0]
                            .iter()
                            .map(|o| o.distance(*hex))
                            .min()
                            .unwrap_or(0),
                    )
            }
            Action::FaceUnit { .. }
            | Action::PlaceAbattis { .. }
            | Action::PlaceCommander { .. } => 0.0,
            Action::SetUpOnMap { .. } => 0.2,
            Action::EnterInColumn { .. } => 0.0,
            Action::March { .. } => 0.1,
            Action::Deploy { .. } => 0.2,
            Action::ColumnUnit { .. } => 0.3,
            Action::EnterUnit { .. } => 0.5,
            Action::EndColumn => 0.0,
            // Fontenoy/Lauffeld 8.8: reinforcements come in.
            Action::Reinforce { .. } => 0.5,
        }
    }

    /// What moving a group now would gain: its greedy path (steps and turns, 8.1, 8.3, 8.7) played
    /// out on a copy of the position until it stops improving, enters an enemy ZoC (7.1) or runs
    /// out of movement points. Reactions of the enemy are not foreseen (search does that).
    fn plan_value(&mut self, units: &[UnitIx], kind: GroupKind) -> f64 {
        let r = self.r;
        let half = matches!(s_activation(self.s), Some(false));
        let units: Vec<UnitIx> = units
            .iter()
            .copied()
            .filter(|&u| r.alive(self.s, u))
            .collect();
        if units.is_empty() {
            return 0.0;
        }
        let mut m = Moving {
            side: self.side,
            kind: if half { GroupKind::Half } else { kind },
            mp: units
                .iter()
                .map(|&u| {
                    let mp = r.sc.units[usize::from(u)].mp;
                    if half { mp / 2 } else { mp }
                })
                .collect(),
            units,
            vertices: 0,
            tested: Vec::new(),
            commander: None,
            hexes: 0,
            target: None,
        };
        let mut t = self.s.clone();
        let mut total = 0.0;
        for _ in 0..10 {
            let mut best: Option<(f64, Option<hexmap::Dir>, bool)> = None;
            let dirs: Vec<hexmap::Dir> = if m.units.iter().all(|&u| r.kind(u).is_light()) {
                hexmap::Dir::ALL.to_vec()
            } else {
                t.units[usize::from(m.units[0])].facing.front().to_vec()
            };
            for d in dirs {
                let Some(plan) = r.step_plan(&t, &m, d) else {
                    continue;
                };
                let mut v = 0.0;
                for (i, &u) in m.units.iter().enumerate() {
                    if r.kind(u).is_guns() {
                        continue;
                    }
                    let f = t.units[usize::from(u)].facing;
                    v += self.potential(u, plan[i].1, f) - self.potential(u, plan[i].0, f);
                    if r.terrain_disorganises(plan[i].0, plan[i].1) {
                        v -= 0.8;
                    }
                }
                if best.is_none_or(|b| v > b.0) {
                    best = Some((v, Some(d), false));
                }
            }
            let in_zoc = m.units.iter().any(|&u| {
                t.units[usize::from(u)]
                    .hex
                    .is_some_and(|h| Self::at(&self.zoc_cp, &r.sc.map, h) > 0)
            });
            if m.vertices < 3 && !in_zoc && m.mp.iter().all(|&p| p >= 1) {
                for cw in [true, false] {
                    let mut v = -0.1;
                    for &u in &m.units {
                        if r.kind(u).is_guns() {
                            continue;
                        }
                        let us = &t.units[usize::from(u)];
                        let Some(h) = us.hex else { continue };
                        let nf = us.facing.turned(if cw { 1 } else { -1 });
                        v += self.potential(u, h, nf) - self.potential(u, h, us.facing);
                    }
                    if best.is_none_or(|b| v > b.0) {
                        best = Some((v, None, cw));
                    }
                }
            }
            let Some((v, dir, cw)) = best else { break };
            if v <= 0.05 {
                break;
            }
            total += v;
            match dir {
                Some(d) => {
                    let Some(plan) = r.step_plan(&t, &m, d) else {
                        break;
                    };
                    for (i, &u) in m.units.iter().enumerate() {
                        t.units[usize::from(u)].hex = Some(plan[i].1);
                        m.mp[i] = m.mp[i].saturating_sub(plan[i].2);
                    }
                    m.hexes += 1;
                    if plan
                        .iter()
                        .any(|p| Self::at(&self.zoc_cp, &r.sc.map, p.1) > 0)
                    {
                        break; // 7.1: entering an enemy ZoC ends the move
                    }
                }
                None => {
                    for (i, &u) in m.units.iter().enumerate() {
                        let us = &mut t.units[usize::from(u)];
                        us.facing = us.facing.turned(if cw { 1 } else { -1 });
                        m.mp[i] = m.mp[i].saturating_sub(1);
                    }
                    m.vertices += 1;
                }
            }
        }
        total
    }

    /// The change of potential of a moving group stepping in `dir` (8.1, 8.7); `None`: the best
    /// available step.
    fn step_value(&mut self, m: &Moving, dir: Option<hexmap::Dir>) -> f64 {
        let Some(dir) = dir else {
            return self.best_step(m);
        };
        let r = self.r;
        let s = self.s;
        let Some(plan) = r.step_plan(s, m, dir) else {
            return -INF;
        };
        // 8.6: a reaction must end next to its target.
        if m.kind == GroupKind::Reaction
            && let Some(t) = m.target
            && let Some(th) = s.units[usize::from(t)].hex
        {
            let before: u32 = plan.iter().map(|p| p.0.distance(th)).min().unwrap_or(0);
            let after: u32 = plan.iter().map(|p| p.1.distance(th)).min().unwrap_or(0);
            return f64::from(before) - f64::from(after);
        }
        let mut v = 0.0;
        for (i, &u) in m.units.iter().enumerate() {
            if r.kind(u).is_guns() {
                continue;
            }
            let (from, to, _) = plan[i];
            let f = s.units[usize::from(u)].facing;
            v += self.potential(u, to, f) - self.potential(u, from, f);
            // 8.2: crossing into disorganisation.
            if r.terrain_disorganises(from, to) {
                v -= 0.8;
            }
        }
        v
    }

    fn best_step(&mut self, m: &Moving) -> f64 {
        let mut best = 0.0f64;
        let dirs: Vec<hexmap::Dir> = if m.units.iter().all(|&u| self.r.kind(u).is_light()) {
            hexmap::Dir::ALL.to_vec()
        } else {
            self.s.units[usize::from(m.units[0])]
                .facing
                .front()
                .to_vec()
        };
        for d in dirs {
            let v = self.step_value(m, Some(d));
            if v > best {
                best = v;
            }
        }
        best
    }

    /// 8.6: a cavalry reaction is worth it against cavalry, light or disorganised troops in the open,
    /// not against formed infantry (10.3: -1) or in woods and towns.
    fn reaction_value(&mut self, unit: UnitIx) -> f64 {
        let r = self.r;
        let s = self.s;
        let Some(Frame::Reaction(re)) = s.frames.last() else {
            return -1.0;
        };
        let mut best = -0.4;
        for &(mv, _, to) in &re.movers {
            if r.sc.map.terrain(to) != Terrain::Clear {
                continue;
            }
            let Some(uh) = s.units[usize::from(unit)].hex else {
                continue;
            };
            if uh.distance(to) > 3 {
                continue;
            }
            let k = r.kind(mv);
            let soft = k.is_cavalry()
                || k == Kind::LightInfantry
                || r.has(s, mv, flag::DISORG)
                || r.kind(mv).is_guns();
            let strong = r.cp(s, unit) >= r.cp(s, mv);
            let v = if soft && strong { 0.4 } else { -0.4 };
            if v > best {
                best = v;
            }
        }
        best
    }
}

thread_local! {
    /// The last goal fields computed on this thread, by a hash of what they depend on: a search
    /// asks for the same field many times while only one group moves.
    static FIELDS: std::cell::RefCell<Vec<(u64, std::rc::Rc<Field>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`goal_field_uncached`], remembered for the last few positions.
fn goal_field(r: &Saxe, s: &State, side: Side, cavalry: bool) -> std::rc::Rc<Field> {
    use std::hash::{Hash, Hasher};
    let mut hs = std::collections::hash_map::DefaultHasher::new();
    (
        side.ix(),
        cavalry,
        &s.control,
        &s.abattis,
        std::sync::Arc::as_ptr(&r.sc) as usize,
    )
        .hash(&mut hs);
    for u in &s.units {
        (u.hex, u.lost, u.flags & (flag::ROUTED | flag::DISORG)).hash(&mut hs);
    }
    let key = hs.finish();
    if let Some(f) = FIELDS.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, f)| f.clone())
    }) {
        return f;
    }
    let f = std::rc::Rc::new(goal_field_uncached(r, s, side, cavalry));
    FIELDS.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 8 {
            c.remove(0);
        }
        c.push((key, f.clone()));
    });
    f
}

/// Distances to the goals of one arm of `side` (reverse Dijkstra with the movement costs of 8.1 and
/// the Terrain Effect Table). The side that must take the objectives (15.2) goes for them and for
/// contact with the enemy, weaker targets first; the side that holds them goes only to retake or
/// to garrison them and to strike at enemies next to them; cavalry is kept back for reaction (8.6)
/// unless a soft target is near.
fn goal_field_uncached(r: &Saxe, s: &State, side: Side, cavalry: bool) -> Field {
    let map = &r.sc.map;
    let n = map.len();
    let mut d = vec![INF; n];
    let enemy = side.other();
    let attacker = side == r.ai_attacker();
    let mut seeds: Vec<(HexId, f64)> = Vec::new();
    let [hast, aff] = r.ai_objectives();
    let enemy_here = |h: HexId| r.side_at(s, h) == Some(enemy);
    let friends_in = |hexes: &[HexId]| {
        hexes.iter().any(|&h| {
            r.combat_units_at(s, h)
                .iter()
                .any(|&u| r.side_of(u) == side && !r.has(s, u, flag::ROUTED))
        })
    };
    // Objectives.
    for (i, obj) in [hast, aff].into_iter().enumerate() {
        let ours = friends_in(obj);
        let theirs = obj.iter().any(|&h| enemy_here(h));
        let wanted = if attacker {
            i == 0 || s.control.first() == Some(&side)
        } else {
            theirs || !ours
        };
        if !wanted || cavalry {
            continue;
        }
        // Once the attacker's troops stand in it, the objective needs no more of them: the rest
        // go for the enemy formations (15.2 also asks a demoralised enemy formation).
        let w = match (attacker, ours) {
            (true, false) => 0.0,
            (true, true) => 2.5,
            (false, _) => 1.0,
        };
        for &h in obj {
            if !enemy_here(h) {
                seeds.push((h, w));
            }
        }
    }
    // Contact with enemy stacks (10.1: attack from a front hex).
    for eh in r.occupied_hexes(s, enemy) {
        let units = r.combat_units_at(s, eh);
        if units.is_empty() {
            continue;
        }
        let t = map.terrain(eh);
        let fortified = r
            .units_at(s, eh)
            .iter()
            .any(|&u| r.kind(u) == Kind::Redoubt);
        let soft = units
            .iter()
            .any(|&u| r.has(s, u, flag::DISORG) || r.has(s, u, flag::ROUTED))
            || units.iter().all(|&u| r.kind(u).is_cavalry());
        let cp: u32 = units.iter().map(|&u| r.cp(s, u)).sum();
        let near_obj = hast.iter().any(|&o| o.distance(eh) <= 1);
        let base = if attacker {
            let mut b = 1.5;
            if fortified {
                b += 3.0;
            }
            if t != Terrain::Clear {
                b += 1.0;
            }
            if soft {
                b -= 1.0;
            }
            b += 0.1 * f64::from(cp);
            // 13.1: a formation near its demoralisation value is the one to hit.
            if let Some(f) = units
                .first()
                .and_then(|&u| r.sc.units[usize::from(u)].formation)
            {
                let need = r.sc.formations[usize::from(f)].demoralisation;
                let lost = r.formation_losses(s, f);
                if need > 0 && lost * 2 >= need && !s.formations[usize::from(f)].demoralised {
                    b -= 1.0;
                    if lost + 2 >= need {
                        b -= 1.0;
                    }
                }
            }
            if cavalry && !soft {
                b += 4.0; // keep the cavalry back from formed troops (8.6, 10.3)
            }
            b
        } else if near_obj && (obj_held_by(r, s, hast, enemy) || soft) {
            0.5
        } else if soft && cavalry {
            1.0
        } else {
            continue;
        };
        if cavalry && t == Terrain::Woods {
            continue; // 10.1: cavalry may not attack where it may not go
        }
        for (_, nb) in eh.neighbours() {
            if map.contains(nb) && r.side_at(s, nb) != Some(enemy) {
                seeds.push((nb, base));
            }
        }
    }
    let kind = if cavalry {
        Kind::HeavyCavalry
    } else {
        Kind::Infantry
    };
    // Dijkstra from the goals over "cost to enter the next hex toward the goal".
    let mut heap = std::collections::BinaryHeap::new();
    for (h, v) in seeds {
        if let Some(i) = map.index(h)
            && v < d[i]
        {
            d[i] = v;
            heap.push((std::cmp::Reverse((v * 100.0) as i64), i, h));
        }
    }
    while let Some((std::cmp::Reverse(k), i, h)) = heap.pop() {
        let v = k as f64 / 100.0;
        if v > d[i] + 1e-9 {
            continue;
        }
        for (_, nb) in h.neighbours() {
            let Some(j) = map.index(nb) else { continue };
            if enemy_here(nb) {
                continue;
            }
            // From nb one enters h.
            let Some(c) = r.move_cost(s, Mover::Unit(kind), nb, h) else {
                continue;
            };
            let nv = v + f64::from(c);
            if nv < d[j] {
                d[j] = nv;
                heap.push((std::cmp::Reverse((nv * 100.0) as i64), j, nb));
            }
        }
    }
    Field { d }
}

fn obj_held_by(r: &Saxe, s: &State, hexes: &[HexId], side: Side) -> bool {
    hexes.iter().any(|&h| {
        r.combat_units_at(s, h)
            .iter()
            .any(|&u| r.side_of(u) == side && !r.has(s, u, flag::ROUTED))
    })
}

impl AgentHooks for Saxe {
    fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        self.ai_evaluate(state, Side::from_ix(seat.0))
    }
    fn action_scores(&self, state: &State, actions: &[Action]) -> Vec<f64> {
        self.ai_scores(state, actions)
    }
    fn determinize(&self, state: &State, seat: Seat, seed: u64) -> State {
        self.ai_determinize(state, Side::from_ix(seat.0), seed)
    }
    fn worth_searching(&self, state: &State, actions: &[Action]) -> bool {
        self.ai_worth_searching(state, actions)
    }
    fn eval_terms(&self, state: &State) -> Vec<f64> {
        if state.result.is_some()
            || self.sc.objective_ix("fontenoy").is_some()
            || self.sc.objective_ix("lauffeld").is_some()
        {
            return Vec::new();
        }
        self.ai_hastenbeck_terms(state)
    }
    fn progress(&self, state: &State) -> u32 {
        // Half-turns (4.B1, 4.B2), each cut into its activations (one step per formation or
        // independent unit tested) and its combat phase (4.B4).
        let half = u32::from(state.turn) * 2 + u32::from(state.second);
        let tested = state.formations.iter().filter(|f| f.tested).count()
            + state
                .units
                .iter()
                .filter(|u| u.has(flag::ACTIVATED))
                .count();
        let combat = matches!(
            state.phase,
            Phase::Combat | Phase::ArmyCommander(_) | Phase::EndOfTurn
        );
        half * 64 + if combat { 40 } else { (tested as u32).min(39) }
    }
    fn intent(&self, state: &State, action: &Action, viewer: engine::Viewer) -> Option<String> {
        self.ai_intent(state, action)
            .map(|line| line.render(viewer).0)
    }
}
