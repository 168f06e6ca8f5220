//! Detachments (24): activation apart from the main army (24.2a), the limit on a detachment's
//! later brigades (24.2b) and reintegration (24.3a), with the worked example E68 of bar-notes
//! section 3 (drawn smaller: three main-army brigades instead of six).
mod common;
use bar::state::Phase;
use common::*;

/// The test scenario with Blue detachment 1 (brigades da, db, dc under D1 in 0210) and
/// detachment 2 (dd, de under D2 in 0215); each brigade a leader and one unit in row 1.
fn detached() -> bar::Bar {
    let mut oob = String::new();
    let mut scen = String::new();
    for (d, hex) in [("D1", "0210"), ("D2", "0215")] {
        oob += &format!(
            "[[leader]]\nid = \"{d}\"\nname = \"Detachment leader {d}\"\narmy = \"a\"\nkind = \"wing\"\nrange = 8\ninitiative = 4\nloss = 3\ninvented = \"test\"\n\n"
        );
        scen += &format!("[[leader_setup]]\nleader = \"{d}\"\nhex = \"{hex}\"\n");
    }
    for (i, b) in ["da", "db", "dc", "dd", "de"].iter().enumerate() {
        let hex = format!("01{}", 10 + i);
        oob += &format!(
            "[[leader]]\nid = \"L{b}\"\nname = \"Leader {b}\"\narmy = \"a\"\nkind = \"brigade\"\nrange = 4\ninitiative = 3\ninvented = \"test\"\n\n\
             [[brigade]]\nid = \"{b}\"\nname = \"Brigade {b}\"\narmy = \"a\"\nleader = \"L{b}\"\n\n\
             [[unit]]\nid = \"u{b}\"\nname = \"Unit {b}\"\narmy = \"a\"\nbrigade = \"{b}\"\narm = \"infantry\"\nsp = 4\ner = 30\nma = 4\ninvented = \"test\"\n\n"
        );
        scen += &format!(
            "[[setup]]\nunit = \"u{b}\"\nhexes = [\"{hex}\"]\nfacing = \"S\"\nformation = \"line\"\n\
             [[leader_setup]]\nleader = \"L{b}\"\nhex = \"{hex}\"\n"
        );
    }
    scen += "[[detachment]]\nid = \"d1\"\nname = \"one\"\nleader = \"D1\"\nbrigades = [\"da\", \"db\", \"dc\"]\n\
             [[detachment]]\nid = \"d2\"\nname = \"two\"\nleader = \"D2\"\nbrigades = [\"dd\", \"de\"]\n";
    let dir = std::env::temp_dir().join(format!(
        "bar-det-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(dir.join("mini")).unwrap(); // test set-up
    let m = data().join("mini");
    std::fs::copy(m.join("map.toml"), dir.join("mini/map.toml")).unwrap(); // test set-up
    let o = std::fs::read_to_string(m.join("oob.toml")).unwrap() + "\n" + &oob;
    std::fs::write(dir.join("mini/oob.toml"), o).unwrap(); // test set-up
    let s = std::fs::read_to_string(m.join("scenario.toml")).unwrap() + "\n" + &scen;
    std::fs::write(dir.join("mini/scenario.toml"), s).unwrap(); // test set-up
    bar::Bar::from_dir(&dir.join("mini"), &data()).unwrap() // the fixture is valid
}

fn limited(bar: &bar::Bar, st: &bar::State) -> Vec<String> {
    bar.sc
        .brigades
        .iter()
        .enumerate()
        .filter(|(i, _)| st.brigades[*i].limited)
        .map(|(_, b)| b.id.clone())
        .collect()
}

#[test]
fn r24_2b_example_a_detachments_other_brigades_are_limited_when_the_next_activation_is_elsewhere() {
    // E68: A (da) then B (db): no limit; then D (dd) of detachment 2: C (dc) limited; then a
    // main-army brigade: E (de) limited. Blue wins every roll (5 + 2 against 1 + 1).
    let bar = detached();
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(
        &bar,
        &mut st,
        &["activate:da", "command-done", "movement-done"],
        &[5, 1],
    );
    act(
        &bar,
        &mut st,
        &["own:db", "command-done", "movement-done"],
        &[5, 1],
    );
    assert!(limited(&bar, &st).is_empty());
    let log = act(&bar, &mut st, &["own:dd"], &[]);
    assert_logged(
        &log,
        "Limited activations (24.2b): Brigade dc of detachment one for the rest of the turn",
    );
    assert_eq!(limited(&bar, &st), ["dc"]);
    act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    act(
        &bar,
        &mut st,
        &["own:b3", "command-done", "movement-done"],
        &[5, 1],
    );
    assert_eq!(limited(&bar, &st), ["dc", "de"]);
    // The main army's brigades are never limited; dc activates, limited.
    let log = act(&bar, &mut st, &["own:dc"], &[]);
    assert_logged(&log, "Blue: limited activation (6.8) (6.3) of Brigade dc");
    assert!(st.activation.as_ref().is_some_and(|a| a.limited));
}

#[test]
fn r24_2b_an_activation_forced_by_the_opponent_counts_too() {
    // A62: after da, Red wins (1 + 2 against 8 + 1) and makes Blue activate a main-army brigade.
    let bar = detached();
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(
        &bar,
        &mut st,
        &["activate:da", "command-done", "movement-done"],
        &[1, 8],
    );
    act(&bar, &mut st, &["opponent", "activate:b1"], &[]);
    assert_eq!(limited(&bar, &st), ["db", "dc"]);
    // Red's own activations in between do not count.
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(
        &bar,
        &mut st,
        &["activate:da", "command-done", "movement-done"],
        &[1, 8],
    );
    act(
        &bar,
        &mut st,
        &["own:c1", "command-done", "movement-done"],
        &[5, 1],
    );
    act(&bar, &mut st, &["own:db"], &[]);
    assert!(limited(&bar, &st).is_empty());
}

#[test]
fn r24_2a_a_detachment_and_the_main_army_activate_apart() {
    let bar = detached();
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:da"], &[]);
    // Only the detachment's off-brigade leader; no main-army independent or leader.
    assert_eq!(legal(&bar, &st), ["leader:D1", "command-done"]);
    let log = act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    assert!(
        log.iter()
            .any(|l| l.contains("Leader da (LOC") && l.contains("from Detachment leader D1")),
        "{log:#?}"
    );
    act(&bar, &mut st, &["own:b3"], &[]);
    assert_eq!(
        legal(&bar, &st),
        ["independent:i1", "leader:A", "leader:W", "command-done"]
    );
}

#[test]
fn r24_3a_reintegration_is_offered_in_the_rally_phase_when_the_army_leader_reaches_it() {
    // The army leader in 0204 reaches D1 in 0210 (6), not D2 in 0215 (11).
    let bar = detached();
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::RallyStart, &[5, 3]);
    assert_eq!(
        st.phase,
        Phase::Reintegrate {
            side: 0,
            detachment: 0
        }
    );
    assert_eq!(legal(&bar, &st), ["reintegrate", "keep-detached"]);
    let log = act(&bar, &mut st, &["reintegrate"], &[]);
    assert_logged(&log, "Detachment one rejoins the main army (24.3)");
    assert_eq!(st.armies[0].reintegrated, [0]);
    assert!(!matches!(st.phase, Phase::Reintegrate { .. }));
    // Rejoined, its brigades are the main army's: activating one and then another limits none.
    let mut st2 = fresh(&bar);
    st2.armies[0].reintegrated = vec![0];
    run(&bar, &mut st2, Phase::ChooseBrigade { side: 0 }, &[]);
    act(
        &bar,
        &mut st2,
        &["activate:da", "command-done", "movement-done"],
        &[5, 1],
    );
    act(&bar, &mut st2, &["own:b3"], &[]);
    assert!(limited(&bar, &st2).is_empty());
    // Kept apart, it stays a detachment.
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::RallyStart, &[5, 3]);
    act(&bar, &mut st, &["keep-detached"], &[]);
    assert!(st.armies[0].reintegrated.is_empty());
}
