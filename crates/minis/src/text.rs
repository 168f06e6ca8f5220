//! Views: the board as JSON and as text.
use crate::Minis;
use crate::state::State;
use serde_json::{Value, json};

impl Minis {
    fn unit_json(&self, st: &State, i: usize) -> Value {
        let d = self.def(i);
        let u = &st.units[i];
        let [w, dep] = self.size(d.kind, u.order);
        json!({
            "id": d.id, "name": d.name, "side": d.side, "kind": d.kind, "quality": d.quality,
            "sector": d.sector, "x": u.x, "y": u.y, "facing": u.facing, "w": w, "d": dep,
            "order": u.order, "effectiveness": 25 * u32::from(u.eff), "retreating": u.retreating,
            "eliminated": u.gone, "cuirassiers": d.cuirassiers, "dragoons": d.dragoons,
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
        })
    }

    /// The static table: size, terrain, the units as set up.
    pub(crate) fn board_json(&self) -> Value {
        let f = &self.sc.file;
        json!({
            "kind": "table",
            "table": {"width": f.scenario.table[0], "depth": f.scenario.table[1]},
            "sides": f.scenario.sides,
            "terrain": f.terrain,
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
