//! Reinforcements (22.1–22.3): a whole brigade arrives in command with its activation, part of a
//! brigade when the rest of it activates.
mod common;
use bar::state::Phase;
use common::*;

const Y1: &str =
    "[[setup]]\nunit = \"y1\"\nhexes = [\"0302\"]\nfacing = \"S\"\nformation = \"line\"\n";
const L3: &str = "[[leader_setup]]\nleader = \"L3\"\nhex = \"0302\"\n";
const FOR2: &str =
    "[[setup]]\nunit = \"for2\"\nhexes = [\"0408\"]\nfacing = \"S\"\nformation = \"line\"\n";

fn command_line(log: &[String]) -> String {
    log.iter()
        .find(|l| l.starts_with("Command (7.6a)"))
        .cloned()
        .unwrap_or_default()
}

#[test]
fn r22_2_a_whole_brigade_arrives_with_its_activation_in_command() {
    // Brigade 3 (Y 1 and its leader) arrives on turn 2 at 0116, far from the army leader.
    let bar = mini_with("scenario.toml", |t| {
        t.replace(Y1, "").replace(L3, "")
            + "[[reinforcement]]\nturn = 2\nhex = \"0116\"\nunits = [\"y1\"]\nleaders = [\"L3\"]\n"
    })
    .unwrap();
    let mut st = fresh(&bar);
    // Not before its turn.
    run(&bar, &mut st, Phase::Initiative, &[5, 1]);
    assert_eq!(legal(&bar, &st), ["own:b1", "own:b2", "opponent"]);
    let mut st = fresh(&bar);
    st.turn = 2;
    run(&bar, &mut st, Phase::Initiative, &[5, 1]);
    assert_eq!(legal(&bar, &st), ["own:b1", "own:b2", "own:b3", "opponent"]);
    let log = act(&bar, &mut st, &["own:b3"], &[]);
    assert_logged(
        &log,
        "Reinforcements (22.2): Y 1, Blue brigade 3 leader arrive at 0116",
    );
    assert_eq!(st.units[usize::from(unit(&bar, "y1"))].hexes, [hex("0116")]);
    // In command for its arrival turn: no leader initiative roll, nobody out of command.
    let log = act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    assert_not_logged(&log, "Leader initiative");
    assert!(!command_line(&log).contains("out of command"), "{log:#?}");
}

#[test]
fn r22_3_part_of_a_brigade_arrives_in_command_when_the_rest_activates() {
    // FOR 2 of brigade Sc arrives on turn 2 at 0116, beyond Sc's range.
    let bar = mini_with("scenario.toml", |t| {
        t.replace(FOR2, "") + "[[reinforcement]]\nturn = 2\nhex = \"0116\"\nunits = [\"for2\"]\n"
    })
    .unwrap();
    let f = usize::from(unit(&bar, "for2"));
    let mut st = fresh(&bar);
    st.turn = 2;
    // Brigade 2's activation does not bring it.
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    act(
        &bar,
        &mut st,
        &["activate:b2", "command-done", "movement-done"],
        &[5, 1],
    );
    assert!(st.units[f].hexes.is_empty());
    let log = act(&bar, &mut st, &["own:b1"], &[]);
    assert_logged(&log, "Reinforcements (22.3): FOR 2 arrive at 0116");
    let log = act(&bar, &mut st, &["command-done", "movement-done"], &[5, 1]);
    assert!(!command_line(&log).contains("FOR 2"), "{log:#?}");
    // 22.4: not through an entry hex in an enemy ZOC.
    let mut st = fresh(&bar);
    st.turn = 2;
    let south = hex("0116").neighbour(hexmap::Dir::SW).unwrap().to_string();
    put(&bar, &mut st, "z3", &[&south]);
    assert!(bar::command::ezoc(&bar.sc, &st, 0, hex("0116")));
    run(&bar, &mut st, Phase::ChooseBrigade { side: 0 }, &[]);
    let log = act(&bar, &mut st, &["activate:b1"], &[]);
    assert_not_logged(&log, "Reinforcements");
    assert!(st.units[f].hexes.is_empty());
}

/// 22.4: reinforcements "pay the terrain costs to enter" their entry hex out of their full MA:
/// the first move of an arriving unit has its entry hex's cost spent; the next turn it has not.
#[test]
fn r22_4_an_arriving_unit_pays_its_entry_hex_out_of_its_full_ma() {
    let bar = mini_with("scenario.toml", |t| {
        t.replace(Y1, "").replace(L3, "")
            + "[[reinforcement]]\nturn = 2\nhex = \"0116\"\nunits = [\"y1\"]\nleaders = [\"L3\"]\n"
    })
    .unwrap();
    let mut st = fresh(&bar);
    st.turn = 2;
    run(&bar, &mut st, Phase::Initiative, &[5, 1]);
    act(&bar, &mut st, &["own:b3", "command-done"], &[5, 1]);
    let log = act(&bar, &mut st, &["move:y1"], &[]);
    let line = log
        .iter()
        .find(|l| l.contains("Y 1 begins to move"))
        .cloned()
        .unwrap_or_default();
    let ma = bar.sc.units[usize::from(unit(&bar, "y1"))].ma;
    let terrain = &bar.sc.board.hexes[&hex("0116")].terrain;
    // It arrives in march column: the column's cost (11.2).
    assert_eq!(
        st.units[usize::from(unit(&bar, "y1"))].formation,
        bar::geom::Formation::MarchColumn
    );
    let cost = bar.sc.charts.tec.terrain[terrain]
        .mp(true)
        .points()
        .expect("the entry hex may be entered");
    assert!(
        line.contains(&format!("({ma} MP, {cost} of them to enter the map, 22.4)")),
        "{log:#?}"
    );
    // A unit already on the map (activated with its brigade, not arriving) spends nothing
    // before it moves.
    let mut later = st.clone();
    if let Some(a) = later.activation.as_mut() {
        a.arriving.clear();
        a.units.push(unit(&bar, "y1"));
    }
    later.phase = Phase::Movement;
    let log = act(&bar, &mut later, &["move:y1"], &[]);
    assert_logged(&log, &format!("Y 1 begins to move ({ma} MP)"));
}
