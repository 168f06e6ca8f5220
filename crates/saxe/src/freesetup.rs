//! The free set-up of 16.2 and the march column of 14: placement rules as legal set-up actions, the
//! French entry in march column by the south edge, marching movement (phase A) and deployment.
use crate::Saxe;
use crate::action::Action;
use crate::event::{Event, Line};
use crate::query::Mover;
use crate::scenario::{CommanderIx, FormationIx, Kind, Side, Terrain, UnitIx, side_bits};
use crate::state::*;
use hexmap::{HexId, Vertex};

/// 14.1: columns may not march or deploy nearer than this to an enemy unit (when a scenario does not say).
const COLUMN_MIN_DISTANCE: u32 = 3;

impl Saxe {
    /// The state before the free set-up (16.2): no unit on the map, the Allies place first.
    pub fn free_setup_state(&self, s: &mut State) {
        for u in s.units.iter_mut() {
            u.hex = None;
        }
        for c in s.commanders.iter_mut() {
            c.hex = None;
        }
        s.abattis.clear();
        s.phase = Phase::Setup;
        s.setup = Some(SetupState {
            stage: SetupStage::AlliedUnits,
            units: self.setup_order(s, Side::Allies, |_| true),
            facing_for: None,
            commanders: Vec::new(),
            formations: Vec::new(),
            abattis: None,
        });
    }

    /// Units of a side in set-up order: formations in order of battle, independents last.
    fn setup_order(&self, s: &State, side: Side, keep: impl Fn(UnitIx) -> bool) -> Vec<UnitIx> {
        let mut v: Vec<UnitIx> = (0..self.sc.units.len() as UnitIx)
            .filter(|&u| self.side_of(u) == side && self.in_play(&s.options, u) && keep(u))
            .collect();
        v.sort_by_key(|&u| (self.sc.units[usize::from(u)].formation.is_none(), u));
        v
    }

    /// 14.1 distance for columns.
    pub fn column_min_distance(&self) -> u32 {
        self.sc
            .free
            .map(|f| f.column_min_distance)
            .unwrap_or(COLUMN_MIN_DISTANCE)
    }

    /// Distance from a hex to the nearest unit of `side` on the map.
    pub fn nearest_unit_distance(&self, s: &State, h: HexId, side: Side) -> u32 {
        s.units
            .iter()
            .enumerate()
            .filter(|(i, _)| self.side_of(*i as UnitIx) == side)
            .filter_map(|(_, u)| u.hex)
            .map(|x| x.distance(h))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// Whether unit `u` may be placed in `h` now (16.2; 17.1 option 2's zone).
    pub fn placement_ok(&self, s: &State, u: UnitIx, h: HexId) -> bool {
        let d = &self.sc.units[usize::from(u)];
        let map = &self.sc.map;
        if let Some(z) = self.sc.zone
            && z.side == d.side
        {
            let inside = (z.rows.0..=z.rows.1).contains(&h.row)
                && (z.cols.0..=z.cols.1).contains(&h.col)
                && map.contains(h)
                && self.side_at(s, h) != Some(d.side.other());
            return inside && self.fits_for_setup(s, u, h);
        }
        let Some(f) = self.sc.free else { return false };
        // Terrain the unit may enter and stacking: `fits_for_setup`, last.
        if !map.contains(h) || self.side_at(s, h) == Some(d.side.other()) {
            return false;
        }
        match d.side {
            Side::Allies => {
                if h.row > f.allied_max_row || h.col < f.allied_min_col {
                    return false;
                }
                // "No independent unit (except the Grenadiers and the Jägers) in the first line":
                // it must stand behind (north of) an Allied unit already placed in its column.
                if d.formation.is_none()
                    && !d.grenadiers
                    && !d.kind.is_light()
                    && d.kind != Kind::Redoubt
                {
                    let covered = s
                        .units
                        .iter()
                        .any(|x| x.hex.is_some_and(|xh| xh.col == h.col && xh.row > h.row));
                    if !covered {
                        return false;
                    }
                }
                // "He can place only one redoubt in a village."
                if d.kind == Kind::Redoubt && map.terrain(h).is_town() {
                    let village: Vec<HexId> = map
                        .places
                        .iter()
                        .find(|(_, hs)| hs.contains(&h))
                        .map(|(_, hs)| hs.clone())
                        .unwrap_or_else(|| vec![h]);
                    let already = s.units.iter().enumerate().any(|(i, x)| {
                        self.kind(i as UnitIx) == Kind::Redoubt
                            && x.hex.is_some_and(|xh| {
                                village.contains(&xh) && map.terrain(xh).is_town()
                            })
                    });
                    if already {
                        return false;
                    }
                }
            }
            Side::French => {
                if h.row < f.french_min_row
                    || self.nearest_unit_distance(s, h, Side::Allies) < f.french_min_distance
                {
                    return false;
                }
            }
        }
        self.fits_for_setup(s, u, h)
    }

    /// Terrain the unit may enter and stacking with what is there already (3.1).
    fn fits_for_setup(&self, s: &State, u: UnitIx, h: HexId) -> bool {
        let d = &self.sc.units[usize::from(u)];
        let tr = self.sc.tables.terrain(self.sc.map.terrain(h));
        let enter = if d.kind.is_cavalry() {
            tr.cost_cav
        } else if d.kind.is_guns() {
            tr.cost_art
        } else {
            tr.cost_inf
        };
        if enter.is_none() {
            return false;
        }
        let mut here = self.units_at(s, h);
        here.push(u);
        // The newcomer takes the facing of the units already there (3.1).
        let mut probe = s.clone();
        if let Some(&mate) = self.combat_units_at(s, h).first() {
            probe.units[usize::from(u)].facing = s.units[usize::from(mate)].facing;
        }
        probe.units[usize::from(u)].hex = Some(h);
        self.stacking_ok(h, &here, &probe)
    }

    /// Legal actions of the free set-up.
    pub fn legal_setup(&self, s: &State) -> Vec<Action> {
        let Some(st) = &s.setup else {
            return Vec::new();
        };
        if st.facing_for.is_some() {
            return Vertex::ALL
                .into_iter()
                .map(|facing| Action::FaceUnit { facing })
                .collect();
        }
        match st.stage {
            SetupStage::AlliedUnits | SetupStage::FrenchUnits => {
                let Some(&u) = st.units.first() else {
                    return Vec::new();
                };
                self.sc
                    .map
                    .hexes()
                    .filter(|&h| self.placement_ok(s, u, h))
                    .map(|hex| Action::PlaceUnit { unit: u, hex })
                    .collect()
            }
            SetupStage::AlliedAbattis => {
                let Some(f) = self.sc.free else {
                    return Vec::new();
                };
                self.sc
                    .map
                    .hexes()
                    .filter(|&h| {
                        self.sc.map.terrain(h) == Terrain::Woods
                            && h.row <= f.allied_max_row
                            && h.col >= f.allied_min_col
                    })
                    .map(|hex| Action::PlaceAbattis { hex })
                    .collect()
            }
            SetupStage::AlliedCommanders | SetupStage::FrenchCommanders => {
                let Some(&c) = st.commanders.first() else {
                    return Vec::new();
                };
                self.commander_places(s, c)
                    .into_iter()
                    .map(|hex| Action::PlaceCommander { commander: c, hex })
                    .collect()
            }
            SetupStage::FrenchChoice => {
                let Some(&f) = st.formations.first() else {
                    return Vec::new();
                };
                let mut v = vec![Action::SetUpOnMap { formation: f }];
                for hex in self.entry_hexes(s, Side::French) {
                    v.push(Action::EnterInColumn { formation: f, hex });
                }
                v
            }
        }
    }

    /// South-edge hexes a French column may enter by (16.2).
    fn entry_hexes(&self, s: &State, side: Side) -> Vec<HexId> {
        let map = &self.sc.map;
        let row = match side {
            Side::French => map.rows.1,
            Side::Allies => map.rows.0,
        };
        (map.cols.0..=map.cols.1)
            .map(|c| HexId::new(row, c))
            .filter(|&h| {
                self.sc.tables.terrain(map.terrain(h)).cost_inf.is_some()
                    && self.side_at(s, h) != Some(side.other())
            })
            .collect()
    }

    /// Hexes where a commander may be set up: with a unit of his formation (army: any friendly unit).
    fn commander_places(&self, s: &State, c: CommanderIx) -> Vec<HexId> {
        let d = &self.sc.commanders[usize::from(c)];
        let mut v: Vec<HexId> = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                let ud = &self.sc.units[*i];
                ud.side == d.side
                    && !ud.kind.is_guns()
                    && (d.army || d.king || ud.formation == d.formation)
            })
            .filter_map(|(_, u)| u.hex)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Apply a set-up action.
    pub fn apply_setup(&self, s: &mut State, a: &Action, ev: &mut Vec<Event>) {
        let Some(mut st) = s.setup.take() else { return };
        match a {
            Action::PlaceUnit { unit, hex } => {
                let mate = self.combat_units_at(s, *hex).first().copied();
                let order = self.units_at(s, *hex).len() as u8;
                st.units.retain(|x| x != unit);
                let us = &mut s.units[usize::from(*unit)];
                us.hex = Some(*hex);
                us.order = order;
                match mate {
                    Some(m) => s.units[usize::from(*unit)].facing = s.units[usize::from(m)].facing,
                    None => st.facing_for = Some(*unit),
                }
                ev.push(Event::rule(
                    "16.2",
                    self.unit_line(s, &[*unit]).t(format!(" set up in {hex}")),
                ));
            }
            Action::FaceUnit { facing } => {
                if let Some(u) = st.facing_for.take() {
                    s.units[usize::from(u)].facing = *facing;
                }
            }
            Action::PlaceAbattis { hex } => {
                s.abattis = vec![*hex];
                st.abattis = Some(*hex);
                ev.push(Event::rule("16.2", format!("abattis placed in {hex}")));
            }
            Action::PlaceCommander { commander, hex } => {
                st.commanders.retain(|c| c != commander);
                s.commanders[usize::from(*commander)].hex = Some(*hex);
                ev.push(Event::rule(
                    "16.2",
                    format!("{} set up in {hex}", self.cname(*commander)),
                ));
            }
            Action::SetUpOnMap { formation } => {
                st.formations.retain(|f| f != formation);
                // `run` ends a stage left with nothing to decide by this action naming no
                // formation (`u8::MAX`): nothing to announce then.
                if let Some(fd) = self.sc.formations.get(usize::from(*formation)) {
                    ev.push(Event::rule(
                        "16.2",
                        format!("{} will set up on the map", fd.name),
                    ));
                }
            }
            Action::EnterInColumn { formation, hex } => {
                st.formations.retain(|f| f != formation);
                s.formations[usize::from(*formation)].column = Some(*hex);
                for u in 0..s.units.len() as UnitIx {
                    if self.sc.units[usize::from(u)].formation == Some(*formation)
                        && self.in_play(&s.options, u)
                    {
                        s.units[usize::from(u)].set(flag::OFFMAP | flag::COLUMN, true);
                    }
                }
                ev.push(Event::rule(
                    "16.2",
                    format!(
                        "{} will enter in march column at {hex} (14)",
                        self.sc.formations[usize::from(*formation)].name
                    ),
                ));
            }
            _ => {}
        }
        // Next stage when this one is done.
        if st.facing_for.is_none() {
            loop {
                let done = match st.stage {
                    SetupStage::AlliedUnits | SetupStage::FrenchUnits => st.units.is_empty(),
                    SetupStage::AlliedAbattis => {
                        st.abattis.is_some() || self.legal_setup_stage_empty(s, &st)
                    }
                    SetupStage::AlliedCommanders | SetupStage::FrenchCommanders => {
                        st.commanders.is_empty()
                    }
                    SetupStage::FrenchChoice => st.formations.is_empty(),
                };
                if !done {
                    break;
                }
                match st.stage {
                    SetupStage::AlliedUnits => st.stage = SetupStage::AlliedAbattis,
                    SetupStage::AlliedAbattis => {
                        st.stage = SetupStage::AlliedCommanders;
                        st.commanders = self.commanders_to_place(s, Side::Allies);
                    }
                    SetupStage::AlliedCommanders => {
                        st.stage = SetupStage::FrenchChoice;
                        st.formations = (0..self.sc.formations.len() as FormationIx)
                            .filter(|&f| self.sc.formations[usize::from(f)].side == Side::French)
                            .collect();
                    }
                    SetupStage::FrenchChoice => {
                        st.stage = SetupStage::FrenchUnits;
                        st.units = self.setup_order(s, Side::French, |u| {
                            self.sc.units[usize::from(u)]
                                .formation
                                .is_none_or(|f| s.formations[usize::from(f)].column.is_none())
                        });
                    }
                    SetupStage::FrenchUnits => {
                        st.stage = SetupStage::FrenchCommanders;
                        st.commanders = self.commanders_to_place(s, Side::French);
                    }
                    SetupStage::FrenchCommanders => {
                        // Set-up complete: turn 1 begins with phase A.
                        ev.push(Event::rule("16.2", "set-up complete; turn 1 begins"));
                        s.phase = Phase::March(self.sc.first);
                        self.update_control(s, ev);
                        return;
                    }
                }
            }
        }
        s.setup = Some(st);
    }

    fn legal_setup_stage_empty(&self, s: &State, st: &SetupState) -> bool {
        let mut probe = s.clone();
        probe.setup = Some(st.clone());
        self.legal_setup(&probe).is_empty()
    }

    /// Commanders to place: the army commander and the commanders of formations on the map.
    fn commanders_to_place(&self, s: &State, side: Side) -> Vec<CommanderIx> {
        (0..self.sc.commanders.len() as CommanderIx)
            .filter(|&c| {
                let d = &self.sc.commanders[usize::from(c)];
                d.side == side
                    && (d.army
                        || d.formation
                            .is_none_or(|f| s.formations[usize::from(f)].column.is_none()))
            })
            .collect()
    }

    /// Phase A for a side: its columns march or deploy (14).
    pub fn legal_march(&self, s: &State, side: Side) -> Vec<Action> {
        let mut v = Vec::new();
        if self.halted(s, side) {
            return v; // 15.3 A: the player cannot move any unit this turn
        }
        // F/L 17.1, 17.2: formations still off the map choose their entry hex.
        for c in &self.sc.column_entries {
            if c.side != side || s.turn < c.turn {
                continue;
            }
            let d = self.column_min_distance();
            for &f in &c.formations {
                let fs = &s.formations[usize::from(f)];
                if fs.column.is_some() || fs.tested || self.formation_units_off_map(s, f) == 0 {
                    continue;
                }
                for &hex in &c.hexes {
                    if self.side_at(s, hex) != Some(side.other())
                        && self.nearest_unit_distance(s, hex, side.other()) >= d
                        && self
                            .sc
                            .tables
                            .terrain(self.sc.map.terrain(hex))
                            .cost_inf
                            .is_some()
                    {
                        v.push(Action::EnterInColumn { formation: f, hex });
                    }
                }
            }
        }
        // F/L 17.1, 17.2: independent units entering with the columns, activated automatically
        // (14.4); they must enter while they can (a column's activation is no choice).
        for (unit, hexes) in self.column_arrivals(s, side) {
            for hex in hexes {
                v.push(Action::Reinforce { unit, hex });
            }
        }
        for (i, f) in self.sc.formations.iter().enumerate() {
            let fs = &s.formations[i];
            if f.side != side || fs.column.is_none() || fs.tested {
                continue;
            }
            let fi = i as FormationIx;
            v.push(Action::March { formation: fi });
            let all_on_map = (0..s.units.len() as UnitIx)
                .filter(|&u| self.sc.units[usize::from(u)].formation == Some(fi))
                .all(|u| !self.has(s, u, flag::OFFMAP) || self.has(s, u, flag::ROUTED));
            if all_on_map {
                v.push(Action::Deploy { formation: fi });
            }
        }
        v
    }

    /// Units of a formation waiting off the map.
    pub fn formation_units_off_map(&self, s: &State, f: FormationIx) -> usize {
        (0..s.units.len() as UnitIx)
            .filter(|&u| {
                self.sc.units[usize::from(u)].formation == Some(f) && self.has(s, u, flag::OFFMAP)
            })
            .count()
    }

    /// F/L 17: the state of a scenario whose formations enter in march column and whose side
    /// may deploy freely in a zone (17.1 option 2): entering units wait off the map; the zone's
    /// side places its units first.
    pub fn column_and_zone_state(&self, s: &mut State) {
        for c in &self.sc.column_entries {
            for &f in &c.formations {
                for u in 0..s.units.len() as UnitIx {
                    if self.sc.units[usize::from(u)].formation == Some(f) {
                        let us = &mut s.units[usize::from(u)];
                        us.hex = None;
                        us.set(flag::OFFMAP | flag::COLUMN, true);
                    }
                }
                let c = self.formation_commander(f);
                s.commanders[usize::from(c)].hex = None;
            }
        }
        for &c in &self.sc.entering_commanders {
            s.commanders[usize::from(c)].hex = None;
        }
        if let Some(z) = self.sc.zone {
            for u in 0..s.units.len() as UnitIx {
                if self.side_of(u) == z.side && !self.has(s, u, flag::OFFMAP) {
                    s.units[usize::from(u)].hex = None;
                }
            }
            for (i, c) in self.sc.commanders.iter().enumerate() {
                if c.side == z.side {
                    s.commanders[i].hex = None;
                }
            }
            s.phase = Phase::Setup;
            s.setup = Some(SetupState {
                stage: if z.side == Side::French {
                    SetupStage::FrenchUnits
                } else {
                    SetupStage::AlliedUnits
                },
                units: self.setup_order(s, z.side, |u| !self.has(s, u, flag::OFFMAP)),
                facing_for: None,
                commanders: Vec::new(),
                formations: Vec::new(),
                abattis: None,
            });
        }
    }

    /// A commander entering with the columns (17) joins the first unit of his side to enter.
    pub fn place_entering_commanders(&self, s: &mut State, side: Side, hex: HexId) {
        for &c in &self.sc.entering_commanders {
            let cs = &s.commanders[usize::from(c)];
            if self.sc.commanders[usize::from(c)].side == side
                && cs.hex.is_none()
                && cs.aides == 0
                && cs.army == self.sc.commanders[usize::from(c)].army
            {
                s.commanders[usize::from(c)].hex = Some(hex);
            }
        }
    }

    /// Begin a column's march or deployment.
    pub fn begin_column(&self, s: &mut State, f: FormationIx, deploy: bool, ev: &mut Vec<Event>) {
        let side = self.sc.formations[usize::from(f)].side;
        s.formations[usize::from(f)].tested = true;
        s.formations[usize::from(f)].deploying = deploy;
        let c = self.formation_commander(f);
        s.commanders[usize::from(c)].flipped = true;
        ev.push(Event::rule(
            if deploy { "14.3" } else { "14.1" },
            format!(
                "{} {} (activation automatic, 14.4)",
                self.sc.formations[usize::from(f)].name,
                if deploy {
                    "deploys"
                } else {
                    "marches in column"
                }
            ),
        ));
        s.frames.push(Frame::Column {
            side,
            formation: f,
            deploy,
        });
    }

    /// Actions of a column on the march or deploying.
    pub fn legal_column(&self, s: &State, f: FormationIx) -> Vec<Action> {
        let mut v = Vec::new();
        let d = self.column_min_distance();
        let members: Vec<UnitIx> = (0..s.units.len() as UnitIx)
            .filter(|&u| self.sc.units[usize::from(u)].formation == Some(f))
            .collect();
        for &u in &members {
            if self.alive(s, u)
                && !self.has(s, u, flag::DONE)
                && !self.has(s, u, flag::ROUTED)
                && self.kind(u) != Kind::Redoubt
            {
                v.push(Action::ColumnUnit { unit: u });
            }
        }
        if let (Some(entry), Some(&next)) = (
            s.formations[usize::from(f)].column,
            members
                .iter()
                .find(|&&u| self.has(s, u, flag::OFFMAP) && !self.has(s, u, flag::ROUTED)),
        ) {
            let mut here = self.units_at(s, entry);
            here.push(next);
            let mut probe = s.clone();
            probe.units[usize::from(next)].hex = Some(entry);
            if let Some(&m) = self.combat_units_at(s, entry).first() {
                probe.units[usize::from(next)].facing = s.units[usize::from(m)].facing;
            } else {
                probe.units[usize::from(next)].facing = self.entry_facing(self.side_of(next));
            }
            if self.side_at(s, entry) != Some(self.side_of(next).other())
                && self.nearest_unit_distance(s, entry, self.side_of(next).other()) >= d
                && self.stacking_ok(entry, &here, &probe)
            {
                v.push(Action::EnterUnit { unit: next });
            }
        }
        v.push(Action::EndColumn);
        v
    }

    fn entry_facing(&self, side: Side) -> Vertex {
        match side {
            Side::French => Vertex::N,
            Side::Allies => Vertex::S,
        }
    }

    /// Start moving a unit of a column (doubled MP on the march, 14.1; regular when deploying, 14.3).
    pub fn start_column_unit(&self, s: &mut State, u: UnitIx, enter: bool, ev: &mut Vec<Event>) {
        let Some(Frame::Column {
            side,
            formation,
            deploy,
        }) = s.frames.last().cloned()
        else {
            return;
        };
        let base = self.sc.units[usize::from(u)].mp;
        let mut mp = if deploy { base } else { base.saturating_mul(2) };
        if enter {
            let Some(entry) = s.formations[usize::from(formation)].column else {
                return;
            };
            let facing = self
                .combat_units_at(s, entry)
                .first()
                .map(|&m| s.units[usize::from(m)].facing)
                .unwrap_or(self.entry_facing(side));
            let order = self.units_at(s, entry).len() as u8;
            let cost = {
                let tr = self.sc.tables.terrain(self.sc.map.terrain(entry));
                let k = self.kind(u);
                (if k.is_cavalry() {
                    tr.cost_cav
                } else if k.is_guns() {
                    tr.cost_art
                } else {
                    tr.cost_inf
                })
                .unwrap_or(1)
            };
            let us = &mut s.units[usize::from(u)];
            us.hex = Some(entry);
            us.facing = facing;
            us.order = order;
            us.set(flag::OFFMAP, false);
            us.set(flag::COLUMN, true);
            mp = mp.saturating_sub(cost);
            let c = self.formation_commander(formation);
            if s.commanders[usize::from(c)].hex.is_none() && s.commanders[usize::from(c)].aides == 0
            {
                s.commanders[usize::from(c)].hex = Some(entry);
            }
            self.place_entering_commanders(s, side, entry);
            ev.push(Event::rule(
                "14.1",
                self.unit_line(s, &[u])
                    .verb(" enters", " enter")
                    .t(format!(" the map at {entry} ({cost} MP)")),
            ));
        }
        s.units[usize::from(u)].set(flag::DONE | flag::MOVED, true);
        s.frames.push(Frame::Moving(Moving {
            side,
            kind: GroupKind::Column,
            units: vec![u],
            mp: vec![mp],
            vertices: 0,
            tested: Vec::new(),
            commander: None,
            hexes: 0,
            target: None,
        }));
    }

    /// 14.1: a column pays no vertex change on a road.
    pub fn on_road(&self, h: HexId) -> bool {
        // Hastenbeck 14.1 (marked new): F/L columns pay for every vertex.
        self.edition == crate::Edition::Hastenbeck
            && h.neighbours()
                .any(|(_, n)| self.sc.map.side(h, n) & side_bits::ROAD != 0)
    }

    /// A move cost for a unit of a column (same as a unit).
    pub fn column_cost(&self, s: &State, u: UnitIx, a: HexId, b: HexId) -> Option<u8> {
        self.move_cost(s, Mover::Unit(self.kind(u)), a, b)
    }

    /// End of a column's turn: a deployed formation loses its column marker (14.3).
    pub fn end_of_turn_columns(&self, s: &mut State) {
        // F/L 14.3: an independent that deployed this turn loses its column marker.
        for u in s.units.iter_mut() {
            if u.has(flag::DEPLOYING) {
                u.set(flag::COLUMN | flag::DEPLOYING, false);
            }
        }
        for f in 0..s.formations.len() {
            if s.formations[f].deploying {
                s.formations[f].deploying = false;
                s.formations[f].column = None;
                for u in 0..s.units.len() {
                    if self.sc.units[u].formation == Some(f as FormationIx) {
                        s.units[u].set(flag::COLUMN, false);
                    }
                }
            }
        }
    }

    /// 16.2 note: routed French units off the map try to come back by their exit hex in their
    /// rally phase.
    pub fn rally_off_map(&self, s: &mut State, side: Side, ev: &mut Vec<Event>) {
        for u in 0..s.units.len() as UnitIx {
            let us = &s.units[usize::from(u)];
            if self.side_of(u) != side || !us.has(flag::OFFMAP) || !us.has(flag::ROUTED) {
                continue;
            }
            let Some(exit) = us.exit else { continue };
            let mv = self.morale(s, u);
            let (_, t) = self.roll(
                s,
                ev,
                "16.2 / 12.5",
                Line::new()
                    .t("rally test of ")
                    .units(self.named(s, &[u]))
                    .t(format!(" off the map (MV {mv})")),
                Vec::new(),
                |t| {
                    if t <= mv {
                        "rallied".into()
                    } else {
                        "still routed".into()
                    }
                },
            );
            if t > mv {
                continue;
            }
            let mut here = self.units_at(s, exit);
            here.push(u);
            let free = self.side_at(s, exit) != Some(side.other());
            let mut probe = s.clone();
            probe.units[usize::from(u)].hex = Some(exit);
            probe.units[usize::from(u)].set(flag::ROUTED, false);
            if let Some(&m) = self.combat_units_at(s, exit).first() {
                probe.units[usize::from(u)].facing = s.units[usize::from(m)].facing;
            } else {
                probe.units[usize::from(u)].facing = self.entry_facing(side);
            }
            if free && self.stacking_ok(exit, &here, &probe) {
                let facing = probe.units[usize::from(u)].facing;
                let us = &mut s.units[usize::from(u)];
                us.hex = Some(exit);
                us.facing = facing;
                us.set(flag::OFFMAP | flag::ROUTED, false);
                us.set(flag::DISORG, true);
                us.order = 9;
                self.renumber(s, exit);
                ev.push(Event::rule(
                    "16.2",
                    self.unit_line(s, &[u])
                        .verb(" re-enters", " re-enter")
                        .t(format!(" at {exit}, disorganised")),
                ));
            } else {
                ev.push(Event::rule(
                    "16.2",
                    self.unit_line(s, &[u])
                        .t(format!(" cannot re-enter at {exit}")),
                ));
            }
        }
    }
}
