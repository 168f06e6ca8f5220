//! Legal actions and their application, for every pending decision.
use crate::Saxe;
use crate::action::Action;
use crate::event::{Event, Line};
use crate::query::Mover;
use crate::scenario::{CommanderIx, Kind, Side, Terrain, UnitIx};
use crate::state::*;
use hexmap::{Arc, Dir, HexId, Vertex};

impl Saxe {
    /// The legal actions of the decider, in a stable order.
    pub fn legal(&self, s: &State) -> Vec<Action> {
        if s.phase == Phase::Over {
            return Vec::new();
        }
        match s.frames.last() {
            None => self.legal_phase(s),
            Some(Frame::Activation(a)) => self.legal_activation(s, a),
            Some(Frame::Moving(m)) => self.legal_moving(s, m),
            Some(Frame::Reaction(r)) => self.legal_reaction(s, r),
            Some(Frame::Combat(_)) => Vec::new(),
            Some(Frame::Losses { hexes, .. }) => hexes
                .iter()
                .map(|&hex| Action::AllocateLoss { hex })
                .collect(),
            Some(Frame::Retreat(r)) => self
                .retreat_options(s, r)
                .into_iter()
                .map(|to| Action::RetreatTo { to })
                .collect(),
            Some(Frame::Rout(r)) => {
                if !r.offer.is_empty() {
                    let mut v: Vec<Action> = r
                        .offer
                        .iter()
                        .map(|&commander| Action::Accompany { commander })
                        .collect();
                    v.push(Action::Pass);
                    return v;
                }
                let mut v: Vec<Action> = self
                    .rout_options(s, r)
                    .into_iter()
                    .map(|to| Action::RetreatTo { to })
                    .collect();
                if !v.is_empty() {
                    v.extend(
                        r.commanders
                            .iter()
                            .map(|&commander| Action::StopAccompanying { commander }),
                    );
                }
                v
            }
            Some(Frame::Advance(a)) => {
                let mut v = Vec::new();
                let mut must = !a.options.is_empty();
                for &(from, to) in &a.options {
                    let st: Vec<UnitIx> = self
                        .combat_units_at(s, from)
                        .into_iter()
                        .filter(|&u| !self.has(s, u, flag::ROUTED))
                        .collect();
                    // 11.3: Hastenbeck lets the top unit or the stack advance; F/L only the
                    // top unit, so only it decides whether cavalry must.
                    let whole = self.edition.advance_whole_stack();
                    let movers = if whole {
                        &st[..]
                    } else {
                        &st[..st.len().min(1)]
                    };
                    if movers.iter().any(|&u| !self.kind(u).is_cavalry()) {
                        must = false;
                    }
                    v.push(Action::Advance {
                        from,
                        to,
                        whole_stack: false,
                    });
                    if whole && st.len() > 1 {
                        v.push(Action::Advance {
                            from,
                            to,
                            whole_stack: true,
                        });
                    }
                }
                // 11.3: victorious cavalry must advance.
                if !must {
                    v.push(Action::Pass);
                }
                v
            }
            Some(Frame::Evade { hex, .. }) => {
                // 3.6: asked even when the hidden units may not evade (see the combat's stage 0);
                // then standing is the only choice.
                let attackers = s
                    .frames
                    .iter()
                    .rev()
                    .find_map(|f| match f {
                        Frame::Combat(c) => Some(c.att_units.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                if self.evade_allowed(s, *hex, &attackers) {
                    vec![Action::Evade, Action::Pass]
                } else {
                    vec![Action::Pass]
                }
            }
            // 11.4: "uno de los comandantes de formación" on the map; never Louis XV, who obeys
            // the army commanders' rules (F/L 0.1) and is no formation commander, even when he
            // leads the Lauffeld Household (docs/editions.md A28).
            Some(Frame::NewArmyCommander { side }) => (0..s.commanders.len() as CommanderIx)
                .filter(|&c| {
                    let d = &self.sc.commanders[usize::from(c)];
                    d.side == *side
                        && !d.army
                        && !d.king
                        && s.commanders[usize::from(c)].hex.is_some()
                })
                .map(|commander| Action::Promote { commander })
                .collect(),
            Some(Frame::Column { formation, .. }) => self.legal_column(s, *formation),
            Some(Frame::PlaceAide { commander, .. }) => {
                let f = self.sc.commanders[usize::from(*commander)].formation;
                f.map(|f| self.formation_units(s, f))
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|&u| !self.kind(u).is_guns())
                    .map(|unit| Action::PlaceAide { unit })
                    .collect()
            }
        }
    }

    fn legal_phase(&self, s: &State) -> Vec<Action> {
        let side = s.active;
        match s.phase {
            Phase::RedoubtFire => {
                let mut v = Vec::new();
                for u in 0..s.units.len() as UnitIx {
                    if self.side_of(u) == side
                        && self.kind(u) == Kind::Redoubt
                        && self.alive(s, u)
                        && !self.has(s, u, flag::FIRED)
                        && !self.gun_moved_prev(s, u)
                    {
                        for t in self.fire_targets(s, u) {
                            v.push(Action::RedoubtFire { unit: u, target: t });
                        }
                    }
                }
                if !v.is_empty() {
                    v.push(Action::EndRedoubtFire);
                }
                v
            }
            Phase::ChooseActivation => {
                let mut v = Vec::new();
                for (i, f) in self.sc.formations.iter().enumerate() {
                    let fi = i as u8;
                    if f.side != side || s.formations[i].tested {
                        continue;
                    }
                    let members = self.formation_units(s, fi);
                    // 16.1/16.2 Household; Lauffeld: not once one of its units acted alone.
                    if members.is_empty()
                        || !self.household_may_act(s, &members)
                        || (self.household_independent(fi)
                            && members.iter().any(|&u| self.has(s, u, flag::ACTIVATED)))
                    {
                        continue;
                    }
                    v.push(Action::Activate { formation: fi });
                    if self.autos_left(s, side) > 0 {
                        v.push(Action::ActivateAuto { formation: fi });
                    }
                }
                for u in 0..s.units.len() as UnitIx {
                    let d = &self.sc.units[usize::from(u)];
                    // Lauffeld 16.2: a Household unit may also act on its own.
                    let alone = match d.formation {
                        None => true,
                        Some(f) => {
                            self.household_independent(f) && !s.formations[usize::from(f)].tested
                        }
                    };
                    if d.side == side
                        && alone
                        && d.kind != Kind::Redoubt
                        && self.alive(s, u)
                        && !self.has(s, u, flag::ACTIVATED)
                        && self.household_may_act(s, &[u])
                    {
                        v.push(Action::ActivateIndependent { unit: u });
                    }
                }
                for (unit, hexes) in self.reinforcement_entries(s, side) {
                    for hex in hexes {
                        v.push(Action::Reinforce { unit, hex });
                    }
                }
                v
            }
            Phase::Combat => {
                let (attacks, may_end) = self.attacks_and_may_end(s);
                if attacks.is_empty() {
                    return Vec::new();
                }
                let mut v: Vec<Action> = attacks
                    .into_iter()
                    .map(|(attackers, defenders)| Action::Attack {
                        attackers,
                        defenders,
                    })
                    .collect();
                if may_end {
                    v.push(Action::EndCombat);
                }
                v
            }
            Phase::ArmyCommander(mp) => {
                let Some(c) = self.army_commander(s, side) else {
                    return Vec::new();
                };
                let Some(h) = s.commanders[usize::from(c)].hex else {
                    return Vec::new();
                };
                let full = if s.army_moved_with[side.ix()] { 3 } else { 6 };
                let stack_can = mp == full
                    && !self.halted(s, side)
                    && self.combat_units_at(s, h).iter().any(|&u| {
                        self.side_of(u) == side
                            && !self.has(s, u, flag::ROUTED)
                            && !self.has(s, u, flag::MOVED)
                    });
                let mut v: Vec<Action> = self
                    .commander_steps(s, h, side, mp)
                    .into_iter()
                    .map(|(to, _)| Action::ArmyStep { to })
                    .collect();
                if stack_can {
                    v.push(Action::ArmyWithStack);
                }
                if !v.is_empty() {
                    v.push(Action::EndArmyMove);
                }
                v
            }
            Phase::Setup => self.legal_setup(s),
            Phase::March(side) => self.legal_march(s, side),
            Phase::Rally | Phase::EndOfTurn | Phase::Over => Vec::new(),
        }
    }

    fn members(&self, s: &State, a: &Activation) -> Vec<UnitIx> {
        match a.target {
            ActTarget::Formation(f) => self.formation_units(s, f),
            ActTarget::Independent(u) => {
                if self.alive(s, u) {
                    vec![u]
                } else {
                    Vec::new()
                }
            }
        }
    }

    fn legal_activation(&self, s: &State, a: &Activation) -> Vec<Action> {
        let mut v = Vec::new();
        let members = self.members(s, a);
        let halted = self.halted(s, a.side);
        // 2a / 2b: artillery first.
        if !a.moving_started {
            for &u in &members {
                let k = self.kind(u);
                // 12.3: a routed gun (F/L, A15) does nothing but rout.
                if !k.is_guns() || self.has(s, u, flag::ROUTED) {
                    continue;
                }
                if !self.has(s, u, flag::FIRED) && !self.gun_moved_prev(s, u) {
                    for t in self.fire_targets(s, u) {
                        v.push(Action::ArtilleryFire { unit: u, target: t });
                    }
                }
                if k == Kind::Artillery
                    && !self.has(s, u, flag::TURNED)
                    && !self.has(s, u, flag::FIRED)
                {
                    v.push(Action::ArtilleryFace {
                        unit: u,
                        clockwise: true,
                    });
                    v.push(Action::ArtilleryFace {
                        unit: u,
                        clockwise: false,
                    });
                }
            }
        }
        if halted {
            v.push(Action::EndActivation);
            return v;
        }
        // F/L 4.B1 step 3: the army commander / Louis XV, before the formation commander, alone
        // or, not having moved yet, with his stack (A6).
        for &(c, mp) in &a.chiefs {
            if mp == CHIEF_MP && !self.chief_stack(s, a, c).is_empty() {
                v.push(Action::ChiefWithStack { commander: c });
            }
            if let Some(h) = s.commanders[usize::from(c)].hex {
                for (to, _) in self.commander_steps(s, h, a.side, mp) {
                    v.push(Action::CommanderStep {
                        commander: c,
                        to,
                        with_army: false,
                    });
                }
            }
        }
        // Formation commander (8.5; 5.3 at half); F/L 4.B1: before the unit action.
        if let ActTarget::Formation(f) = a.target {
            let c = self.formation_commander(f);
            if a.cmdr_mp > 0
                && (a.kinds_used == 0 || !self.edition.officer_moves_first())
                && let Some(h) = s.commanders[usize::from(c)].hex
            {
                // 4.B5: the army commander stacked with him may go along (his own B5 move is
                // then halved).
                let army_here = self
                    .army_commander(s, a.side)
                    .filter(|&ac| s.commanders[usize::from(ac)].hex == Some(h))
                    .filter(|_| !self.edition.army_moves_in_activation());
                for (to, _) in self.commander_steps(s, h, a.side, a.cmdr_mp) {
                    v.push(Action::CommanderStep {
                        commander: c,
                        to,
                        with_army: false,
                    });
                    if army_here.is_some() {
                        v.push(Action::CommanderStep {
                            commander: c,
                            to,
                            with_army: true,
                        });
                    }
                }
            }
        }
        let independent = matches!(a.target, ActTarget::Independent(_));
        // 5.3: after a failure Hastenbeck lets one unit or stack move at half; F/L none.
        if a.actions_left > 0
            && (a.success || (!independent && self.edition.failed_activation_half_moves()))
        {
            let pool: Vec<UnitIx> = members
                .iter()
                .copied()
                .filter(|&u| self.movable(s, a, u))
                .collect();
            let cmdr = match a.target {
                ActTarget::Formation(f) => Some(self.formation_commander(f)),
                ActTarget::Independent(_) => None,
            };
            let cmdr_hex = cmdr.and_then(|c| s.commanders[usize::from(c)].hex);
            // F/L 4.B1: the officer's step 4 (with the units he is stacked with) comes before
            // the units' step 5, so not with a second action.
            let can_with = a.cmdr_mp > 0
                && (a.success && a.cmdr_mp == 6 || !a.success && a.cmdr_mp == 3)
                && (a.kinds_used == 0 || !self.edition.officer_moves_first());
            // 14.4: an activated independent unit may march in column (Hastenbeck); F/L 17: one
            // that entered in column may march on (or deploy by an ordinary move, 14.3).
            if let (ActTarget::Independent(iu), true) = (a.target, a.success)
                && (self.edition.independent_columns()
                    || (self.has(s, iu, flag::COLUMN) && !self.has(s, iu, flag::DEPLOYING)))
                && pool.contains(&iu)
                && a.kinds_used & 1 == 0
                && !self.kind(iu).is_guns()
            {
                v.push(Action::IndependentColumn { unit: iu });
            }
            if a.kinds_used & 1 == 0 {
                for &u in &pool {
                    v.push(Action::MoveUnit {
                        unit: u,
                        with_commander: false,
                    });
                    if can_with && cmdr_hex == s.units[usize::from(u)].hex {
                        v.push(Action::MoveUnit {
                            unit: u,
                            with_commander: true,
                        });
                    }
                }
            }
            if a.kinds_used & 2 == 0 {
                let mut hexes: Vec<HexId> = pool
                    .iter()
                    .filter_map(|&u| s.units[usize::from(u)].hex)
                    .collect();
                hexes.sort();
                hexes.dedup();
                for h in hexes {
                    let here: Vec<UnitIx> = self
                        .units_at(s, h)
                        .into_iter()
                        .filter(|&u| self.kind(u) != Kind::Redoubt)
                        .collect();
                    let moving: Vec<UnitIx> =
                        here.iter().copied().filter(|u| pool.contains(u)).collect();
                    if moving.len() >= 2
                        && moving.iter().filter(|&&u| !self.kind(u).is_guns()).count() >= 1
                        && here
                            .iter()
                            .filter(|&&u| !self.kind(u).is_guns())
                            .all(|u| pool.contains(u))
                    {
                        v.push(Action::MoveStack {
                            hex: h,
                            with_commander: false,
                        });
                        if can_with && cmdr_hex == Some(h) {
                            v.push(Action::MoveStack {
                                hex: h,
                                with_commander: true,
                            });
                        }
                    }
                }
            }
            if a.kinds_used & 4 == 0 && a.success && !independent {
                let mut seen: Vec<UnitIx> = Vec::new();
                for &u in &pool {
                    if seen.contains(&u) || self.kind(u).is_guns() {
                        continue;
                    }
                    let line = self.line_of(s, u, &pool);
                    seen.extend(line.iter().copied());
                    let mut hexes: Vec<HexId> = line
                        .iter()
                        .filter_map(|&x| s.units[usize::from(x)].hex)
                        .collect();
                    hexes.sort();
                    hexes.dedup();
                    if hexes.len() >= 2 {
                        v.push(Action::MoveLine { unit: u });
                    }
                }
            }
        }
        // 6.4 out-of-command units, 6.6 failed independent unit: one vertex.
        let turners: Vec<UnitIx> = if !self.edition.stranded_may_turn() {
            Vec::new()
        } else if a.success {
            members
                .iter()
                .copied()
                .filter(|&u| self.has(s, u, flag::OOC))
                .collect()
        } else if independent {
            members.clone()
        } else {
            Vec::new()
        };
        for u in turners.iter().copied() {
            // The whole stack turns together (3.1 common facing).
            let mates_ok = s.units[usize::from(u)].hex.is_some_and(|h| {
                self.combat_units_at(s, h)
                    .iter()
                    .all(|x| turners.contains(x))
            });
            if mates_ok
                && self
                    .combat_units_at(s, s.units[usize::from(u)].hex.unwrap_or(HexId::new(0, 0)))
                    .first()
                    != Some(&u)
            {
                continue; // offered once per stack, by its top unit
            }
            if mates_ok
                && !self.has(s, u, flag::TURNED)
                && !self.has(s, u, flag::ROUTED)
                && !self.kind(u).is_guns()
                && !self.enemy_in_own_zoc(s, u)
            {
                v.push(Action::TurnInPlace {
                    unit: u,
                    clockwise: true,
                });
                v.push(Action::TurnInPlace {
                    unit: u,
                    clockwise: false,
                });
            }
        }
        v.push(Action::EndActivation);
        v
    }

    fn group_dirs(&self, s: &State, m: &Moving) -> Vec<Dir> {
        if m.units.iter().all(|&u| self.light(s, u)) {
            Dir::ALL.to_vec()
        } else {
            s.units[usize::from(m.units[0])].facing.front().to_vec()
        }
    }

    /// Whether the group can step one hex in `dir`; returns per-unit (from, to, cost).
    pub fn step_plan(&self, s: &State, m: &Moving, dir: Dir) -> Option<Vec<(HexId, HexId, u8)>> {
        let enemy = m.side.other();
        let mut plan = Vec::new();
        for (i, &u) in m.units.iter().enumerate() {
            let from = s.units[usize::from(u)].hex?;
            let to = from.neighbour(dir)?;
            let cost = self.move_cost(s, Mover::Unit(self.kind(u)), from, to)?;
            if cost > m.mp[i] {
                return None;
            }
            let enemy_there = self.side_at(s, to) == Some(enemy);
            let enemy_combat_there = enemy_there && !self.combat_units_at(s, to).is_empty();
            if enemy_combat_there {
                return None;
            }
            let lone_guns = enemy_there;
            if lone_guns && self.edition.lone_guns_destroyed_by_attack() {
                return None; // F/L 11.5: a lone gun is attacked, not overrun
            }
            if self.in_zoc_of(s, from, enemy)
                && (!lone_guns
                    || self.in_zoc_of_others(s, from, enemy, to)
                    || self.in_zoc_of_others(s, to, enemy, to))
            {
                // 7.1, 8.4: leave a ZoC only by retreating. Entering the hex of lone enemy guns
                // destroys them (11.5) and lifts their own ZoC, no other: the unit must not be
                // held by other enemies, nor go from the guns' ZoC into another enemy ZoC.
                return None;
            }
            if self.demoralised(s, u) && self.in_zoc_of(s, to, enemy) {
                return None; // 13.1
            }
            if m.kind == GroupKind::Column
                && self.nearest_unit_distance(s, to, enemy) < self.column_min_distance()
            {
                return None; // 14.1: not nearer than three hexes to an enemy unit
            }
            plan.push((from, to, cost));
        }
        // Stacking at each destination after the move (3.1), not with stopped units of the line;
        // a light unit joining friends takes their facing (`joining_facing`).
        let mut facings = Vec::with_capacity(m.units.len());
        for (i, &u) in m.units.iter().enumerate() {
            let own = s.units[usize::from(u)].facing;
            facings.push(self.joining_facing(s, u, own, plan[i].1, Some(dir), &m.units)?);
        }
        let facing_of = |x: UnitIx| match m.units.iter().position(|&y| y == x) {
            Some(i) => facings[i],
            None => s.units[usize::from(x)].facing,
        };
        let mut dests: Vec<HexId> = plan.iter().map(|p| p.1).collect();
        dests.sort();
        dests.dedup();
        for d in dests {
            let mut there: Vec<UnitIx> = self
                .units_at(s, d)
                .into_iter()
                .filter(|x| !m.units.contains(x) && self.side_of(*x) == m.side)
                .collect();
            if there.iter().any(|&x| self.has(s, x, flag::DONE)) {
                return None; // 8.7: not with a stopped unit of the line
            }
            for (i, &u) in m.units.iter().enumerate() {
                if plan[i].1 == d {
                    there.push(u);
                }
            }
            if self.stacking_fault(d, &there, s, &facing_of).is_some() {
                return None;
            }
        }
        Some(plan)
    }

    /// 8.4: the facings of a group falling back by `dir` into `to` with `turn` vertices (cavalry),
    /// when it may stack with the friends there (3.1; a light unit takes their facing).
    fn leave_zoc_facings(
        &self,
        s: &State,
        m: &Moving,
        to: HexId,
        dir: Dir,
        turn: i8,
    ) -> Option<Vec<Vertex>> {
        let mut facings = Vec::with_capacity(m.units.len());
        for &u in &m.units {
            let own = s.units[usize::from(u)].facing.turned(i32::from(turn));
            facings.push(self.joining_facing(s, u, own, to, Some(dir), &m.units)?);
        }
        let mut there: Vec<UnitIx> = self
            .units_at(s, to)
            .into_iter()
            .filter(|x| !m.units.contains(x))
            .collect();
        there.extend(m.units.iter().copied());
        let facing_of = |x: UnitIx| match m.units.iter().position(|&y| y == x) {
            Some(i) => facings[i],
            None => s.units[usize::from(x)].facing,
        };
        self.stacking_fault(to, &there, s, &facing_of)
            .is_none()
            .then_some(facings)
    }

    fn legal_moving(&self, s: &State, m: &Moving) -> Vec<Action> {
        let mut v = Vec::new();
        if m.units.is_empty() {
            return v;
        }
        for d in self.group_dirs(s, m) {
            if self.step_plan(s, m, d).is_some() {
                v.push(Action::Step { dir: d });
            }
        }
        let enemy = m.side.other();
        let any_zoc = m.units.iter().any(|&u| {
            s.units[usize::from(u)]
                .hex
                .is_some_and(|h| self.in_zoc_of(s, h, enemy))
        });
        let blocked = m.units.iter().any(|&u| self.enemy_in_own_zoc(s, u))
            || m.units.iter().any(|&u| {
                // 3.1: a unit still inside a stack it is leaving may not turn away from its mates.
                s.units[usize::from(u)].hex.is_some_and(|h| {
                    self.combat_units_at(s, h)
                        .iter()
                        .any(|x| !m.units.contains(x))
                })
            });
        if m.vertices < 3 && !blocked {
            let ok = m.units.iter().enumerate().all(|(i, &u)| {
                let h = s.units[usize::from(u)].hex;
                let c = if m.kind == GroupKind::Column && h.is_some_and(|h| self.on_road(h)) {
                    0 // 14.1
                } else if h.is_some_and(|h| self.in_zoc_of(s, h, enemy)) {
                    2
                } else {
                    1
                };
                m.mp[i] >= c
            });
            if ok {
                v.push(Action::Turn { clockwise: true });
                v.push(Action::Turn { clockwise: false });
            }
        }
        if !any_zoc && !blocked && m.mp.iter().all(|&p| p >= 1) && m.kind != GroupKind::Line {
            v.push(Action::AboutFace);
        }
        let combat_n = m.units.iter().filter(|&&u| !self.kind(u).is_guns()).count();
        if matches!(m.kind, GroupKind::Stack | GroupKind::Half) && combat_n >= 2 {
            let ok = m
                .units
                .iter()
                .enumerate()
                .all(|(i, &u)| m.mp[i] >= self.sc.units[usize::from(u)].mp / 2);
            if ok {
                v.push(Action::ChangeOrder);
            }
        }
        let line_like = m.kind == GroupKind::Line
            || (m.kind == GroupKind::Reaction && {
                let mut hs: Vec<HexId> = m
                    .units
                    .iter()
                    .filter_map(|&u| s.units[usize::from(u)].hex)
                    .collect();
                hs.sort();
                hs.dedup();
                hs.len() >= 2
            });
        if line_like && m.units.len() >= 2 {
            for &u in &m.units {
                v.push(Action::Drop { unit: u });
            }
            // 8.7.1 pivot of a two-hex cavalry line in clear terrain.
            let mut hexes: Vec<HexId> = m
                .units
                .iter()
                .filter_map(|&u| s.units[usize::from(u)].hex)
                .collect();
            hexes.sort();
            hexes.dedup();
            if hexes.len() == 2
                && m.units.iter().all(|&u| self.kind(u).is_cavalry())
                && m.vertices < 3
                && !blocked
            {
                for &p in &hexes {
                    for cw in [true, false] {
                        if let Some(pv) = self
                            .combat_units_at(s, p)
                            .into_iter()
                            .find(|x| m.units.contains(x))
                            && self.pivot_plan(s, m, pv, cw).is_some()
                        {
                            v.push(Action::Pivot {
                                pivot: pv,
                                clockwise: cw,
                            });
                        }
                    }
                }
            }
        }
        if m.hexes == 0
            && m.vertices == 0
            && any_zoc
            && m.kind != GroupKind::Line
            && m.kind != GroupKind::Reaction
        {
            let lead = m.units[0];
            if let Some(h) = s.units[usize::from(lead)].hex {
                let f = s.units[usize::from(lead)].facing;
                let cav = m.units.iter().all(|&u| self.kind(u).is_cavalry());
                for d in f.rear() {
                    let Some(to) = h.neighbour(d) else { continue };
                    let ok = self.sc.map.contains(to)
                        && self.side_at(s, to) != Some(enemy)
                        && !self.in_zoc_of(s, to, enemy)
                        && m.units.iter().all(|&u| {
                            self.move_cost(s, Mover::Unit(self.kind(u)), h, to)
                                .is_some()
                        });
                    if ok {
                        for turn in if cav { vec![0i8, 1, -1] } else { vec![0i8] } {
                            // 8.4 follows 11.2: a friend may be joined if the stack is legal (a
                            // light unit takes the friend's facing, 3.1).
                            if self.side_at(s, to).is_some()
                                && self.leave_zoc_facings(s, m, to, d, turn).is_none()
                            {
                                continue;
                            }
                            v.push(Action::LeaveZoc { to, turn });
                        }
                    }
                }
            }
        }
        let can_stop = match (m.kind, m.target) {
            (GroupKind::Reaction, Some(t)) => {
                let th = s.units[usize::from(t)].hex;
                let adjacent = m.units.iter().any(|&u| matches!((s.units[usize::from(u)].hex, th), (Some(a), Some(b)) if a.distance(b) == 1));
                adjacent || th.is_none() || !v.iter().any(|a| matches!(a, Action::Step { .. }))
            }
            _ => true,
        };
        if can_stop {
            v.push(Action::Stop);
        }
        v
    }

    /// 8.7.1: the hexes after a pivot of a two-hex cavalry line.
    fn pivot_plan(&self, s: &State, m: &Moving, pivot: UnitIx, cw: bool) -> Option<(HexId, HexId)> {
        let ph = s.units[usize::from(pivot)].hex?;
        let other = m
            .units
            .iter()
            .filter_map(|&u| s.units[usize::from(u)].hex)
            .find(|&h| h != ph)?;
        let d = ph.direction_to(other)?;
        let nd = Dir::from_index(d.index() + if cw { 1 } else { 5 });
        let to = ph.neighbour(nd)?;
        let clear = |h: HexId| self.sc.map.contains(h) && self.sc.map.terrain(h) == Terrain::Clear;
        if !clear(ph) || !clear(other) || !clear(to) || self.side_at(s, to).is_some() {
            return None;
        }
        let movers: Vec<usize> = (0..m.units.len())
            .filter(|&i| s.units[usize::from(m.units[i])].hex == Some(other))
            .collect();
        if movers.iter().any(|&i| m.mp[i] < 2) || (0..m.units.len()).any(|i| m.mp[i] < 1) {
            return None;
        }
        Some((other, to))
    }

    fn reaction_guns(&self, s: &State, r: &Reaction) -> Vec<(UnitIx, HexId, HexId)> {
        let mut v = Vec::new();
        for g in 0..s.units.len() as UnitIx {
            if self.side_of(g) != r.side
                || !self.kind(g).is_guns()
                || !self.alive(s, g)
                || self.has(s, g, flag::ROUTED)
                || self.has(s, g, flag::REACT_FIRED)
                || self.gun_moved_prev(s, g)
            {
                continue;
            }
            let Some(gh) = s.units[usize::from(g)].hex else {
                continue;
            };
            let range = self.gun_range(g);
            for &(_, from, to) in &r.movers {
                for aim in [from, to] {
                    // Out of range: `can_aim` would refuse it (the cheapest test first).
                    if !(1..=range).contains(&gh.distance(aim)) {
                        continue;
                    }
                    // 9.3: only a shot that can hit a combat unit (the hex entered holds one, or a
                    // unit that is not a gun moved out of the hex left).
                    let hits = if aim == to {
                        !self.combat_units_at(s, to).is_empty()
                    } else {
                        r.movers
                            .iter()
                            .any(|m| m.1 == aim && !self.kind(m.0).is_guns() && self.alive(s, m.0))
                    };
                    if hits
                        && self.can_aim(s, g, gh, aim)
                        && !v
                            .iter()
                            .any(|x: &(UnitIx, HexId, HexId)| x.0 == g && x.1 == aim)
                    {
                        v.push((g, aim, to));
                    }
                }
            }
        }
        v
    }

    fn reaction_cavalry(&self, s: &State, r: &Reaction) -> Vec<UnitIx> {
        let mut v = Vec::new();
        let enemy = r.side.other();
        if self.halted(s, r.side) {
            return v; // 15.3 A: the player cannot move any unit this turn
        }
        for u in 0..s.units.len() as UnitIx {
            if self.side_of(u) != r.side
                || !self.kind(u).is_cavalry()
                || !self.alive(s, u)
                || self.has(s, u, flag::ROUTED)
                || self.has(s, u, flag::REACTED)
            {
                continue;
            }
            let Some(h) = s.units[usize::from(u)].hex else {
                continue;
            };
            // The distance first: the cheapest test.
            let reach = self.edition.reaction_distance();
            if !r.movers.iter().any(|&(_, _, to)| to.distance(h) <= reach)
                || self.combat_units_at(s, h).first() != Some(&u)
                || self.in_zoc_of(s, h, enemy)
            {
                continue;
            }
            v.push(u);
        }
        v
    }

    /// 8.6: the cavalry line of battle of `unit` that may react (unrouted cavalry of its formation
    /// that has not reacted and is not in an enemy ZoC).
    fn reaction_line(&self, s: &State, unit: UnitIx, side: Side) -> Vec<UnitIx> {
        let enemy = side.other();
        let pool: Vec<UnitIx> = (0..s.units.len() as UnitIx)
            .filter(|&u| {
                self.side_of(u) == side
                    && self.kind(u).is_cavalry()
                    && !self.has(s, u, flag::ROUTED)
                    && !self.has(s, u, flag::REACTED)
                    && s.units[usize::from(u)]
                        .hex
                        .is_some_and(|h| !self.in_zoc_of(s, h, enemy))
            })
            .collect();
        self.line_of(s, unit, &pool)
    }

    fn legal_reaction(&self, s: &State, r: &Reaction) -> Vec<Action> {
        let mut v: Vec<Action> = self
            .reaction_guns(s, r)
            .into_iter()
            .map(|(unit, target, _)| Action::ReactionFire { unit, target })
            .collect();
        let cav = self.reaction_cavalry(s, r);
        let mut lines: Vec<UnitIx> = Vec::new();
        for &u in &cav {
            let line = self.reaction_line(s, u, r.side);
            let mut hexes: Vec<HexId> = line
                .iter()
                .filter_map(|&x| s.units[usize::from(x)].hex)
                .collect();
            hexes.sort();
            hexes.dedup();
            if hexes.len() >= 2
                && let Some(&key) = line.iter().min()
                && !lines.contains(&key)
            {
                lines.push(key);
            }
        }
        v.extend(cav.into_iter().map(|unit| Action::CavalryReaction { unit }));
        v.extend(
            lines
                .into_iter()
                .map(|unit| Action::CavalryLineReaction { unit }),
        );
        // Passing is possible whenever something is; alone, it answers a question asked for
        // 3.6's sake (see `offer_reaction`). With nothing to ask, the frame closes.
        if !v.is_empty() || self.reaction_could_be_possible(s, r) {
            v.push(Action::Pass);
        }
        v
    }

    /// 8.6 with 3.6: whether the moving side, seeing only the top counter of each enemy stack,
    /// could believe that a cavalry reaction is possible: a stack of the reacting side within
    /// reach, not in an enemy ZoC, whose top combat unit is hidden under a gun or a redoubt.
    fn reaction_could_be_possible(&self, s: &State, r: &Reaction) -> bool {
        if self.halted(s, r.side) {
            return false;
        }
        let reach = self.edition.reaction_distance();
        let mut hexes: Vec<HexId> = s
            .units
            .iter()
            .enumerate()
            .filter(|(u, _)| self.side_of(*u as UnitIx) == r.side)
            .filter_map(|(_, us)| us.hex)
            .collect();
        hexes.sort();
        hexes.dedup();
        hexes.into_iter().any(|h| {
            if !r.movers.iter().any(|&(_, _, to)| to.distance(h) <= reach) {
                return false; // the cheapest test first
            }
            let here = self.units_at(s, h);
            here.len() >= 2
                && here.first().is_some_and(|&top| self.kind(top).is_guns())
                && !self.combat_units_at(s, h).is_empty()
                && !self.in_zoc_of(s, h, r.side.other())
        })
    }

    /// Apply a legal action.
    pub fn apply_action(&self, s: &mut State, a: &Action, ev: &mut Vec<Event>) {
        match a {
            Action::RedoubtFire { unit, target } => self.resolve_fire(
                s,
                *unit,
                *target,
                self.result_units_at(s, *target),
                false,
                ev,
            ),
            Action::EndRedoubtFire => self.next_phase(s, ev),
            Action::Activate { formation } => {
                self.begin_activation(s, ActTarget::Formation(*formation), false, ev)
            }
            Action::ActivateAuto { formation } => {
                self.begin_activation(s, ActTarget::Formation(*formation), true, ev)
            }
            Action::ActivateIndependent { unit } => {
                self.begin_activation(s, ActTarget::Independent(*unit), false, ev)
            }
            Action::ArtilleryFace { unit, clockwise } => {
                let us = &mut s.units[usize::from(*unit)];
                us.facing = us.facing.turned(if *clockwise { 1 } else { -1 });
                us.set(flag::TURNED, true);
                ev.push(Event::rule(
                    "8.8",
                    self.unit_line(s, &[*unit]).t(format!(
                        " turns to face {:?}",
                        s.units[usize::from(*unit)].facing
                    )),
                ));
            }
            Action::ArtilleryFire { unit, target } => self.resolve_fire(
                s,
                *unit,
                *target,
                self.result_units_at(s, *target),
                false,
                ev,
            ),
            Action::CommanderStep {
                commander,
                to,
                with_army,
            } => {
                let from = s.commanders[usize::from(*commander)].hex;
                let cost = from
                    .and_then(|f| self.move_cost(s, Mover::Commander, f, *to))
                    .unwrap_or(1);
                if *with_army {
                    let side = self.sc.commanders[usize::from(*commander)].side;
                    if let Some(ac) = self.army_commander(s, side) {
                        s.commanders[usize::from(ac)].hex = Some(*to);
                        s.army_moved_with[side.ix()] = true;
                        ev.push(Event::rule(
                            "4.B5",
                            format!(
                                "army commander {} goes along (his own move will be halved)",
                                self.cname(ac)
                            ),
                        ));
                    }
                }
                s.commanders[usize::from(*commander)].hex = Some(*to);
                let chief = matches!(s.frames.last(), Some(Frame::Activation(act))
                    if act.chiefs.iter().any(|(c, _)| c == commander));
                if chief {
                    // F/L 8.5: the army commander's / the King's once-a-turn move.
                    s.commanders[usize::from(*commander)].moved = true;
                    if let Some(Frame::Activation(act)) = s.frames.last_mut() {
                        for (c, mp) in act.chiefs.iter_mut() {
                            if c == commander {
                                *mp = mp.saturating_sub(cost);
                            }
                        }
                        act.chiefs.retain(|(_, mp)| *mp > 0);
                        act.moving_started = true;
                    }
                } else if let Some(Frame::Activation(act)) = s.frames.last_mut() {
                    act.cmdr_mp = act.cmdr_mp.saturating_sub(cost);
                    act.moving_started = true;
                    // F/L 4.B1: step 3 comes before step 4.
                    act.chiefs.clear();
                }
                ev.push(Event::rule(
                    "8.5",
                    format!("{} moves to {to}", self.cname(*commander)),
                ));
            }
            Action::MoveUnit {
                unit,
                with_commander,
            } => {
                // F/L 14.3: an independent in march column moving as a unit deploys; it keeps the
                // marker (and its attacker's +1) until the end of the turn.
                if !self.edition.independent_columns()
                    && self.sc.units[usize::from(*unit)].formation.is_none()
                    && self.has(s, *unit, flag::COLUMN)
                    && !self.has(s, *unit, flag::DEPLOYING)
                {
                    s.units[usize::from(*unit)].set(flag::DEPLOYING, true);
                    ev.push(Event::rule(
                        "14.3",
                        self.unit_line(s, &[*unit])
                            .verb(" deploys", " deploy")
                            .t(" from march column"),
                    ));
                }
                self.start_group(s, vec![*unit], 1, *with_commander, ev)
            }
            Action::MoveStack {
                hex,
                with_commander,
            } => {
                let pool = self.pool_of_top(s);
                let units: Vec<UnitIx> = self
                    .units_at(s, *hex)
                    .into_iter()
                    .filter(|u| pool.contains(u))
                    .collect();
                self.start_group(s, units, 2, *with_commander, ev)
            }
            Action::MoveLine { unit } => {
                let pool = self.pool_of_top(s);
                let line = self.line_of(s, *unit, &pool);
                self.start_group(s, line, 4, false, ev)
            }
            Action::TurnInPlace { unit, clockwise } => {
                let u = *unit;
                let h = s.units[usize::from(u)].hex;
                let stack: Vec<UnitIx> = h.map(|h| self.combat_units_at(s, h)).unwrap_or_default();
                let in_zoc = h.is_some_and(|h| self.in_zoc_of(s, h, self.side_of(u).other()));
                let ooc = self.has(s, u, flag::OOC);
                let rule = if ooc { "6.4" } else { "6.6" };
                if (ooc || in_zoc)
                    && !self.morale_test(s, &stack, 1, false, "changing facing", rule, ev)
                {
                    for &x in &stack {
                        self.disorganise(s, x, false, rule, ev);
                    }
                }
                for &x in &stack {
                    let us = &mut s.units[usize::from(x)];
                    us.facing = us.facing.turned(if *clockwise { 1 } else { -1 });
                    us.set(flag::TURNED, true);
                }
                ev.push(Event::rule(
                    rule,
                    self.unit_line(s, &stack)
                        .verb(" turns", " turn")
                        .t(" one vertex"),
                ));
            }
            Action::EndActivation => {
                s.frames.pop();
                for u in s.units.iter_mut() {
                    u.set(flag::DONE | flag::TURNED, false);
                }
            }
            Action::Step { dir } => self.apply_step(s, *dir, ev),
            Action::Turn { clockwise } => self.apply_turn(s, *clockwise, ev),
            Action::AboutFace => {
                let Some(Frame::Moving(m)) = s.frames.last().cloned() else {
                    return;
                };
                let mut hexes = Vec::new();
                for (i, &u) in m.units.iter().enumerate() {
                    let us = &mut s.units[usize::from(u)];
                    us.facing = us.facing.reversed();
                    hexes.extend(us.hex);
                    let _ = i;
                }
                hexes.sort();
                hexes.dedup();
                for h in hexes {
                    let mut st = self.units_at(s, h);
                    st.reverse();
                    for (i, u) in st.into_iter().enumerate() {
                        s.units[usize::from(u)].order = i as u8;
                    }
                }
                if let Some(Frame::Moving(mm)) = s.frames.last_mut() {
                    for p in mm.mp.iter_mut() {
                        *p = p.saturating_sub(1);
                    }
                }
                ev.push(Event::rule(
                    "8.3",
                    "the group turns about (180°); the stack order is reversed",
                ));
            }
            Action::ChangeOrder => {
                let Some(Frame::Moving(m)) = s.frames.last().cloned() else {
                    return;
                };
                let Some(h) = m.units.first().and_then(|&u| s.units[usize::from(u)].hex) else {
                    return;
                };
                let in_zoc = self.in_zoc_of(s, h, m.side.other());
                let st = self.combat_units_at(s, h);
                if st.len() >= 2 {
                    let (a0, a1) = (st[0], st[1]);
                    let o0 = s.units[usize::from(a0)].order;
                    s.units[usize::from(a0)].order = s.units[usize::from(a1)].order;
                    s.units[usize::from(a1)].order = o0;
                }
                for &u in &st {
                    if in_zoc {
                        s.units[usize::from(u)].set(flag::ORDER_IN_ZOC, true);
                    }
                }
                if let Some(Frame::Moving(mm)) = s.frames.last_mut() {
                    for (i, p) in mm.mp.iter_mut().enumerate() {
                        *p = p.saturating_sub(self.sc.units[usize::from(mm.units[i])].mp / 2);
                    }
                }
                ev.push(Event::rule(
                    "3.5.1",
                    format!(
                        "stack order in {h} changed{}",
                        if in_zoc {
                            " in an enemy ZoC (−2 if it fights)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            Action::Drop { unit } => {
                if let Some(Frame::Moving(m)) = s.frames.last_mut()
                    && let Some(i) = m.units.iter().position(|x| x == unit)
                {
                    m.units.remove(i);
                    m.mp.remove(i);
                }
                ev.push(Event::rule(
                    "8.7",
                    self.unit_line(s, &[*unit])
                        .verb(" leaves", " leave")
                        .t(" the moving line and")
                        .verb(" stops", " stop"),
                ));
            }
            Action::Pivot { pivot, clockwise } => {
                let Some(Frame::Moving(m)) = s.frames.last().cloned() else {
                    return;
                };
                let Some((other, to)) = self.pivot_plan(s, &m, *pivot, *clockwise) else {
                    return;
                };
                let turn = if *clockwise { 1 } else { -1 };
                let mut best = 0u8;
                for (i, &u) in m.units.iter().enumerate() {
                    let us = &mut s.units[usize::from(u)];
                    us.facing = us.facing.turned(turn);
                    if us.hex == Some(other) {
                        us.hex = Some(to);
                    }
                    let left = m.mp[i].saturating_sub(if s.units[usize::from(u)].hex == Some(to) {
                        2
                    } else {
                        1
                    });
                    if s.units[usize::from(u)].hex == Some(to) {
                        best = left;
                    }
                }
                if let Some(Frame::Moving(mm)) = s.frames.last_mut() {
                    for p in mm.mp.iter_mut() {
                        *p = best;
                    }
                    mm.vertices += 1;
                }
                ev.push(Event::rule(
                    "8.7.1",
                    Line::new()
                        .t("cavalry line pivots on ")
                        .units(self.named(s, &[*pivot]))
                        .t(format!("; the other wing moves to {to}")),
                ));
                let movers: Vec<(UnitIx, HexId, HexId)> = m
                    .units
                    .iter()
                    .filter(|&&u| s.units[usize::from(u)].hex == Some(to))
                    .map(|&u| (u, other, to))
                    .collect();
                self.offer_reaction(s, m.side, m.kind, movers);
            }
            Action::LeaveZoc { to, turn } => {
                let Some(Frame::Moving(m)) = s.frames.last().cloned() else {
                    return;
                };
                let from = m.units.first().and_then(|&u| s.units[usize::from(u)].hex);
                self.overrun(s, *to, m.side, ev);
                let base = if self.units_at(s, *to).is_empty() {
                    0
                } else {
                    self.arrival_order(s, *to)
                };
                let dir = from.and_then(|f| f.direction_to(*to));
                let facings = dir
                    .and_then(|d| self.leave_zoc_facings(s, &m, *to, d, *turn))
                    .unwrap_or_else(|| {
                        m.units
                            .iter()
                            .map(|&u| s.units[usize::from(u)].facing.turned(i32::from(*turn)))
                            .collect()
                    });
                for (i, &u) in m.units.iter().enumerate() {
                    let us = &mut s.units[usize::from(u)];
                    us.hex = Some(*to);
                    us.facing = facings[i];
                    us.set(flag::MOVED, true);
                    us.order += base; // 3.5.2: under (Hastenbeck) or on top (F/L)
                }
                self.renumber(s, *to);
                if let (Some(c), Some(f)) = (m.commander, from)
                    && s.commanders[usize::from(c)].hex == Some(f)
                {
                    s.commanders[usize::from(c)].hex = Some(*to);
                }
                ev.push(Event::rule(
                    "8.4",
                    self.unit_line(s, &m.units)
                        .verb(" falls", " fall")
                        .t(format!(" back out of the enemy ZoC to {to} (all MP)")),
                ));
                s.frames.pop();
                self.after_move(s, ev);
                if let Some(f) = from {
                    let movers = m.units.iter().map(|&u| (u, f, *to)).collect();
                    self.offer_reaction(s, m.side, m.kind, movers);
                }
            }
            Action::Stop => {
                s.frames.pop();
                self.after_move(s, ev);
            }
            Action::ReactionFire { unit, target } => {
                let Some(Frame::Reaction(r)) = s.frames.last().cloned() else {
                    return;
                };
                // 9.3: aimed at the hex entered, the fire falls on every unit in it (normal fire);
                // aimed at the hex left, on the units that moved out of it.
                let victims: Vec<UnitIx> =
                    if let Some(&(_, _, to)) = r.movers.iter().find(|m| m.2 == *target) {
                        self.combat_units_at(s, to)
                    } else {
                        let first_to = r.movers.iter().find(|m| m.1 == *target).map(|m| m.2);
                        r.movers
                            .iter()
                            .filter(|m| m.1 == *target && Some(m.2) == first_to)
                            .map(|m| m.0)
                            .collect()
                    };
                self.resolve_fire(s, *unit, *target, victims, true, ev);
            }
            Action::CavalryReaction { unit } => self.cavalry_reaction(s, *unit, false, ev),
            Action::CavalryLineReaction { unit } => self.cavalry_reaction(s, *unit, true, ev),
            Action::Pass if matches!(s.frames.last(), Some(Frame::Rout(_))) => {
                if let Some(Frame::Rout(r)) = s.frames.last_mut() {
                    r.offer.clear();
                }
            }
            Action::Accompany { commander } => {
                if let Some(Frame::Rout(r)) = s.frames.last_mut() {
                    r.offer.retain(|c| c != commander);
                    r.commanders.push(*commander);
                }
                ev.push(Event::rule(
                    "12.4",
                    format!("{} goes with the routed unit", self.cname(*commander)),
                ));
            }
            Action::StopAccompanying { commander } => {
                if let Some(Frame::Rout(r)) = s.frames.last_mut() {
                    r.commanders.retain(|c| c != commander);
                }
                ev.push(Event::rule(
                    "12.4",
                    format!("{} stops here", self.cname(*commander)),
                ));
            }
            Action::Pass => {
                match s.frames.last() {
                    Some(Frame::Evade { hex, .. }) => ev.push(Event::rule(
                        "1.3",
                        format!("the light troops in {hex} stand"),
                    )),
                    Some(Frame::Advance(_)) => {
                        ev.push(Event::rule("11.3", "no advance after combat"))
                    }
                    _ => {}
                }
                s.frames.pop();
            }
            Action::Attack {
                attackers,
                defenders,
            } => self.declare_attack(s, attackers, defenders, ev),
            Action::EndCombat => self.next_phase(s, ev),
            Action::Evade => {
                let Some(Frame::Evade { hex, hexes, .. }) = s.frames.pop() else {
                    return;
                };
                if let Some(Frame::Combat(c)) = s.frames.last_mut() {
                    c.evaded.push(hex);
                }
                ev.push(Event::rule(
                    "1.3",
                    format!("the light troops in {hex} fall back {hexes} hex(es) before combat"),
                ));
                let units = self.combat_units_at(s, hex);
                self.queue_retreat(s, &units, hexes, true);
            }
            Action::AllocateLoss { hex } => {
                let Some(Frame::Losses { which, .. }) = s.frames.pop() else {
                    return;
                };
                let already = match s.frames.last() {
                    Some(Frame::Combat(c)) => c.lost_hexes.iter().filter(|&&h| h == *hex).count(),
                    _ => 0,
                };
                // 11.1: top, second, top (Hastenbeck) or the top unit first (F/L, A21).
                let st = self.combat_units_at(s, *hex);
                let Some(u) = self.loss_taker(&st, already) else {
                    return;
                };
                self.lose_step(s, u, "11.1", ev);
                if let Some(Frame::Combat(c)) = s.frames.last_mut() {
                    c.lost_steps.push(u);
                    c.lost_hexes.push(*hex);
                    let w = usize::from(which);
                    c.losses_left[w] = c.losses_left[w].saturating_sub(1);
                }
            }
            Action::RetreatTo { to } => match s.frames.last() {
                Some(Frame::Rout(_)) => self.rout_step(s, *to, ev),
                _ => self.retreat_step(s, *to, ev),
            },
            Action::Advance {
                from,
                to,
                whole_stack,
            } => {
                s.frames.pop();
                let st: Vec<UnitIx> = self
                    .combat_units_at(s, *from)
                    .into_iter()
                    .filter(|&u| !self.has(s, u, flag::ROUTED))
                    .collect();
                let movers: Vec<UnitIx> = if *whole_stack {
                    st.clone()
                } else {
                    st.first().copied().into_iter().collect()
                };
                if let Some(&m) = movers.first() {
                    self.overrun(s, *to, self.side_of(m), ev);
                }
                for &u in &movers {
                    s.units[usize::from(u)].hex = Some(*to);
                    s.units[usize::from(u)].set(flag::MOVED, true);
                }
                self.renumber(s, *to);
                if self.combat_units_at(s, *from).is_empty() {
                    for c in self.commanders_at(s, *from) {
                        s.commanders[usize::from(c)].hex = Some(*to);
                    }
                }
                ev.push(Event::rule(
                    "11.3",
                    self.unit_line(s, &movers)
                        .verb(" advances", " advance")
                        .t(format!(" into {to}")),
                ));
                self.update_control(s, ev);
            }
            Action::ArmyStep { to } => {
                let side = s.active;
                if let (Some(c), Phase::ArmyCommander(mp)) = (self.army_commander(s, side), s.phase)
                {
                    let from = s.commanders[usize::from(c)].hex;
                    let cost = from
                        .and_then(|f| self.move_cost(s, Mover::Commander, f, *to))
                        .unwrap_or(1);
                    s.commanders[usize::from(c)].hex = Some(*to);
                    s.phase = Phase::ArmyCommander(mp.saturating_sub(cost));
                    ev.push(Event::rule(
                        "8.5",
                        format!("army commander {} moves to {to}", self.cname(c)),
                    ));
                }
            }
            Action::EndArmyMove => self.next_phase(s, ev),
            Action::ChiefWithStack { commander } => self.chief_with_stack(s, *commander, ev),
            Action::ArmyWithStack => {
                // 8.5 / 4.B5: the stack moves with its own MP and takes him along; units that
                // already moved this turn stay (a decision, see docs/rules-decisions.md).
                let side = s.active;
                let Some(ac) = self.army_commander(s, side) else {
                    return;
                };
                let Some(h) = s.commanders[usize::from(ac)].hex else {
                    return;
                };
                let units: Vec<UnitIx> = self
                    .units_at(s, h)
                    .into_iter()
                    .filter(|&u| {
                        self.side_of(u) == side
                            && self.kind(u) != Kind::Redoubt
                            && !self.has(s, u, flag::ROUTED)
                            && !self.has(s, u, flag::MOVED)
                            && !self.gun_pinned(s, u)
                    })
                    .collect();
                let mp = units
                    .iter()
                    .map(|&u| self.sc.units[usize::from(u)].mp)
                    .collect();
                for &u in &units {
                    s.units[usize::from(u)].set(flag::MOVED, true);
                }
                s.phase = Phase::ArmyCommander(0);
                ev.push(Event::rule(
                    "4.B5",
                    Line::new()
                        .t(format!("army commander {} moves with ", self.cname(ac)))
                        .units(self.named(s, &units)),
                ));
                s.frames.push(Frame::Moving(Moving::new(
                    side,
                    GroupKind::Stack,
                    units,
                    mp,
                    Some(ac),
                )));
            }
            Action::Promote { commander } => {
                let Some(Frame::NewArmyCommander { side }) = s.frames.pop() else {
                    return;
                };
                let old = self.sc.army_commander(side);
                let h = s.commanders[usize::from(*commander)].hex;
                s.commanders[usize::from(old)].hex = h;
                s.commanders[usize::from(old)].army = true;
                s.commanders[usize::from(*commander)].aides += 1;
                ev.push(Event::rule(
                    "11.4",
                    format!(
                        "{} takes command of the army; an aide de camp leads his formation",
                        self.cname(*commander)
                    ),
                ));
            }
            Action::EnterInColumn { .. } if s.phase == Phase::Setup => self.apply_setup(s, a, ev),
            Action::PlaceUnit { .. }
            | Action::FaceUnit { .. }
            | Action::PlaceAbattis { .. }
            | Action::PlaceCommander { .. }
            | Action::SetUpOnMap { .. } => self.apply_setup(s, a, ev),
            Action::EnterInColumn { formation, hex } => {
                // F/L 17: a formation entering in march column picks its entry hex and marches.
                s.formations[usize::from(*formation)].column = Some(*hex);
                ev.push(Event::rule(
                    "14.1",
                    format!(
                        "{} enters in march column at {hex}",
                        self.sc.formations[usize::from(*formation)].name
                    ),
                ));
                self.begin_column(s, *formation, false, ev)
            }
            Action::March { formation } => self.begin_column(s, *formation, false, ev),
            Action::Deploy { formation } => self.begin_column(s, *formation, true, ev),
            Action::ColumnUnit { unit } => self.start_column_unit(s, *unit, false, ev),
            Action::EnterUnit { unit } => self.start_column_unit(s, *unit, true, ev),
            Action::Reinforce { unit, hex } => self.reinforce(s, *unit, *hex, ev),
            Action::EndColumn => {
                s.frames.pop();
                for u in s.units.iter_mut() {
                    u.set(flag::DONE, false);
                }
            }
            Action::IndependentColumn { unit } => {
                self.start_group(s, vec![*unit], 1, false, ev);
                s.units[usize::from(*unit)].set(flag::COLUMN, true);
                if let Some(Frame::Moving(m)) = s.frames.last_mut() {
                    m.kind = GroupKind::Column;
                    for p in m.mp.iter_mut() {
                        *p = p.saturating_mul(2);
                    }
                }
                ev.push(Event::rule(
                    "14.4",
                    self.unit_line(s, &[*unit])
                        .verb(" marches", " march")
                        .t(" in column (MP doubled)"),
                ));
            }
            Action::PlaceAide { unit } => {
                let Some(Frame::PlaceAide { commander, .. }) = s.frames.pop() else {
                    return;
                };
                s.commanders[usize::from(commander)].hex = s.units[usize::from(*unit)].hex;
                ev.push(Event::rule(
                    "11.4",
                    Line::new()
                        .t(format!("{}'s aide de camp joins ", self.cname(commander)))
                        .units(self.named(s, &[*unit])),
                ));
            }
        }
        let _ = Side::French;
        let _ = Arc::Front;
    }

    /// The movable pool of the activation on top.
    fn pool_of_top(&self, s: &State) -> Vec<UnitIx> {
        let Some(Frame::Activation(a)) = s.frames.last() else {
            return Vec::new();
        };
        self.members(s, a)
            .into_iter()
            .filter(|&u| self.movable(s, a, u))
            .collect()
    }

    /// Whether a member of activation `a` may still move (4.B1, 5.3, 6.3, 8.9, 12.3): in command
    /// after a success, not routed, not moved yet in this activation, not out of command, not a
    /// redoubt, not a gun in battery.
    fn movable(&self, s: &State, a: &Activation, u: UnitIx) -> bool {
        (!a.success || a.commanded.contains(&u))
            && !self.has(s, u, flag::ROUTED)
            && !self.has(s, u, flag::DONE)
            && !self.has(s, u, flag::OOC)
            && self.kind(u) != Kind::Redoubt
            && !self.gun_pinned(s, u)
    }

    /// F/L 4.B1 step 3 (A6): the units an army commander or Louis XV may take with him: at his hex,
    /// of the activated formation or unit, in command, not routed, not moved in this activation,
    /// guns not in battery; every unit of his side there but guns must be among them (a stack
    /// moves whole, 8.1) and one at least must be infantry or cavalry. Empty after a failed
    /// activation (5.3: no unit moves).
    pub(crate) fn chief_stack(&self, s: &State, a: &Activation, c: CommanderIx) -> Vec<UnitIx> {
        let Some(h) = s.commanders[usize::from(c)].hex else {
            return Vec::new();
        };
        // F/L 4.B1 step 5: after a double action he moves alone.
        if !a.success
            || self.halted(s, a.side)
            || (s.commanders[usize::from(c)].army && s.army_alone[a.side.ix()])
        {
            return Vec::new();
        }
        let members = self.members(s, a);
        let ok = |u: UnitIx| members.contains(&u) && self.movable(s, a, u);
        let here: Vec<UnitIx> = self
            .units_at(s, h)
            .into_iter()
            .filter(|&u| self.side_of(u) == a.side && self.kind(u) != Kind::Redoubt)
            .collect();
        let units: Vec<UnitIx> = here.iter().copied().filter(|&u| ok(u)).collect();
        let whole = here.iter().all(|&u| self.kind(u).is_guns() || ok(u));
        if whole && units.iter().any(|&u| !self.kind(u).is_guns()) {
            units
        } else {
            Vec::new()
        }
    }

    /// F/L 4.B1 step 3 (A6): the chief moves with his stack at the units' own MP; it is his move
    /// of the turn and those units' move in this activation (they are done), and leaves the
    /// formation commander's step 4 and the units' step 5 to come.
    fn chief_with_stack(&self, s: &mut State, c: CommanderIx, ev: &mut Vec<Event>) {
        let Some(Frame::Activation(a)) = s.frames.last() else {
            return;
        };
        let units = self.chief_stack(s, a, c);
        if units.is_empty() {
            return;
        }
        let (side, entry_cost) = (a.side, a.entry_cost);
        if let Some(Frame::Activation(a)) = s.frames.last_mut() {
            a.chiefs.retain(|&(x, _)| x != c);
            a.moving_started = true;
        }
        s.commanders[usize::from(c)].moved = true;
        let mut units = units;
        units.sort_by_key(|&u| s.units[usize::from(u)].order);
        let mp: Vec<u8> = units
            .iter()
            .map(|&u| self.sc.units[usize::from(u)].mp.saturating_sub(entry_cost))
            .collect();
        for &u in &units {
            s.units[usize::from(u)].set(flag::DONE, true);
        }
        ev.push(Event::rule(
            "4.B1",
            Line::new()
                .t(format!("step 3: {} moves with ", self.cname(c)))
                .units(self.named(s, &units))
                .t(" (8.5, their own MP)"),
        ));
        s.frames.push(Frame::Moving(Moving::new(
            side,
            GroupKind::Stack,
            units,
            mp,
            Some(c),
        )));
    }

    /// F/L 4.B1 step 5, when its first action is chosen: "si el comandante del ejército no ha
    /// efectuado todavía su movimiento y se encuentra apilado con el jefe de la formación
    /// activada", two different actions instead of one. Settled now, after steps 3 and 4: an army
    /// commander who moved in step 3 has moved, and an officer who left him in step 4 (alone, or
    /// with the units this action moves) is no longer with him (docs/editions.md A7). After a
    /// double action he may still move this turn, but alone.
    fn settle_double_action(&self, s: &mut State, officer_leaves: bool, ev: &mut Vec<Event>) {
        let Some(Frame::Activation(a)) = s.frames.last() else {
            return;
        };
        if a.kinds_used != 0 {
            return;
        }
        let (side, target, success) = (a.side, a.target, a.success);
        let army = self.army_commander(s, side);
        let double = match target {
            ActTarget::Formation(f) => {
                let officer = s.commanders[usize::from(self.formation_commander(f))].hex;
                success
                    && !officer_leaves
                    && army.is_some_and(|c| {
                        let cs = &s.commanders[usize::from(c)];
                        !cs.moved && cs.hex.is_some() && cs.hex == officer
                    })
            }
            ActTarget::Independent(_) => false,
        };
        if let Some(Frame::Activation(a)) = s.frames.last_mut() {
            a.actions_left = if double { 2 } else { 1 };
        }
        if double && let Some(c) = army {
            s.army_alone[side.ix()] = true;
            ev.push(Event::rule(
                "4.B1",
                format!(
                    "step 5: {} is with the formation commander: two different actions; he may still move this turn, alone",
                    self.cname(c)
                ),
            ));
        }
    }

    fn start_group(
        &self,
        s: &mut State,
        units: Vec<UnitIx>,
        kind_bit: u8,
        with_commander: bool,
        ev: &mut Vec<Event>,
    ) {
        if self.edition.army_moves_in_activation() {
            self.settle_double_action(s, with_commander, ev);
        }
        let Some(Frame::Activation(a)) = s.frames.last_mut() else {
            return;
        };
        let success = a.success;
        a.actions_left = a.actions_left.saturating_sub(1);
        a.kinds_used |= kind_bit;
        a.moving_started = true;
        a.chiefs.clear();
        let side = a.side;
        let commander = match (with_commander, a.target) {
            (true, ActTarget::Formation(f)) => {
                a.cmdr_mp = 0;
                Some(self.formation_commander(f))
            }
            _ => None,
        };
        let kind = if !success {
            GroupKind::Half
        } else {
            match kind_bit {
                1 => GroupKind::Unit,
                2 => GroupKind::Stack,
                _ => GroupKind::Line,
            }
        };
        let mut units = units;
        units.sort_by_key(|&u| (s.units[usize::from(u)].hex, s.units[usize::from(u)].order));
        let entry_cost = match s.frames.last() {
            Some(Frame::Activation(a)) => a.entry_cost,
            _ => 0,
        };
        let mp: Vec<u8> = units
            .iter()
            .map(|&u| {
                let m = self.sc.units[usize::from(u)].mp.saturating_sub(entry_cost);
                if success { m } else { m / 2 }
            })
            .collect();
        for &u in &units {
            s.units[usize::from(u)].set(flag::DONE, true);
        }
        let rule = match kind {
            GroupKind::Unit => "8 (3a)",
            GroupKind::Stack => "8 (3b)",
            GroupKind::Line => "8.7 (3c)",
            GroupKind::Half => "5.3",
            GroupKind::Reaction => "8.6",
            GroupKind::Column => "14",
        };
        ev.push(Event::rule(
            rule,
            self.unit_line(s, &units)
                .verb(" begins", " begin")
                .t(" to move"),
        ));
        s.frames
            .push(Frame::Moving(Moving::new(side, kind, units, mp, commander)));
    }

    fn apply_step(&self, s: &mut State, dir: Dir, ev: &mut Vec<Event>) {
        let Some(Frame::Moving(m)) = s.frames.last().cloned() else {
            return;
        };
        let Some(plan) = self.step_plan(s, &m, dir) else {
            return;
        };
        let enemy = m.side.other();
        let lead_from = plan.first().map(|p| p.0);
        // 3.1: a light unit joining friends takes their facing (step_plan checked the side).
        let facings: Vec<Vertex> = m
            .units
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                let own = s.units[usize::from(u)].facing;
                self.joining_facing(s, u, own, plan[i].1, Some(dir), &m.units)
                    .unwrap_or(own)
            })
            .collect();
        // Lift the movers, then place them (a line moves as one).
        for (i, &u) in m.units.iter().enumerate() {
            s.units[usize::from(u)].hex = None;
            let _ = i;
        }
        let mut movers = Vec::new();
        for (i, &u) in m.units.iter().enumerate() {
            let (from, to, _) = plan[i];
            // Lone enemy guns are destroyed (11.5); lone enemy commanders displaced (3.2).
            for g in self.units_at(s, to) {
                if self.side_of(g) == enemy && self.kind(g).is_guns() {
                    s.units[usize::from(g)].hex = Some(to);
                    self.eliminate(
                        s,
                        g,
                        "an enemy unit entered its hex while it was alone",
                        "11.5",
                        ev,
                    );
                }
            }
            let joining = !self.units_at(s, to).is_empty();
            let order = if joining {
                self.arrival_order(s, to)
            } else {
                s.units[usize::from(u)].order
            };
            let us = &mut s.units[usize::from(u)];
            us.hex = Some(to);
            us.order = order;
            us.facing = facings[i];
            us.set(flag::MOVED, true);
            movers.push((u, from, to));
        }
        let mut dests: Vec<HexId> = plan.iter().map(|p| p.1).collect();
        dests.sort();
        dests.dedup();
        for &d in &dests {
            for c in self.commanders_at(s, d) {
                if self.sc.commanders[usize::from(c)].side == enemy
                    && self
                        .combat_units_at(s, d)
                        .iter()
                        .all(|&u| self.side_of(u) != enemy)
                {
                    self.commander_overrun(s, c, ev);
                }
            }
            self.renumber(s, d);
        }
        if let (Some(c), Some(lf)) = (m.commander, lead_from)
            && s.commanders[usize::from(c)].hex == Some(lf)
        {
            s.commanders[usize::from(c)].hex = Some(plan[0].1);
        }
        let tos: Vec<String> = dests.iter().map(|h| h.to_string()).collect();
        ev.push(Event::rule(
            "8.1",
            self.unit_line(s, &m.units)
                .verb(" moves", " move")
                .t(format!(" to {}", tos.join(", "))),
        ));
        // Pay, disorganise by terrain (8.2), stop in enemy ZoC (7.1).
        let mut new_units = Vec::new();
        let mut new_mp = Vec::new();
        for (i, &u) in m.units.iter().enumerate() {
            let (from, to, cost) = plan[i];
            if self.terrain_disorganises(from, to) {
                self.disorganise(s, u, false, "8.2", ev);
            }
            if self.in_zoc_of(s, to, enemy) {
                ev.push(Event::rule(
                    "7.1",
                    self.unit_line(s, &[u])
                        .verb(" enters", " enter")
                        .t(" an enemy ZoC and")
                        .verb(" stops", " stop"),
                ));
                continue;
            }
            new_units.push(u);
            new_mp.push(m.mp[i] - cost);
        }
        if let Some(Frame::Moving(mm)) = s.frames.last_mut() {
            mm.units = new_units;
            mm.mp = new_mp;
            mm.hexes += 1;
        }
        self.update_control(s, ev);
        // 8.6 / 9.3: the inactive player may react.
        self.offer_reaction(s, m.side, m.kind, movers);
    }

    /// 4.B1, 8.6, 9.3: after an enemy unit moved one hex (a step, an 8.4 fall-back, a pivot), the
    /// inactive player may react; reactions themselves draw none.
    fn offer_reaction(
        &self,
        s: &mut State,
        side: Side,
        kind: GroupKind,
        movers: Vec<(UnitIx, HexId, HexId)>,
    ) {
        if kind == GroupKind::Reaction || movers.is_empty() {
            return;
        }
        let r = Reaction {
            side: side.other(),
            movers,
        };
        // 3.6: the reacting side is asked whenever it could react as far as the moving side can
        // tell, not only when it can: otherwise being asked would tell the mover that cavalry
        // stands under a gun or a redoubt. Passing is then its only choice.
        if !self.legal_reaction(s, &r).is_empty() {
            s.frames.push(Frame::Reaction(r));
        }
    }

    fn apply_turn(&self, s: &mut State, cw: bool, ev: &mut Vec<Event>) {
        let Some(Frame::Moving(m)) = s.frames.last().cloned() else {
            return;
        };
        let enemy = m.side.other();
        let mut tested = m.tested.clone();
        let mut mp = m.mp.clone();
        for (i, &u) in m.units.iter().enumerate() {
            let in_zoc = s.units[usize::from(u)]
                .hex
                .is_some_and(|h| self.in_zoc_of(s, h, enemy));
            let free_turn = m.kind == GroupKind::Column
                && s.units[usize::from(u)].hex.is_some_and(|h| self.on_road(h));
            if free_turn {
                // 14.1: a column on a road pays nothing to change vertex.
            } else if in_zoc {
                mp[i] = mp[i].saturating_sub(2);
                if !tested.contains(&u) {
                    tested.push(u);
                    if !self.morale_test(s, &[u], 0, false, "", "8.3", ev) {
                        self.disorganise(s, u, false, "8.3", ev);
                    }
                }
            } else {
                mp[i] = mp[i].saturating_sub(1);
            }
            let us = &mut s.units[usize::from(u)];
            us.facing = us.facing.turned(if cw { 1 } else { -1 });
        }
        let f = m.units.first().map(|&u| s.units[usize::from(u)].facing);
        ev.push(Event::rule(
            "8.3",
            self.unit_line(s, &m.units)
                .verb(" turns", " turn")
                .t(format!(
                    " one vertex to {:?}",
                    f.unwrap_or(hexmap::Vertex::N)
                )),
        ));
        if let Some(Frame::Moving(mm)) = s.frames.last_mut() {
            mm.mp = mp;
            mm.tested = tested;
            mm.vertices += 1;
        }
    }

    fn cavalry_reaction(&self, s: &mut State, unit: UnitIx, line: bool, ev: &mut Vec<Event>) {
        let Some(Frame::Reaction(r)) = s.frames.last().cloned() else {
            return;
        };
        let Some(h) = s.units[usize::from(unit)].hex else {
            return;
        };
        let stack: Vec<UnitIx> = if line {
            self.reaction_line(s, unit, r.side)
        } else {
            self.combat_units_at(s, h)
                .into_iter()
                .filter(|&u| self.kind(u).is_cavalry())
                .collect()
        };
        let hexes: Vec<HexId> = stack
            .iter()
            .filter_map(|&u| s.units[usize::from(u)].hex)
            .collect();
        for &u in &stack {
            s.units[usize::from(u)].set(flag::REACTED, true);
        }
        let side = r.side;
        let f = self.sc.units[usize::from(unit)].formation;
        let av = i32::from(self.activation_value(
            s,
            match f {
                Some(f) => ActTarget::Formation(f),
                None => ActTarget::Independent(unit),
            },
        ));
        let mut target_v = av;
        let mut why = Vec::new();
        if let Some(f) = f {
            let c = self.formation_commander(f);
            if !s.commanders[usize::from(c)]
                .hex
                .is_some_and(|ch| hexes.contains(&ch))
            {
                target_v -= 1;
                why.push("formation commander not stacked −1");
            }
            if self.edition.aide_penalty() {
                target_v -= i32::from(s.commanders[usize::from(c)].aides);
            }
        }
        if self.army_hex(s, side).is_some_and(|ah| hexes.contains(&ah)) {
            target_v += 1;
            why.push("army commander stacked +1");
        }
        let label = if why.is_empty() {
            String::new()
        } else {
            format!(", {}", why.join(", "))
        };
        let (_, t) = self.roll(
            s,
            ev,
            "8.6",
            Line::new()
                .t("reaction test of ")
                .units(self.named(s, &[unit]))
                .t(format!(" (less than {target_v}: value {av}{label})")),
            Vec::new(),
            |t| {
                if t < target_v {
                    "reacts".into()
                } else {
                    "does not react".into()
                }
            },
        );
        if t >= target_v {
            return;
        }
        let target = r
            .movers
            .iter()
            .min_by_key(|&&(_, _, to)| {
                hexes
                    .iter()
                    .map(|x| x.distance(to))
                    .min()
                    .unwrap_or(u32::MAX)
            })
            .map(|x| x.0);
        let mp = stack
            .iter()
            .map(|&u| self.sc.units[usize::from(u)].mp)
            .collect();
        for &u in &stack {
            s.units[usize::from(u)].set(flag::MOVED, true);
        }
        s.frames.push(Frame::Moving(Moving {
            side,
            kind: GroupKind::Reaction,
            units: stack,
            mp,
            vertices: 0,
            tested: Vec::new(),
            commander: None,
            hexes: 0,
            target,
        }));
    }
}
