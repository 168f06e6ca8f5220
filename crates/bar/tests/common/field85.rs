//! The movement drill ground (`data/move`, charts `data/movebox`) with the order of battle of
//! the 8.5 and 11.6 tests added: batteries with prolonge marks (11.6), an infantry parent of
//! three 2-SP components (E19) and a light parent of three skirmisher components with ERs 31,
//! 32 and 33 (E20). Shared by `r08_5_breakdown_actions.rs` and `r11_6_prolonge.rs`.
#![allow(dead_code)]
use super::*;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, Phase, State};

/// The order of battle added to `data/move/oob.toml`.
pub const EXTRA: &str = r#"
[[unit]]
id = "g2"
name = "Battalion guns"
army = "prussia"
brigade = "b3"
regiment = "ART"
arm = "artillery"
sub = "6pdr"
sp = 1
er = 30
ma = 5
prolonge = "FP"

[[unit]]
id = "g3"
name = "Heavy battery"
army = "prussia"
brigade = "b3"
regiment = "ART"
arm = "artillery"
sub = "6pdr"
sp = 2
er = 30
ma = 3

[[unit]]
id = "gp"
name = "Gren.-Btl. parent"
army = "prussia"
brigade = "b1"
regiment = "GP"
arm = "infantry"
sub = "grenadier"
sp = 6
er = 25
ma = 4
components = ["gc1", "gc2", "gc3"]

[[unit]]
id = "gc1"
name = "Gren. coy 1"
army = "prussia"
brigade = "b1"
regiment = "GP"
arm = "infantry"
sub = "grenadier"
sp = 2
er = 24
ma = 4

[[unit]]
id = "gc2"
name = "Gren. coy 2"
army = "prussia"
brigade = "b1"
regiment = "GP"
arm = "infantry"
sub = "grenadier"
sp = 2
er = 26
ma = 4

[[unit]]
id = "gc3"
name = "Gren. coy 3"
army = "prussia"
brigade = "b1"
regiment = "GP"
arm = "infantry"
sub = "grenadier"
sp = 2
er = 27
ma = 4

[[unit]]
id = "lp"
name = "Light battalion"
army = "prussia"
brigade = "b1"
regiment = "LB"
arm = "infantry"
sub = "light"
sp = 5
er = 30
ma = 4
skirmish = "capable"
components = ["sk1", "sk2", "sk3"]

[[unit]]
id = "sk1"
name = "Jäger coy 1"
army = "prussia"
brigade = "b1"
regiment = "LB"
arm = "infantry"
sub = "light"
sp = 1
er = 31
ma = 4
skirmish = "only"

[[unit]]
id = "sk2"
name = "Jäger coy 2"
army = "prussia"
brigade = "b1"
regiment = "LB"
arm = "infantry"
sub = "light"
sp = 2
er = 32
ma = 4
skirmish = "only"

[[unit]]
id = "sk3"
name = "Jäger coy 3"
army = "prussia"
brigade = "b1"
regiment = "LB"
arm = "infantry"
sub = "light"
sp = 2
er = 33
ma = 4
skirmish = "only"
"#;

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The drill ground with [`EXTRA`], the 6-pdr `g1` marked `P`, and `edit` applied to the order
/// of battle's text; the scenario's problems if it does not load.
pub fn field_with(edit: impl Fn(String) -> String) -> Result<Bar, Vec<String>> {
    let dir = std::env::temp_dir().join(format!(
        "bar-85-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    ));
    std::fs::create_dir_all(dir.join("move")).unwrap(); // test set-up
    for f in ["map.toml", "oob.toml", "scenario.toml"] {
        let mut text = std::fs::read_to_string(data().join("move").join(f)).unwrap(); // fixture
        if f == "oob.toml" {
            text = text.replace("sub = \"6pdr\"\n", "sub = \"6pdr\"\nprolonge = \"P\"\n");
            text.push_str(EXTRA);
            text = edit(text);
        }
        std::fs::write(dir.join("move").join(f), text).unwrap(); // test set-up
    }
    copy_dir(&data().join("movebox"), &dir.join("movebox"));
    Bar::from_dir(&dir.join("move"), &dir)
}

/// The drill ground with [`EXTRA`].
pub fn field() -> Bar {
    field_with(|s| s).unwrap() // the edited fixture is valid
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap(); // test set-up
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap(); // test set-up
        let t = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap(); // test set-up
        }
    }
}

/// Place a unit: hexes, facing, formation.
pub fn set(bar: &Bar, st: &mut State, id: &str, hexes: &[&str], facing: &str, formation: &str) {
    let f = Formation::parse(formation).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
}

/// The movement phase of an activation of `units` by their side (with the spare battalion far
/// away, so that the phase stays open after the units under test have moved).
pub fn movement(bar: &Bar, st: &mut State, units: &[&str]) {
    let mut us: Vec<u16> = units.iter().map(|u| unit(bar, u)).collect();
    us.push(unit(bar, "sp1"));
    let side = bar.sc.units[usize::from(us[0])].side;
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side,
        units: us,
        ..Activation::default()
    });
    st.phase = Phase::Movement;
}

/// The hexes of a unit, printed.
pub fn hexes_of(bar: &Bar, st: &State, id: &str) -> Vec<String> {
    st.units[usize::from(unit(bar, id))]
        .hexes
        .iter()
        .map(|h| bar.sc.board.label(*h))
        .collect()
}

/// The legal ids beginning with `prefix`.
pub fn ids(bar: &Bar, st: &State, prefix: &str) -> Vec<String> {
    legal(bar, st)
        .into_iter()
        .filter(|x| x.starts_with(prefix))
        .collect()
}

/// The invariants hold.
#[track_caller]
pub fn invariants(bar: &Bar, st: &State) {
    use engine::Ruleset;
    let bad = bar.check_invariants(st);
    assert!(bad.is_empty(), "{bad:?}");
}
