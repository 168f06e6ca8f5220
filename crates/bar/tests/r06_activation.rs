//! Regimental integrity (6.2), brigade activation (6.3), attachment (6.4), independent units and
//! off-brigade leaders (6.6), with the worked examples E5–E7 of bar-notes section 3.
mod common;
use bar::state::Phase;
use common::*;

fn integral(bar: &bar::Bar, st: &bar::State, a: &str, b: &str) -> bool {
    let g = bar::command::integrity_groups(&bar.sc, st);
    let (a, b) = (unit(bar, a), unit(bar, b));
    g.get(&a).is_some() && g.get(&a) == g.get(&b)
}

fn has(l: &[String], id: &str) -> bool {
    l.iter().any(|x| x == id)
}

#[test]
fn r6_2c_example_a_unit_of_another_regiment_in_the_stack_breaks_integrity() {
    // E5: the brigade leader Sc stacked with AMS 1 (regiment A) and FOR 1 (regiment B); AMS 2
    // adjacent.
    let bar = mini();
    let mut st = fresh(&bar);
    put(&bar, &mut st, "for1", &["0404"]);
    assert!(!integral(&bar, &st, "ams1", "ams2"));
    // Without FOR 1 both AMS units have integrity.
    put(&bar, &mut st, "for1", &["0406"]);
    assert!(integral(&bar, &st, "ams1", "ams2"));
    // An independent unit in the stack does not break it.
    put(&bar, &mut st, "i1", &["0404"]);
    assert!(integral(&bar, &st, "ams1", "ams2"));
}

#[test]
fn r6_2b_integrity_whatever_the_state_but_not_with_a_routed_unit() {
    let bar = mini();
    let mut st = fresh(&bar);
    let a2 = usize::from(unit(&bar, "ams2"));
    st.units[a2].shaken = true;
    st.units[a2].disordered = true;
    assert!(integral(&bar, &st, "ams1", "ams2"));
    st.units[a2].routed = true;
    assert!(!integral(&bar, &st, "ams1", "ams2"));
}

#[test]
fn r6_3_example_wing_leader_attaches_two_units_and_their_brigade_activates_later_without_them() {
    // E6: brigade 2 done; brigade 3 activates with the independent and the wing leader, who is
    // stacked with AMS 1 and AMS 2 of the unactivated brigade Sc.
    let bar = mini();
    let mut st = fresh(&bar);
    st.brigades[usize::from(brigade(&bar, "b2"))].activated = true;
    put(&bar, &mut st, "ams2", &["0404"]);
    put_leader(&bar, &mut st, "W", "0404");
    put_leader(&bar, &mut st, "L1", "0406");
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:b3"], &[]);
    // 6.4a: no attachment until the leader stacked with them is activated.
    assert_eq!(
        legal(&bar, &st),
        ["independent:i1", "leader:A", "leader:W", "command-done"]
    );
    act(&bar, &mut st, &["independent:i1", "leader:W"], &[]);
    assert_eq!(
        legal(&bar, &st),
        ["leader:A", "attach:ams1", "attach:ams2", "command-done"]
    );
    act(&bar, &mut st, &["attach:ams1", "attach:ams2"], &[]);
    act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    // 6.3d: the wing leader FINISHED, the independent and the attached units marked.
    assert!(st.leaders[usize::from(leader(&bar, "W"))].finished);
    assert!(st.leaders[usize::from(leader(&bar, "L3"))].finished);
    for u in ["i1", "ams1", "ams2", "y1"] {
        assert!(st.units[usize::from(unit(&bar, u))].activated, "{u}");
    }
    // Later brigade Sc activates without them (6.3c, 6.4d): disordered since, stacked with a
    // leader, they do not recover in an activation they are not part of (18.6a).
    for u in ["ams1", "ams2"] {
        st.units[usize::from(unit(&bar, u))].disordered = true;
    }
    st.units[usize::from(unit(&bar, "for1"))].disordered = true;
    let log = act(
        &bar,
        &mut st,
        &["own:b1", "command-done", "movement-done"],
        &[5, 1],
    );
    assert_logged(
        &log,
        "Disorder recovery (18.6b): FOR 1 stacked with Sc — back in order",
    );
    assert_not_logged(&log, "AMS 1");
    assert!(st.units[usize::from(unit(&bar, "ams1"))].disordered);
}

#[test]
fn r6_4c_example_a_whole_regiment_attaches_through_integrity() {
    // E7: a three-unit regiment (PVP 1 renamed into FOR): FOR 1 with the activated wing leader,
    // PVP 1 adjacent to it, FOR 2 adjacent to PVP 1 only.
    let bar = mini_with("oob.toml", |t| {
        t.replace("regiment = \"PVP\"", "regiment = \"FOR\"")
    })
    .unwrap();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "W", "0406");
    assert!(!hex("0406").is_adjacent(hex("0408")));
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:b3", "leader:W"], &[]);
    let l = legal(&bar, &st);
    for u in ["attach:for1", "attach:pvp1", "attach:for2"] {
        assert!(has(&l, u), "{u}: {l:?}");
    }
    // Any of them: FOR 2 alone.
    act(&bar, &mut st, &["attach:for2"], &[]);
    let l = legal(&bar, &st);
    assert!(has(&l, "attach:for1") && has(&l, "attach:pvp1") && !has(&l, "attach:for2"));
    // PVP 1 stacked with AMS 2 (another regiment): no integrity, the chain is broken.
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "W", "0406");
    put(&bar, &mut st, "ams2", &["0407"]);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:b3", "leader:W"], &[]);
    let l = legal(&bar, &st);
    assert!(has(&l, "attach:for1"), "{l:?}");
    assert!(!has(&l, "attach:pvp1") && !has(&l, "attach:for2"), "{l:?}");
}

#[test]
fn r6_3c_e_every_unit_of_the_brigade_but_routed_ones_activates() {
    let bar = mini();
    let mut st = fresh(&bar);
    st.units[usize::from(unit(&bar, "pvp1"))].routed = true;
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:b1"], &[]);
    for u in ["ams1", "ams2", "for1", "for2"] {
        assert!(st.units[usize::from(unit(&bar, u))].activated, "{u}");
    }
    assert!(!st.units[usize::from(unit(&bar, "pvp1"))].activated);
    // A brigade whose only unit is routed cannot be activated (6.3e).
    let mut st = fresh(&bar);
    st.units[usize::from(unit(&bar, "y1"))].routed = true;
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    assert_eq!(legal(&bar, &st), ["activate:b1", "activate:b2"]);
}

#[test]
fn r6_6a_d_independents_and_off_brigade_leaders_only_with_a_brigade_once_a_turn() {
    let bar = mini();
    let mut st = fresh(&bar);
    // 6.6a: no action activates an independent or a leader alone.
    run(&bar, &mut st, Phase::Initiative, &[5, 1]);
    assert_eq!(legal(&bar, &st), ["own:b1", "own:b2", "own:b3", "opponent"]);
    // 6.6d: declared at any time of the command control phase.
    act(&bar, &mut st, &["own:b3"], &[]);
    assert_eq!(
        legal(&bar, &st),
        ["independent:i1", "leader:A", "leader:W", "command-done"]
    );
    act(&bar, &mut st, &["leader:A"], &[]);
    assert_eq!(
        legal(&bar, &st),
        ["independent:i1", "leader:W", "command-done"]
    );
    act(&bar, &mut st, &["independent:i1"], &[]);
    assert_eq!(legal(&bar, &st), ["leader:W", "command-done"]);
    act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    // 6.6b: once a turn: the army leader is FINISHED, the independent activated.
    assert!(st.leaders[usize::from(leader(&bar, "A"))].finished);
    act(&bar, &mut st, &["own:b1"], &[]);
    assert_eq!(legal(&bar, &st), ["leader:W", "command-done"]);
    // 6.6c, 6.1b: the FINISHED army leader still traces his LOC but his CR is 0 now.
    let log = act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    assert_logged(&log, "Sc (LOC");
    assert_not_logged(&log, "Leader initiative");
    assert_logged(&log, "Blue d10 5 + CR 0 (−2 FINISHED, 6.1b) = 5");
}
