//! Issue 12, findings 5–11 (text parts): Fontenoy/Lauffeld rules that failed when positions built
//! from edited copies of `scenarios/` were played through the CLI. Each test builds the position of
//! the finding the way the finding did ("keep" = the only units left in `oob.toml`, set-up lines
//! moved) and plays the same action ids; the Spanish rule book is the authority.
mod common;

use common::*;
use engine::Ruleset;
use saxe::Saxe;
use saxe::event::Event;
use saxe::scenario::Side;
use saxe::state::{GroupKind, Phase, State, flag};

/// The roll events whose `what` contains `needle`.
fn rolls_for<'a>(ev: &'a [Event], needle: &str) -> Vec<&'a Event> {
    ev.iter()
        .filter(|e| matches!(e, Event::Roll { what, .. } if what.contains(needle)))
        .collect()
}

/// The rule events whose text contains `needle`, with their rule numbers.
fn rules_for(ev: &[Event], needle: &str) -> Vec<(String, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Rule { rule, text } if text.contains(needle) => {
                Some((rule.clone(), text.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// Play on, choosing by `pick` (an id among the legal ones, or `None` for a default that makes
/// progress: the ends of procedures first), until `stop` holds or `limit` actions were played.
fn drive(
    r: &Saxe,
    s: &mut State,
    ev: &mut Vec<Event>,
    limit: usize,
    mut pick: impl FnMut(&State, &[String]) -> Option<String>,
    stop: impl Fn(&State) -> bool,
) {
    const PROGRESS: [&str; 8] = [
        "stop",
        "enter:",
        "end-column",
        "end-activation",
        "end-combat",
        "end-redoubt-fire",
        "end-army-move",
        "pass",
    ];
    for _ in 0..limit {
        if stop(s) || s.phase == Phase::Over {
            return;
        }
        let legal = ids(r, s);
        let Some(first) = legal.first().cloned() else {
            return;
        };
        let choice = pick(s, &legal)
            .or_else(|| {
                PROGRESS
                    .iter()
                    .find_map(|p| legal.iter().find(|id| id.starts_with(p)).cloned())
            })
            .unwrap_or(first);
        ev.extend(act(r, s, &choice));
    }
}

// ------------------------------------------------------------------------------------ 11.1

/// Finding 5: Hanoverian foot and Second line 2 in 0608 facing N; Brigade irlandaise and Gardes
/// françaises in 0709 N; Waldeck 0105, Lutteaux 1416, Ligonier 0104, Cumberland 0103.
fn finding_5() -> Saxe {
    edited_battle(
        "fontenoy",
        "fontenoy",
        &[
            "hanoverian-foot",
            "second-line-2",
            "brigade-irlandaise",
            "gardes-francaises",
        ],
        &[
            ("hanoverian-foot", "0608", "N"),
            ("second-line-2", "0608", "N"),
            ("brigade-irlandaise", "0709", "N"),
            ("gardes-francaises", "0709", "N"),
        ],
        &[
            ("waldeck", "0105"),
            ("lutteaux", "1416"),
            ("ligonier", "0104"),
            ("cumberland", "0103"),
        ],
    )
}

/// F/L 11.1: "En el caso de un apilamiento, la unidad de arriba toma las pérdidas en primer lugar"
/// (docs/editions.md A21): a two-step combat result against a stack takes both steps from its top
/// unit (as artillery fire does), not one from each unit as Hastenbeck 11.1 alternates them.
#[test]
fn r11_1_fl_combat_losses_in_a_stack_go_to_the_top_unit() {
    let r = finding_5();
    let (mut s, _) = played(
        &r,
        1,
        &[
            "activate:ligonier",
            "end-activation",
            "activate:lutteaux",
            "end-activation",
        ],
    );
    let (top, under) = (unit(&r, "hanoverian-foot"), unit(&r, "second-line-2"));
    assert!(
        s.units[usize::from(top)].order < s.units[usize::from(under)].order,
        "Hanoverian foot is the top unit of 0608"
    );
    // A die of 6 with the defenders disorganised (+1, 10.3): 6 + 0 ratio + 1 morale + 3 rear
    // + 1 = 11, the defender's 2D-R2* row.
    for u in [top, under] {
        s.units[usize::from(u)].set(flag::DISORG, true);
    }
    s.dice = dice_rolling(&[6, 6, 6, 6, 6, 6]);
    let ev = act(&r, &mut s, "attack:0709>0608");
    let crt = rolls_of(&ev, "CRT");
    assert!(
        matches!(crt.first(), Some(Event::Roll { result, .. }) if result.contains("defender 2D")),
        "a two-step result: {ev:#?}"
    );
    assert_eq!(
        (
            s.units[usize::from(top)].lost,
            s.units[usize::from(under)].lost
        ),
        (2, 0),
        "both steps from the top unit: {:#?}",
        rules_for(&ev, "loses a step")
    );
}

// ------------------------------------------------------------------------------------ 4.B1

/// Finding 6: Foot Guards 0714 S, First Line 2 and Second Line 1 in 0610 S, Blues 0712 S, Le Roi
/// 1620 N; Campbell 0512, Waldeck 0105, Cumberland and Ligonier 0712.
fn finding_6() -> Saxe {
    edited_battle(
        "fontenoy",
        "fontenoy",
        &[
            "foot-guards",
            "first-line-2",
            "second-line-1",
            "blues",
            "le-roi",
        ],
        &[
            ("foot-guards", "0714", "S"),
            ("first-line-2", "0610", "S"),
            ("second-line-1", "0610", "S"),
            ("blues", "0712", "S"),
            ("le-roi", "1620", "N"),
        ],
        &[
            ("campbell", "0512"),
            ("waldeck", "0105"),
            ("cumberland", "0712"),
            ("ligonier", "0712"),
        ],
    )
}

/// F/L 4.B1 step 5: after the double action "el jefe del ejército mantendría la opción de moverse
/// en la siguiente activación, pero en este caso solo": in a later activation Cumberland may move,
/// but alone, not with his stack.
#[test]
fn r4_b1_fl_after_a_double_action_the_army_commander_moves_alone() {
    let r = finding_6();
    let (s, _) = played(
        &r,
        1,
        &[
            "activate-auto:ligonier",
            "move-unit:foot-guards",
            "step:SE",
            "stop",
            "move-stack:0610",
            "step:SE",
            "stop",
            "end-activation",
            "activate-auto:campbell",
        ],
    );
    let legal = ids(&r, &s);
    assert!(
        legal
            .iter()
            .any(|a| a.starts_with("commander-step:cumberland:")),
        "he keeps his move, alone: {legal:?}"
    );
    assert!(
        !legal.contains(&"chief-with-stack:cumberland".to_string()),
        "not with his stack: {legal:?}"
    );
}

/// The double action of finding 6 itself, as a control: Ligonier stays with Cumberland, so after
/// one unit moved a stack may move too (4.B1 step 5: two different actions).
#[test]
fn r4_b1_fl_the_double_action_when_the_officer_stays() {
    let r = finding_6();
    let (s, _) = played(
        &r,
        1,
        &[
            "activate-auto:ligonier",
            "move-unit:foot-guards",
            "step:SE",
            "stop",
        ],
    );
    assert!(ids(&r, &s).contains(&"move-stack:0610".to_string()));
}

/// F/L 4.B1: the double action is for step 5 "si el comandante del ejército … se encuentra apilado
/// con el jefe de la formación activada"; Ligonier, who left Cumberland in step 4, has only one
/// action (docs/editions.md A7).
#[test]
fn r4_b1_fl_an_officer_who_leaves_in_step_4_loses_the_second_action() {
    let r = finding_6();
    let (s, _) = played(
        &r,
        1,
        &[
            "activate-auto:ligonier",
            "commander-step:ligonier:0711",
            "move-unit:foot-guards",
            "step:SE",
            "stop",
        ],
    );
    let legal = ids(&r, &s);
    assert!(
        !legal.contains(&"move-stack:0610".to_string()),
        "one action only: {legal:?}"
    );
}

/// F/L 4.B1 step 3 comes before step 5: the army commander stacked with the activated officer
/// may move in step 3 (he then has moved, and the double action of step 5 is gone) or stay and
/// give the double action. Both must be offered.
#[test]
fn r4_b1_fl_the_army_commander_may_move_in_step_3_instead_of_the_double_action() {
    let r = finding_6();
    let (mut s, _) = played(&r, 1, &["activate-auto:ligonier"]);
    let legal = ids(&r, &s);
    assert!(
        legal.contains(&"commander-step:cumberland:0711".to_string()),
        "step 3 offered: {legal:?}"
    );
    for a in [
        "commander-step:cumberland:0711",
        "move-unit:foot-guards",
        "step:SE",
        "stop",
    ] {
        act(&r, &mut s, a);
    }
    let legal = ids(&r, &s);
    assert!(
        !legal.contains(&"move-stack:0610".to_string()),
        "having moved, no double action: {legal:?}"
    );
}

// ------------------------------------------------------------------------------------ 8.8

/// F/L 8.8: "Los refuerzos están automáticamente bajo mando el turno de su llegada": Normandie,
/// arriving at 2317 far from Saxe, takes its activation test (A14) without the +1 of an officer
/// or independent unit out of the army commander's radius (5.1, 6.2).
#[test]
fn r8_8_fl_a_reinforcement_in_command_has_no_out_of_radius_modifier() {
    let r = Saxe::load("fontenoy", &[], None).expect("fontenoy");
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    drive(
        &r,
        &mut s,
        &mut ev,
        400,
        |_, legal| {
            legal
                .iter()
                .find(|a| a.starts_with("activate:") || a.starts_with("activate-independent"))
                .cloned()
        },
        |s| ids(&r, s).contains(&"reinforce:normandie:2317".to_string()),
    );
    let ev = act(&r, &mut s, "reinforce:normandie:2317");
    let test = rolls_for(&ev, "activation of Normandie");
    assert_eq!(test.len(), 1, "Normandie still tests (A14): {ev:#?}");
    assert!(
        mods_of(test[0])
            .iter()
            .all(|(why, _)| !why.contains("radius")),
        "in command: {}",
        test[0]
    );
}

// ------------------------------------------------------------------------------------ 10.3

/// F/L 10.3: "Una unidad de caballería atacando un reducto o contra un hex de ciudad tiene un DRM
/// de -2": Horse Guards attacking Eu 2 in its redoubt have −2 of their own, beyond the redoubt's
/// terrain −2 that Foot Guards have too.
#[test]
fn r10_3_fl_cavalry_attacking_a_redoubt_has_minus_2() {
    let r = edited_battle(
        "fontenoy",
        "fontenoy",
        &["foot-guards", "eu-2", "redoubt-eu-2", "horse-guards"],
        &[("foot-guards", "0914", "S"), ("horse-guards", "0915", "S")],
        &[
            ("campbell", "0513"),
            ("ligonier", "0712"),
            ("cumberland", "0612"),
            ("waldeck", "0105"),
        ],
    );
    let (s, _) = played(
        &r,
        1,
        &[
            "activate-auto:ligonier",
            "end-activation",
            "activate-auto:campbell",
            "end-activation",
        ],
    );
    let mods = |attack: &str| {
        let mut s2 = s.clone();
        let mut ev = act(&r, &mut s2, attack);
        // 3.6: Eu 2 is hidden under the redoubt, so the French are asked whether light troops
        // there retreat before combat (1.3); they are not light: standing is the only choice.
        assert_eq!(ids(&r, &s2), vec!["pass".to_string()]);
        ev.extend(act(&r, &mut s2, "pass"));
        mods_of(rolls_of(&ev, "CRT")[0])
    };
    let (cav, inf) = (mods("attack:0915>1014"), mods("attack:0914>1014"));
    assert_eq!(
        modifier(&cav, "cavalry against a redoubt"),
        Some(-2),
        "{cav:?}"
    );
    assert_eq!(modifier(&cav, "terrain"), Some(-2), "{cav:?}");
    assert_eq!(modifier(&inf, "cavalry against a redoubt"), None, "{inf:?}");
    assert_eq!(modifier(&inf, "terrain"), Some(-2), "{inf:?}");
}

// ------------------------------------------------------------------------------------ 11.4

/// F/L 11.4: the dead army commander "es inmediatamente reemplazado por uno de los comandantes de
/// formación"; Louis XV is none (0.1: he obeys the army commanders' rules; docs/editions.md A28),
/// so he is never offered.
#[test]
fn r11_4_fl_louis_xv_is_never_the_new_army_commander() {
    let r = edited_battle(
        "fontenoy",
        "fontenoy",
        &["eu-1", "le-roi", "foot-guards", "first-line-1"],
        &[
            ("eu-1", "0914", "N"),
            ("foot-guards", "0814", "S"),
            ("first-line-1", "0814", "S"),
            ("le-roi", "1620", "N"),
        ],
        &[
            ("saxe", "0914"),
            ("waldeck", "0105"),
            ("cumberland", "0814"),
        ],
    );
    let (s, ev) = played(
        &r,
        1,
        &[
            "activate-auto:ligonier",
            "end-activation",
            "attack:0814>0914",
        ],
    );
    assert!(logged(&ev, "army commander Saxe killed"), "{ev:#?}");
    let legal = ids(&r, &s);
    assert!(legal.iter().any(|a| a.starts_with("promote:")), "{legal:?}");
    assert!(
        !legal.contains(&"promote:louis-xv".to_string()),
        "{legal:?}"
    );
}

// ------------------------------------------------------------------------------------ 17, 14.4

/// F/L 17.1 option 1: "The Allied formations and independent units arrive on the map on the
/// first turn in marching column"; 14.4 and the 17 note: a march column's activation is automatic.
/// Moltke and Ingolsby enter in column in phase A of turn 1, with no activation test.
#[test]
fn r17_1_fl_independents_arrive_in_march_column_activated_automatically() {
    let r = Saxe::load("fontenoy-surprise", &[], None).expect("fontenoy-surprise");
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let mut offered_in = Vec::new();
    drive(
        &r,
        &mut s,
        &mut ev,
        3000,
        |s, legal| {
            let first_reinforce = legal.iter().find(|a| {
                a.starts_with("reinforce:moltke:") || a.starts_with("reinforce:ingolsby:")
            });
            if let Some(a) = first_reinforce {
                offered_in.push(s.phase);
                return Some(a.clone());
            }
            legal
                .iter()
                .find(|a| a.starts_with("enter-in-column:") || a.starts_with("march:"))
                .cloned()
        },
        |s| s.turn > 1,
    );
    for id in ["moltke", "ingolsby"] {
        let u = unit(&r, id);
        assert!(
            rolls_for(
                &ev,
                &format!("activation of {}", r.sc.units[usize::from(u)].name)
            )
            .is_empty(),
            "{id} takes no activation test: {:#?}",
            rolls_of(&ev, "5.1")
        );
        assert!(
            s.units[usize::from(u)].hex.is_some(),
            "{id} is on the map after turn 1"
        );
    }
    assert!(
        offered_in
            .iter()
            .all(|p| matches!(p, Phase::March(Side::Allies))),
        "they enter with the columns, in phase A: {offered_in:?}"
    );
}

/// F/L 17.2 option 3: the Household "(which may act as a formation under the King's orders)"
/// arrives on the first turn in marching column: it enters as the King's formation, activated
/// automatically (14.4), never by a tested reinforcement; once deployed its 16.2 restriction
/// applies (docs/editions.md, 17.2 unclear points).
#[test]
fn r17_2_fl_the_household_arrives_in_march_column() {
    let r = Saxe::load("lauffeld-french-arrive", &[], None).expect("lauffeld-french-arrive");
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let mut reinforce_offered = Vec::new();
    let mut household_column = false;
    drive(
        &r,
        &mut s,
        &mut ev,
        3000,
        |_, legal| {
            reinforce_offered.extend(
                legal
                    .iter()
                    .filter(|a| a.starts_with("reinforce:"))
                    .cloned(),
            );
            if let Some(a) = legal
                .iter()
                .find(|a| a.starts_with("enter-in-column:maison-du-roi:"))
            {
                household_column = true;
                return Some(a.clone());
            }
            legal
                .iter()
                .find(|a| a.starts_with("enter-in-column:") || a.starts_with("march:"))
                .cloned()
        },
        |s| s.turn > 1,
    );
    assert!(
        reinforce_offered.is_empty(),
        "no tested reinforcement: {reinforce_offered:?}"
    );
    assert!(household_column, "the Household enters as a column");
    let gdc = unit(&r, "garde-du-corps");
    assert!(s.units[usize::from(gdc)].hex.is_some(), "on the map");
    assert!(
        rolls_for(&ev, "activation of Garde du corps").is_empty(),
        "{:#?}",
        rolls_of(&ev, "5.1")
    );
}

// ------------------------------------------------------------------------------------ texts

/// A combat against Fontenoy names its terrain as a player reads it: "fortified village".
#[test]
fn r10_3_terrain_is_named_in_words() {
    let r = edited_battle(
        "fontenoy",
        "fontenoy",
        &["foot-guards", "le-dauphin"],
        &[("foot-guards", "1010", "N"), ("le-dauphin", "0911", "N")],
        &[
            ("ligonier", "0712"),
            ("cumberland", "0712"),
            ("waldeck", "0105"),
            ("campbell", "0512"),
        ],
    );
    let (_, ev) = played(
        &r,
        1,
        &[
            "activate-auto:ligonier",
            "end-activation",
            "attack:1010>0911",
        ],
    );
    let mods = mods_of(rolls_of(&ev, "CRT")[0]);
    assert!(
        mods.iter().any(|(w, _)| w == "terrain: fortified village"),
        "{mods:?}"
    );
}

/// Lauffeld's automatic activations are its own rule, 16.2 (turns 1 and 2), in the label and the
/// log; Fontenoy's are 16.1.
#[test]
fn r16_2_lauffeld_automatic_activations_cite_16_2() {
    let r = Saxe::load("lauffeld", &[], None).expect("lauffeld");
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let auto = ids(&r, &s)
        .into_iter()
        .find(|a| a.starts_with("activate-auto:"))
        .expect("an automatic activation on turn 1");
    let a = r
        .legal(&s)
        .into_iter()
        .find(|a| r.action_id(a) == auto)
        .expect("legal");
    let label = r.action_label(&s, &a);
    assert!(label.contains("16.2") && !label.contains("16.1"), "{label}");
    let ev = act(&r, &mut s, &auto);
    let auto_events = rules_for(&ev, "activated automatically");
    assert!(
        !auto_events.is_empty() && auto_events.iter().all(|(rule, _)| rule == "16.2"),
        "{auto_events:?}"
    );
}

/// F/L 4.D "Fin del turno … se avanza el marcador de turno": the new turn is logged under 4.D
/// (4.C is the reorganisation phase in this edition; Hastenbeck's end of turn is its 4.C).
#[test]
fn r4_d_fl_the_turn_change_cites_4_d() {
    let r = Saxe::load("fontenoy", &[], None).expect("fontenoy");
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    drive(&r, &mut s, &mut ev, 600, |_, _| None, |s| s.turn > 4);
    let begins = rules_for(&ev, "turn 5 begins");
    assert_eq!(
        begins.len(),
        1,
        "{:#?}",
        ev.iter().rev().take(5).collect::<Vec<_>>()
    );
    assert_eq!(begins[0].0, "4.D");
}

/// Hastenbeck's own end of turn is its 4.C ("C. End of Turn"): unchanged.
#[test]
fn r4_c_hastenbeck_the_turn_change_cites_4_c() {
    let r = rules();
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    drive(&r, &mut s, &mut ev, 600, |_, _| None, |s| s.turn > 1);
    let begins = rules_for(&ev, "turn 2 begins");
    assert_eq!(begins.len(), 1);
    assert_eq!(begins[0].0, "4.C");
}

/// F/L 14.4, 14.3 and the 17 note: on the next turns Moltke, still in march column, is activated
/// without a test and may march on in column or deploy; once deployed (the marker goes at the end
/// of that turn) he is tested normally.
#[test]
fn r14_4_fl_an_independent_in_column_activates_automatically_until_it_deploys() {
    let r = Saxe::load("fontenoy-surprise", &[], None).expect("fontenoy-surprise");
    let moltke = unit(&r, "moltke");
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let columns = |_: &State, legal: &[String]| {
        legal
            .iter()
            .find(|a| {
                a.starts_with("reinforce:")
                    || a.starts_with("enter-in-column:")
                    || a.starts_with("march:")
            })
            .cloned()
    };
    let rr = &r;
    let wants = move |id: &'static str| move |s: &State| ids(rr, s).contains(&id.to_string());
    drive(
        &r,
        &mut s,
        &mut ev,
        4000,
        columns,
        wants("activate-independent:moltke"),
    );
    assert_eq!(s.turn, 2, "Moltke's activation of turn 2");
    assert!(s.units[usize::from(moltke)].has(flag::COLUMN));
    let e = act(&r, &mut s, "activate-independent:moltke");
    assert!(rolls_for(&e, "activation of Moltke").is_empty(), "{e:#?}");
    let legal = ids(&r, &s);
    assert!(
        legal.contains(&"column-move:moltke".to_string()),
        "{legal:?}"
    );
    assert!(legal.contains(&"move-unit:moltke".to_string()), "{legal:?}");
    let e = act(&r, &mut s, "move-unit:moltke");
    assert!(logged(&e, "Moltke deploys"), "{e:#?}");
    ev.clear();
    drive(
        &r,
        &mut s,
        &mut ev,
        4000,
        columns,
        wants("activate-independent:moltke"),
    );
    assert_eq!(s.turn, 3);
    assert!(!s.units[usize::from(moltke)].has(flag::COLUMN), "deployed");
    let e = act(&r, &mut s, "activate-independent:moltke");
    assert_eq!(rolls_for(&e, "activation of Moltke").len(), 1, "{e:#?}");
}

/// Lauffeld 16.2 under 17.2 option 3 ("only the Household rule applies"): once the Household has
/// deployed from its column, it may be activated (as a formation or unit by unit) only if two
/// French formations are demoralised or it is attacked (docs/editions.md, 17.2 unclear points).
#[test]
fn r16_2_fl_the_household_keeps_its_restriction_once_deployed() {
    let r = Saxe::load("lauffeld-french-arrive", &[], None).expect("lauffeld-french-arrive");
    let mdr = formation(&r, "maison-du-roi");
    let household: Vec<String> =
        r.sc.units
            .iter()
            .filter(|u| u.household)
            .map(|u| format!("activate-independent:{}", u.id))
            .collect();
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let mut deployed = false;
    let mut offered = Vec::new();
    drive(
        &r,
        &mut s,
        &mut ev,
        8000,
        |s, legal| {
            if s.formations[usize::from(mdr)].column.is_none() && s.turn > 1 {
                offered.extend(
                    legal
                        .iter()
                        .filter(|a| *a == "activate:maison-du-roi" || household.contains(a))
                        .cloned(),
                );
            }
            if legal.contains(&"deploy:maison-du-roi".to_string()) {
                deployed = true;
                return Some("deploy:maison-du-roi".into());
            }
            // Columns march north, off their entry hexes, so that the next units can enter.
            if matches!(top_moving(s), Some(m) if m.kind == GroupKind::Column)
                && let Some(step) = legal.iter().find(|a| a.starts_with("step:N"))
            {
                return Some(step.clone());
            }
            legal
                .iter()
                .find(|a| a.starts_with("enter-in-column:") || a.starts_with("march:"))
                .cloned()
        },
        |s| s.turn > 4,
    );
    assert!(deployed, "the Household deployed");
    assert!(!s.household_free);
    assert!(offered.is_empty(), "{offered:?}");
}
