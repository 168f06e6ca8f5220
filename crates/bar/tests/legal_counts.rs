//! Legal actions from fixed positions, as data (`tests/data/legal_counts.toml`): wing activation
//! offered exactly when 6.5a holds, attachments exactly per 6.4 and 6.2, independents and
//! off-brigade leaders per 6.6, the detachment limits of 24.2; and (`legal_counts_move.toml`, on
//! the drill ground `data/move`) the movement actions of the ten positions of WP2's acceptance
//! check 3 (8–11), each list with its count so that a change shows what changed.
mod common;
use bar::state::{LeaderStatus, Phase};
use common::*;
use engine::Ruleset;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    rule: String,
    #[serde(default)]
    oob: Vec<[String; 2]>,
    #[serde(default)]
    scenario: Vec<[String; 2]>,
    #[serde(default)]
    oob_append: String,
    #[serde(default)]
    scenario_append: String,
    #[serde(default)]
    setup: Vec<String>,
    phase: String,
    #[serde(default)]
    dice: Vec<u8>,
    #[serde(default)]
    actions: Vec<String>,
    expect: Vec<String>,
    #[serde(default)]
    limited: Option<Vec<String>>,
    /// The fixture: "mini" (default) or "move".
    #[serde(default)]
    fixture: Option<String>,
    /// The number of legal actions (a check of `expect`'s length, written by hand).
    #[serde(default)]
    count: Option<usize>,
}

fn edit(text: String, reps: &[[String; 2]], append: &str) -> String {
    let mut t = text;
    for [from, to] in reps {
        assert!(t.contains(from.as_str()), "no {from:?} in the fixture");
        t = t.replace(from.as_str(), to);
    }
    t + "\n" + append
}

fn scenario(c: &Case, n: usize) -> bar::Bar {
    let fx = c.fixture.as_deref().unwrap_or("mini");
    let dir = std::env::temp_dir().join(format!("bar-legal-{}-{fx}-{n}", std::process::id()));
    std::fs::create_dir_all(dir.join(fx)).unwrap(); // test set-up
    let m = data().join(fx);
    let read = |f: &str| std::fs::read_to_string(m.join(f)).unwrap(); // fixture files exist
    std::fs::write(dir.join(fx).join("map.toml"), read("map.toml")).unwrap(); // test set-up
    std::fs::write(
        dir.join(fx).join("oob.toml"),
        edit(read("oob.toml"), &c.oob, &c.oob_append),
    )
    .unwrap(); // test set-up
    std::fs::write(
        dir.join(fx).join("scenario.toml"),
        edit(read("scenario.toml"), &c.scenario, &c.scenario_append),
    )
    .unwrap(); // test set-up
    bar::Bar::from_dir(&dir.join(fx), &data())
        .unwrap_or_else(|e| panic!("{}: the fixture does not load: {e:?}", c.name))
}

fn set_up(bar: &bar::Bar, st: &mut bar::State, line: &str) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let u = |id: &str| usize::from(unit(bar, id));
    let l = |id: &str| usize::from(leader(bar, id));
    match w.as_slice() {
        ["unit", id, hexes @ ..] => put(bar, st, id, hexes),
        ["order", id, n] => st.units[u(id)].order = n.parse().unwrap(), // case data
        ["form", id, formation, facing] => {
            let f = bar::geom::Formation::parse(formation).unwrap(); // case data
            st.units[u(id)].formation = f;
            st.units[u(id)].facing = bar::scenario::parse_facing(facing, f).unwrap(); // case data
        }
        ["leader", id, h] => put_leader(bar, st, id, h),
        ["routed", id] => st.units[u(id)].routed = true,
        ["shaken", id] => st.units[u(id)].shaken = true,
        ["disordered", id] => st.units[u(id)].disordered = true,
        ["activated", id] => st.units[u(id)].activated = true,
        ["finished", id] => st.leaders[l(id)].finished = true,
        ["wounded", id] => wound(bar, st, id),
        ["killed", id] => {
            st.leaders[l(id)].status = LeaderStatus::Killed;
            st.leaders[l(id)].hex = None;
        }
        ["brigade-done", id] => st.brigades[usize::from(brigade(bar, id))].activated = true,
        ["end-box", n] => st.end_box = n.parse().unwrap(), // case data
        ["turn", n] => st.turn = n.parse().unwrap(),       // case data
        ["isr", n] => st.isr = n.parse().unwrap(),         // case data
        _ => panic!("unknown set-up command {line:?}"),
    }
}

#[test]
fn r6_r24_legal_actions_from_fixed_positions_are_exactly_the_listed_ones() {
    check_file("legal_counts.toml", 20);
}

#[test]
fn r8_r11_movement_actions_from_the_ten_fixed_positions_are_exactly_the_listed_ones() {
    check_file("legal_counts_move.toml", 10);
}

fn check_file(file: &str, at_least: usize) {
    let text = std::fs::read_to_string(data().join(file)).unwrap(); // the data file
    let cases: Cases = toml::from_str(&text).unwrap(); // well formed
    assert!(cases.case.len() >= at_least);
    for (n, c) in cases.case.iter().enumerate() {
        let bar = scenario(c, n);
        let mut st = fresh(&bar);
        for line in &c.setup {
            set_up(&bar, &mut st, line);
        }
        let phase = match c.phase.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["initiative"] => Phase::Initiative,
            ["choose", s] => Phase::ChooseBrigade {
                side: s.parse().unwrap(), // case data
            },
            ["rally"] => Phase::RallyStart,
            // The movement phase of a brigade's activation with the units listed activated.
            ["movement", b, units @ ..] => {
                let us: Vec<u16> = units.iter().map(|u| unit(&bar, u)).collect();
                for &u in &us {
                    st.units[usize::from(u)].activated = true;
                }
                let b = brigade(&bar, b);
                st.brigades[usize::from(b)].activated = true;
                st.activation = Some(bar::state::Activation {
                    side: bar.sc.brigades[usize::from(b)].side,
                    brigades: vec![b],
                    units: us,
                    ..Default::default()
                });
                Phase::Movement
            }
            _ => panic!("{}: unknown phase {:?}", c.name, c.phase),
        };
        // The dice drive the phase and then the actions.
        st.loaded = c.dice.clone();
        st.phase = phase;
        let mut ev = Vec::new();
        bar::flow::advance(&bar.sc, &mut st, &mut ev);
        for id in &c.actions {
            bar.apply_id(&mut st, id, &mut ev).unwrap_or_else(|e| {
                panic!(
                    "{} ({}): {id}: {e:?}; legal {:?}",
                    c.name,
                    c.rule,
                    legal(&bar, &st)
                )
            });
        }
        let got = legal(&bar, &st);
        assert_eq!(got, c.expect, "{} ({})", c.name, c.rule);
        if let Some(k) = c.count {
            assert_eq!(got.len(), k, "{} ({}): the count", c.name, c.rule);
        }
        if let Some(want) = &c.limited {
            let got: Vec<String> = bar
                .sc
                .brigades
                .iter()
                .enumerate()
                .filter(|(i, _)| st.brigades[*i].limited)
                .map(|(_, b)| b.id.clone())
                .collect();
            assert_eq!(&got, want, "{} ({}): limited brigades", c.name, c.rule);
        }
    }
}
