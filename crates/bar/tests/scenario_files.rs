//! The shipped BAR data files: `scenarios/bar-drill` loads and validates (issue 14), and the Prague
//! data (issue 18) parses in the schema of `bar::data` with its strength totals matching the fact
//! sheet at the scale of 2.0 (100 men, 50 horse, 2 guns a strength point).
use bar::Bar;
use bar::data::{Arm, MapFile, OobFile, ScenarioFile};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

fn scenarios() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

fn text(rel: &str) -> String {
    let p = scenarios().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())) // shipped file
}

/// 1.2b: the drill is a playable box of its own, with the Prague charts.
#[test]
fn r1_2_bar_drill_loads_and_validates() {
    if let Err(p) = Bar::load("bar-drill", &[], None) {
        panic!("bar-drill does not validate:\n{}", p.join("\n"));
    }
}

/// The drill shows every terrain and hexside of the TEC it plays with (T1).
#[test]
fn t1_bar_drill_map_has_every_tec_key() {
    let map: MapFile = toml::from_str(&text("bar-drill/map.toml")).expect("drill map parses");
    let tec: toml::Table = toml::from_str(&text("prague/charts/tec.toml")).expect("TEC parses");
    let keys = |k: &str| -> BTreeSet<String> {
        tec.get(k)
            .and_then(|t| t.as_table())
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    };
    let used_t: BTreeSet<String> = map.hexes.iter().filter_map(|g| g.terrain.clone()).collect();
    let used_s: BTreeSet<String> = map.hexsides.iter().map(|s| s.feature.clone()).collect();
    let mut used_t = used_t;
    used_t.insert(map.map.default_terrain.clone());
    assert_eq!(
        used_t,
        keys("terrain"),
        "hex terrain of the drill vs the TEC"
    );
    assert_eq!(used_s, keys("hexside"), "hexsides of the drill vs the TEC");
}

/// 2.0 and the fact sheet §2: Prussians 45,000–47,000 foot, ≈ 17,000 horse, 210–214 guns;
/// Austrians 48,500 foot, 12,600 horse, 177–189 guns.
#[test]
fn r2_0_prague_oob_strengths_match_the_fact_sheet() {
    let oob: OobFile = toml::from_str(&text("prague/oob.toml")).expect("Prague OOB parses");
    let mut sp: HashMap<(String, Arm), u32> = HashMap::new();
    for u in &oob.unit {
        *sp.entry((u.army.clone(), u.arm)).or_default() += u32::from(u.sp);
    }
    let get = |a: &str, arm: Arm| sp.get(&(a.to_string(), arm)).copied().unwrap_or(0);
    assert!(
        (450..=470).contains(&get("prussia", Arm::Infantry)),
        "{sp:?}"
    );
    assert!(
        (330..=350).contains(&get("prussia", Arm::Cavalry)),
        "{sp:?}"
    );
    assert!(
        (105..=107).contains(&get("prussia", Arm::Artillery)),
        "{sp:?}"
    );
    assert_eq!(get("austria", Arm::Infantry), 485, "{sp:?}");
    assert_eq!(get("austria", Arm::Cavalry), 252, "{sp:?}");
    assert!(
        (89..=94).contains(&get("austria", Arm::Artillery)),
        "{sp:?}"
    );
    // Every unit and leader says where its values come from.
    assert!(
        oob.unit
            .iter()
            .all(|u| u.prov.reconstructed.is_some() || u.prov.source.is_some())
    );
    assert!(
        oob.leader
            .iter()
            .all(|l| l.prov.reconstructed.is_some() || l.prov.source.is_some())
    );
}

/// 1.3c: every hex id of the Prague maps is a map letter (W, C, E) and four digits.
#[test]
fn r1_3c_prague_hex_ids_carry_their_map_letter() {
    let map: MapFile = toml::from_str(&text("prague/map.toml")).expect("Prague map parses");
    let mut ids: Vec<&String> = map.hexes.iter().flat_map(|g| g.ids.iter()).collect();
    ids.extend(map.hexsides.iter().flat_map(|s| s.between.iter()));
    ids.extend(map.roads.iter().flat_map(|r| r.hexes.iter()));
    ids.extend(map.places.iter().map(|p| &p.hex));
    assert!(ids.len() > 10_000);
    for id in ids {
        assert!(
            id.len() == 5 && "WCE".contains(&id[..1]) && id[1..].parse::<hexmap::HexId>().is_ok(),
            "{id}"
        );
    }
}

/// The Prague scenarios name only units and leaders of the order of battle, each placed once.
#[test]
fn prague_scenarios_place_units_of_the_order_of_battle_once() {
    let oob: OobFile = toml::from_str(&text("prague/oob.toml")).expect("Prague OOB parses");
    let units: BTreeSet<&str> = oob.unit.iter().map(|u| u.id.as_str()).collect();
    let leaders: BTreeSet<&str> = oob.leader.iter().map(|l| l.id.as_str()).collect();
    for f in [
        "prague/schwerin.toml",
        "prague/gap.toml",
        "prague/battle.toml",
    ] {
        let sc: ScenarioFile = toml::from_str(&text(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(sc.scenario.id.starts_with("prague"), "{f}");
        let mut seen = BTreeSet::new();
        let arriving = sc.reinforcement.iter().flat_map(|r| r.units.iter());
        for u in sc.setup.iter().map(|s| &s.unit).chain(arriving) {
            assert!(units.contains(u.as_str()), "{f}: unknown unit {u}");
            assert!(seen.insert(u.clone()), "{f}: {u} placed twice");
        }
        for l in sc.leader_setup.iter().map(|l| &l.leader) {
            assert!(leaders.contains(l.as_str()), "{f}: unknown leader {l}");
        }
    }
}
