//! Leaders (21): loss (21.4), replacement and return (21.5), decapitation (21.6), leaders
//! without command (21.7).
mod common;
use bar::leaders::{Cause, loss_check};
use bar::state::{LeaderStatus, Phase};
use common::*;

fn status(bar: &bar::Bar, st: &bar::State, id: &str) -> LeaderStatus {
    st.leaders[usize::from(leader(bar, id))].status
}

fn check(bar: &bar::Bar, st: &mut bar::State, id: &str, cause: Cause, die: u8) -> String {
    st.loaded = vec![die];
    let mut ev = Vec::new();
    loss_check(&bar.sc, st, leader(bar, id), cause, &mut ev);
    ev.iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn r21_4b_a_killed_leaders_loss_value_counts_a_wounded_or_removed_one_does_not() {
    let bar = mini();
    let mut st = fresh(&bar);
    let a = usize::from(leader(&bar, "A"));
    let w = usize::from(leader(&bar, "W"));
    st.leaders[w].status = LeaderStatus::Wounded(3);
    st.leaders[w].hex = None;
    assert_eq!(bar::army_morale::clt(&bar.sc, &st, 0).2, 0);
    st.leaders[w].status = LeaderStatus::Removed;
    assert_eq!(bar::army_morale::clt(&bar.sc, &st, 0).2, 0);
    st.leaders[a].status = LeaderStatus::Killed;
    st.leaders[a].hex = None;
    assert_eq!(bar::army_morale::clt(&bar.sc, &st, 0).2, 5);
}

#[test]
fn r21_4c_a_wound_lasts_the_die_halved_rounded_and_a_second_wound_kills() {
    // The test chart: 0–1 killed, 2–5 wounded, 6–9 unhurt.
    let bar = mini();
    for (die, turns) in [(2u8, 1u16), (3, 2), (5, 3)] {
        let mut st = fresh(&bar);
        let log = check(&bar, &mut st, "L1", Cause::Fire, die);
        assert!(
            log.contains(&format!("wounded, away {turns} turn(s) (21.4c)")),
            "{log}"
        );
        assert_eq!(status(&bar, &st, "L1"), LeaderStatus::Wounded(1 + turns));
        assert_eq!(st.leaders[usize::from(leader(&bar, "L1"))].hex, None);
        // His replacement is named (21.5a).
        assert!(st.leaders[usize::from(leader(&bar, "R1"))].to_place);
    }
    let mut st = fresh(&bar);
    st.leaders[usize::from(leader(&bar, "L1"))].wounded_once = true;
    let log = check(&bar, &mut st, "L1", Cause::Fire, 3);
    assert!(
        log.contains("wounded a second time: killed (21.4c)"),
        "{log}"
    );
    assert_eq!(status(&bar, &st, "L1"), LeaderStatus::Killed);
    let mut st = fresh(&bar);
    check(&bar, &mut st, "L1", Cause::Fire, 1);
    assert_eq!(status(&bar, &st, "L1"), LeaderStatus::Killed);
    let mut st = fresh(&bar);
    check(&bar, &mut st, "L1", Cause::Fire, 6);
    assert_eq!(status(&bar, &st, "L1"), LeaderStatus::Present);
}

#[test]
fn r21_4d_a_wound_from_a_morale_special_result_kills() {
    let bar = mini();
    let mut st = fresh(&bar);
    let log = check(&bar, &mut st, "L1", Cause::CloseCombatOrMorale, 3);
    assert!(log.contains("killed (21.4d)"), "{log}");
    assert_eq!(status(&bar, &st, "L1"), LeaderStatus::Killed);
    // Through a morale check (F) special result (the test chart's 00–02: fail, −1 SP, leader
    // check): the wing leader stacked with AMS 2 is wounded (3), so killed.
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "W", "0405");
    st.loaded = vec![0, 1, 3];
    let mut ev = Vec::new();
    bar::retreat::morale_f(&bar.sc, &mut st, vec![unit(&bar, "ams2")], &mut ev);
    let log: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    assert_logged(&log, "special result: fails, loses 1 SP, leader check");
    assert_logged(
        &log,
        "Leader loss (21.4, Leader Loss Table): Blue wing leader d10 3",
    );
    assert_eq!(status(&bar, &st, "W"), LeaderStatus::Killed);
    assert_eq!(st.units[usize::from(unit(&bar, "ams2"))].lost, 1);
}

#[test]
fn r21_4f_a_leader_survives_his_units_last_sp_lost_in_the_rally_phase() {
    let bar = mini();
    let mut st = fresh(&bar);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    st.units[f].lost = 5;
    put_leader(&bar, &mut st, "W", "0406");
    // 10 is below the printed ER 32: −1 SP, the last.
    let log = run(&bar, &mut st, Phase::RallyStart, &[5, 3, 1, 0]);
    assert_logged(&log, "FOR 1 is eliminated");
    assert!(st.units[f].eliminated);
    assert_eq!(status(&bar, &st, "W"), LeaderStatus::Present);
    assert_eq!(
        st.leaders[usize::from(leader(&bar, "W"))].hex,
        Some(hex("0406"))
    );
}

#[test]
fn r21_5c_e_a_replacement_takes_the_post_when_his_brigade_activates() {
    let bar = mini();
    let mut st = fresh(&bar);
    st.units[usize::from(unit(&bar, "pvp1"))].routed = true;
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "L1"));
    // Another brigade's activation: not yet.
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:b2"], &[]);
    assert_eq!(st.phase, Phase::CommandControl);
    act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    // His own: placed before command control on an activated, non-routed unit of his brigade.
    act(&bar, &mut st, &["own:b1"], &[]);
    assert_eq!(
        st.phase,
        Phase::PlaceLeader {
            leader: leader(&bar, "R1")
        }
    );
    assert_eq!(
        legal(&bar, &st),
        [
            "place:R1:ams1",
            "place:R1:ams2",
            "place:R1:for1",
            "place:R1:for2"
        ]
    );
    let log = act(&bar, &mut st, &["place:R1:for1"], &[]);
    assert_logged(&log, "Replacement of Sc takes over from Sc at 0406 (21.5)");
    assert_eq!(st.phase, Phase::CommandControl);
    let log = act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    assert_logged(&log, "Replacement of Sc (LOC");
}

#[test]
fn r21_5d_a_wounded_leader_returns_with_his_brigade_and_the_replacement_steps_down() {
    let bar = mini();
    let mut st = fresh(&bar);
    st.loaded = vec![3]; // wounded for 2 turns
    let mut ev = Vec::new();
    loss_check(&bar.sc, &mut st, leader(&bar, "L1"), Cause::Fire, &mut ev);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(
        &bar,
        &mut st,
        &["activate:b1", "place:R1:ams1", "command-done"],
        &[5, 1],
    );
    assert_eq!(status(&bar, &st, "R1"), LeaderStatus::Present);
    // Turn 3: he is back and waits for his brigade.
    st.turn = 3;
    run(&bar, &mut st, Phase::BeginTurn, &[5, 1]);
    assert_eq!(status(&bar, &st, "L1"), LeaderStatus::Waiting);
    let log = act(&bar, &mut st, &["own:b1"], &[]);
    assert_eq!(
        st.phase,
        Phase::PlaceLeader {
            leader: leader(&bar, "L1")
        },
        "{log:?}"
    );
    let log = act(&bar, &mut st, &["place:L1:ams2"], &[]);
    assert_logged(
        &log,
        "Sc returns from his wound, Replacement of Sc steps down, at 0405 (21.5)",
    );
    assert_eq!(status(&bar, &st, "R1"), LeaderStatus::Waiting);
}

#[test]
fn r21_6a_without_army_leader_the_enemy_wins_the_initiative_and_brigade_leaders_roll() {
    let bar = mini();
    let mut st = fresh(&bar);
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "A"));
    // Blue's 9 would win; the dice still move the END TURN marker.
    let log = run(&bar, &mut st, Phase::Initiative, &[9, 5]);
    assert_logged(
        &log,
        "Red wins: the other army has no army leader (21.6a); sum 14 > ETN 12: END TURN to box 1",
    );
    assert_eq!(
        st.phase,
        Phase::InitiativeChoice {
            side: 1,
            wing: false
        }
    );
    // Blue made to activate: brigade 3's leader rolls although he is near… no army leader.
    let log = act(
        &bar,
        &mut st,
        &["opponent", "activate:b3", "command-done"],
        &[2, 5, 1],
    );
    assert_logged(
        &log,
        "Leader initiative (7.4a, 21.6a): Blue brigade 3 leader d10 2 ≤ 3 — in command",
    );
    // With the wing leader next to him, brigade 2's leader still rolls (A60).
    let mut st = fresh(&bar);
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "A"));
    run(&bar, &mut st, Phase::Initiative, &[9, 5]);
    let log = act(
        &bar,
        &mut st,
        &["opponent", "activate:b2", "command-done"],
        &[2, 5, 1],
    );
    assert_logged(
        &log,
        "Leader initiative (7.4a, 21.6a): Blue brigade 2 leader",
    );
}

#[test]
fn r21_6b_with_both_army_leaders_lost_the_unmodified_dice_decide_and_no_wing() {
    let bar = mini();
    let mut st = fresh(&bar);
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "A"));
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "K"));
    // 3 + 2 would tie 4 + 1; unmodified, Red's 4 wins.
    run(&bar, &mut st, Phase::Initiative, &[3, 4]);
    assert_eq!(
        st.phase,
        Phase::InitiativeChoice {
            side: 1,
            wing: false
        }
    );
    // 8 against 4 with WAN 7 would give Blue a wing activation (21.6a: not without army leader).
    let mut st = fresh(&bar);
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "A"));
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "K"));
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    assert_eq!(
        st.phase,
        Phase::InitiativeChoice {
            side: 0,
            wing: false
        }
    );
}

#[test]
fn r21_7_a_leader_whose_units_are_all_eliminated_is_removed_without_loss_points() {
    let bar = mini();
    let mut st = fresh(&bar);
    let mut ev = Vec::new();
    bar::retreat::eliminate(&bar.sc, &mut st, unit(&bar, "y1"), "test", &mut ev);
    let log: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    assert_logged(
        &log,
        "Blue brigade 3 leader is removed: all his units are eliminated, no loss points (21.7)",
    );
    assert_eq!(status(&bar, &st, "L3"), LeaderStatus::Removed);
    assert_eq!(bar::army_morale::clt(&bar.sc, &st, 0).2, 0);
    // A brigade leader with a unit left stays.
    bar::retreat::eliminate(&bar.sc, &mut st, unit(&bar, "x1"), "test", &mut ev);
    assert_eq!(status(&bar, &st, "L2"), LeaderStatus::Present);
    assert_eq!(status(&bar, &st, "W"), LeaderStatus::Present);
}

#[test]
fn r21_5c_e_an_off_brigade_replacement_comes_with_any_activation_onto_any_unit_in_order() {
    let bar = mini_with("oob.toml", |t| {
        t + "\n[[leader]]\nid = \"A2\"\nname = \"Blue second-in-command\"\narmy = \"a\"\nkind = \"army\"\nrange = 6\ncr = 1\nwan = 8\nreplaces = \"A\"\ninvented = \"test\"\n"
    })
    .unwrap();
    let mut st = fresh(&bar);
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "A"));
    for u in ["x1", "x2", "y1", "i1", "for1", "for2", "pvp1"] {
        st.units[usize::from(unit(&bar, u))].routed = true;
    }
    // Any brigade's activation, any friendly unit not routed.
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(&bar, &mut st, &["activate:b1"], &[]);
    assert_eq!(
        st.phase,
        Phase::PlaceLeader {
            leader: leader(&bar, "A2")
        }
    );
    assert_eq!(legal(&bar, &st), ["place:A2:ams1", "place:A2:ams2"]);
    let log = act(&bar, &mut st, &["place:A2:ams2"], &[]);
    assert_logged(
        &log,
        "Blue second-in-command takes over from Blue army leader at 0405 (21.5)",
    );
    // He is the army leader now: no decapitation (21.6a), his CR for the initiative.
    assert_eq!(
        bar::command::army_leader(&bar.sc, &st, 0),
        Some(leader(&bar, "A2"))
    );
}
