//! The MELEES paragraph in play, and the options (issue 6): what `rules_text.rs` (the melee table
//! cell by cell, as rates) and `rules_paragraphs.rs` (the other paragraphs) leave. The bonuses
//! alone and together, counted in the dice actually rolled ("the following numbers of dice per
//! 25% of a unit's remaining effectiveness", "+1 die per 25%": dice = (table + bonuses) ×
//! quarters left); "attacked frontally" (docs/minis.md C2); dismounted horse, light foot and the
//! lancers' one and a half (C1, C4); 4 or more to hit; the order of a melee, a drawn melee and
//! who defends when it is fought again (C3, C4); the options `narrow-arc` (F1) and
//! `two-hits-a-quarter` (F4) (`free-gun-fire` is in `rules_paragraphs.rs`). The dice are fixed
//! by finding a seed whose first rolls are the ones wanted and putting its generator in
//! `st.dice`.
use engine::{Dice, Ruleset};
use glam::DVec2;
use minis::state::Step;
use minis::{Action, Event, Minis, Options, State};

const RULES: &str = include_str!("../../../scenarios/minis/rules.toml");

/// A unit on the test table.
#[derive(Clone, Debug)]
struct Base {
    id: &'static str,
    side: u8,
    kind: &'static str,
    sector: &'static str,
    at: [f64; 3],
    extra: &'static str,
}

/// A unit of the centre sector: id, side, kind, x, y, facing (degrees, 90 = north).
fn unit(id: &'static str, side: u8, kind: &'static str, x: f64, y: f64, facing: f64) -> Base {
    Base {
        id,
        side,
        kind,
        sector: "centre",
        at: [x, y, facing],
        extra: "",
    }
}

impl Base {
    /// With more TOML lines (order, dragoons, cuirassiers).
    fn with(self, extra: &'static str) -> Base {
        Base { extra, ..self }
    }
    /// In another sector.
    fn in_sector(self, sector: &'static str) -> Base {
        Base { sector, ..self }
    }
}

/// A terrain piece: kind, centre, width (x) and depth (y).
fn piece(kind: &str, x: f64, y: f64, w: f64, h: f64) -> String {
    format!(
        "[[terrain]]\nkind = \"{kind}\"\nname = \"{kind}\"\nx = {x}\ny = {y}\nw = {w}\nh = {h}\nreconstructed = \"test\"\n"
    )
}

/// The units and a battalion in reserve per side, far off (a loss in a test does not decide
/// the game: Victory), on terrain.
fn table(units: &[Base], terrain: &[String], opts: Options) -> Minis {
    let mut t = String::from(
        "[scenario]\nid = \"t\"\nname = \"t\"\nsides = [\"A\", \"B\"]\ntable = [180.0, 120.0]\nmax_turns = 5\nreconstructed = \"test\"\n",
    );
    let reserves = [
        unit("r0", 0, "foot", 10.0, 5.0, 90.0),
        unit("r1", 1, "foot", 170.0, 115.0, 270.0),
    ];
    for u in units.iter().chain(&reserves) {
        let [x, y, f] = u.at;
        t.push_str(&format!(
            "[[units]]\nid = \"{0}\"\nname = \"{0}\"\nside = {1}\nkind = \"{2}\"\nsector = \"{3}\"\nx = {x}\ny = {y}\nfacing = {f}\n{4}\nreconstructed = \"test\"\n",
            u.id, u.side, u.kind, u.sector, u.extra
        ));
    }
    t.extend(terrain.iter().map(String::as_str));
    Minis::from_text(&t, RULES, opts).expect("test table is valid")
}

fn idx(m: &Minis, id: &str) -> usize {
    m.unit_index(id).expect("unit exists")
}

fn act(m: &Minis, st: &mut State, ev: &mut Vec<Event>, id: &str) {
    m.apply_id(st, id, ev)
        .unwrap_or_else(|e| panic!("{id} is refused: {e}"));
}

/// A seed whose first `n` d6 satisfy `pred`.
fn seed_where(n: usize, pred: impl Fn(&[u8]) -> bool) -> u64 {
    (0..5_000_000u64)
        .find(|&s| {
            let mut d = Dice::new(s);
            let r: Vec<u8> = (0..n).map(|_| d.d6()).collect();
            pred(&r)
        })
        .expect("a seed gives such rolls")
}

/// A seed whose first d6 are exactly `want`.
fn seed_for(want: &[u8]) -> u64 {
    seed_where(want.len(), |r| r == want)
}

/// How many of `dice` score `need` or more.
fn scoring(dice: &[u8], need: u8) -> usize {
    dice.iter().filter(|&&d| d >= need).count()
}

/// Side 0 starts its centre sector, 3 pips in each sector and the dice from `seed`, after
/// `setup`. The events from the sector's start.
fn centre(m: &Minis, seed: u64, setup: impl FnOnce(&mut State)) -> (State, Vec<Event>) {
    let mut ev = Vec::new();
    let mut st = m.start(1, &mut ev);
    assert_eq!(st.step, Step::ChooseSector, "the sectors are offered");
    st.pips = [3, 3, 3];
    st.dice = Dice::new(seed);
    setup(&mut st);
    let mut ev = Vec::new();
    act(m, &mut st, &mut ev, "sector:centre");
    (st, ev)
}

/// Side 0 plays its centre, moving nothing, so that the melees of the sector are fought (the
/// sequence: move, musketry, melees), with "a" at `eff[0]` quarters and "b" at `eff[1]`.
fn fight(m: &Minis, seed: u64, eff: [u8; 2]) -> (State, Vec<Event>) {
    let (a, b) = (idx(m, "a"), idx(m, "b"));
    let (mut st, mut ev) = centre(m, seed, |st| {
        st.units[a].eff = eff[0];
        st.units[b].eff = eff[1];
    });
    act(m, &mut st, &mut ev, "moves-done");
    (st, ev)
}

/// The melee roll of unit `name` (it reads "name against …"): its dice and bonuses.
fn melee_roll<'a>(ev: &'a [Event], name: &str) -> (&'a [u8], Vec<&'a str>) {
    let found: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Roll {
                rule,
                what,
                dice,
                mods,
                ..
            } if rule == "Melees" && what.starts_with(&format!("{name} against ")) => Some((
                dice.as_slice(),
                mods.iter().map(|(why, _)| why.as_str()).collect(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "one melee roll of {name}: {ev:#?}");
    found[0].clone()
}

/// The 50:50 rolls of exact halves in melees.
fn halves(ev: &[Event]) -> Vec<u8> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Roll {
                rule, what, dice, ..
            } if rule == "Melees" && what.starts_with("an exact half") => Some(dice[0]),
            _ => None,
        })
        .collect()
}

/// The dice a unit rolls in a melee and its bonuses.
type Dice2 = [(usize, Vec<String>); 2];

/// The dice "a" and "b" roll in a melee at `eff` quarters, with their bonuses; no exact half.
fn dice_and_bonuses(m: &Minis, eff: [u8; 2]) -> Dice2 {
    let (_, ev) = fight(m, 7, eff);
    assert!(halves(&ev).is_empty(), "no exact half");
    ["a", "b"].map(|n| {
        let (dice, mods) = melee_roll(&ev, n);
        (dice.len(), mods.into_iter().map(String::from).collect())
    })
}

/// What [`dice_and_bonuses`] should give: a's dice and bonuses, b's.
fn expect(a: (usize, &[&str]), b: (usize, &[&str])) -> Dice2 {
    [a, b].map(|(n, mods)| (n, mods.iter().map(|s| s.to_string()).collect()))
}

/// Whether unit `name` made a roll of the paragraph (its description starts with the name).
fn rolled(ev: &[Event], para: &str, name: &str) -> bool {
    ev.iter().any(
        |e| matches!(e, Event::Roll { rule, what, .. } if rule == para && what.starts_with(name)),
    )
}

/// The position of the first event (a roll or a rule) of `para` whose text starts with `start`.
fn find(ev: &[Event], para: &str, start: &str) -> Option<usize> {
    ev.iter().position(|e| match e {
        Event::Roll { rule, what, .. } => rule == para && what.starts_with(start),
        Event::Rule { rule, text } => rule == para && text.starts_with(start),
    })
}

/// The same, which must be there.
fn at(ev: &[Event], para: &str, start: &str) -> usize {
    find(ev, para, start).unwrap_or_else(|| panic!("no {para} event “{start}…” in {ev:#?}"))
}

// The bonuses as the events name them.
const FLANK: &str = "attacking in flank or rear";
const HIGHER: &str = "on higher ground";
const RIVER: &str = "defending a river bank";
const BUA: &str = "defending a built-up area from outside troops";

// The defender "b" (side 1) stands at (90, 50) facing south. A column is 6 × 6 cm (front edge at
// y 47), a line 12 × 3 (front edge at 48.5, from x 84 to 96), horse 8 × 5 (docs B1).

/// "b", a battalion in column (Melees: "other infantry").
fn column() -> Base {
    unit("b", 1, "foot", 90.0, 50.0, 270.0).with("order = \"column\"")
}

/// "b", a battalion in firing order.
fn line() -> Base {
    unit("b", 1, "foot", 90.0, 50.0, 270.0)
}

/// The bases of a battalion, width × depth: in column, in line (docs B1).
const COLUMN: [f64; 2] = [6.0, 6.0];
const LINE: [f64; 2] = [12.0, 3.0];

/// "a", horse of `kind` (8 × 5 cm) touching the front, the flank (from the east) or the rear of
/// "b" on a base of `size`.
fn horse_at(kind: &'static str, size: [f64; 2], side: &str) -> Base {
    let [hw, hd] = size.map(|v| v / 2.0);
    match side {
        "front" => unit("a", 0, kind, 90.0, 50.0 - hd - 2.5, 90.0),
        "flank" => unit("a", 0, kind, 90.0 + hw + 2.5, 50.0, 180.0),
        _ => unit("a", 0, kind, 90.0, 50.0 + hd + 2.5, 270.0),
    }
}

/// Heavy horse at 50% charge the front of a column at 100% on `terrain` (the horse's centre at
/// y 44.5, the column's at 50): the dice and bonuses of each.
fn charge_column_on(terrain: &[String]) -> Dice2 {
    let m = table(
        &[horse_at("heavy-horse", COLUMN, "front"), column()],
        terrain,
        Options::default(),
    );
    dice_and_bonuses(&m, [2, 4])
}

/// For each terrain piece, the dice and bonuses of the column charged as in [`charge_column_on`]
/// (the horse rolls 3 × 2 = 6 dice, no bonus, in all of them).
fn defender_dice_on(cases: &[(String, usize, &[&str])]) {
    for (terrain, b_dice, bonus) in cases {
        assert_eq!(
            charge_column_on(std::slice::from_ref(terrain)),
            expect((6, &[]), (*b_dice, bonus)),
            "{terrain}"
        );
    }
}

fn plain(units: &[Base]) -> Minis {
    table(units, &[], Options::default())
}

// ---------------------------------------------------------------------------------------------
// Melees: the bonuses

#[test]
fn melees_attacking_in_flank_or_rear_plus_one_die_per_25_percent() {
    // Heavy horse at 75% against a battalion at 100%. A column is "Other Inf": 3 dice per 25%,
    // × 3 = 9 from the front, (3 + 1) × 3 = 12 in flank or rear. A line is "Infantry in firing
    // order and attacked frontally" from the front, 1 × 3 = 3, and "Other Inf" in flank or rear
    // (docs C2): (3 + 1) × 3 = 12. The battalion rolls 1 × 4 = 4, no bonus: the horse faces it.
    for (b, size, front) in [(column(), COLUMN, 9), (line(), LINE, 3)] {
        let cases: [(&str, usize, &[&str]); 3] = [
            ("front", front, &[]),
            ("flank", 12, &[FLANK]),
            ("rear", 12, &[FLANK]),
        ];
        for (side, a_dice, bonus) in cases {
            let m = plain(&[horse_at("heavy-horse", size, side), b.clone()]);
            assert_eq!(
                dice_and_bonuses(&m, [3, 4]),
                expect((a_dice, bonus), (4, &[])),
                "{side} of {size:?}"
            );
        }
    }
}

#[test]
fn melees_frontally_is_45_degrees_either_side_from_the_front_edge_c2() {
    // Heavy horse facing north, its front on the line's front edge (y 48.5), its centre 2.5 cm
    // before it. Frontal while its centre is before the front edge (x 84 to 96) or beyond an end
    // by no more than 2.5 cm (45°): up to x 98.5 (and down to 81.5). Frontal: 1 die per 25%;
    // else "Other Inf" 3 + 1 for the flank. The fire arc's `narrow-arc` does not change it.
    let narrow = Options {
        narrow_arc: true,
        ..Options::default()
    };
    for opts in [Options::default(), narrow] {
        for (x, rate) in [
            (90.0, 1.0),
            (94.0, 1.0),
            (98.45, 1.0),
            (98.55, 4.0),
            (81.55, 1.0),
            (81.45, 4.0),
        ] {
            let m = table(
                &[unit("a", 0, "heavy-horse", x, 46.0, 90.0), line()],
                &[],
                opts,
            );
            let st = m.start(1, &mut Vec::new());
            assert!(
                m.rect(&st, idx(&m, "a"))
                    .touches(&m.rect(&st, idx(&m, "b"))),
                "{x}: in contact"
            );
            let (got, mods) = m.melee_rate(&st, idx(&m, "a"), idx(&m, "b"), false);
            assert_eq!(got, rate, "{x} {opts:?}: {mods:?}");
        }
    }
    // In play: the horse squarely before the right half of the line rolls 1 × 4 dice, not
    // (3 + 1) × 4.
    let m = plain(&[unit("a", 0, "heavy-horse", 94.0, 46.0, 90.0), line()]);
    assert_eq!(dice_and_bonuses(&m, [4, 4]), expect((4, &[]), (4, &[])));
}

#[test]
fn melees_terrain_pieces_lie_w_along_x_and_h_along_y_g6() {
    // The bonuses hang on where terrain lies. Fontenoy's Scheldt, w 5 × h 120 cm centred at
    // (3, 60), runs down the west edge of the table (docs S2): from y 0 to 120, x 0.5 to 5.5;
    // Antoing (16, 58) stands beside it, not in it.
    let m = Minis::load("minis-fontenoy", &[], None).expect("the scenario loads");
    let scheldt = &m.sc.terrain[0];
    assert_eq!(scheldt.name, "The Scheldt");
    for (x, y, inside) in [
        (3.0, 1.0, true),
        (3.0, 119.0, true),
        (5.4, 60.0, true),
        (5.6, 60.0, false),
        (16.0, 58.0, false),
    ] {
        assert_eq!(
            scheldt.rect.contains(DVec2::new(x, y)),
            inside,
            "({x}, {y})"
        );
    }
}

#[test]
fn melees_on_higher_ground_plus_one() {
    // Heavy horse (centre y 44.5) at 50% against the column (centre y 50) at 100%: 3 × 2 = 6 and
    // 1 × 4 = 4 on the level; the side whose centre is on the hill, the other's not, +1 per 25%,
    // attacking or not: (3 + 1) × 2 = 8, (1 + 1) × 4 = 8.
    for (hill, expected) in [
        (
            piece("hill", 90.0, 40.0, 40.0, 10.0),
            expect((8, &[HIGHER]), (4, &[])),
        ),
        (
            piece("hill", 90.0, 55.0, 40.0, 12.0),
            expect((6, &[]), (8, &[HIGHER])),
        ),
        (
            piece("hill", 90.0, 47.0, 40.0, 20.0),
            expect((6, &[]), (4, &[])),
        ),
    ] {
        assert_eq!(
            charge_column_on(std::slice::from_ref(&hill)),
            expected,
            "{hill}"
        );
    }
}

#[test]
fn melees_defending_a_river_bank_plus_one() {
    // docs C3: the attacker's centre in the river, the defender's on the bank: (1 + 1) × 4 = 8.
    // The horse's front in the river but not its centre, the defender in the river, or both in
    // it: no bonus (1 × 4); the attacker never has it (3 × 2).
    let cases: [(String, usize, &[&str]); 4] = [
        (piece("river", 90.0, 42.0, 180.0, 8.0), 8, &[RIVER]),
        (piece("river", 90.0, 40.0, 180.0, 6.0), 4, &[]),
        (piece("river", 90.0, 52.0, 180.0, 6.0), 4, &[]),
        (piece("river", 90.0, 47.0, 180.0, 10.0), 4, &[]),
    ];
    defender_dice_on(&cases);
}

#[test]
fn melees_defending_a_built_up_area_from_troops_outside_plus_one() {
    // docs C3: the defender's centre in a built-up area or field works, the attacker's outside:
    // (1 + 1) × 4 = 8. A wood is not a built-up area; both inside, no bonus; the attacker's
    // centre inside and the defender's out: the attacker is not defending (3 × 2 = 6, 1 × 4).
    let cases: [(String, usize, &[&str]); 5] = [
        (piece("town", 90.0, 53.0, 20.0, 12.0), 8, &[BUA]),
        (piece("redoubt", 90.0, 53.0, 20.0, 12.0), 8, &[BUA]),
        (piece("woods", 90.0, 53.0, 20.0, 12.0), 4, &[]),
        (piece("town", 90.0, 48.0, 20.0, 16.0), 4, &[]),
        (piece("town", 90.0, 42.0, 20.0, 8.0), 4, &[]),
    ];
    defender_dice_on(&cases);
}

#[test]
fn melees_bonuses_are_cumulative() {
    // The column holds a village on a hill above a river; the horse stands in the river: the
    // column (1 + 3) × 4 = 16, the horse 3 × 2 = 6.
    let terrain = [
        piece("river", 90.0, 42.0, 180.0, 8.0),
        piece("hill", 90.0, 56.0, 40.0, 20.0),
        piece("town", 90.0, 53.0, 20.0, 12.0),
    ];
    assert_eq!(
        charge_column_on(&terrain),
        expect((6, &[]), (16, &[HIGHER, RIVER, BUA]))
    );
    // Horse on a hill charging the column's flank: (3 + 1 + 1) × 3 = 15.
    let m = table(
        &[horse_at("heavy-horse", COLUMN, "flank"), column()],
        &[piece("hill", 99.0, 50.0, 10.0, 20.0)],
        Options::default(),
    );
    assert_eq!(
        dice_and_bonuses(&m, [3, 4]),
        expect((15, &[FLANK, HIGHER]), (4, &[]))
    );
}

// ---------------------------------------------------------------------------------------------
// Melees: the rows and columns that hang on the unit's state

#[test]
fn melees_lancers_one_and_a_half_an_exact_half_is_50_50() {
    // Lancers against firing order attacked frontally: 1.5 per 25%. At 100%, 6 dice, no 50:50.
    let m = plain(&[horse_at("lancers", LINE, "front"), line()]);
    let (_, ev) = fight(&m, 7, [4, 4]);
    assert!(halves(&ev).is_empty());
    assert_eq!(melee_roll(&ev, "a").0.len(), 6);
    // At 75%: 4.5; the first die decides, 4–6 rounding up (5 dice), 1–3 down (4). At 25%:
    // 1.5, 2 or 1 dice.
    for (eff, coin, dice) in [(3, 4, 5), (3, 3, 4), (1, 6, 2), (1, 1, 1)] {
        let (_, ev) = fight(&m, seed_for(&[coin]), [eff, 4]);
        assert_eq!(halves(&ev), [coin], "{eff} {coin}");
        assert_eq!(
            melee_roll(&ev, "a").0.len(),
            dice,
            "at {}%, {coin}",
            25 * eff
        );
        assert_eq!(melee_roll(&ev, "b").0.len(), 4);
    }
    // In flank the line is "Other Inf", 4, + 1: 5 × 3 = 15, whole.
    let m = plain(&[horse_at("lancers", LINE, "flank"), line()]);
    assert_eq!(
        dice_and_bonuses(&m, [3, 4]),
        expect((15, &[FLANK]), (4, &[]))
    );
    // A bonus keeps the half: on a hill, (1.5 + 1) × 1 = 2.5, and a 4 makes 3 dice.
    let m = table(
        &[horse_at("lancers", LINE, "front"), line()],
        &[piece("hill", 90.0, 41.0, 40.0, 12.0)],
        Options::default(),
    );
    let (_, ev) = fight(&m, seed_for(&[4]), [1, 4]);
    assert_eq!(halves(&ev), [4]);
    let (dice, mods) = melee_roll(&ev, "a");
    assert_eq!((dice.len(), mods), (3, vec![HIGHER]));
}

#[test]
fn melees_dismounted_horse_fight_on_the_infantry_row_as_other_infantry_c1() {
    // Dismounted dragoons (8 × 3, front edge at 48.5) attacked frontally by heavy horse: "Other
    // Inf", 3 × 4 = 12, not the firing-order column's 1; they roll the infantry row, 1 × 4.
    let dismounted = unit("b", 1, "heavy-horse", 90.0, 50.0, 270.0)
        .with("dragoons = true\norder = \"dismounted\"");
    let m = plain(&[horse_at("heavy-horse", LINE, "front"), dismounted.clone()]);
    assert_eq!(dice_and_bonuses(&m, [4, 4]), expect((12, &[]), (4, &[])));
    // Lancers: "Other Inf", 4 × 2 = 8, not 1.5 × 2.
    let m = plain(&[horse_at("lancers", LINE, "front"), dismounted]);
    assert_eq!(dice_and_bonuses(&m, [2, 4]), expect((8, &[]), (4, &[])));
    // Dismounted dragoons against a column: the infantry row, 1 × 4 = 4 (the heavy cavalry row
    // would give 3 × 4 = 12).
    let m = plain(&[
        unit("a", 0, "heavy-horse", 90.0, 45.5, 90.0)
            .with("dragoons = true\norder = \"dismounted\""),
        column(),
    ]);
    assert_eq!(dice_and_bonuses(&m, [4, 4]), expect((4, &[]), (4, &[])));
}

#[test]
fn melees_light_foot_melee_as_regular_foot_only_in_a_wood_or_built_up_area() {
    // Light foot "b" (8 × 3, front edge at 47) attacked by heavy horse: "Lt Inf", 2 × 4 = 8
    // wherever they stand (docs C1). In the open they inflict nothing: a roll of no dice. In a
    // wood they roll the infantry row, 1 × 4 = 4; in a village or field works (docs C3) too, and
    // defend it: (1 + 1) × 4. On a hill they are in the open: no dice, higher ground or not.
    let light = unit("b", 1, "light-foot", 90.0, 48.5, 270.0);
    let cases: [(Vec<String>, usize, &[&str]); 5] = [
        (vec![], 0, &[]),
        (vec![piece("woods", 90.0, 52.0, 20.0, 10.0)], 4, &[]),
        (vec![piece("town", 90.0, 52.0, 20.0, 10.0)], 8, &[BUA]),
        (vec![piece("redoubt", 90.0, 52.0, 20.0, 10.0)], 8, &[BUA]),
        (vec![piece("hill", 90.0, 52.0, 20.0, 10.0)], 0, &[]),
    ];
    for (terrain, b_dice, bonus) in cases {
        let m = table(
            &[horse_at("heavy-horse", COLUMN, "front"), light.clone()],
            &terrain,
            Options::default(),
        );
        assert_eq!(
            dice_and_bonuses(&m, [4, 4]),
            expect((8, &[]), (b_dice, bonus)),
            "{terrain:?}"
        );
    }
}

#[test]
fn melees_for_each_die_rolled_a_4_or_more_is_a_hit() {
    // Two columns, 1 die per 25% each, at 100%: 4 dice each. a's dice are 3s and 4s, b's all
    // under 4: b loses as many quarters as a rolled 4s, a none; b, the loser, then passes its
    // morale test (a 4 or more: Regular).
    let m = plain(&[
        unit("a", 0, "foot", 90.0, 44.0, 90.0).with("order = \"column\""),
        column(),
    ]);
    let seed = seed_where(9, |r| {
        r[..4].iter().all(|d| [3, 4].contains(d))
            && r[..4].contains(&3)
            && r[..4].contains(&4)
            && r[4..8].iter().all(|&d| d < 4)
            && r[8] >= 4
    });
    let (st, ev) = fight(&m, seed, [4, 4]);
    let (dice, _) = melee_roll(&ev, "a");
    let fours = scoring(dice, 4);
    assert!(fours > 0 && fours < 4, "{dice:?}");
    assert_eq!(st.units[idx(&m, "b")].eff, 4 - fours as u8, "{dice:?}");
    assert_eq!(st.units[idx(&m, "a")].eff, 4);
}

// ---------------------------------------------------------------------------------------------
// Melees: both sides roll, then save, then lose (docs C4)

#[test]
fn melees_both_roll_then_save_then_lose_the_side_losing_more_hits_retreats() {
    // Cuirassiers (6 cancels a hit) at 75% against a column in a wood (behind cover, 4 or more
    // cancels a hit) at 100%: 3 × 3 = 9 dice against 1 × 4 = 4. The horse scores 3, the column
    // 2; the column saves 2 of 3 (1 stands), the cuirassiers none of 2 (2 stand). So the horse
    // loses more hits although it scored more: it tests its morale (passes) and retreats, back
    // to the column; the column, the winner, does not test.
    let m = table(
        &[
            horse_at("heavy-horse", COLUMN, "front").with("cuirassiers = true"),
            column(),
        ],
        &[piece("woods", 90.0, 53.0, 20.0, 12.0)],
        Options::default(),
    );
    let seed = seed_where(19, |r| {
        scoring(&r[..9], 4) == 3
            && scoring(&r[9..13], 4) == 2
            && scoring(&r[13..16], 4) == 2
            && scoring(&r[16..18], 6) == 0
            && r[18] >= 4
    });
    let (st, ev) = fight(&m, seed, [3, 4]);
    let (a, b) = (idx(&m, "a"), idx(&m, "b"));
    // The column rolled all 4 dice although the horse's hits take a quarter from it: the blows
    // are simultaneous.
    assert_eq!(melee_roll(&ev, "a").0.len(), 9);
    assert_eq!(melee_roll(&ev, "b").0.len(), 4);
    assert_eq!((st.units[a].eff, st.units[b].eff), (3 - 2, 4 - 1));
    let order = [
        at(&ev, "Melees", "a against"),
        at(&ev, "Melees", "b against"),
        at(&ev, "Saving throws", "b saves"),
        at(&ev, "Saving throws", "a saves"),
        at(&ev, "Morale", "b loses 25%"),
        at(&ev, "Morale", "a loses 50%"),
        at(&ev, "Melees", "a loses the melee"),
        at(&ev, "Morale", "a tests morale"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(!rolled(&ev, "Morale", "b"), "the winner does not test");
    assert_eq!(st.retreats.len(), 1);
    assert_eq!(st.retreats[0].unit, a);
    assert_eq!(st.retreats[0].from, [90.0, 50.0], "its back to the column");
}

/// The melee events of `ev`.
fn melee_events(ev: &[Event]) -> usize {
    ev.iter()
        .filter(|e| matches!(e, Event::Roll { rule, .. } | Event::Rule { rule, .. } if rule == "Melees"))
        .count()
}

#[test]
fn melees_a_drawn_melee_stays_in_contact_and_is_fought_again_in_either_sides_sector() {
    // Heavy horse of A's centre at 50% (3 × 2 = 6 dice) against a column of B's right flank at
    // 100% (1 × 4 = 4): one hit each, a draw. Both lose a quarter; neither retreats nor tests.
    let m = plain(&[
        horse_at("heavy-horse", COLUMN, "front"),
        column().in_sector("right"),
    ]);
    let (a, b) = (idx(&m, "a"), idx(&m, "b"));
    let seed = seed_where(10, |r| scoring(&r[..6], 4) == 1 && scoring(&r[6..], 4) == 1);
    let (st, ev) = fight(&m, seed, [2, 4]);
    assert!(find(&ev, "Melees", "the melee is drawn (1 to 1)").is_some());
    assert_eq!((st.units[a].eff, st.units[b].eff), (1, 3));
    assert!(st.retreats.is_empty() && !rolled(&ev, "Morale", ""));
    let (pa, pb) = (m.rect(&st, a), m.rect(&st, b));
    assert!(pa.touches(&pb), "the bases stay in contact");
    // B's column, the player moving, attacks: 1 × 3 = 3 dice, and the horse 3 × 1 = 3.
    let ev = fought_again(&m, st);
    assert!(at(&ev, "Melees", "b against") < at(&ev, "Melees", "a against"));
    assert_eq!(melee_roll(&ev, "b").0.len(), 3);
    assert_eq!(melee_roll(&ev, "a").0.len(), 3);
}

/// After a drawn melee in A's centre between "a" and "b" of B's right flank: A's other sectors
/// see no melee (neither unit is in them); in B's turn, nothing in its centre, and in its right
/// flank, the bases unmoved, the melee is fought again (dice from seed 7). Its events.
fn fought_again(m: &Minis, mut st: State) -> Vec<Event> {
    let (a, b) = (idx(m, "a"), idx(m, "b"));
    let at_first = (m.rect(&st, a), m.rect(&st, b));
    let mut ev = Vec::new();
    act(m, &mut st, &mut ev, "sector:right");
    act(m, &mut st, &mut ev, "moves-done");
    act(m, &mut st, &mut ev, "moves-done");
    assert_eq!((st.active, st.step), (1, Step::ChooseSector));
    st.dice = Dice::new(7);
    st.pips = [3, 3, 3];
    act(m, &mut st, &mut ev, "sector:centre");
    act(m, &mut st, &mut ev, "moves-done");
    assert_eq!(melee_events(&ev), 0);
    assert_eq!((m.rect(&st, a), m.rect(&st, b)), at_first, "unmoved");
    let mut ev = Vec::new();
    act(m, &mut st, &mut ev, "sector:right");
    act(m, &mut st, &mut ev, "moves-done");
    ev
}

#[test]
fn melees_the_unit_contacted_defends_in_every_round_c3() {
    // A column of B's right flank holds a village (its centre in it). Heavy horse of A's centre,
    // 4 cm off, charge it: the column, contacted, defends the village from troops outside:
    // (1 + 1) × 4 = 8 dice, the horse 3 × 2 = 6. Nobody hits: a draw, 0 to 0. Fought again in
    // B's right flank, B the player moving, the column is still the defender: 8 dice again.
    let village = [piece("town", 90.0, 53.0, 20.0, 12.0)];
    let horse = unit("a", 0, "heavy-horse", 90.0, 40.5, 90.0);
    let m = table(
        &[horse, column().in_sector("right")],
        &village,
        Options::default(),
    );
    let a = idx(&m, "a");
    let (mut st, mut ev) = centre(&m, seed_where(14, |r| scoring(r, 4) == 0), |st| {
        st.units[a].eff = 2;
    });
    act(&m, &mut st, &mut ev, "advance:a:4.0");
    act(&m, &mut st, &mut ev, "moves-done");
    let (dice, mods) = melee_roll(&ev, "b");
    assert_eq!(
        (melee_roll(&ev, "a").0.len(), dice.len(), mods),
        (6, 8, vec![BUA])
    );
    assert!(find(&ev, "Melees", "the melee is drawn (0 to 0)").is_some());
    let ev = fought_again(&m, st);
    let (dice, mods) = melee_roll(&ev, "b");
    assert_eq!((dice.len(), mods), (8, vec![BUA]));
    // Placed in contact, no move having made it: the inactive player's unit defends, so in B's
    // own sector the column has no bonus (docs C3): 1 × 4.
    let m = table(
        &[
            horse_at("heavy-horse", COLUMN, "front"),
            column().in_sector("right"),
        ],
        &village,
        Options::default(),
    );
    let (st, _) = fight(&m, seed_where(14, |r| scoring(r, 4) == 0), [2, 4]);
    let ev = fought_again(&m, st);
    assert_eq!(melee_roll(&ev, "b").0.len(), 4);
}

// ---------------------------------------------------------------------------------------------
// Option narrow-arc (docs F1): the "45-degree arc" of musketry and artillery

/// Whether "f" of side 0, a `kind` (gun or battalion in line) at (90, 30) facing north, shoots at
/// a battalion in line ahead and to the `side` (+1 east, −1 west) whose corner nearest the arc's
/// edge stands `d` cm before the firer's front and `d · tan(half) + off` cm to the side: inside
/// the arc of `half` degrees either side for `off` < 0, outside for `off` > 0 (docs G5: the
/// arc from the middle of the firer's front).
fn shoots(kind: &'static str, opts: Options, half: f64, side: f64, off: f64) -> bool {
    // The front of a gun (5 cm deep) is at y 32.5, of a line (3 cm) at 31.5; the target's
    // corner 10 cm (gun) or 7 cm (muskets: 8 cm range) further on. The target, 12 × 3 cm and
    // facing the firer, has that corner on its rear edge, on the side nearer the firer's axis.
    let (front, d) = if kind == "gun" {
        (32.5, 10.0)
    } else {
        (31.5, 7.0)
    };
    let corner = 90.0 + side * (d * half.to_radians().tan() + off);
    let m = table(
        &[
            unit("f", 0, kind, 90.0, 30.0, 90.0),
            unit("t", 1, "foot", corner + side * 6.0, front + d - 1.5, 270.0),
        ],
        &[],
        opts,
    );
    let (mut st, mut ev) = centre(&m, 7, |_| {});
    if kind == "gun" {
        st.step == Step::Guns
            && m.legal_actions(&st)
                .contains(&Action::Fire(idx(&m, "f"), idx(&m, "t")))
    } else {
        act(&m, &mut st, &mut ev, "moves-done");
        rolled(&ev, "Musketry", "f")
    }
}

#[test]
fn musketry_and_artillery_arc_45_either_side_or_22_5_with_narrow_arc_f1() {
    let narrow = Options {
        narrow_arc: true,
        ..Options::default()
    };
    for kind in ["gun", "foot"] {
        for side in [1.0, -1.0] {
            let at = |opts, half, off| shoots(kind, opts, half, side, off);
            // The default: 45° either side.
            assert!(
                at(Options::default(), 45.0, -0.05),
                "{kind} {side}: just inside 45°"
            );
            assert!(
                !at(Options::default(), 45.0, 0.05),
                "{kind} {side}: just outside 45°"
            );
            // narrow-arc: 45° in all, 22.5° either side.
            assert!(at(narrow, 22.5, -0.05), "{kind} {side}: just inside 22.5°");
            assert!(!at(narrow, 22.5, 0.05), "{kind} {side}: just outside 22.5°");
            assert!(
                !at(narrow, 45.0, -0.05),
                "{kind} {side}: 45° is out with narrow-arc"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Option two-hits-a-quarter (docs F4)

fn two_hits() -> Options {
    Options {
        two_hits: true,
        ..Options::default()
    }
}

/// A gun "f" of side 0 fires at "t", a battalion in line `gap` cm before it (6 cm or less:
/// canister, half the die; else roundshot, a quarter), with the dice `want`, after `setup`.
fn gun_hits(
    opts: Options,
    gap: f64,
    want: &[u8],
    setup: impl FnOnce(&mut State),
) -> (Minis, State, Vec<Event>) {
    let m = table(
        &[
            unit("f", 0, "gun", 90.0, 30.0, 90.0),
            unit("t", 1, "foot", 90.0, 34.0 + gap, 270.0),
        ],
        &[],
        opts,
    );
    let (mut st, mut ev) = centre(&m, seed_for(want), setup);
    act(&m, &mut st, &mut ev, "fire:f:t");
    (m, st, ev)
}

#[test]
fn two_hits_a_quarter_an_odd_hit_is_carried_and_tests_no_morale_f4() {
    // Roundshot, die 4: 4 / 4 = 1 potential hit; a 6 hits. By default that is a quarter and a
    // morale test (the third die, a 6, passes).
    let (m, st, ev) = gun_hits(Options::default(), 10.0, &[4, 6, 6], |_| {});
    let t = idx(&m, "t");
    assert_eq!((st.units[t].eff, st.units[t].hits), (3, 0));
    assert!(rolled(&ev, "Morale", "t"));
    // Two hits a quarter: the hit is carried, no effectiveness is lost, no test.
    let (_, st, ev) = gun_hits(two_hits(), 10.0, &[4, 6], |_| {});
    assert_eq!((st.units[t].eff, st.units[t].hits), (4, 1));
    assert!(!rolled(&ev, "Morale", "t"));
    assert!(find(&ev, "Morale", "t carries 1 hit").is_some());
    // A hit carried from an earlier phase and this one: a quarter, and the test.
    let (_, st, ev) = gun_hits(two_hits(), 10.0, &[4, 6, 6], |st| st.units[t].hits = 1);
    assert_eq!((st.units[t].eff, st.units[t].hits), (3, 0));
    assert!(rolled(&ev, "Morale", "t"));
    // Canister, die 4: 2 potential hits, 4 and 5 hit: a quarter. Die 6: 3 hits, a quarter and
    // one carried.
    let (_, st, _) = gun_hits(two_hits(), 3.5, &[4, 4, 5, 6], |_| {});
    assert_eq!((st.units[t].eff, st.units[t].hits), (3, 0));
    let (_, st, ev) = gun_hits(two_hits(), 3.5, &[6, 4, 5, 6, 6], |_| {});
    assert_eq!((st.units[t].eff, st.units[t].hits), (3, 1));
    assert!(rolled(&ev, "Morale", "t"));
    // At 25% with a hit carried, one more hit ends the battalion.
    let (_, st, _) = gun_hits(two_hits(), 10.0, &[4, 6], |st| {
        st.units[t].eff = 1;
        st.units[t].hits = 1;
    });
    assert!(st.units[t].gone);
}

#[test]
fn two_hits_a_quarter_the_melee_is_lost_on_hits_not_quarters_f4() {
    // Heavy horse at 50% (6 dice) score 3 on the column at 100% (4 dice), which scores 2: a
    // quarter each (the column carries its third hit), but the column lost more hits: it tests
    // (passes) and retreats.
    let m = table(
        &[horse_at("heavy-horse", COLUMN, "front"), column()],
        &[],
        two_hits(),
    );
    let (a, b) = (idx(&m, "a"), idx(&m, "b"));
    let seed = seed_where(11, |r| {
        scoring(&r[..6], 4) == 3 && scoring(&r[6..10], 4) == 2 && r[10] >= 4
    });
    let (st, ev) = fight(&m, seed, [2, 4]);
    assert_eq!((st.units[a].eff, st.units[a].hits), (1, 0));
    assert_eq!((st.units[b].eff, st.units[b].hits), (3, 1));
    assert!(find(&ev, "Melees", "b loses the melee (3 to 2)").is_some());
    assert!(rolled(&ev, "Morale", "b") && !rolled(&ev, "Morale", "a"));
    assert_eq!(st.retreats.iter().map(|r| r.unit).collect::<Vec<_>>(), [b]);
    // One hit to none: the column loses no effectiveness but loses the melee, tests and retreats.
    let seed = seed_where(8, |r| {
        scoring(&r[..3], 4) == 1 && scoring(&r[3..7], 4) == 0 && r[7] >= 4
    });
    let (st, ev) = fight(&m, seed, [1, 4]);
    assert_eq!((st.units[b].eff, st.units[b].hits), (4, 1));
    assert!(rolled(&ev, "Morale", "b"));
    assert_eq!(st.retreats.iter().map(|r| r.unit).collect::<Vec<_>>(), [b]);
}
