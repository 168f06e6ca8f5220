//! 8.1f, 10.11a: a road column takes "as great a length as necessary" to hold 4 SP a hex.
//! tricorne keeps a unit's hexes inline, at most `MAX_FOOTPRINT` (8) of them — a 32-SP road
//! column (docs/bar-formations.md, row 8.1f/10.11a): up to there the rule holds as the book
//! says; beyond it the road column is not offered, and a set-up or saved game holding a longer
//! footprint is refused with an error, never a panic.
mod common;
use bar::formation::lengths;
use bar::geom::Formation;
use bar::state::{MAX_FOOTPRINT, State};
use common::*;

#[test]
fn r8_1f_a_road_column_as_long_as_its_sp_need_up_to_the_limit() {
    assert_eq!(MAX_FOOTPRINT, 8);
    // AMS 1 with 32 SP: 8 hexes of 4 SP (8.1f).
    let bar = mini_with("oob.toml", |t| t.replacen("sp = 6\n", "sp = 32\n", 1)).unwrap();
    let st = fresh(&bar);
    let u = unit(&bar, "ams1");
    assert_eq!(lengths(&bar.sc, &st, &[u], Formation::RoadColumn), 8..=8);
    // With 33 SP it would need 9 hexes: not offered.
    let bar = mini_with("oob.toml", |t| t.replacen("sp = 6\n", "sp = 33\n", 1)).unwrap();
    let st = fresh(&bar);
    assert!(lengths(&bar.sc, &st, &[u], Formation::RoadColumn).is_empty());
    // One lost SP brings it back within 32.
    let mut st = st;
    st.units[usize::from(u)].lost = 1;
    assert_eq!(lengths(&bar.sc, &st, &[u], Formation::RoadColumn), 8..=8);
}

#[test]
fn r8_1f_a_road_column_longer_than_the_engine_holds_is_refused() {
    let nine =
        r#"hexes = ["0401", "0402", "0403", "0404", "0405", "0406", "0407", "0408", "0409"]"#;
    let read = mini_with("scenario.toml", |t| {
        t.replacen(r#"hexes = ["0404"]"#, nine, 1)
            .replacen(r#"formation = "line""#, r#"formation = "road""#, 1)
            .replacen(r#"facing = "S""#, r#"facing = "W""#, 1)
    });
    let Err(err) = read else {
        panic!("a 9-hex footprint is refused")
    };
    assert!(
        err.iter()
            .any(|e| e.contains("setup[0].hexes") && e.contains("at most 8")),
        "{err:?}"
    );
    // A saved game with a 9-hex footprint: an error when read, not a panic.
    let bar = mini();
    let st = fresh(&bar);
    let mut v = serde_json::to_value(&st).unwrap(); // a state serializes
    v["units"][0]["hexes"] = serde_json::json!([
        "0401", "0402", "0403", "0404", "0405", "0406", "0407", "0408", "0409"
    ]);
    let read = serde_json::from_value::<State>(v.clone());
    assert!(read.is_err(), "9 hexes read as a footprint");
    // Eight are read, as a `Vec` was, and saved the same way.
    v["units"][0]["hexes"] = serde_json::json!([
        "0401", "0402", "0403", "0404", "0405", "0406", "0407", "0408"
    ]);
    let st8 = serde_json::from_value::<State>(v.clone()).unwrap(); // 8 hexes fit
    assert_eq!(st8.units[0].hexes.len(), 8);
    assert_eq!(serde_json::to_value(&st8).unwrap(), v);
}
