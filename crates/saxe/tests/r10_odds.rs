//! Issue 19: the odds of an attack (10.1–10.3) and of a fire (9.2) shown before they are declared
//! are the numbers the resolution uses, counted from what the attacker sees (3.6).
mod common;

use common::*;
use engine::Ruleset;
use hexmap::{Dir, Vertex};
use saxe::scenario::Side;

fn attack_odds(r: &saxe::Saxe, s: &saxe::state::State, id: &str) -> serde_json::Value {
    let a = r
        .legal_actions(s)
        .into_iter()
        .find(|a| r.action_id(a) == id)
        .unwrap_or_else(|| panic!("{id} is not legal"));
    r.odds(s, &a).expect("an attack has odds")
}

/// 10.1, 10.2: the odds' modifiers sum to the roll's modifiers when the attack is resolved, each
/// face gives the CRT's cell, and a mandatory attack is marked.
#[test]
fn r10_2_odds_are_the_resolutions_numbers() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    let id = format!("attack:{x}>{y}");
    let odds = attack_odds(&r, &s, &id);
    assert_eq!(odds["mandatory"], true, "{odds}");
    assert_eq!(odds["hidden"], false, "{odds}");
    let drm = odds["drm"].as_i64().expect("drm");
    let faces = odds["faces"].as_array().expect("faces");
    assert_eq!(faces.len(), 6);
    for f in faces {
        let die = f["die"].as_i64().expect("die");
        let (_, a, d) = r.sc.tables.crt((die + drm) as i32);
        assert_eq!(f["attacker"], a.to_string());
        assert_eq!(f["defender"], d.to_string());
    }
    let chances: usize = odds["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|x| x["faces"].as_array().expect("faces").len())
        .sum();
    assert_eq!(chances, 6);
    let ev = act(&r, &mut s, &id);
    let rolled: i32 = rolls_of(&ev, "CRT")
        .first()
        .map(|e| mods_of(e).iter().map(|m| m.1).sum())
        .expect("the combat rolled on the CRT");
    assert_eq!(i64::from(rolled), drm);
}

/// 3.6: a unit under the top of the defending stack is not counted in the odds (its CP would tell
/// the attacker what the stack holds), and the odds say so.
#[test]
fn r3_6_odds_do_not_count_hidden_defenders() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    let id = format!("attack:{x}>{y}");
    let alone = attack_odds(&r, &s, &id);
    place(&r, &mut s, "von-fuerstenberg-2", y, Vertex::S);
    let stacked = attack_odds(&r, &s, &id);
    assert_eq!(stacked["hidden"], true, "{stacked}");
    assert_eq!(stacked["modifiers"], alone["modifiers"]);
    assert_eq!(stacked["faces"], alone["faces"]);
}
