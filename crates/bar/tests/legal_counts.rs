//! Legal actions from fixed positions, as data (`tests/data/legal_counts.toml`): wing activation
//! offered exactly when 6.5a holds, attachments exactly per 6.4 and 6.2, independents and
//! off-brigade leaders per 6.6, the detachment limits of 24.2.
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
    let dir = std::env::temp_dir().join(format!("bar-legal-{}-{n}", std::process::id()));
    std::fs::create_dir_all(dir.join("mini")).unwrap(); // test set-up
    let m = data().join("mini");
    let read = |f: &str| std::fs::read_to_string(m.join(f)).unwrap(); // fixture files exist
    std::fs::write(dir.join("mini/map.toml"), read("map.toml")).unwrap(); // test set-up
    std::fs::write(
        dir.join("mini/oob.toml"),
        edit(read("oob.toml"), &c.oob, &c.oob_append),
    )
    .unwrap(); // test set-up
    std::fs::write(
        dir.join("mini/scenario.toml"),
        edit(read("scenario.toml"), &c.scenario, &c.scenario_append),
    )
    .unwrap(); // test set-up
    bar::Bar::from_dir(&dir.join("mini"), &data())
        .unwrap_or_else(|e| panic!("{}: the fixture does not load: {e:?}", c.name))
}

fn set_up(bar: &bar::Bar, st: &mut bar::State, line: &str) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let u = |id: &str| usize::from(unit(bar, id));
    let l = |id: &str| usize::from(leader(bar, id));
    match w.as_slice() {
        ["unit", id, hexes @ ..] => put(bar, st, id, hexes),
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
    let text = std::fs::read_to_string(data().join("legal_counts.toml")).unwrap(); // the data file
    let cases: Cases = toml::from_str(&text).unwrap(); // well formed
    assert!(cases.case.len() >= 20);
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
        assert_eq!(legal(&bar, &st), c.expect, "{} ({})", c.name, c.rule);
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
