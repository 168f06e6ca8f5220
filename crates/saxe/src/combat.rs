//! Combat (10, 11): who may and must attack, the Combat Results Table with every modifier of 10.3,
//! results in the order of 11.1, losses chosen by their owner, retreats (11.2), advance (11.3).
use crate::Saxe;
use crate::event::Event;
use crate::scenario::{Kind, Side, Terrain, UnitIx, side_bits};
use crate::state::*;
use hexmap::{Arc, Dir, HexId};

/// An attack declaration (10.1): the attacking hexes and the defending hexes.
pub type Declaration = (Vec<HexId>, Vec<HexId>);

/// A stack of the active side with its attack targets and its mandatory targets (10.1).
type StackTargets = (HexId, Vec<HexId>, Vec<HexId>);

impl Saxe {
    /// Stacks of the active side that may attack: hexes with unrouted infantry or cavalry that have
    /// not attacked (10.1).
    fn attacker_hexes(&self, s: &State) -> Vec<HexId> {
        let side = s.active;
        let mut v: Vec<HexId> = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, u)| {
                let ui = *i as UnitIx;
                u.hex.is_some()
                    && self.side_of(ui) == side
                    && !self.kind(ui).is_guns()
                    && !u.has(flag::ROUTED)
                    && !u.has(flag::ATTACKED)
            })
            .filter_map(|(_, u)| u.hex)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Enemy hexes a stack may attack (10.1): adjacent enemy units in a front hex of one of its
    /// units; cavalry not into terrain it may not enter, nor a fortified village.
    pub fn attack_targets(&self, s: &State, a: HexId) -> Vec<HexId> {
        let units = self.combat_units_at(s, a);
        let Some(&top) = units.first() else {
            return Vec::new();
        };
        let side = self.side_of(top);
        let cav = units.iter().any(|&u| self.kind(u).is_cavalry());
        let front = self.front_mask(s, top);
        let mut out: Vec<HexId> = Dir::ALL
            .into_iter()
            .filter(|d| front & (1 << d.index()) != 0)
            .filter_map(|d| a.neighbour(d))
            .filter(|&h| {
                self.side_at(s, h) == Some(side.other())
                    && (!self.combat_units_at(s, h).is_empty()
                        || self.edition.lone_guns_destroyed_by_attack())
            })
            .filter(|&h| {
                if !cav {
                    return true;
                }
                let t = self.sc.map.terrain(h);
                let enter = self
                    .move_cost(s, crate::query::Mover::Unit(Kind::HeavyCavalry), a, h)
                    .is_some();
                // 10.1 note: a village with a redoubt, or a place the map marks as a fortified
                // village (F/L 10.1: "Fontenoy o Antoing").
                let fortified = self.sc.map.fortified.contains(&h)
                    || self.sc.tables.terrain(t).no_cavalry_attack
                    || t.is_town()
                        && self
                            .units_at(s, h)
                            .iter()
                            .any(|&u| self.kind(u) == Kind::Redoubt);
                enter && !fortified
            })
            .collect();
        out.sort();
        out
    }

    /// 10.1 mandatory attacks of a stack: enemies in its ZoC when both are in clear terrain, unless
    /// infantry would attack cavalry.
    fn mandatory_targets(&self, s: &State, a: HexId) -> Vec<HexId> {
        if !self.edition.mandatory_attacks() || self.sc.map.terrain(a) != Terrain::Clear {
            return Vec::new();
        }
        self.mandatory_among(s, a, &self.attack_targets(s, a))
    }

    /// [`Saxe::mandatory_targets`] given the stack's attack targets.
    fn mandatory_among(&self, s: &State, a: HexId, targets: &[HexId]) -> Vec<HexId> {
        if !self.edition.mandatory_attacks() || self.sc.map.terrain(a) != Terrain::Clear {
            return Vec::new();
        }
        let units = self.combat_units_at(s, a);
        let inf_only = units.iter().all(|&u| self.kind(u).is_infantry());
        targets
            .iter()
            .copied()
            .filter(|&h| {
                if self.sc.map.terrain(h) != Terrain::Clear {
                    return false;
                }
                let there = self.combat_units_at(s, h);
                let inf_on_cav = inf_only && there.iter().any(|&u| self.kind(u).is_cavalry());
                !there.is_empty() && !inf_on_cav
            })
            .collect()
    }

    /// Hexes of the active side's stacks of unrouted infantry or cavalry, attacked or not.
    fn all_stack_hexes(&self, s: &State) -> Vec<HexId> {
        let side = s.active;
        let mut v: Vec<HexId> = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, u)| {
                let ui = *i as UnitIx;
                self.side_of(ui) == side && !self.kind(ui).is_guns() && !u.has(flag::ROUTED)
            })
            .filter_map(|(_, u)| u.hex)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Every stack of the active side (attacked or not) with its attack targets and its mandatory
    /// targets (10.1).
    fn stack_targets(&self, s: &State) -> Vec<(HexId, Vec<HexId>, Vec<HexId>)> {
        // A stack with no enemy unit next to it has no target (10.1: targets are adjacent enemy
        // hexes), so it is not looked at further (unless an enemy unit shares its hex).
        let enemy = self.occupied_hexes(s, s.active.other());
        let near_enemy = |h: HexId| enemy.binary_search(&h).is_ok();
        self.all_stack_hexes(s)
            .into_iter()
            .map(|a| {
                if !near_enemy(a) && !a.neighbours().any(|(_, n)| near_enemy(n)) {
                    return (a, Vec::new(), Vec::new());
                }
                let t = self.attack_targets(s, a);
                let m = self.mandatory_among(s, a, &t);
                (a, t, m)
            })
            .collect()
    }

    /// 10.1 note: the mandatory targets of stack `a` that no other friendly stack has in its own
    /// ZoC. A stack with such targets must attack, and must attack all of them at once.
    fn sole_of(all: &[(HexId, Vec<HexId>, Vec<HexId>)], a: HexId) -> Vec<HexId> {
        let Some((_, _, mandatory)) = all.iter().find(|x| x.0 == a) else {
            return Vec::new();
        };
        mandatory
            .iter()
            .copied()
            .filter(|e| !all.iter().any(|(x, t, _)| *x != a && t.contains(e)))
            .collect()
    }

    /// [`Saxe::sole_of`] for one stack.
    pub fn sole_mandatory_targets(&self, s: &State, a: HexId) -> Vec<HexId> {
        Self::sole_of(&self.stack_targets(s), a)
    }

    /// Every legal attack declaration now (10.1): one stack against any set of the enemy hexes in
    /// its front (but including all its sole mandatory targets), or several stacks against one hex
    /// that is the only enemy in each one's front.
    pub fn legal_attacks(&self, s: &State) -> Vec<(Vec<HexId>, Vec<HexId>)> {
        let att = self.attacker_hexes(s);
        if att.is_empty() {
            return Vec::new();
        }
        Self::attacks_of(&att, &self.stack_targets(s))
    }

    /// The legal attacks and whether the combat phase may end now (10.1): [`Saxe::legal_attacks`]
    /// and [`Saxe::combat_may_end`] sharing one look at every stack.
    pub fn attacks_and_may_end(&self, s: &State) -> (Vec<Declaration>, bool) {
        let att = self.attacker_hexes(s);
        if att.is_empty() {
            return (Vec::new(), true);
        }
        let all = self.stack_targets(s);
        let attacks = Self::attacks_of(&att, &all);
        let may_end = Self::may_end_of(s, &attacks, &att, &all);
        (attacks, may_end)
    }

    /// [`Saxe::legal_attacks`] from the attacker hexes and [`Saxe::stack_targets`].
    fn attacks_of(att: &[HexId], all: &[StackTargets]) -> Vec<Declaration> {
        let mut out = Vec::new();
        let targets: Vec<(HexId, Vec<HexId>)> = all
            .iter()
            .filter(|(a, t, _)| att.contains(a) && !t.is_empty())
            .map(|(a, t, _)| (*a, t.clone()))
            .collect();
        for (a, t) in &targets {
            let sole = Self::sole_of(all, *a);
            let n = t.len().min(6);
            for mask in 1u32..(1 << n) {
                let d: Vec<HexId> = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| t[i])
                    .collect();
                if sole.iter().all(|e| d.contains(e)) {
                    out.push((vec![*a], d));
                }
            }
        }
        let mut enemy: Vec<HexId> = targets
            .iter()
            .flat_map(|(_, t)| t.iter().copied())
            .collect();
        enemy.sort();
        enemy.dedup();
        for &e in &enemy {
            // Several stacks against one hex: each must have only that enemy in its ZoC.
            let solo: Vec<HexId> = targets
                .iter()
                .filter(|(_, t)| t.len() == 1 && t[0] == e)
                .map(|(a, _)| *a)
                .collect();
            let n = solo.len().min(6);
            for mask in 1u32..(1 << n) {
                if mask.count_ones() < 2 {
                    continue;
                }
                let group: Vec<HexId> = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| solo[i])
                    .collect();
                out.push((group, vec![e]));
            }
        }
        out.sort();
        out
    }

    /// Whether the combat phase may end (10.1): every stack that alone faces a mandatory target has
    /// attacked, and every enemy hex some stack is obliged to attack has been attacked, as far as
    /// any attack is still possible.
    pub fn combat_may_end(&self, s: &State, attacks: &[(Vec<HexId>, Vec<HexId>)]) -> bool {
        Self::may_end_of(s, attacks, &self.attacker_hexes(s), &self.stack_targets(s))
    }

    /// [`Saxe::combat_may_end`] from the attacker hexes and [`Saxe::stack_targets`].
    fn may_end_of(s: &State, attacks: &[Declaration], att: &[HexId], all: &[StackTargets]) -> bool {
        // A stack that is the only one facing one of its mandatory targets must attack.
        if att.iter().any(|&a| {
            !Self::sole_of(all, a).is_empty() && attacks.iter().any(|(x, _)| x.contains(&a))
        }) {
            return false;
        }
        // Every mandatory target (of any stack, attacked or not) must be attacked by someone.
        let mut required: Vec<HexId> = all
            .iter()
            .flat_map(|(_, _, m)| m.iter().copied())
            .filter(|e| !s.attacked_hexes.contains(e))
            .collect();
        required.sort();
        required.dedup();
        !attacks
            .iter()
            .any(|(_, d)| d.iter().any(|e| required.contains(e)))
    }

    /// Declare an attack (10.1); resolution continues in [`Saxe::progress_combat`].
    pub fn declare_attack(
        &self,
        s: &mut State,
        attackers: &[HexId],
        defenders: &[HexId],
        ev: &mut Vec<Event>,
    ) {
        let att_units: Vec<UnitIx> = attackers
            .iter()
            .flat_map(|&h| self.combat_units_at(s, h))
            .collect();
        let att_all: Vec<UnitIx> = attackers
            .iter()
            .flat_map(|&h| self.units_at(s, h))
            .collect();
        let def_units: Vec<UnitIx> = defenders
            .iter()
            .flat_map(|&h| self.combat_units_at(s, h))
            .collect();
        for &u in &att_all {
            s.units[usize::from(u)].set(flag::ATTACKED, true);
        }
        // Lauffeld 16.2: the Household may act once it is attacked.
        if self.sc.household == Some(crate::scenario::HouseholdRule::Lauffeld)
            && !s.household_free
            && def_units
                .iter()
                .any(|&u| self.sc.units[usize::from(u)].household)
        {
            s.household_free = true;
            ev.push(Event::rule(
                "16.2",
                "the Household is attacked: it may now be activated",
            ));
        }
        for &d in defenders {
            if !s.attacked_hexes.contains(&d) {
                s.attacked_hexes.push(d);
            }
        }
        ev.push(Event::rule(
            "10.1",
            self.unit_line(s, &att_units)
                .t(" attack ")
                .units(self.named(s, &def_units))
                .t(format!(
                    " ({})",
                    defenders
                        .iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
        ));
        s.frames.push(Frame::Combat(Combat {
            attackers: attackers.to_vec(),
            defenders: defenders.to_vec(),
            att_units,
            def_units,
            stage: 0,
            result: None,
            losses_left: [0, 0],
            lost_steps: Vec::new(),
            lost_hexes: Vec::new(),
            evaded: Vec::new(),
            evade_queue: Vec::new(),
            disorg_cav_before: Vec::new(),
        }));
        // F/L 11.5: a gun alone in its hex and attacked is eliminated.
        if self.edition.lone_guns_destroyed_by_attack() {
            let side = s.active;
            for &d in defenders {
                if self.combat_units_at(s, d).is_empty() {
                    for g in self.units_at(s, d) {
                        if self.side_of(g) != side && self.kind(g).is_guns() {
                            self.eliminate(s, g, "attacked while alone in its hex", "11.5", ev);
                        }
                    }
                    for c in self.commanders_at(s, d) {
                        if self.sc.commanders[usize::from(c)].side != side {
                            self.commander_overrun(s, c, ev);
                        }
                    }
                }
            }
            let none_left = defenders
                .iter()
                .all(|&d| self.combat_units_at(s, d).is_empty());
            if none_left && let Some(c) = Self::combat_mut(s) {
                c.stage = 5; // straight to the advance after combat (11.3)
            }
        }
    }

    fn combat_mut(s: &mut State) -> Option<&mut Combat> {
        match s.frames.last_mut() {
            Some(Frame::Combat(c)) => Some(c),
            _ => None,
        }
    }

    /// Advance the combat at the top of the frame stack by one stage.
    pub fn progress_combat(&self, s: &mut State, ev: &mut Vec<Event>) {
        let Some(Frame::Combat(c)) = s.frames.last().cloned() else {
            return;
        };
        let depth = s.frames.len() - 1; // invariant: the combat frame is on top (just matched)
        match c.stage {
            0 => {
                // 12.3: routed defenders are eliminated when attacked (F/L: routed guns too, A15).
                let mut routed_guns: Vec<UnitIx> = Vec::new();
                for &h in &c.defenders {
                    routed_guns.extend(
                        self.result_units_at(s, h)
                            .into_iter()
                            .filter(|&u| self.kind(u).is_guns() && self.side_of(u) != s.active),
                    );
                }
                for &u in c.def_units.iter().chain(&routed_guns) {
                    if self.has(s, u, flag::ROUTED) {
                        let h = s.units[usize::from(u)].hex;
                        self.eliminate(s, u, "a routed unit attacked", "12.3", ev);
                        // 11.4: a commander left without his troops rolls.
                        if let Some(h) = h {
                            for cm in self.commanders_at(s, h) {
                                if self.sc.commanders[usize::from(cm)].side != s.active {
                                    self.commander_casualty(s, cm, h, true, ev);
                                }
                            }
                        }
                    }
                }
                // 1.3: light units may retreat before combat. The defender is asked whenever the
                // attacker cannot tell from what he sees that they may not (3.6): otherwise being
                // asked would tell him that the hidden units are light troops too.
                let mut q = Vec::new();
                for &h in &c.defenders {
                    if self.combat_units_at(s, h).is_empty() {
                        continue;
                    }
                    if self.evade_allowed(s, h, &c.att_units)
                        || self.evade_could_be_allowed(s, h, &c.att_units)
                    {
                        q.push(h);
                    }
                }
                // A killed commander's successor or aide (11.4) may now wait above the combat: it
                // is decided first, then the combat goes on from stage 1.
                if let Some(Frame::Combat(c)) = s.frames.get_mut(depth) {
                    c.evade_queue = q;
                    c.stage = 1;
                }
            }
            1 => {
                let mut c2 = c.clone();
                if let Some(h) = c2.evade_queue.pop() {
                    let side = s.active.other();
                    let hexes = if self
                        .combat_units_at(s, h)
                        .iter()
                        .any(|&u| self.kind(u) == Kind::LightCavalry)
                    {
                        2
                    } else {
                        1
                    };
                    *Self::combat_mut(s).expect("combat") = c2; // invariant: top frame is this combat
                    s.frames.push(Frame::Evade {
                        side,
                        hex: h,
                        hexes,
                    });
                    return;
                }
                let def_units: Vec<UnitIx> = c2
                    .defenders
                    .iter()
                    .filter(|h| !c2.evaded.contains(h))
                    .flat_map(|&h| self.combat_units_at(s, h))
                    .filter(|&u| self.side_of(u) != s.active)
                    .collect();
                c2.def_units = def_units;
                c2.stage = if c2.def_units.is_empty() { 5 } else { 2 };
                *Self::combat_mut(s).expect("combat") = c2; // invariant: top frame is this combat
            }
            2 => {
                let (total, mods) = self.combat_modifiers(s, &c);
                let tables = &self.sc.tables;
                let (_, t) = self.roll(s, ev, "CRT (10.2)", "combat", mods, |t| {
                    let (_, a, d) = tables.crt(t);
                    format!("attacker {a}, defender {d}")
                });
                let _ = total;
                let (_, a, d) = self.sc.tables.crt(t);
                let before: Vec<UnitIx> = c
                    .att_units
                    .iter()
                    .chain(c.def_units.iter())
                    .copied()
                    .filter(|&u| self.has(s, u, flag::DISORG_BY_COMBAT))
                    .collect();
                let cc = Self::combat_mut(s).expect("combat"); // invariant
                cc.result = Some((a, d));
                cc.losses_left = [a.steps, d.steps];
                cc.disorg_cav_before = before;
                cc.stage = 3;
            }
            3 => {
                // Losses first (11.1), the owner choosing between stacks.
                for which in [1u8, 0u8] {
                    let left = c.losses_left[usize::from(which)];
                    if left == 0 {
                        continue;
                    }
                    let hexes: Vec<HexId> = if which == 0 {
                        c.attackers.clone()
                    } else {
                        c.defenders.clone()
                    };
                    let live: Vec<HexId> = hexes
                        .into_iter()
                        .filter(|&h| {
                            !self.combat_units_at(s, h).is_empty()
                                && self.side_at(s, h)
                                    == Some(if which == 0 {
                                        s.active
                                    } else {
                                        s.active.other()
                                    })
                        })
                        .collect();
                    if live.is_empty() {
                        Self::combat_mut(s).expect("combat").losses_left[usize::from(which)] = 0; // invariant
                        return;
                    }
                    let side = if which == 0 {
                        s.active
                    } else {
                        s.active.other()
                    };
                    s.frames.push(Frame::Losses {
                        side,
                        which,
                        hexes: live,
                    });
                    return;
                }
                Self::combat_mut(s).expect("combat").stage = 4; // invariant
            }
            4 => {
                let (a, d) = c.result.unwrap_or_default();
                // Morale, disorganisation, elimination, * (11.1), per stack.
                for (o, hexes, units) in [
                    (d, &c.defenders, &c.def_units),
                    (a, &c.attackers, &c.att_units),
                ] {
                    for &h in hexes.iter() {
                        let here = self.stack_in_combat(s, h, units);
                        self.apply_effects(s, &here, &o, "11.1", &c.disorg_cav_before, ev);
                    }
                }
                // 11.4: commanders whose own stack lost a step or was eliminated.
                for hexes in [&c.defenders, &c.attackers] {
                    for &h in hexes.iter() {
                        let lost = c.lost_hexes.contains(&h);
                        for cm in self.commanders_at(s, h) {
                            self.commander_casualty(s, cm, h, lost, ev);
                        }
                    }
                }
                // Retreats: attacker's queued first so the defender's retreat is done first.
                for (o, hexes, units) in [
                    (a, &c.attackers, &c.att_units),
                    (d, &c.defenders, &c.def_units),
                ] {
                    if o.retreat == 0 {
                        continue;
                    }
                    for &h in hexes.iter().rev() {
                        let here = self.stack_in_combat(s, h, units);
                        self.queue_retreat_under_combat(s, &here, o.retreat);
                    }
                }
                if let Some(cc) = Self::combat_mut_below(s) {
                    cc.stage = 5;
                }
            }
            5 => {
                // 11.3 advance after combat.
                let side = s.active;
                let vacated_def: Vec<HexId> = c
                    .defenders
                    .iter()
                    .copied()
                    .filter(|&h| self.combat_units_at(s, h).is_empty())
                    .collect();
                let mut options = Vec::new();
                for &v in &vacated_def {
                    // 13.1: a demoralised formation does not enter an enemy ZoC voluntarily.
                    let into_zoc = self.in_zoc_of(s, v, side.other());
                    for &a in &c.attackers {
                        // F/L 7.1: never from an enemy ZoC into another (no 11.3 exception).
                        let zoc_to_zoc = into_zoc && self.in_zoc_of(s, a, side.other());
                        if zoc_to_zoc && !self.edition.advance_zoc_to_zoc() {
                            continue;
                        }
                        if a.distance(v) == 1
                            && self.units_at(s, a).iter().any(|&u| {
                                !self.kind(u).is_guns()
                                    && !self.has(s, u, flag::ROUTED)
                                    && self.side_of(u) == side
                                    && (!into_zoc || !self.demoralised(s, u))
                            })
                        {
                            options.push((a, v));
                        }
                    }
                }
                let mut adv_side = side;
                let mut defender = false;
                if options.is_empty() {
                    let vacated_att: Vec<HexId> = c
                        .attackers
                        .iter()
                        .copied()
                        .filter(|&h| self.combat_units_at(s, h).is_empty())
                        .collect();
                    for &v in &vacated_att {
                        let into_zoc = self.in_zoc_of(s, v, side);
                        if into_zoc && self.edition.defender_advance_avoids_zoc() {
                            continue;
                        }
                        for &dh in &c.defenders {
                            if into_zoc
                                && self.in_zoc_of(s, dh, side)
                                && !self.edition.advance_zoc_to_zoc()
                            {
                                continue;
                            }
                            if dh.distance(v) == 1
                                && self.units_at(s, dh).iter().any(|&u| {
                                    !self.kind(u).is_guns()
                                        && !self.has(s, u, flag::ROUTED)
                                        && self.side_of(u) != side
                                        && (!into_zoc || !self.demoralised(s, u))
                                })
                            {
                                options.push((dh, v));
                            }
                        }
                    }
                    adv_side = side.other();
                    defender = true;
                }
                Self::combat_mut(s).expect("combat").stage = 6; // invariant
                if !options.is_empty() {
                    s.frames.push(Frame::Advance(Advance {
                        side: adv_side,
                        options,
                        defender,
                    }));
                }
            }
            _ => {
                s.frames.pop();
                self.update_control(s, ev);
            }
        }
    }

    /// The units of hex `h` a combat result reaches (11.1: "the whole stack"): the combat units
    /// of `units` there and, in F/L, the guns stacked with them (A15). Top first.
    fn stack_in_combat(&self, s: &State, h: HexId, units: &[UnitIx]) -> Vec<UnitIx> {
        let Some(side) = units.first().map(|&u| self.side_of(u)) else {
            return Vec::new();
        };
        let here = self.result_units_at(s, h);
        if !here.iter().any(|u| units.contains(u)) {
            return Vec::new();
        }
        here.into_iter()
            .filter(|&u| units.contains(&u) || (self.kind(u).is_guns() && self.side_of(u) == side))
            .collect()
    }

    fn combat_mut_below(s: &mut State) -> Option<&mut Combat> {
        s.frames.iter_mut().rev().find_map(|f| match f {
            Frame::Combat(c) => Some(c),
            _ => None,
        })
    }

    /// Queue a retreat under the combat frame (so it is resolved before the advance).
    fn queue_retreat_under_combat(&self, s: &mut State, units: &[UnitIx], hexes: u8) {
        self.queue_retreat(s, units, hexes, false);
    }

    /// Every modifier of 10.3 with its reason; returns the total and the list.
    pub fn combat_modifiers(&self, s: &State, c: &Combat) -> (i32, Vec<(String, i32)>) {
        let tb = &self.sc.tables.raw;
        let m = &tb.crt.modifiers;
        let mut mods: Vec<(String, i32)> = Vec::new();
        let att_cp: u32 = c.att_units.iter().map(|&u| self.cp(s, u)).sum();
        let def_cp: u32 = c.def_units.iter().map(|&u| self.cp(s, u)).sum();
        let (r, col) = self.sc.tables.ratio_drm(att_cp, def_cp);
        mods.push((format!("ratio {att_cp}/{def_cp} → {col}"), i32::from(r)));
        // Morale: Hastenbeck 10.3 the best top-unit morale on each side; F/L 10.3 the best
        // morale of all the units of the side.
        let best_of_all = self.edition.best_morale_of_stack();
        let top_morale = |hexes: &[HexId], units: &[UnitIx]| {
            if best_of_all {
                return units
                    .iter()
                    .filter(|&&u| !self.kind(u).is_guns())
                    .map(|&u| self.morale(s, u))
                    .max()
                    .unwrap_or(0);
            }
            hexes
                .iter()
                .filter_map(|&h| {
                    self.combat_units_at(s, h)
                        .into_iter()
                        .find(|u| units.contains(u))
                })
                .map(|u| self.morale(s, u))
                .max()
                .unwrap_or(0)
        };
        let am = top_morale(&c.attackers, &c.att_units);
        let dm = top_morale(&c.defenders, &c.def_units);
        if am != dm {
            mods.push((format!("morale {am} vs {dm}"), am - dm));
        }
        if c.att_units.iter().any(|&u| self.demoralised(s, u)) {
            mods.push((
                "attacker demoralised (13.1)".into(),
                -i32::from(m.demoralised),
            ));
        }
        if c.def_units.iter().any(|&u| self.demoralised(s, u)) {
            mods.push((
                "defender demoralised (13.1)".into(),
                i32::from(m.demoralised),
            ));
        }
        if c.att_units.iter().any(|&u| self.has(s, u, flag::DISORG)) {
            mods.push(("attacker disorganised".into(), -i32::from(m.disorganised)));
        }
        if c.def_units.iter().any(|&u| self.has(s, u, flag::DISORG)) {
            mods.push(("defender disorganised".into(), i32::from(m.disorganised)));
        }
        // Unit type (10.3, reconstructed table in tables.toml).
        let ut = &tb.unit_type;
        let att_cav = c.att_units.iter().any(|&u| self.kind(u).is_cavalry());
        // 10.3: −1 against normal infantry and +1 against disorganised infantry (0.1: light or
        // normal); "all modifiers are cumulative".
        let fl_disorganised = self.edition.cavalry_vs_disorganised_replaces()
            && c.def_units
                .iter()
                .any(|&u| self.kind(u).is_infantry() && self.has(s, u, flag::DISORG));
        if att_cav
            && !fl_disorganised
            && c.def_units.iter().any(|&u| self.kind(u) == Kind::Infantry)
        {
            mods.push((
                "cavalry against normal infantry".into(),
                i32::from(ut.cavalry_vs_normal_infantry),
            ));
        }
        if att_cav
            && c.def_units
                .iter()
                .any(|&u| self.kind(u).is_infantry() && self.has(s, u, flag::DISORG))
        {
            mods.push((
                "cavalry against disorganised infantry".into(),
                i32::from(ut.cavalry_vs_disorganised_infantry),
            ));
        }
        if c.def_units.iter().all(|&u| self.kind(u).is_cavalry())
            && c.att_units
                .iter()
                .any(|&u| self.sc.units[usize::from(u)].crossed_swords)
        {
            mods.push((
                "crossed swords against cavalry".into(),
                i32::from(ut.crossed_swords_vs_cavalry),
            ));
        }
        let clear = |h: &HexId| self.sc.map.terrain(*h) == Terrain::Clear;
        if c.attackers.iter().all(clear) && c.defenders.iter().all(clear) {
            if c.att_units.iter().all(|&u| self.light(s, u))
                && c.def_units.iter().any(|&u| !self.light(s, u))
            {
                mods.push((
                    "light attacker in clear (1.3)".into(),
                    i32::from(ut.light_attacking_non_light_in_clear),
                ));
            }
            if c.def_units.iter().all(|&u| self.light(s, u))
                && c.att_units.iter().any(|&u| !self.light(s, u))
            {
                mods.push((
                    "light defender in clear (1.3)".into(),
                    i32::from(ut.non_light_attacking_light_in_clear),
                ));
            }
        }
        if c.attackers
            .iter()
            .any(|&h| !self.commanders_at(s, h).is_empty())
        {
            mods.push(("commander (3.2)".into(), i32::from(m.commander)));
        }
        if c.att_units
            .iter()
            .any(|&u| self.has(s, u, flag::ORDER_IN_ZOC))
        {
            mods.push((
                "attacker changed order in a ZoC (3.5.1)".into(),
                i32::from(m.order_changed_in_zoc),
            ));
        }
        if c.def_units
            .iter()
            .any(|&u| self.has(s, u, flag::ORDER_IN_ZOC))
        {
            mods.push((
                "defender changed order in a ZoC (3.5.1)".into(),
                -i32::from(m.order_changed_in_zoc),
            ));
        }
        if c.def_units.iter().any(|&u| self.has(s, u, flag::COLUMN)) {
            // 14.3: against a deploying unit Hastenbeck gives +2 (as a column), F/L +1.
            let deploying = c.def_units.iter().all(|&u| {
                !self.has(s, u, flag::COLUMN)
                    || self.has(s, u, flag::DEPLOYING)
                    || self.sc.units[usize::from(u)]
                        .formation
                        .is_some_and(|f| s.formations[usize::from(f)].deploying)
            });
            if deploying {
                mods.push((
                    "defender deploying (14.3)".into(),
                    self.edition.deploying_drm(),
                ));
            } else {
                mods.push((
                    "defender in march column (14.1)".into(),
                    i32::from(m.march_column),
                ));
            }
        }
        // F/L 10.3: cavalry attacking a redoubt or a town hex −2, once, beside the terrain's
        // own modifier (all modifiers are cumulative).
        let cav_drm = self.edition.cavalry_vs_town_or_redoubt();
        if att_cav && cav_drm != 0 {
            let redoubt = c.defenders.iter().any(|&d| {
                self.units_at(s, d)
                    .iter()
                    .any(|&u| self.kind(u) == Kind::Redoubt)
            });
            let town = c
                .defenders
                .iter()
                .any(|&d| self.sc.map.terrain(d).is_town());
            let against = match (redoubt, town) {
                (true, _) => Some("cavalry against a redoubt (F/L 10.3)"),
                (false, true) => Some("cavalry against a town (F/L 10.3)"),
                (false, false) => None,
            };
            if let Some(why) = against {
                mods.push((why.into(), cav_drm));
            }
        }
        // Artillery in the hexes: Hastenbeck 10.3 with the enemy in its fire arc; F/L 10.3
        // whenever a gun takes part.
        let needs_arc = self.edition.artillery_drm_needs_arc();
        let gun_covers = |hexes: &[HexId], targets: &[HexId]| {
            hexes.iter().any(|&h| {
                self.units_at(s, h).into_iter().any(|g| {
                    self.kind(g).is_guns()
                        // 10.3 "the enemy is in its fire arc"; a redoubt fires through its two
                        // forward hexes like any gun (9.1 note).
                        && (!needs_arc
                            || targets
                                .iter()
                                .any(|&t| s.units[usize::from(g)].facing.in_fire_arc(h, t)))
                })
            })
        };
        if gun_covers(&c.attackers, &c.defenders) {
            mods.push(("attacking artillery".into(), i32::from(m.artillery)));
        }
        if gun_covers(&c.defenders, &c.attackers) {
            mods.push(("defending artillery".into(), -i32::from(m.artillery)));
        }
        // Terrain: the most favourable to the defender (10.3).
        let mut terrain: Vec<(String, i32)> = Vec::new();
        for &d in &c.defenders {
            let mut t = 0i32;
            let mut why = Vec::new();
            let tr = self.sc.tables.terrain(self.sc.map.terrain(d)).combat;
            if tr != 0 {
                t += i32::from(tr);
                why.push(self.sc.map.terrain(d).name().to_string());
            }
            if self
                .units_at(s, d)
                .iter()
                .any(|&u| self.kind(u) == Kind::Redoubt)
            {
                t += i32::from(tb.redoubt.combat);
                why.push("redoubt".into());
            }
            if s.abattis.contains(&d) {
                t += i32::from(tb.abattis.combat);
                why.push("abattis".into());
            }
            let mut across = 0i32;
            for &a in &c.attackers {
                if a.distance(d) != 1 {
                    continue;
                }
                let sd = self.sc.map.side(a, d);
                let mut x = 0;
                if sd & side_bits::STREAM != 0 {
                    x += i32::from(tb.hexsides.stream.combat);
                }
                if sd & side_bits::RIVER != 0 {
                    x += i32::from(tb.hexsides.river.combat);
                }
                if self.sc.map.level(d) > self.sc.map.level(a) {
                    x += i32::from(tb.heights.attack_uphill);
                }
                across = across.min(x);
            }
            if across != 0 {
                t += across;
                why.push("stream/river/uphill".into());
            }
            terrain.push((why.join(", "), t));
        }
        if let Some(worst) = terrain.into_iter().min_by_key(|x| x.1)
            && worst.1 != 0
        {
            mods.push((format!("terrain: {}", worst.0), worst.1));
        }
        // Flank and rear: the least favourable facing to the defender.
        let mut best = 0i32;
        for &d in &c.def_units {
            for &a in &c.attackers {
                if s.units[usize::from(d)]
                    .hex
                    .is_some_and(|dh| dh.distance(a) == 1)
                {
                    best = best.max(match self.attack_arc(s, d, a) {
                        Arc::Front => 0,
                        Arc::Flank => i32::from(m.flank),
                        Arc::Rear => i32::from(m.rear),
                    });
                }
            }
        }
        if best > 0 {
            mods.push((
                if best == i32::from(m.rear) {
                    "rear attack"
                } else {
                    "flank attack"
                }
                .into(),
                best,
            ));
        }
        let total = mods.iter().map(|x| x.1).sum();
        (total, mods)
    }

    /// Retreat options for a group (11.2): adjacent hexes in preference order — rear hexes free of
    /// enemy front/flank, rear hexes, other hexes free of enemy front/flank, others; never an enemy
    /// hex, impassable terrain, or a hex already visited.
    pub fn retreat_options(&self, s: &State, r: &Retreat) -> Vec<HexId> {
        let Some(&lead) = r.units.first() else {
            return Vec::new();
        };
        let Some(h) = s.units[usize::from(lead)].hex else {
            return Vec::new();
        };
        let facing = s.units[usize::from(lead)].facing;
        let enemy = r.side.other();
        let mut tiers: [Vec<HexId>; 4] = Default::default();
        for (d, n) in h.neighbours() {
            if !self.sc.map.contains(n)
                || r.visited.contains(&n)
                || self.side_at(s, n) == Some(enemy)
            {
                continue;
            }
            if r.units.iter().any(|&u| {
                self.move_cost(s, crate::query::Mover::Unit(self.kind(u)), h, n)
                    .is_none()
            }) {
                continue;
            }
            let rear = facing.rear().contains(&d) || r.units.iter().all(|&u| self.light(s, u));
            let hostile = matches!(
                self.enemy_arc_at(s, n, enemy),
                Some(Arc::Front) | Some(Arc::Flank)
            );
            let t = match (rear, hostile) {
                (true, false) => 0,
                (true, true) => 1,
                (false, false) => 2,
                (false, true) => 3,
            };
            tiers[t].push(n);
        }
        tiers
            .into_iter()
            .find(|t| !t.is_empty())
            .unwrap_or_default()
    }

    /// One hex of retreat (11.2), with the penalties of retreating into enemy front or flank hexes
    /// and through friends.
    pub fn retreat_step(&self, s: &mut State, to: HexId, ev: &mut Vec<Event>) {
        let Some(Frame::Retreat(mut r)) = s.frames.pop() else {
            return;
        };
        let base = s.frames.len();
        let from = r.units.first().and_then(|&u| s.units[usize::from(u)].hex);
        let cmdrs = from.map(|h| self.commanders_at(s, h)).unwrap_or_default();
        self.overrun(s, to, r.side, ev);
        let before = self.units_at(s, to);
        for &u in &r.units {
            s.units[usize::from(u)].hex = Some(to);
            s.units[usize::from(u)].order = 10 + s.units[usize::from(u)].order;
        }
        self.renumber(s, to);
        for c in cmdrs {
            s.commanders[usize::from(c)].hex = Some(to);
        }
        r.visited.push(to);
        r.left = r.left.saturating_sub(1);
        ev.push(Event::rule(
            "11.2",
            self.unit_line(s, &r.units)
                .verb(" retreats", " retreat")
                .t(format!(" to {to}")),
        ));
        // Through friends (11.2.1).
        let friends: Vec<UnitIx> = before
            .into_iter()
            .filter(|&u| self.side_of(u) == r.side && self.shares_results(u))
            .collect();
        if !friends.is_empty() {
            let f0 = s.units[usize::from(r.units[0])].facing;
            let same = friends
                .iter()
                .all(|&u| s.units[usize::from(u)].facing == f0);
            if same {
                if !self.morale_test(s, &friends, 0, false, "", "11.2.1", ev) {
                    for &u in &friends {
                        self.disorganise(s, u, true, "11.2.1", ev);
                    }
                }
            } else {
                for &u in &friends {
                    self.disorganise(s, u, true, "11.2.1", ev);
                }
            }
            if r.left == 0 {
                r.left = 1; // continue to the first hex free of friends
            }
        }
        // Into enemy front / flank hexes (11.2.1).
        match self.enemy_arc_at(s, to, r.side.other()) {
            Some(Arc::Front) => {
                ev.push(Event::rule(
                    "11.2",
                    "retreat into an enemy front hex: one step lost and a morale test +2",
                ));
                if let Some(&top) = r.units.first() {
                    self.lose_step(s, top, "11.2", ev);
                }
                // 11.4: the commanders retreating with the stack.
                for c in self.commanders_at(s, to) {
                    if self.sc.commanders[usize::from(c)].side == r.side {
                        self.commander_casualty(s, c, to, true, ev);
                    }
                }
                self.test_or_disorganise(s, &r.units, 2, "retreat into a front hex", "11.2", ev);
            }
            Some(Arc::Flank) => {
                self.test_or_disorganise(s, &r.units, 1, "retreat into a flank hex", "11.2", ev);
            }
            _ => {}
        }
        r.units
            .retain(|&u| self.alive(s, u) && !self.has(s, u, flag::ROUTED));
        if r.left > 0 && !r.units.is_empty() {
            // Keep the frame below any rout frames pushed meanwhile (a routed unit routs first).
            s.frames.insert(base.min(s.frames.len()), Frame::Retreat(r));
        }
    }

    /// Renumber a stack's order 0.. keeping relative order.
    pub fn renumber(&self, s: &mut State, h: HexId) {
        let st = self.units_at(s, h);
        for (i, u) in st.into_iter().enumerate() {
            s.units[usize::from(u)].order = i as u8;
        }
    }

    /// Rout options (12.4): adjacent hexes strictly nearer the friendly edge, not enemy-occupied,
    /// enterable, from which the rest of the rout can be completed. Stepping off the edge is `None`.
    pub fn rout_options(&self, s: &State, r: &Rout) -> Vec<HexId> {
        let Some(h) = s.units[usize::from(r.unit)].hex else {
            return Vec::new();
        };
        let k = self.kind(r.unit);
        let mut out = Vec::new();
        for (_, n) in h.neighbours() {
            if self.rout_enterable(s, r, h, n, k) && self.rout_completable(s, r, n, r.left - 1, k) {
                out.push(n);
            }
        }
        out.sort();
        out
    }

    fn rout_enterable(&self, s: &State, r: &Rout, from: HexId, to: HexId, k: Kind) -> bool {
        self.sc.map.contains(to)
            && self.sc.map.edge_distance(r.side, to) < self.sc.map.edge_distance(r.side, from)
            && self.side_at(s, to) != Some(r.side.other())
            && self
                .move_cost(s, crate::query::Mover::Unit(k), from, to)
                .is_some()
    }

    fn rout_completable(&self, s: &State, r: &Rout, at: HexId, left: u8, k: Kind) -> bool {
        if left == 0 {
            let mut here = self.units_at(s, at);
            here.push(r.unit);
            return self.stacking_ok(at, &here, s)
                || at
                    .neighbours()
                    .any(|(_, n)| self.rout_enterable(s, r, at, n, k));
        }
        at.neighbours().any(|(_, n)| {
            self.rout_enterable(s, r, at, n, k) && self.rout_completable(s, r, n, left - 1, k)
        })
    }

    /// One hex of rout (12.4).
    pub fn rout_step(&self, s: &mut State, to: HexId, ev: &mut Vec<Event>) {
        let Some(Frame::Rout(mut r)) = s.frames.pop() else {
            return;
        };
        let u = r.unit;
        self.overrun(s, to, r.side, ev);
        for &c in &r.commanders {
            s.commanders[usize::from(c)].hex = Some(to);
        }
        s.units[usize::from(u)].hex = Some(to);
        s.units[usize::from(u)].order = 20;
        self.renumber(s, to);
        r.left = r.left.saturating_sub(1);
        ev.push(Event::rule(
            "12.4",
            self.unit_line(s, &[u])
                .verb(" routs", " rout")
                .t(format!(" to {to}")),
        ));
        let others: Vec<UnitIx> = self
            .units_at(s, to)
            .into_iter()
            .filter(|&x| x != u && self.shares_results(x))
            .collect();
        if r.left > 0 {
            for x in others {
                self.disorganise(s, x, true, "12.4 (routed unit passes through)", ev);
            }
            // 12.4: a formation commander the unit passes may go with it.
            if let Some(f) = self.sc.units[usize::from(u)].formation {
                let c = self.formation_commander(f);
                if s.commanders[usize::from(c)].hex == Some(to) && !r.commanders.contains(&c) {
                    r.offer = vec![c];
                }
            }
            s.frames.push(Frame::Rout(r));
        } else if !self.stacking_ok(to, &self.units_at(s, to), s) {
            r.left = 1;
            ev.push(Event::rule(
                "12.4",
                "over-stacked at the end of the rout: one more hex",
            ));
            s.frames.push(Frame::Rout(r));
        }
    }

    /// 1.3: whether the units in `h` may retreat before the combat of `attackers`: every one is
    /// light infantry and a normal infantry unit attacks, or every one is light cavalry and normal
    /// infantry or heavy cavalry attacks.
    pub fn evade_allowed(&self, s: &State, h: HexId, attackers: &[UnitIx]) -> bool {
        let st = self.combat_units_at(s, h);
        let att_inf = attackers.iter().any(|&u| self.kind(u) == Kind::Infantry);
        let att_heavy = attackers
            .iter()
            .any(|&u| matches!(self.kind(u), Kind::Infantry | Kind::HeavyCavalry));
        !st.is_empty()
            && ((st.iter().all(|&u| self.kind(u) == Kind::LightInfantry) && att_inf)
                || (st.iter().all(|&u| self.kind(u) == Kind::LightCavalry) && att_heavy))
    }

    /// 1.3 with 3.6: whether the attacker, seeing only the top counter of the stack in `h`, could
    /// believe that its units may retreat before combat — a stack with units he may not see, under
    /// a gun or under a light unit whose kind allows it.
    fn evade_could_be_allowed(&self, s: &State, h: HexId, attackers: &[UnitIx]) -> bool {
        let here = self.units_at(s, h);
        let Some(&top) = here.first() else {
            return false;
        };
        if here.len() < 2 {
            return false;
        }
        let att_inf = attackers.iter().any(|&u| self.kind(u) == Kind::Infantry);
        let att_heavy = attackers
            .iter()
            .any(|&u| matches!(self.kind(u), Kind::Infantry | Kind::HeavyCavalry));
        match self.kind(top) {
            Kind::LightInfantry => att_inf,
            Kind::LightCavalry => att_heavy,
            k => k.is_guns() && (att_inf || att_heavy),
        }
    }

    /// Whether a routing unit would leave the map: at its edge with hexes still to go.
    pub fn rout_leaves_map(&self, s: &State, r: &Rout) -> bool {
        s.units[usize::from(r.unit)]
            .hex
            .is_some_and(|h| u32::from(r.left) > self.sc.map.edge_distance(r.side, h))
    }
}

/// What a player may read before declaring an attack or a fire (issue 19): the numbers the table
/// announces (3.6, 10.2), counted only from what the decider sees.
impl Saxe {
    /// The combat units of hex `h` that `side` sees: all of its own; of an enemy stack only the
    /// top counter (3.6), which is a combat unit unless it is a gun (3.5.3).
    fn visible_combat_units(&self, s: &State, h: HexId, side: Side) -> Vec<UnitIx> {
        let here = self.units_at(s, h);
        let all = self.combat_units_at(s, h);
        match here.first() {
            Some(&top) if self.side_of(top) != side => {
                all.into_iter().filter(|&u| u == top).collect()
            }
            _ => all,
        }
    }

    /// Whether `side` sees every combat unit of hex `h` (3.6).
    fn sees_all_of(&self, s: &State, h: HexId, side: Side) -> bool {
        self.visible_combat_units(s, h, side).len() == self.combat_units_at(s, h).len()
    }

    /// 10.1–10.3: the odds of an attack as its attacker may read them before declaring it: the CP
    /// ratio and every modifier (as `combat_modifiers` computes them when it is resolved), each
    /// face of the die with the CRT's results, and whether the attack is mandatory (10.1).
    /// Hidden defenders (3.6) are not counted, and the answer says so.
    pub fn attack_odds(
        &self,
        s: &State,
        attackers: &[HexId],
        defenders: &[HexId],
    ) -> serde_json::Value {
        let side = s.active;
        let c = Combat {
            attackers: attackers.to_vec(),
            defenders: defenders.to_vec(),
            att_units: attackers
                .iter()
                .flat_map(|&h| self.combat_units_at(s, h))
                .collect(),
            def_units: defenders
                .iter()
                .flat_map(|&h| self.visible_combat_units(s, h, side))
                .collect(),
            stage: 0,
            result: None,
            losses_left: [0, 0],
            lost_steps: Vec::new(),
            lost_hexes: Vec::new(),
            evaded: Vec::new(),
            evade_queue: Vec::new(),
            disorg_cav_before: Vec::new(),
        };
        let (drm, mods) = self.combat_modifiers(s, &c);
        let hidden = defenders.iter().any(|&h| !self.sees_all_of(s, h, side));
        let mandatory = attackers.iter().any(|&a| {
            self.mandatory_targets(s, a)
                .iter()
                .any(|t| defenders.contains(t))
        });
        let faces: Vec<(i32, String, String)> = (1..=6)
            .map(|die| {
                let (_, ao, dout) = self.sc.tables.crt(die + drm);
                (die, ao.to_string(), dout.to_string())
            })
            .collect();
        let mut results: Vec<serde_json::Value> = Vec::new();
        let mut seen: Vec<(String, String)> = Vec::new();
        for (_, a, d) in &faces {
            if seen.contains(&(a.clone(), d.clone())) {
                continue;
            }
            seen.push((a.clone(), d.clone()));
            let on: Vec<i32> = faces
                .iter()
                .filter(|f| (&f.1, &f.2) == (a, d))
                .map(|f| f.0)
                .collect();
            results.push(serde_json::json!({
                "attacker": a,
                "defender": d,
                "faces": on,
                "chance": format!("{}/6", on.len()),
            }));
        }
        let mut notes = Vec::new();
        if hidden {
            notes.push(
                "the defending stack has units under its top counter (3.6): their strength, \
                 morale and type are not counted here; they count when the attack is resolved"
                    .to_string(),
            );
        }
        if mandatory {
            notes.push("a mandatory attack (10.1): both stacks in clear terrain".to_string());
        }
        serde_json::json!({
            "kind": "attack",
            "rule": "10.2, 10.3, Combat Results Table",
            "die": "1d6",
            "modifiers": mods
                .iter()
                .map(|(t, v)| serde_json::json!({"text": t, "value": v}))
                .collect::<Vec<_>>(),
            "drm": drm,
            "faces": faces
                .iter()
                .map(|(die, a, d)| serde_json::json!({
                    "die": die, "total": die + drm, "attacker": a, "defender": d,
                }))
                .collect::<Vec<_>>(),
            "results": results,
            "mandatory": mandatory,
            "hidden": hidden,
            "notes": notes,
        })
    }
}

impl Saxe {
    /// 9.2: the odds of `gun`'s fire at hex `target` as its side may read them before firing: the
    /// Artillery Table's modifiers (`fire_modifiers`, as the fire is resolved) and each face of
    /// the die. The unit that takes the result is the stack's top combat unit; when the side
    /// does not see it (under a gun, 3.6) the modifiers that depend on it are left out, and the
    /// answer says so.
    pub fn fire_odds(&self, s: &State, gun: UnitIx, target: HexId) -> Option<serde_json::Value> {
        let side = self.side_of(gun);
        let here = self.result_units_at(s, target);
        let visible = self.visible_combat_units(s, target, side);
        let hidden = !self.sees_all_of(s, target, side);
        // The unit that takes the result first: the top combat unit if seen, else the top.
        let top = visible
            .first()
            .copied()
            .or_else(|| self.units_at(s, target).first().copied())?;
        let seen = !visible.is_empty();
        self.fire_odds_on(
            s,
            gun,
            target,
            top,
            (hidden, seen, here.is_empty()),
            "9.2, 9.4.1, Artillery Table",
        )
    }

    /// 9.3: the odds of a reaction fire of `gun` at hex `target`, as the reacting side may read
    /// them: aimed at the hex a unit entered, the fire falls on the units in it; aimed at the hex
    /// it left, on the units that moved out of it (as `ReactionFire` is resolved). The unit that
    /// takes the result first is the top one of them the side sees (3.6).
    pub fn reaction_fire_odds(
        &self,
        s: &State,
        gun: UnitIx,
        target: HexId,
    ) -> Option<serde_json::Value> {
        let Some(Frame::Reaction(r)) = s.frames.last() else {
            return None;
        };
        let side = self.side_of(gun);
        let (at, victims): (HexId, Vec<UnitIx>) =
            if let Some(&(_, _, to)) = r.movers.iter().find(|m| m.2 == target) {
                (to, self.combat_units_at(s, to))
            } else {
                let first_to = r.movers.iter().find(|m| m.1 == target).map(|m| m.2)?;
                (
                    first_to,
                    r.movers
                        .iter()
                        .filter(|m| m.1 == target && m.2 == first_to)
                        .map(|m| m.0)
                        .collect(),
                )
            };
        let visible: Vec<UnitIx> = self
            .visible_combat_units(s, at, side)
            .into_iter()
            .filter(|u| victims.contains(u))
            .collect();
        let hidden = !self.sees_all_of(s, at, side);
        let top = visible
            .first()
            .copied()
            .or_else(|| victims.first().copied())?;
        let seen = !visible.is_empty();
        self.fire_odds_on(
            s,
            gun,
            target,
            top,
            (hidden, seen, victims.is_empty()),
            "9.3, 9.4.1, Artillery Table",
        )
    }

    /// The odds of `gun`'s fire at hex `target` whose result `top` takes first; `(hidden, seen,
    /// none)`: units the side does not see are there, the side sees `top`, no unit takes a result.
    fn fire_odds_on(
        &self,
        s: &State,
        gun: UnitIx,
        target: HexId,
        top: UnitIx,
        (hidden, seen, none): (bool, bool, bool),
        rule: &str,
    ) -> Option<serde_json::Value> {
        let from = s.units[usize::from(gun)].hex?;
        let mut mods = self.fire_modifiers(s, gun, from, target, top);
        if hidden && !seen {
            // The top counter is a gun: whether the units under it are light troops or face
            // away is not the firer's to know.
            mods.retain(|(t, _)| t != "light target" && t != "flank fire (9.4.1)");
        }
        let drm: i32 = mods.iter().map(|m| m.1).sum();
        let faces: Vec<(i32, String)> = (1..=6)
            .map(|die| (die, self.sc.tables.artillery(die + drm).1.to_string()))
            .collect();
        let mut results: Vec<serde_json::Value> = Vec::new();
        let mut seen: Vec<&String> = Vec::new();
        for (_, r) in &faces {
            if seen.contains(&r) {
                continue;
            }
            seen.push(r);
            let on: Vec<i32> = faces.iter().filter(|f| &f.1 == r).map(|f| f.0).collect();
            results.push(serde_json::json!({
                "target": r, "faces": on, "chance": format!("{}/6", on.len()),
            }));
        }
        let mut notes = Vec::new();
        if none {
            notes.push("no unit in the hex takes a result".to_string());
        }
        if hidden {
            notes.push(
                "the target stack has units under its top counter (3.6): what depends on them \
                 is not counted here"
                    .to_string(),
            );
        }
        Some(serde_json::json!({
            "kind": "fire",
            "rule": rule,
            "die": "1d6",
            "modifiers": mods
                .iter()
                .map(|(t, v)| serde_json::json!({"text": t, "value": v}))
                .collect::<Vec<_>>(),
            "drm": drm,
            "faces": faces
                .iter()
                .map(|(die, r)| serde_json::json!({"die": die, "total": die + drm, "target": r}))
                .collect::<Vec<_>>(),
            "results": results,
            "mandatory": false,
            "hidden": hidden,
            "notes": notes,
        }))
    }

    /// [`engine::Ruleset::odds`]: attacks (10.2), fire (9.2) and reaction fire (9.3) before they
    /// are declared.
    pub fn odds_json(&self, s: &State, a: &crate::Action) -> Option<serde_json::Value> {
        use crate::Action as A;
        match a {
            A::Attack {
                attackers,
                defenders,
            } => Some(self.attack_odds(s, attackers, defenders)),
            A::ArtilleryFire { unit, target } | A::RedoubtFire { unit, target } => {
                self.fire_odds(s, *unit, *target)
            }
            A::ReactionFire { unit, target } => self.reaction_fire_odds(s, *unit, *target),
            // The other actions roll nothing before another decision, or what they roll is not
            // a fire or a combat (activation, morale): no odds.
            A::EndRedoubtFire
            | A::Activate { .. }
            | A::ActivateAuto { .. }
            | A::ActivateIndependent { .. }
            | A::ArtilleryFace { .. }
            | A::CommanderStep { .. }
            | A::MoveUnit { .. }
            | A::MoveStack { .. }
            | A::MoveLine { .. }
            | A::TurnInPlace { .. }
            | A::EndActivation
            | A::Step { .. }
            | A::Turn { .. }
            | A::AboutFace
            | A::ChangeOrder
            | A::Drop { .. }
            | A::Pivot { .. }
            | A::LeaveZoc { .. }
            | A::Stop
            | A::CavalryReaction { .. }
            | A::Pass
            | A::EndCombat
            | A::Evade
            | A::AllocateLoss { .. }
            | A::RetreatTo { .. }
            | A::Advance { .. }
            | A::ArmyStep { .. }
            | A::EndArmyMove
            | A::Promote { .. }
            | A::PlaceAide { .. }
            | A::Accompany { .. }
            | A::StopAccompanying { .. }
            | A::ArmyWithStack
            | A::ChiefWithStack { .. }
            | A::CavalryLineReaction { .. }
            | A::PlaceUnit { .. }
            | A::FaceUnit { .. }
            | A::PlaceAbattis { .. }
            | A::PlaceCommander { .. }
            | A::SetUpOnMap { .. }
            | A::EnterInColumn { .. }
            | A::March { .. }
            | A::Deploy { .. }
            | A::ColumnUnit { .. }
            | A::EnterUnit { .. }
            | A::Reinforce { .. }
            | A::EndColumn
            | A::IndependentColumn { .. } => None,
        }
    }
}
