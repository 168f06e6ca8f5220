//! The position builder the formation and stacking tests share (`r08_formations`,
//! `r10_stacking`): the `forms` scenario on the test charts, with a small test T10 (`movement.toml`
//! here) and T5's two-hex minimum of 5 SP injected, and helpers to place units.
#![allow(dead_code)]
use bar::Bar;
use bar::charts::FireCharts;
use bar::charts::fire::LineSpTable;
use bar::formation::Budget;
use bar::geom::{Facing, Formation};
use bar::scenario::{Scenario, UnitIx};
use bar::state::State;
use engine::{Half, Ruleset};
use hexmap::HexId;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The tests' data dir.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A position: the scenario with the test charts and a state whose units the test places.
pub struct Pos {
    /// The scenario.
    pub sc: Scenario,
    /// The state.
    pub st: State,
}

/// The `forms` scenario with the test T10 and T5 (two hexes need 5 SP), every unit off the map.
pub fn forms() -> Pos {
    let bar = Bar::from_dir(&data().join("forms"), &data()).unwrap(); // the fixture is valid
    let mut ev = Vec::new();
    let mut st = bar.start(0, &mut ev);
    let mut sc = (*bar.sc).clone();
    let mut charts = (*sc.charts).clone();
    let text = std::fs::read_to_string(data().join("forms/movement.toml")).unwrap(); // fixture
    charts.movement = Some(toml::from_str(&text).unwrap()); // the fixture parses
    charts.fire = Some(FireCharts {
        line_sp: BTreeMap::from([(
            "3".to_string(),
            LineSpTable {
                two_hex_min: 5,
                ..LineSpTable::default()
            },
        )]),
        ..FireCharts::default()
    });
    sc.charts = Arc::new(charts);
    for u in &mut st.units {
        u.hexes.clear();
    }
    Pos { sc, st }
}

/// A hex from its printed id.
pub fn hx(s: &str) -> HexId {
    s.parse().unwrap() // test hexes are well formed
}

/// Hexes from printed ids.
pub fn hxs(v: &[&str]) -> Vec<HexId> {
    v.iter().map(|s| hx(s)).collect()
}

impl Pos {
    /// A unit's index by id.
    pub fn u(&self, id: &str) -> UnitIx {
        self.sc.units.iter().position(|u| u.id == id).unwrap() as UnitIx // fixture ids
    }

    /// Units' indices by id.
    pub fn us(&self, ids: &[&str]) -> Vec<UnitIx> {
        ids.iter().map(|i| self.u(i)).collect()
    }

    /// Place a unit: hexes, facing, formation; in order, disordered, not shaken or routed.
    pub fn place(&mut self, id: &str, hexes: &[HexId], facing: Facing, formation: Formation) {
        let u = usize::from(self.u(id));
        let s = &mut self.st.units[u];
        s.hexes = hexes.to_vec().into();
        s.facing = facing;
        s.formation = formation;
        s.disordered = false;
        s.shaken = false;
        s.routed = false;
        s.lost = 0;
    }

    /// The unit's state, to change.
    pub fn s(&mut self, id: &str) -> &mut bar::state::UnitState {
        let u = usize::from(self.u(id));
        &mut self.st.units[u]
    }
}

/// A fresh budget of `ma` MPs, nothing spent, not fired.
pub fn budget(ma: u16) -> Budget {
    Budget {
        ma: Half::whole(ma),
        left: Half::whole(ma),
        spent: false,
        fired: false,
    }
}

/// Whole points.
pub fn mp(n: u16) -> Half {
    Half::whole(n)
}
