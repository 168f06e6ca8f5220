//! Shared helpers for the rule tests (r01 … r15): an empty board built from the real scenario, unit
//! and commander look-ups by id, hexes of the right terrain found by searching the map, seeded dice
//! that roll what a test needs, and short ways to apply action ids and read the events.
#![allow(dead_code)]

use engine::{Dice, Ruleset};
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::event::Event;
use saxe::scenario::{CommanderIx, FormationIx, Side, Terrain, UnitIx};
use saxe::state::{Frame, Phase, State};
use std::sync::Arc;

/// The ruleset with the built-in historical scenario.
pub fn rules() -> Saxe {
    Saxe::load("hastenbeck", &[], None).expect("built-in scenario loads")
}

/// The ruleset with one extra Allied field gun: the French `contades-art-1309` counter given to
/// Wutginau's formation. The order of battle has no Allied field artillery, but the 11.4 combat
/// example has "Anhalt 1 and the artillery" in clear terrain (not a redoubt).
pub fn rules_with_allied_gun() -> (Saxe, UnitIx) {
    let r = rules();
    let mut sc = (*r.sc).clone();
    let g = sc.unit_by_id("contades-art-1309").expect("gun");
    let w = sc
        .formations
        .iter()
        .position(|f| f.id == "wutginau")
        .expect("wutginau") as FormationIx;
    sc.units[usize::from(g)].side = Side::Allies;
    sc.units[usize::from(g)].formation = Some(w);
    let r2 = Saxe {
        sc: Arc::new(sc),
        options: r.options.clone(),
        edition: r.edition,
    };
    (r2, g)
}

/// A hex from its printed id.
pub fn hx(id: &str) -> HexId {
    id.parse().expect("hex id")
}

/// Follow directions from a hex.
pub fn go(h: HexId, dirs: &[Dir]) -> HexId {
    dirs.iter()
        .fold(h, |x, &d| x.neighbour(d).expect("printable neighbour"))
}

/// `n` hexes from `h` in direction `d`.
pub fn ahead(h: HexId, d: Dir, n: usize) -> HexId {
    (0..n).fold(h, |x, _| x.neighbour(d).expect("printable neighbour"))
}

/// Unit index by id.
pub fn unit(r: &Saxe, id: &str) -> UnitIx {
    r.sc.unit_by_id(id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// Commander index by id.
pub fn cmdr(r: &Saxe, id: &str) -> CommanderIx {
    r.sc.commanders
        .iter()
        .position(|c| c.id == id)
        .unwrap_or_else(|| panic!("no commander {id}")) as CommanderIx
}

/// Formation index by id.
pub fn formation(r: &Saxe, id: &str) -> FormationIx {
    r.sc.formations
        .iter()
        .position(|f| f.id == id)
        .unwrap_or_else(|| panic!("no formation {id}")) as FormationIx
}

/// A game at its first decision (turn 1, French active, choosing an activation) with every unit
/// and commander taken off the map and every flag cleared.
pub fn empty_board(r: &Saxe) -> State {
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    assert_eq!(s.phase, Phase::ChooseActivation);
    for u in s.units.iter_mut() {
        u.hex = None;
        u.flags = 0;
        u.lost = 0;
        u.order = 0;
        u.facing = Vertex::N;
    }
    for c in s.commanders.iter_mut() {
        c.hex = None;
        c.flipped = false;
    }
    for f in s.formations.iter_mut() {
        f.tested = false;
        f.demoralised = false;
    }
    s.frames.clear();
    s
}

/// Put a unit on the map (at the bottom of any stack there).
pub fn place(r: &Saxe, s: &mut State, id: &str, h: HexId, facing: Vertex) -> UnitIx {
    let u = unit(r, id);
    let n = s.units.iter().filter(|x| x.hex == Some(h)).count() as u8;
    let us = &mut s.units[usize::from(u)];
    us.hex = Some(h);
    us.facing = facing;
    us.order = n;
    u
}

/// Put a commander on the map.
pub fn place_cmdr(r: &Saxe, s: &mut State, id: &str, h: HexId) -> CommanderIx {
    let c = cmdr(r, id);
    s.commanders[usize::from(c)].hex = Some(h);
    c
}

/// Whether a hex is on the map, clear and at level 0.
pub fn plain(r: &Saxe, h: HexId) -> bool {
    r.sc.map.contains(h) && r.sc.map.terrain(h) == Terrain::Clear && r.sc.map.level(h) == 0
}

/// Centres of blocks of plain hexes: every hex within `radius` is clear, at level 0, and no
/// hexside between two of them carries a feature (stream, river, road, trail, bridge). Abattis
/// hexes are avoided. Sorted by hex id.
pub fn clear_areas(r: &Saxe, radius: u32) -> Vec<HexId> {
    let map = &r.sc.map;
    let mut out = Vec::new();
    for c in map.hexes() {
        let block: Vec<HexId> = map.hexes().filter(|h| h.distance(c) <= radius).collect();
        let expected = 3 * radius * (radius + 1) + 1;
        if block.len() as u32 != expected {
            continue;
        }
        if !block
            .iter()
            .all(|&h| plain(r, h) && !r.sc.abattis.contains(&h))
        {
            continue;
        }
        let sides_ok = block.iter().all(|&a| {
            a.neighbours()
                .filter(|(_, b)| block.contains(b))
                .all(|(_, b)| map.side(a, b) == 0)
        });
        if sides_ok {
            out.push(c);
        }
    }
    out
}

/// The first block of plain hexes of this radius.
pub fn clear_area(r: &Saxe, radius: u32) -> HexId {
    *clear_areas(r, radius)
        .first()
        .unwrap_or_else(|| panic!("no clear area of radius {radius}"))
}

/// Dice whose first rolls are exactly `rolls` (found by trying seeds).
pub fn dice_rolling(rolls: &[u8]) -> Dice {
    for seed in 0..1_000_000u64 {
        let d = Dice::new(seed);
        let mut t = d.clone();
        if rolls.iter().all(|&x| t.d6() == x) {
            return d;
        }
    }
    panic!("no seed rolls {rolls:?}");
}

/// Ids of the legal actions now.
pub fn ids(r: &Saxe, s: &State) -> Vec<String> {
    r.legal(s).iter().map(|a| r.action_id(a)).collect()
}

/// Apply an action by id (panics with the legal ids if it is not legal); returns its events.
pub fn act(r: &Saxe, s: &mut State, id: &str) -> Vec<Event> {
    let mut ev = Vec::new();
    if let Err(e) = r.apply_id(s, id, &mut ev) {
        panic!("{id} refused ({e}); legal: {:?}", ids(r, s));
    }
    ev
}

/// The die-roll events of a rule (the `rule` field starts with `prefix`).
pub fn rolls_of<'a>(ev: &'a [Event], prefix: &str) -> Vec<&'a Event> {
    ev.iter()
        .filter(|e| matches!(e, Event::Roll { rule, .. } if rule.starts_with(prefix)))
        .collect()
}

/// The modifiers of a roll event.
pub fn mods_of(e: &Event) -> Vec<(String, i32)> {
    match e {
        Event::Roll { mods, .. } => mods.clone(),
        Event::Rule { .. } => Vec::new(),
    }
}

/// Whether any event's text contains `needle`.
pub fn logged(ev: &[Event], needle: &str) -> bool {
    ev.iter().any(|e| e.to_string().contains(needle))
}

/// Start the combat phase of the active side with no frame pending.
pub fn combat_phase(s: &mut State, side: Side) {
    s.active = side;
    s.phase = Phase::Combat;
    s.frames.clear();
    s.attacked_hexes.clear();
}

/// Activate a French formation automatically (16.1, first turn) and stop at its first decision.
pub fn activate_auto(r: &Saxe, s: &mut State, formation_id: &str) -> Vec<Event> {
    s.turn = 1;
    s.active = Side::French;
    s.second = false;
    s.auto_used = false;
    s.phase = Phase::ChooseActivation;
    s.frames.clear();
    act(r, s, &format!("activate-auto:{formation_id}"))
}

/// The activation frame on top, if any.
pub fn top_activation(s: &State) -> Option<&saxe::state::Activation> {
    match s.frames.last() {
        Some(Frame::Activation(a)) => Some(a),
        _ => None,
    }
}

/// The moving group on top, if any.
pub fn top_moving(s: &State) -> Option<&saxe::state::Moving> {
    match s.frames.last() {
        Some(Frame::Moving(m)) => Some(m),
        _ => None,
    }
}

/// A facing whose front hexes include the neighbour in direction `d` (the vertex clockwise of
/// that hexside).
pub fn facing_toward(d: Dir) -> Vertex {
    Vertex::from_index(d.index())
}

/// An adjacent pair (from, to) with no hexside feature, `to` of terrain `t` at a level not above
/// `from`'s, `from` accepted by `from_ok`.
pub fn pair_into(r: &Saxe, t: Terrain, from_ok: impl Fn(HexId) -> bool) -> (HexId, HexId, Dir) {
    let map = &r.sc.map;
    for a in map.hexes() {
        if !from_ok(a) {
            continue;
        }
        for (d, b) in a.neighbours() {
            if map.contains(b)
                && map.terrain(b) == t
                && map.side(a, b) == 0
                && map.level(b) <= map.level(a)
                && !r.sc.abattis.contains(&b)
            {
                return (a, b, d);
            }
        }
    }
    panic!("no pair into {t:?}");
}

/// The ruleset with extra map data appended to the built-in `map.toml` (later `[[hexes]]` and
/// `[[levels]]` entries override earlier ones), to build a position the real map does not offer.
pub fn rules_with_map(extra: &str) -> Saxe {
    let mut files = saxe::battle_files("hastenbeck", None).expect("built-in files");
    files.map.push('\n');
    files.map.push_str(extra);
    let sc = saxe::scenario::Scenario::build(&files, "hastenbeck").expect("scenario builds");
    Saxe {
        sc: Arc::new(sc),
        options: Default::default(),
        edition: saxe::Edition::Hastenbeck,
    }
}

/// `[[hexes]]` text giving these hexes a terrain (for [`rules_with_map`]).
pub fn terrain_toml(hexes: &[HexId], terrain: &str) -> String {
    let ids: Vec<String> = hexes.iter().map(|h| format!("\"{h}\"")).collect();
    format!(
        "[[hexes]]\nids = [{}]\nterrain = \"{terrain}\"\nreconstructed = \"test position\"\n",
        ids.join(", ")
    )
}

/// `[[levels]]` text giving these hexes a level (for [`rules_with_map`]).
pub fn level_toml(hexes: &[HexId], level: u8) -> String {
    let ids: Vec<String> = hexes.iter().map(|h| format!("\"{h}\"")).collect();
    format!(
        "[[levels]]\nids = [{}]\nlevel = {level}\nreconstructed = \"test position\"\n",
        ids.join(", ")
    )
}

/// Follow directions from a hex, `None` if it leaves the printable range.
pub fn go_checked(h: HexId, dirs: &[Dir]) -> Option<HexId> {
    dirs.iter().try_fold(h, |x, &d| x.neighbour(d))
}

/// The first hex `x` such that every hex reached from it by one of `paths` is on the map and
/// accepted by `ok`, and `extra(x)` holds.
pub fn site(
    r: &Saxe,
    paths: &[&[Dir]],
    ok: impl Fn(HexId) -> bool,
    extra: impl Fn(HexId) -> bool,
) -> HexId {
    for x in r.sc.map.hexes() {
        let hexes: Option<Vec<HexId>> = paths.iter().map(|p| go_checked(x, p)).collect();
        let Some(hexes) = hexes else { continue };
        if hexes.iter().all(|&h| r.sc.map.contains(h) && ok(h)) && extra(x) {
            return x;
        }
    }
    panic!("no site for the pattern");
}

/// The combat record `declare_attack` builds for these hexes (declared on a copy of the state),
/// for `combat_modifiers`.
pub fn combat_of(r: &Saxe, s: &State, att: &[HexId], def: &[HexId]) -> saxe::state::Combat {
    let mut t = s.clone();
    let mut ev = Vec::new();
    r.declare_attack(&mut t, att, def, &mut ev);
    match t.frames.last() {
        Some(Frame::Combat(c)) => c.clone(),
        other => panic!("no combat declared: {other:?}"),
    }
}

/// The value of the first modifier whose reason starts with `prefix`.
pub fn modifier(mods: &[(String, i32)], prefix: &str) -> Option<i32> {
    mods.iter()
        .find(|(w, _)| w.starts_with(prefix))
        .map(|(_, v)| *v)
}

/// An adjacent pair (from, to) with no hexside feature, `to` of terrain `t` (any levels), `from`
/// accepted by `from_ok`.
pub fn pair_next_to(r: &Saxe, t: Terrain, from_ok: impl Fn(HexId) -> bool) -> (HexId, HexId, Dir) {
    let map = &r.sc.map;
    for a in map.hexes() {
        if !from_ok(a) {
            continue;
        }
        for (d, b) in a.neighbours() {
            if map.contains(b)
                && map.terrain(b) == t
                && map.side(a, b) == 0
                && !r.sc.abattis.contains(&b)
            {
                return (a, b, d);
            }
        }
    }
    panic!("no pair next to {t:?}");
}

/// A battle's built-in data edited as a player edits a `--data-dir` copy: only the units of `keep`
/// stay in `oob.toml` (with their set-up, reinforcement and column-entry lines), the set-up lines of
/// `units` (id, hex, facing) and `commanders` (id, hex) of scenario `scenario_id` are moved. `keep`
/// empty keeps every unit.
pub fn edited_battle(
    battle: &str,
    scenario_id: &str,
    keep: &[&str],
    units: &[(&str, &str, &str)],
    commanders: &[(&str, &str)],
) -> Saxe {
    /// Split a TOML text into blocks, each starting at a table header line.
    fn blocks(text: &str) -> Vec<String> {
        let mut out: Vec<String> = vec![String::new()];
        for line in text.lines() {
            if line.starts_with('[') {
                out.push(String::new());
            }
            let last = out.last_mut().expect("one block at least");
            last.push_str(line);
            last.push('\n');
        }
        out
    }
    /// The string value of `key = "…"` in a block.
    fn field<'a>(b: &'a str, key: &str) -> Option<&'a str> {
        b.lines().find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"'))
        })
    }
    /// The block with `key = value` lines replaced (and `drop` lines removed).
    fn set(b: &str, changes: &[(&str, &str)], drop: &[&str]) -> String {
        let mut out = String::new();
        for l in b.lines() {
            let k = l.split_once('=').map(|(k, _)| k.trim());
            if let Some(k) = k
                && drop.contains(&k)
            {
                continue;
            }
            match changes.iter().find(|(c, _)| Some(*c) == k) {
                Some((c, v)) => out.push_str(&format!("{c} = \"{v}\"\n")),
                None => {
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
        out
    }
    let kept = |id: &str| keep.is_empty() || keep.contains(&id);
    let mut files = saxe::battle_files(battle, None).expect("built-in data");
    files.oob = blocks(&files.oob)
        .into_iter()
        .filter(|b| !b.starts_with("[[units]]") || field(b, "id").is_some_and(kept))
        .collect();
    for (id, text) in files.scenarios.iter_mut() {
        *text = blocks(text)
            .into_iter()
            .filter(|b| {
                !(b.starts_with("[[setup]]") || b.starts_with("[[reinforcements]]"))
                    || field(b, "unit").is_some_and(kept)
            })
            .map(|b| {
                if id != scenario_id {
                    return b;
                }
                if b.starts_with("[[setup]]")
                    && let Some(&(_, h, f)) = units.iter().find(|u| Some(u.0) == field(&b, "unit"))
                {
                    return set(&b, &[("hex", h), ("facing", f)], &["zone"]);
                }
                if b.starts_with("[[commander_setup]]")
                    && let Some(&(_, h)) = commanders
                        .iter()
                        .find(|c| Some(c.0) == field(&b, "commander"))
                {
                    return set(&b, &[("hex", h)], &[]);
                }
                b
            })
            .collect();
    }
    let sc = saxe::scenario::Scenario::build(&files, scenario_id)
        .unwrap_or_else(|e| panic!("edited {scenario_id} does not build: {e:?}"));
    let edition = sc.edition;
    Saxe {
        sc: Arc::new(sc),
        options: saxe::state::Options::default(),
        edition,
    }
}

/// A game of `r` from seed `seed` after the action ids `ids` (each must be legal).
pub fn played(r: &Saxe, seed: u64, actions: &[&str]) -> (State, Vec<Event>) {
    let mut ev = Vec::new();
    let mut s = r.start(seed, &mut ev);
    for a in actions {
        ev.extend(act(r, &mut s, a));
    }
    (s, ev)
}
