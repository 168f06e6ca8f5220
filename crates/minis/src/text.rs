//! Views: the board as JSON and as text.
//!
//! The JSON is what a browser draws the table from: every base with its four corners, its ranges
//! and its movement left, and, for each move of the decider's menu, the rectangle it would end in
//! (keyed by action id), so that a page needs no geometry of its own beyond drawing.
use crate::Minis;
use crate::data::{Kind, Order};
use crate::geom::{Rect, heading, norm_deg};
use crate::state::{Action, State, Step};
use glam::DVec2;
use serde_json::{Value, json};

/// Corners as `[[x, y]; 4]`: front-left, front-right, rear-right, rear-left.
fn corners_json(r: &Rect) -> Value {
    let cs = r.corners();
    json!(cs.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>())
}

impl Minis {
    /// The ranges a unit fires at in its present order (Musketry, Artillery; docs/minis.md F1–F3).
    fn ranges_json(&self, kind: Kind, order: Order) -> Value {
        let r = &self.sc.rules.ranges;
        match (kind, order) {
            (Kind::Foot | Kind::LightFoot, _) => json!([{"what": "musket", "cm": r.musket}]),
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => {
                json!([{"what": "carbine", "cm": r.carbine}])
            }
            (Kind::Gun, Order::Unlimbered) => json!([
                {"what": "canister", "cm": r.canister},
                {"what": "roundshot", "cm": r.roundshot}
            ]),
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse | Kind::Gun, _) => json!([]),
        }
    }

    fn unit_json(&self, st: &State, i: usize) -> Value {
        let d = self.def(i);
        let u = &st.units[i];
        let [w, dep] = self.size(d.kind, u.order);
        let r = self.rect(st, i);
        let front = r.front_centre();
        let general: Vec<&str> = st
            .generals
            .iter()
            .enumerate()
            .filter(|(_, g)| !g.gone && g.with == i)
            .map(|(gi, _)| self.sc.file.generals[gi].name.as_str())
            .collect();
        let allowance = self.allowance(st, i);
        // Enemies within its longest range, in its arc and in sight: whom it could fire at now.
        let ranges = self.ranges_json(d.kind, u.order);
        let reach = ranges
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x["cm"].as_f64())
                    .fold(0.0, f64::max)
            })
            .unwrap_or(0.0);
        let targets: Vec<&str> = if u.gone || reach <= 0.0 {
            Vec::new()
        } else {
            self.targets(st, i, reach)
                .into_iter()
                .map(|j| self.def(j).id.as_str())
                .collect()
        };
        json!({
            "id": d.id, "name": d.name, "side": d.side, "kind": d.kind, "quality": d.quality,
            "sector": d.sector, "x": u.x, "y": u.y, "facing": u.facing, "w": w, "d": dep,
            "order": u.order, "effectiveness": 25 * u32::from(u.eff), "quarters": u.eff,
            "retreating": u.retreating,
            "eliminated": u.gone, "cuirassiers": d.cuirassiers, "dragoons": d.dragoons,
            "corners": corners_json(&r), "front": [front.x, front.y],
            "ranges": ranges,
            "allowance": allowance, "used": u.ph.used, "left": (allowance - u.ph.used).max(0.0),
            "acted": u.ph.acted, "done": u.ph.done, "moved": u.ph.moved, "fired": u.ph.fired,
            "general": general.first(), "in_cover": self.in_cover(st, i), "targets": targets,
        })
    }

    /// Where a move of the menu would leave the unit's base (before the variation's die), or
    /// `None` for an action that moves no base.
    fn end_of(&self, st: &State, a: &Action) -> Option<(usize, Rect)> {
        let at = |u: usize| -> Option<(DVec2, f64, Order)> {
            let un = st.units.get(u)?;
            Some((DVec2::new(un.x, un.y), un.facing, un.order))
        };
        let (u, c, facing, order) = match *a {
            Action::Move(u, off, d) => {
                let (c, f, o) = at(u)?;
                let dir = heading(f + f64::from(off) / 10.0);
                (u, c + dir * (f64::from(d) / 10.0), f, o)
            }
            Action::Wheel(u, ang) => {
                let (c, f, o) = at(u)?;
                let r0 = self.rect(st, u);
                let theta = f64::from(ang) / 10.0;
                let side = if theta > 0.0 { 1.0 } else { -1.0 };
                let pivot = r0.front_centre() + r0.left() * r0.hw * side;
                let pos = pivot + (c - pivot).rotate(heading(theta));
                (u, pos, norm_deg(f + theta), o)
            }
            Action::Pivot(u, ang) | Action::Unlimber(u, ang) => {
                let (c, f, _) = at(u)?;
                let o = if matches!(a, Action::Unlimber(..)) {
                    Order::Unlimbered
                } else {
                    st.units[u].order
                };
                (u, c, norm_deg(f + f64::from(ang) / 10.0), o)
            }
            Action::AboutFace(u) => {
                let (c, f, o) = at(u)?;
                (u, c, norm_deg(f + 180.0), o)
            }
            Action::Formation(u, firing) => {
                let (c, f, _) = at(u)?;
                (u, c, f, if firing { Order::Firing } else { Order::Column })
            }
            Action::Mount(u, mount) => {
                let (c, f, _) = at(u)?;
                let o = if mount {
                    Order::Mounted
                } else {
                    Order::Dismounted
                };
                (u, c, f, o)
            }
            Action::Limber(u) => {
                let (c, f, _) = at(u)?;
                (u, c, f, Order::Limbered)
            }
            Action::Sector(_)
            | Action::Fire(..)
            | Action::GunsDone
            | Action::MovesDone
            | Action::Attach(..)
            | Action::Retreat(..) => return None,
        };
        Some((u, self.rect_at(u, c, facing, order)))
    }

    /// The end rectangle of each move in the decider's menu, keyed by action id.
    fn ends_json(&self, st: &State) -> Value {
        if st.over.is_some() || st.step != Step::Move || !st.retreats.is_empty() {
            return json!({});
        }
        let mut out = serde_json::Map::new();
        for a in self.menu(st) {
            if let Some((u, r)) = self.end_of(st, &a) {
                out.insert(
                    self.id_of(&a),
                    json!({"unit": self.def(u).id, "x": r.c.x, "y": r.c.y,
                           "facing": norm_deg(r.dir.y.atan2(r.dir.x).to_degrees()),
                           "corners": corners_json(&r)}),
                );
            }
        }
        Value::Object(out)
    }

    /// The retreat waiting for its direction: the unit and the heading straight away from the
    /// enemy that caused it (Morale; P4: or 30° to either side).
    fn retreat_json(&self, st: &State) -> Value {
        let Some(r) = st.retreats.first() else {
            return Value::Null;
        };
        let Some(u) = st.units.get(r.unit) else {
            return Value::Null;
        };
        let away = DVec2::new(u.x - r.from[0], u.y - r.from[1]);
        let deg = if away.length() > 1e-9 {
            norm_deg(away.y.atan2(away.x).to_degrees())
        } else {
            norm_deg(u.facing + 180.0)
        };
        json!({"unit": self.def(r.unit).id, "away": deg, "veer": 30.0})
    }

    /// What the decider is asked, in the text's words.
    fn decision_text(&self, st: &State) -> Option<String> {
        if st.over.is_some() {
            return None;
        }
        let sides = &self.sc.file.scenario.sides;
        if let Some(r) = st.retreats.first() {
            return Some(format!(
                "{}: choose the direction of {}'s retreat (Morale)",
                sides[usize::from(self.side(r.unit) & 1)],
                self.name(r.unit)
            ));
        }
        let side = &sides[usize::from(st.active & 1)];
        let sector = st.sector.map(|s| s.id()).unwrap_or("?");
        Some(match st.step {
            Step::ChooseSector => format!(
                "{side}: choose the sector to play next (pips: centre {}, right {}, left {})",
                st.pips[0], st.pips[1], st.pips[2]
            ),
            Step::Guns => format!(
                "{side}: fire the guns of the {sector} ({} pip(s) left)",
                self.pips_left(st)
            ),
            Step::Move => format!(
                "{side}: order the units of the {sector} ({} pip(s) left)",
                self.pips_left(st)
            ),
            Step::TurnStart | Step::Rally | Step::Musketry | Step::Melee | Step::SectorEnd => {
                format!("{side} to decide")
            }
        })
    }

    /// The state as JSON for a viewer (nothing is hidden in this game).
    pub(crate) fn view_json(&self, st: &State) -> Value {
        let units: Vec<Value> = (0..st.units.len()).map(|i| self.unit_json(st, i)).collect();
        let generals: Vec<Value> = st
            .generals
            .iter()
            .enumerate()
            .map(|(gi, g)| {
                let d = &self.sc.file.generals[gi];
                json!({"id": d.id, "name": d.name, "side": d.side,
                       "with": self.def(g.with).id, "lost": g.gone})
            })
            .collect();
        json!({
            "ruleset": "minis", "turn": st.turn, "active": st.active,
            "pips": {"centre": st.pips[0], "right": st.pips[1], "left": st.pips[2]},
            "sector": st.sector, "step": st.step, "units": units, "generals": generals,
            "retreats": st.retreats.iter().map(|r| self.def(r.unit).id.clone()).collect::<Vec<_>>(),
            "points": self.points(st), "start_points": self.start_points(),
            "over": st.over.as_ref().map(|o| o.1.clone()),
            "sides": self.sc.file.scenario.sides, "half_arc": self.half_arc(),
            "pips_left": self.pips_left(st), "sectors_done": st.sectors_done,
            "decision": self.decision_text(st), "ends": self.ends_json(st),
            "retreat": self.retreat_json(st),
        })
    }

    /// The static table: size, terrain, the units as set up.
    pub(crate) fn board_json(&self) -> Value {
        let f = &self.sc.file;
        json!({
            "kind": "table",
            "name": f.scenario.name,
            "table": {"width": f.scenario.table[0], "depth": f.scenario.table[1]},
            "sides": f.scenario.sides,
            "seats": f.scenario.sides,
            "terrain": f.terrain,
            "pieces": self.sc.terrain.iter().map(|t| json!({
                "kind": t.kind, "name": t.name, "corners": corners_json(&t.rect),
            })).collect::<Vec<_>>(),
            "ranges": self.sc.rules.ranges,
            "moves": self.sc.rules.moves,
            "units": f.units,
            "generals": f.generals,
        })
    }

    /// The table as text: a map at 3 cm a column and 6 cm a row, then the units.
    pub(crate) fn render(&self, st: &State) -> String {
        let [tw, th] = self.sc.file.scenario.table;
        let (cols, rows) = ((tw / 3.0).ceil() as usize, (th / 6.0).ceil() as usize);
        let mut grid = vec![vec!['.'; cols]; rows];
        for t in &self.sc.terrain {
            let ch = match t.kind {
                crate::data::TerrainKind::Woods => 'w',
                crate::data::TerrainKind::Town => 't',
                crate::data::TerrainKind::Redoubt => 'r',
                crate::data::TerrainKind::River => '~',
                crate::data::TerrainKind::Hill => '^',
            };
            for (ry, row) in grid.iter_mut().enumerate() {
                for (cx, cell) in row.iter_mut().enumerate() {
                    let p = glam::DVec2::new(cx as f64 * 3.0 + 1.5, th - (ry as f64 * 6.0 + 3.0));
                    if t.rect.contains(p) {
                        *cell = ch;
                    }
                }
            }
        }
        for i in self.live(st) {
            let u = &st.units[i];
            let cx = ((u.x / 3.0) as usize).min(cols - 1);
            let ry = (((th - u.y) / 6.0) as usize).min(rows - 1);
            let k = match self.def(i).kind {
                crate::data::Kind::Foot => 'i',
                crate::data::Kind::LightFoot => 'l',
                crate::data::Kind::HeavyHorse => 'c',
                crate::data::Kind::Lancers => 'u',
                crate::data::Kind::LightHorse => 'h',
                crate::data::Kind::Gun => 'a',
            };
            grid[ry][cx] = if self.side(i) == 0 {
                k.to_ascii_uppercase()
            } else {
                k
            };
        }
        let mut out = String::new();
        let s = &self.sc.file.scenario.sides;
        out.push_str(&format!(
            "{} — turn {}, {} to move; pips centre {} right {} left {}; step {:?}\n",
            self.sc.file.scenario.name,
            st.turn,
            s[usize::from(st.active & 1)],
            st.pips[0],
            st.pips[1],
            st.pips[2],
            st.step
        ));
        for row in grid {
            out.extend(row);
            out.push('\n');
        }
        for i in 0..st.units.len() {
            let u = &st.units[i];
            if u.gone {
                continue;
            }
            out.push_str(&format!(
                "{:<4} {:<32} {:>5.1},{:>5.1} facing {:>5.1} {:?} {}%{}\n",
                s[usize::from(self.side(i) & 1)]
                    .chars()
                    .take(4)
                    .collect::<String>(),
                self.def(i).name,
                u.x,
                u.y,
                u.facing,
                u.order,
                25 * u32::from(u.eff),
                if u.retreating { " retreating" } else { "" }
            ));
        }
        let p = self.points(st);
        let sp = self.start_points();
        out.push_str(&format!(
            "points: {} {}/{}, {} {}/{}\n",
            s[0], p[0], sp[0], s[1], p[1], sp[1]
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Event;
    use engine::Ruleset;

    /// The ghost a page draws for a move (`view.ends`) is where the move leaves the base, unless
    /// The Variation's die (1 or 6) moved it further or stopped it short.
    #[test]
    fn ends_are_where_the_moves_leave_the_bases() {
        for scenario in ["minis-encounter", "minis-fontenoy"] {
            let m = Minis::load(scenario, &[], None).expect("scenario");
            let mut ev = Vec::new();
            let mut st = m.start(5, &mut ev);
            let mut checked = 0;
            let mut salt = 7_u64;
            for _ in 0..400 {
                let menu = m.legal_actions(&st);
                if menu.is_empty() {
                    break;
                }
                let view = m.view_json(&st);
                for a in &menu {
                    let Some(end) = view["ends"].get(m.id_of(a)) else {
                        continue;
                    };
                    let uid = end["unit"].as_str().expect("unit");
                    let u = m.unit_index(uid).expect("unit index");
                    let mut next = st.clone();
                    let mut evs = Vec::new();
                    m.apply_legal(&mut next, a, &mut evs);
                    let varied = evs.iter().any(|e| {
                        matches!(e, Event::Roll { rule, dice, .. }
                            if rule == crate::rules::para::VARIATION && matches!(dice.first(), Some(1 | 6)))
                    });
                    if varied || next.units[u].retreating {
                        continue;
                    }
                    let (x, y) = (end["x"].as_f64().expect("x"), end["y"].as_f64().expect("y"));
                    let f = end["facing"].as_f64().expect("facing");
                    let nu = &next.units[u];
                    let df = (nu.facing - f).rem_euclid(360.0);
                    assert!(
                        (nu.x - x).abs() < 0.01
                            && (nu.y - y).abs() < 0.01
                            && df.min(360.0 - df) < 0.01,
                        "{scenario} {}: ghost ({x}, {y}, {f}) but the base ends at ({}, {}, {})",
                        m.id_of(a),
                        nu.x,
                        nu.y,
                        nu.facing
                    );
                    checked += 1;
                }
                salt = salt
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pick = &menu[(salt >> 33) as usize % menu.len()];
                let mut evs = Vec::new();
                m.apply_legal(&mut st, pick, &mut evs);
            }
            assert!(checked > 50, "{scenario}: only {checked} ghosts checked");
        }
    }
}
