//! Movement (11.0) with facing (9.0) and formation changes (8.0): the movement phase of an
//! activation. The active player picks a unit or a stack of activated units (11.1b), then moves it
//! one decision at a time: a step into a front hex (11.1a, 11.3), a backward step (11.7, 11.8),
//! a facing change (9.3–9.5), a wheel (9.4b) or a column's turn (9.4a), a formation change (8.4,
//! `formation::changes`), a reversal (9.6), or stop. Every facing or formation change and every
//! step out of a hex is a point where the reactive player may answer (12.8c–e, 17.0): asked only
//! when one of his units could; in this package he may only pass. At the end of the unit's
//! movement its stack must be legal (10.1) and the movement actions disorder check (A) is rolled
//! (18.2b) for it and for the stacks it passed through (10.7a).
use crate::action::Action;
use crate::checks::{self, Spec};
use crate::command::HexSet;
use crate::data::Arm;
use crate::event::Event;
use crate::formation::{self, Budget};
use crate::geom::{Facing, FacingExt as _, Formation, footprint_kind, footprint_of};
use crate::scenario::{LeaderIx, Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::{Phase, State};
use engine::{Half, drop_fraction, round_half_up};
use hexmap::{Arc, Dir, End, Footprint, FootprintKind, HexId, Printed};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// A unit or stack on the move, between the player's decisions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Mover {
    /// The moving units (one stack, 11.1b), top first.
    pub units: Vec<UnitIx>,
    /// Its side.
    pub side: u8,
    /// This phase's MA (11.0: halved when disordered or out of command, +50% in a rapid march).
    pub ma: Half,
    /// MPs left.
    pub left: Half,
    /// It has spent MPs (8.7, 9.6a, 11.4a).
    pub spent: bool,
    /// It declared a rapid march (11.4).
    pub rapid: bool,
    /// It moved backward (11.7b, c).
    pub backward: bool,
    /// Its last step's direction, for oblique movement (11.3).
    pub last_step: Option<Dir>,
    /// Hexes it entered.
    pub path: Vec<HexId>,
    /// Its hexes when it started.
    pub start: Vec<HexId>,
    /// Movement action DC (A) modifiers earned so far (18.2b): keys of the chart's case A.
    pub dc_a: Vec<String>,
    /// DC (A) terrain entered or crossed by its last expense: it counts only if it spends more
    /// (11.2d).
    pub pending: u8,
    /// Friendly units it passed through (10.7a): they test too.
    pub passed: Vec<UnitIx>,
    /// Friendly units in the hexes it is in now that are not moving (for 10.7: entered, and
    /// interpenetration counted when it leaves).
    pub among: Vec<UnitIx>,
    /// It changed facing or formation in its present hex (10.7b).
    pub turned_here: bool,
    /// Hexes where a facing/formation change already gave the reactive player his chance
    /// (12.8c, e: once per hex).
    pub change_asked: Vec<HexId>,
    /// It must end its movement now (8.2b, 8.4i, 8.7, 9.6a, 7.6c, 18.2c).
    pub must_stop: bool,
    /// Why it must stop.
    pub stop_why: String,
    /// It must first adopt a formation in the hex it entered (8.4i: leaving general order).
    pub adopt: bool,
    /// Restricted by an out-of-command leader (7.6c) or itself out of command (7.6d).
    pub restricted: bool,
    /// Its hexes, facing and formation before its last action: the aspect an opportunity fire
    /// after a change may choose instead of the new one (12.8c).
    #[serde(default)]
    pub before: Option<(Hexes, Facing, Formation)>,
    // pursuit (16) / opportunity charge (17)
    /// Reactive cavalry that made an opportunity charge at it this phase (17.1d: once per enemy).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub charged_by: Vec<UnitIx>,
    /// The option taken against it as a separating stack (17.2d: the same for every charge it
    /// causes): `true` the original stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_option: Option<bool>,
    // breakdown and reformation (8.5)
    /// A breakdown or reformation just made (8.5a–b): once the reactive player has answered
    /// (12.8, 17.0) the phase goes back to choosing what moves; the units have spent nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free: bool,
}

impl PartialEq for Mover {
    fn eq(&self, o: &Self) -> bool {
        use crate::state::same;
        let Mover {
            units,
            side,
            ma,
            left,
            spent,
            rapid,
            backward,
            last_step,
            path,
            start,
            dc_a,
            pending,
            passed,
            among,
            turned_here,
            change_asked,
            must_stop,
            stop_why,
            adopt,
            restricted,
            before,
            charged_by,
            charge_option,
            free,
        } = self;
        same(units, &o.units)
            && *side == o.side
            && *ma == o.ma
            && *left == o.left
            && *spent == o.spent
            && *rapid == o.rapid
            && *backward == o.backward
            && *last_step == o.last_step
            && same(path, &o.path)
            && same(start, &o.start)
            && same(dc_a, &o.dc_a)
            && *pending == o.pending
            && same(passed, &o.passed)
            && same(among, &o.among)
            && *turned_here == o.turned_here
            && same(change_asked, &o.change_asked)
            && *must_stop == o.must_stop
            && same(stop_why.as_bytes(), o.stop_why.as_bytes())
            && *adopt == o.adopt
            && *restricted == o.restricted
            && *before == o.before
            && same(charged_by, &o.charged_by)
            && *charge_option == o.charge_option
            && *free == o.free
    }
}

/// What the reactive player is asked about (12.8c–d, 17.0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Trigger {
    /// A facing or formation change completed in these hexes (12.8c).
    Change(Hexes),
    /// The mover is about to leave these hexes by `action` (12.8d).
    Leave(Hexes),
}

/// The units and leaders of the activation that may still begin to move.
pub fn movable(sc: &Scenario, st: &State) -> (Vec<UnitIx>, Vec<LeaderIx>) {
    let Some(act) = &st.activation else {
        return (Vec::new(), Vec::new());
    };
    let mut units: Vec<UnitIx> = act
        .units
        .iter()
        .chain(&act.attached)
        .chain(&act.independents)
        .chain(&act.arriving)
        .copied()
        .filter(|&u| {
            let s = &st.units[usize::from(u)];
            st.on_map(u) && !s.routed && !act.moved.contains(&u) && can_start(sc, st, u)
        })
        .collect();
    units.sort_unstable();
    units.dedup();
    let leaders = crate::activation::active_leaders(sc, st, act)
        .into_iter()
        .filter(|&l| {
            let s = &st.leaders[usize::from(l)];
            s.hex.is_some() && !act.moved_leaders.contains(&l)
        })
        .collect();
    (units, leaders)
}

/// 6.8b: in a limited activation only a road column on the road moves.
fn can_start(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let limited = st.activation.as_ref().is_some_and(|a| a.limited);
    let s = &st.units[usize::from(u)];
    if limited {
        return s.formation == Formation::RoadColumn && on_road(sc, &s.hexes);
    }
    true
}

/// Whether every hex is a road hex and consecutive hexes are linked by the road (6.8b, 9.4a).
fn on_road(sc: &Scenario, hexes: &[HexId]) -> bool {
    hexes.iter().all(|&h| sc.board.is_road_hex(h))
        && hexes.windows(2).all(|w| sc.board.road(w[0], w[1]))
}

/// The activated units stacked with `u` (same hexes) that may move with it.
pub fn stack_of(sc: &Scenario, st: &State, u: UnitIx) -> Vec<UnitIx> {
    stack_among(st, &movable(sc, st).0, u)
}

/// [`stack_of`] among the `movable` units already found.
fn stack_among(st: &State, movable: &[UnitIx], u: UnitIx) -> Vec<UnitIx> {
    let me = &st.units[usize::from(u)];
    // 11.1b, 10.12a: a stack moves together when its units share hexes, formation and facing.
    let mut v: Vec<UnitIx> = movable
        .iter()
        .copied()
        .filter(|&x| {
            let s = &st.units[usize::from(x)];
            s.hexes == me.hexes && s.formation == me.formation && s.facing == me.facing
        })
        .collect();
    v.sort_by_key(|&x| st.units[usize::from(x)].order);
    v
}

/// All combat units (either side, not eliminated) in a hex.
fn units_in(st: &State, h: HexId) -> Vec<UnitIx> {
    st.units
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.eliminated && s.hexes.contains(&h))
        .map(|(i, _)| i as UnitIx)
        .collect()
}

/// Whether a combat unit (either side, not eliminated) for which `pick` holds is in a hex
/// ([`units_in`] without the list).
fn any_unit_in(st: &State, h: HexId, pick: impl Fn(UnitIx) -> bool) -> bool {
    st.units
        .iter()
        .enumerate()
        .any(|(i, s)| !s.eliminated && s.hexes.contains(&h) && pick(i as UnitIx))
}

/// The phase begins: the active player picks what moves, or nothing can move.
pub fn begin(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    let (units, leaders) = movable(sc, st);
    if units.is_empty() && leaders.is_empty() {
        if let Some(act) = &st.activation {
            ev.push(Event::Movement {
                army: sc.armies[usize::from(act.side)].name.clone(),
                text: "nothing of this activation can move".into(),
                rule: "11.0".into(),
            });
        }
        return Phase::AfterMovement;
    }
    Phase::Movement
}

/// The printed MA of a stack: the lowest (8.1a).
fn printed_ma(sc: &Scenario, units: &[UnitIx]) -> u8 {
    units
        .iter()
        .map(|&u| sc.units[usize::from(u)].ma)
        .min()
        .unwrap_or(0)
}

/// Whether a unit is restricted by command (7.6c–d): itself out of command, or its brigade
/// leader out of command and not automatically in command (7.5).
fn restricted(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let s = &st.units[usize::from(u)];
    if s.ooc {
        return true;
    }
    let Some(b) = sc.units[usize::from(u)].brigade else {
        return false;
    };
    let bl = crate::command::holder(st, sc.brigades[usize::from(b)].leader);
    bl.is_some_and(|l| st.leaders[usize::from(l)].ooc)
        && !crate::command::automatically_in_command(sc, st, u)
}

/// 22.4: reinforcements arriving in this activation pay the terrain cost of their entry hex (the
/// hex they were placed on, `reinforcements::arrive`) out of their full MA. `None` for others.
fn entry_cost(sc: &Scenario, st: &State, units: &[UnitIx]) -> Option<Half> {
    let act = st.activation.as_ref()?;
    let &u = units.iter().find(|u| act.arriving.contains(u))?;
    let s = &st.units[usize::from(u)];
    let h = *s.hexes.first()?;
    let row = sc.board.tec_row(h)?;
    row.mp(column_costs(s.formation)).points()
}

/// "(6 MP)", or "(6 MP, 1 of them to enter the map, 22.4)".
fn begins(m: &Mover) -> String {
    if m.left < m.ma {
        format!(
            "({} MP, {} of them to enter the map, 22.4)",
            m.ma,
            m.ma.saturating_sub(m.left)
        )
    } else {
        format!("({} MP)", m.ma)
    }
}

/// Start moving `units` (one stack).
/// 10.8d: a multi-hex line or march column whose units move apart adjusts its length "at the
/// instant the moving unit(s) leave", free: the `moving` units and the ones they leave behind each
/// contract to the longest footprint their own SPs fill (keeping the line's right end, the
/// column's head: `stacking::after_separation`). Done when the moving units are chosen (10.8a:
/// the separation is decided then), so that the mover's moves are listed from the footprint it
/// moves with; a mover that then does not move stays contracted with the others in one hex (10.8
/// example: "each unit will adapt automatically and immediately", docs/bar-formations.md).
fn separate(sc: &Scenario, st: &mut State, moving: &[UnitIx], ev: &mut Vec<Event>) {
    let Some(&u0) = moving.first() else { return };
    let hexes = st.units[usize::from(u0)].hexes;
    let side = sc.units[usize::from(u0)].side;
    if hexes.len() < 2 {
        return;
    }
    let rest: Vec<UnitIx> = st
        .units
        .iter()
        .enumerate()
        .filter(|&(i, s)| {
            !s.eliminated
                && s.hexes == hexes
                && sc.units[i].side == side
                && !moving.contains(&(i as UnitIx))
        })
        .map(|(i, _)| i as UnitIx)
        .collect();
    if rest.is_empty() {
        return;
    }
    let mut moved = Vec::new();
    for group in [moving.to_vec(), rest] {
        if let Some(short) = crate::stacking::after_separation(sc, st, &group) {
            for &u in &group {
                st.units[usize::from(u)].hexes = Hexes::from(&short[..]);
            }
            moved.push((group, short));
        }
    }
    for (group, short) in moved {
        ev.push(Event::Movement {
            army: sc.armies[usize::from(side)].name.clone(),
            text: format!(
                "{} separate{} from {}: contract{} at once, free, from {} to {}",
                names(sc, &group).join(", "),
                if group.len() == 1 { "s" } else { "" },
                if group.iter().any(|u| moving.contains(u)) {
                    "the units staying"
                } else {
                    "the moving units"
                },
                if group.len() == 1 { "s" } else { "" },
                hex_list(sc, &hexes),
                hex_list(sc, &short)
            ),
            rule: "10.8d".into(),
        });
    }
}

/// Hexes for people: `0606-0605`.
fn hex_list(sc: &Scenario, hexes: &[HexId]) -> String {
    sc.board.labels(hexes, "-").to_string()
}

fn start(sc: &Scenario, st: &State, units: Vec<UnitIx>) -> Mover {
    let side = sc.units[usize::from(units[0])].side;
    let ma = u32::from(printed_ma(sc, &units));
    let slowed = units.iter().any(|&u| {
        let s = &st.units[usize::from(u)];
        s.disordered || s.ooc
    });
    // 11.0, 7.6f: halved (rounded) once, whether disordered, out of command or both.
    let ma = if slowed { round_half_up(ma, 2) } else { ma };
    let restricted = units.iter().any(|&u| restricted(sc, st, u));
    let hexes = st.units[usize::from(units[0])].hexes;
    let among = hexes
        .iter()
        .flat_map(|&h| units_in(st, h))
        .filter(|x| !units.contains(x))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect::<Vec<_>>();
    let mut among = among;
    among.sort_unstable();
    let entry = entry_cost(sc, st, &units);
    Mover {
        side,
        ma: Half::whole(ma as u16),
        left: Half::whole(ma as u16).saturating_sub(entry.unwrap_or(Half::ZERO)),
        spent: entry.is_some(),
        units,
        rapid: false,
        backward: false,
        last_step: None,
        path: Vec::new(),
        start: hexes.to_vec(),
        dc_a: Vec::new(),
        pending: 0,
        passed: Vec::new(),
        among,
        turned_here: false,
        change_asked: Vec::new(),
        must_stop: false,
        stop_why: String::new(),
        adopt: false,
        restricted,
        before: None,
        // pursuit (16) / opportunity charge (17)
        charged_by: Vec::new(),
        charge_option: None,
        free: false,
    }
}

/// The mover's lead unit state (all units of a moving stack share hexes, facing, formation).
fn lead<'a>(st: &'a State, m: &Mover) -> &'a crate::state::UnitState {
    &st.units[usize::from(m.units[0])]
}

/// The army key of the mover (T10 by army).
fn army_key<'a>(sc: &'a Scenario, m: &Mover) -> &'a str {
    &sc.armies[usize::from(m.side)].id
}

/// The arm of the stack's lead unit.
fn arm(sc: &Scenario, m: &Mover) -> Arm {
    sc.units[usize::from(m.units[0])].arm
}

/// Column formations pay the column costs of the TEC (11.2g).
fn column_costs(f: Formation) -> bool {
    matches!(
        f,
        Formation::AttackColumn
            | Formation::MarchColumn
            | Formation::RoadColumn
            | Formation::Limbered
    )
}

/// The cost of one hex of the footprint entering `to` from `from` (11.2a–c, f, g): the hex and
/// the hexside, each +`extra` (hook 11.2f, oblique 11.3b, backward 11.7a); `None` if prohibited.
/// Returns (hex cost, hexside cost, DC (A) terrain count).
fn enter(
    sc: &Scenario,
    a: Arm,
    f: Formation,
    from: HexId,
    to: HexId,
    extra: Half,
) -> Option<(Half, Half, u8)> {
    let tec = &sc.charts.tec;
    let row = sc.board.tec_row(to)?;
    if row.prohibited.contains(&a) {
        return None;
    }
    let mut dc = u8::from(row.dc_a);
    let hex = row.mp(column_costs(f)).points()? + extra;
    let side = match sc.board.hexside(from, to) {
        Some(k) => {
            let hs = tec.hexside.get(k)?;
            if hs.prohibited.contains(&a) {
                return None;
            }
            dc += u8::from(hs.dc_a);
            let c = if column_costs(f) {
                hs.mp_column
            } else {
                hs.mp_line
            };
            let p = c.points()?;
            if p > Half::ZERO { p + extra } else { p }
        }
        None => Half::ZERO,
    };
    Some((hex, side, dc))
}

/// The price of moving a footprint to `next` (each hex of `next` entered from the hex of the same
/// index in `now`): a line pays its costliest hex (8.1a), a column its costliest hex once and every
/// hexside each of its parts crosses (8.1d); a road column along the road pays the road (11.2c).
fn footprint_cost(
    sc: &Scenario,
    a: Arm,
    f: Formation,
    now: &[HexId],
    next: &[HexId],
    extra: Half,
) -> Option<(Half, u8)> {
    if f == Formation::RoadColumn
        && now
            .iter()
            .zip(next)
            .all(|(&x, &y)| x == y || sc.board.road(x, y))
        && on_road(sc, next)
    {
        let road = &sc.charts.tec.road;
        return Some((road.mp_road_column, 0));
    }
    let mut worst = Half::ZERO;
    let mut sides = Half::ZERO;
    let mut dc = 0u8;
    let mut side_max = Half::ZERO;
    for (&x, &y) in now.iter().zip(next) {
        if x == y {
            continue;
        }
        let (h, s, d) = enter(sc, a, f, x, y, extra)?;
        worst = worst.max(h);
        sides += s;
        side_max = side_max.max(s);
        dc = dc.max(d);
    }
    // A line pays its costliest part (hex and hexside together, 8.1a); a column its costliest
    // hex and every hexside crossed (8.1d).
    let cost = if column_costs(f) && footprint_kind(f) != FootprintKind::Line {
        worst + sides
    } else {
        worst + side_max
    };
    Some((cost, dc))
}

/// Whether a march column (or limbered battery) is straight: every hex directly behind the one
/// ahead of it, in the head's facing (9.4: multi-hex formations end the phase in a straight line;
/// road columns may bend).
fn straight(f: Formation, hexes: &[HexId], facing: Facing) -> bool {
    if !matches!(f, Formation::MarchColumn | Formation::Limbered) || hexes.len() < 2 {
        return true;
    }
    let Facing::Side(d) = facing else {
        return true;
    };
    hexes.windows(2).all(|w| w[1].direction_to(w[0]) == Some(d))
}

/// The cost of the straight advances a bent column needs to end straight (9.4a: each hex
/// turns where the head turned), if it can make them as its steps are allowed (`open_moves`):
/// +1 entering an EZOC (9.1), none into one for guns (11.9b) or an out-of-command unit that has
/// spent MPs (7.6c), never into an enemy (10.1b), through friends only with the MPs to go on and
/// ending only where it makes a legal stack (10.1a), all within `left`.
fn straighten_cost(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    z: &HexSet<'_>,
    fp: &Footprint<HexId>,
    left: Half,
) -> Option<Half> {
    let (a, f) = (arm(sc, m), lead(st, m).formation);
    let mut now = fp.clone();
    let mut total = Half::ZERO;
    // At most the column's length and as many steps again to pass through friends.
    for _ in 0..=2 * fp.len() {
        if straight(f, now.hexes(), now.facing()) {
            let others = now
                .hexes()
                .iter()
                .any(|&h| any_unit_in(st, h, |u| !m.units.contains(&u)));
            if !others {
                return Some(total);
            }
            let mut t = st.clone();
            place(&mut t, m, now.hexes(), now.facing());
            if stack_legal(sc, &t, m) {
                return Some(total);
            }
        }
        let next = now.advanced(&Printed, 0).ok()?;
        let (c, _) = footprint_cost(sc, a, f, now.hexes(), next.hexes(), Half::ZERO)?;
        let entering = next
            .hexes()
            .iter()
            .any(|h| z.contains(h) && !now.hexes().contains(h));
        if entering && (a == Arm::Artillery || m.restricted) {
            return None;
        }
        if enemy_at(sc, st, m.side, next.hexes()) {
            return None;
        }
        total += c + if entering { Half::ONE } else { Half::ZERO };
        if total > left {
            return None;
        }
        now = next;
    }
    None
}

/// Whether any of `hexes` is in an enemy ZOC of `side`'s enemy (9.1).
fn in_ezoc(ezoc: &HexSet<'_>, hexes: &[HexId]) -> bool {
    hexes.iter().any(|h| ezoc.contains(h))
}

/// Whether the hexes hold an enemy of `side` (10.1b).
fn enemy_at(sc: &Scenario, st: &State, side: u8, hexes: &[HexId]) -> bool {
    hexes
        .iter()
        .any(|&h| any_unit_in(st, h, |u| sc.units[usize::from(u)].side != side))
}

/// A candidate move of the footprint: the new hexes and facing, its cost and what it is.
#[derive(Clone, Debug)]
struct Move {
    action: Action,
    hexes: Vec<HexId>,
    facing: Facing,
    cost: Half,
    dc: u8,
    kind: MoveKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveKind {
    Step,
    Back,
    Turn,
    Reverse,
    /// One hex more (11.5).
    Extend,
    /// One hex less (11.5).
    Contract,
    /// One hex by prolonge (11.6).
    Prolonge,
}

/// The facing change cost of a single-hex formation per hexpoint or hexside (9.3a, T10).
fn facing_cost(
    sc: &Scenario,
    army: &str,
    f: Formation,
) -> Option<crate::charts::movement::ChangeCost> {
    let mv = sc.charts.movement.as_ref()?;
    mv.facing
        .get(army)?
        .get(crate::geom::chart_key(f))
        .map(|r| r.per_step)
}

/// A cost in whole-MA terms: `None` when the unit cannot pay.
fn price(c: crate::charts::movement::ChangeCost, steps: u16, m: &Mover) -> Option<(Half, bool)> {
    use crate::charts::movement::ChangeCost;
    match c {
        ChangeCost::Mp { base, per_hex } => {
            let mut total = Half::ZERO;
            for _ in 0..steps {
                total += base;
            }
            let _ = per_hex;
            Some((total, false))
        }
        ChangeCost::WholeMa => (!m.spent).then_some((m.ma, true)),
        ChangeCost::RemainingMa => Some((m.left, true)),
    }
}

/// The moves open to the mover now (steps, backward steps, facing changes, wheels, column
/// turns, reversal), with their costs, before the MPs and stacking are checked.
fn moves(sc: &Scenario, st: &State, m: &Mover) -> Vec<Move> {
    let us = lead(st, m);
    let f = us.formation;
    let a = arm(sc, m);
    let army = army_key(sc, m).to_string();
    let Some(fp) = footprint_of(us) else {
        return Vec::new();
    };
    let disordered = m.units.iter().any(|&u| st.units[usize::from(u)].disordered);
    let skirmisher = f == Formation::Skirmish;
    let mut out = Vec::new();
    let hook = matches!(f, Formation::HookLeft | Formation::HookRight);
    let hook_extra = if hook { Half::ONE } else { Half::ZERO };
    let label = |h: HexId| sc.board.label(h);
    // Square (8.1e) and general order (8.1h): one action only, handled apart.
    match f {
        Formation::Square => {
            if disordered || m.spent {
                return out;
            }
            let h = us.hexes[0];
            for d in Dir::ALL {
                let Some(n) = h.neighbour(d) else { continue };
                let clear = sc.board.tec_row(n).is_some_and(|r| !r.non_clear)
                    && sc.board.hexside(h, n).is_none();
                if !clear {
                    continue;
                }
                if let Some((c, dc)) = footprint_cost(sc, a, f, &[h], &[n], Half::ZERO) {
                    out.push(Move {
                        action: Action::Step(n),
                        hexes: vec![n],
                        facing: us.facing,
                        cost: c,
                        dc,
                        kind: MoveKind::Step,
                    });
                }
            }
            return out;
        }
        Formation::GeneralOrder => {
            if m.spent {
                return out;
            }
            let h = us.hexes[0];
            for d in Dir::ALL {
                let Some(n) = h.neighbour(d) else { continue };
                if let Some((c, dc)) = footprint_cost(sc, a, f, &[h], &[n], Half::ZERO) {
                    out.push(Move {
                        action: Action::Step(n),
                        hexes: vec![n],
                        facing: us.facing,
                        cost: c,
                        dc,
                        kind: MoveKind::Step,
                    });
                }
            }
            // 9.3b: one facing change in any direction for the whole MA.
            out.extend(whole_ma_turns(us, m));
            return out;
        }
        Formation::Unlimbered => {
            // 9.5: any of the six hexpoints for the whole MA (T10), not after firing in this
            // activation's fire phase (A25).
            if !m.spent && !fired(st, &m.units) {
                out.extend(whole_ma_turns(us, m));
            }
            out.extend(prolonge_steps(sc, st, m, disordered));
            return out;
        }
        _ => {}
    }
    let limited = st.activation.as_ref().is_some_and(|x| x.limited);
    // Steps into front hexes (11.1a).
    match fp.kind() {
        FootprintKind::Line => {
            if let Facing::Point(v) = us.facing {
                // 8.1b: a hook moves only into its 'MV' front hexes, read as the line's two front
                // hexes: its extra front hex (`geom::hook_hex`) is a front hex for ZOC, fire and
                // combat, never a step (docs/bar-formations.md, row 8.1b).
                let fronts = v.front();
                for d in fronts {
                    let Ok(next) = fp.shifted(&Printed, d) else {
                        continue;
                    };
                    // 11.3b: infantry in line or attack column stepping the same way twice.
                    let oblique = a == Arm::Infantry
                        && !skirmisher
                        && matches!(
                            f,
                            Formation::Line
                                | Formation::AttackColumn
                                | Formation::HookLeft
                                | Formation::HookRight
                        )
                        && m.last_step == Some(d);
                    let extra = hook_extra + if oblique { Half::ONE } else { Half::ZERO };
                    if let Some((c, dc)) = footprint_cost(sc, a, f, fp.hexes(), next.hexes(), extra)
                    {
                        out.push(Move {
                            action: Action::Step(next.hexes()[0]),
                            hexes: next.hexes().to_vec(),
                            facing: us.facing,
                            cost: c,
                            dc,
                            kind: MoveKind::Step,
                        });
                    }
                }
                // 11.7: backward, a line (not hook), not disordered, not in a rapid march.
                if f == Formation::Line && !disordered && !m.rapid && a != Arm::Artillery {
                    for d in v.rear() {
                        let Ok(next) = fp.shifted(&Printed, d) else {
                            continue;
                        };
                        if let Some((c, dc)) =
                            footprint_cost(sc, a, f, fp.hexes(), next.hexes(), Half::ONE)
                        {
                            out.push(Move {
                                action: Action::Back(next.hexes()[0]),
                                hexes: next.hexes().to_vec(),
                                facing: us.facing,
                                cost: c,
                                dc,
                                kind: MoveKind::Back,
                            });
                        }
                    }
                }
                // 11.8: a skirmisher steps back into a flank hex, +½.
                if skirmisher {
                    for d in v.flank() {
                        let Ok(next) = fp.shifted(&Printed, d) else {
                            continue;
                        };
                        if let Some((c, _)) =
                            footprint_cost(sc, a, f, fp.hexes(), next.hexes(), Half::HALF)
                        {
                            out.push(Move {
                                action: Action::Back(next.hexes()[0]),
                                hexes: next.hexes().to_vec(),
                                facing: us.facing,
                                cost: c,
                                dc: 0,
                                kind: MoveKind::Back,
                            });
                        }
                    }
                }
            }
        }
        FootprintKind::MarchColumn | FootprintKind::RoadColumn => {
            if let Ok(next) = fp.advanced(&Printed, 0)
                && let Some((c, dc)) =
                    footprint_cost(sc, a, f, fp.hexes(), next.hexes(), Half::ZERO)
                && (!limited || on_road(sc, next.hexes()))
            {
                out.push(Move {
                    action: Action::Step(next.hexes()[0]),
                    hexes: next.hexes().to_vec(),
                    facing: next.facing(),
                    cost: c,
                    dc,
                    kind: MoveKind::Step,
                });
            }
            // 9.4a: a multi-hex column turns its head and advances; the facing cost is paid once
            // (none for a road column along the road).
            if fp.len() > 1
                && let Some(per) = facing_cost(sc, &army, f)
            {
                // The EZOCs the straightening steps may enter (9.1), found once if needed.
                let mut z: Option<HexSet<'_>> = None;
                for turn in [-2, -1, 1, 2] {
                    let Ok(next) = fp.advanced(&Printed, turn) else {
                        continue;
                    };
                    let road = f == Formation::RoadColumn
                        && on_road(sc, next.hexes())
                        && fp
                            .hexes()
                            .iter()
                            .zip(next.hexes())
                            .all(|(&x, &y)| sc.board.road(x, y));
                    if limited && !road {
                        continue;
                    }
                    let Some((fc, _)) = price(per, turn.unsigned_abs() as u16, m) else {
                        continue;
                    };
                    let fc = if road { Half::ZERO } else { fc };
                    if let Some((c, dc)) =
                        footprint_cost(sc, a, f, fp.hexes(), next.hexes(), Half::ZERO)
                    {
                        // 9.4: a march column may turn only if it can be straight again by
                        // the end of the phase.
                        if f != Formation::RoadColumn {
                            let z = z.get_or_insert_with(|| ezoc(sc, st, m.side));
                            // The turn's own full cost: +1 if it enters an EZOC (9.1).
                            let into = next
                                .hexes()
                                .iter()
                                .any(|h| z.contains(h) && !fp.hexes().contains(h));
                            let turn_cost = fc + c + if into { Half::ONE } else { Half::ZERO };
                            if turn_cost > m.left
                                || straighten_cost(sc, st, m, z, &next, m.left - turn_cost)
                                    .is_none()
                            {
                                continue;
                            }
                        }
                        out.push(Move {
                            action: Action::ColumnTurn(turn as i8),
                            hexes: next.hexes().to_vec(),
                            facing: next.facing(),
                            cost: fc + c,
                            dc,
                            kind: MoveKind::Step,
                        });
                    }
                }
            }
        }
    }
    if limited {
        // 6.8b: a limited activation moves road columns along the road, nothing else.
        return out;
    }
    // 11.5: extension and contraction of a line, hook or march column not disordered.
    if !disordered {
        out.extend(resizes(sc, st, m, &fp, a, f));
    }
    // Facing changes of single-hex formations (9.3), wheels of lines (9.4b).
    if !hook && let Some(per) = facing_cost(sc, &army, f) {
        if fp.len() == 1 {
            let options: Vec<Facing> = match us.facing {
                Facing::Point(_) => hexmap::Vertex::ALL
                    .iter()
                    .map(|&v| Facing::Point(v))
                    .collect(),
                Facing::Side(_) => Dir::ALL.iter().map(|&d| Facing::Side(d)).collect(),
            };
            for nf in options {
                if nf == us.facing {
                    continue;
                }
                let steps = (us.facing.turn_to(nf).unsigned_abs() / 2) as u16;
                // 9.6: a turn about is a reversal, with its own conditions.
                if steps >= 3 {
                    continue;
                }
                if let Some((c, whole)) = price(per, steps, m) {
                    let _ = whole;
                    out.push(Move {
                        action: Action::Turn(nf),
                        hexes: us.hexes.to_vec(),
                        facing: nf,
                        cost: c,
                        dc: 0,
                        kind: MoveKind::Turn,
                    });
                }
            }
        } else if fp.kind() == FootprintKind::Line {
            for pivot in [End::Head, End::Tail] {
                for steps in [-2i32, -1, 1, 2] {
                    let Ok(w) = fp.wheeled(&Printed, pivot, steps) else {
                        continue;
                    };
                    // 9.4b: facing cost + 1 per hex the end enters + terrain of non-clear hexes
                    // entered and hexsides crossed by the moving hexes.
                    let Some((fc, _)) = price(per, steps.unsigned_abs() as u16, m) else {
                        continue;
                    };
                    let mut cost = fc + Half::whole(w.entered_by_end().len() as u16);
                    let mut dc = 0u8;
                    let mut ok = true;
                    for (i, path) in w.paths.iter().enumerate() {
                        let mut prev = fp.hexes()[i];
                        for &h in path {
                            match enter(sc, a, f, prev, h, Half::ZERO) {
                                Some((hc, sc2, d)) => {
                                    let nonclear = sc.board.tec_row(h).is_some_and(|r| r.non_clear);
                                    if nonclear {
                                        cost += hc;
                                    }
                                    cost += sc2;
                                    dc = dc.max(d);
                                }
                                None => ok = false,
                            }
                            prev = h;
                        }
                    }
                    if ok {
                        out.push(Move {
                            action: Action::Wheel(pivot, steps as i8),
                            hexes: w.footprint.hexes().to_vec(),
                            facing: w.footprint.facing(),
                            cost,
                            dc,
                            kind: MoveKind::Turn,
                        });
                    }
                }
            }
        }
    }
    // 9.6: reversal, the only action of the phase; not hooks, not disordered, no rapid march.
    if !m.spent
        && !disordered
        && !m.rapid
        && matches!(
            f,
            Formation::RoadColumn
                | Formation::MarchColumn
                | Formation::AttackColumn
                | Formation::Line
                | Formation::Limbered
        )
        && let Ok(r) = fp.reversed(&Printed)
    {
        out.push(Move {
            action: Action::Reverse,
            hexes: r.hexes().to_vec(),
            facing: r.facing(),
            cost: m.left,
            dc: 0,
            kind: MoveKind::Reverse,
        });
    }
    let _ = label;
    out
}

/// Extensions and contractions open to a line, hook or march column (11.5a): to a length its SPs
/// allow (8.1a, 8.1d: `formation::lengths`; the SPs are laid out again at once, 11.5g). A line
/// adds or gives up a hex at either end for 1 MP plus the terrain and hexside of the hex entered
/// (11.5c): the new hex, or the hex the end's troops move into; a hook does so only on the side
/// opposite its hook, a single hex extending and two contracting, every terrain cost +1 (11.5e).
/// A march column lengthens as its head moves one hex straight ahead while its tail stays (11.5d:
/// the hex is added at the rear for no MP beyond the head's normal movement cost), and contracts
/// by bringing its tail into the hex ahead, paying that hex's entry only.
fn resizes(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    fp: &Footprint<HexId>,
    a: Arm,
    f: Formation,
) -> Vec<Move> {
    let mut out = Vec::new();
    let lens = formation::lengths(sc, st, &m.units, f);
    let n = fp.len();
    let hexes = fp.hexes();
    // 8.2b: infantry may not stretch into general-order terrain (a single-hex formation there).
    let go = |h: HexId| a == Arm::Infantry && sc.board.tec_row(h).is_some_and(|r| r.general_order);
    let line = |ext: &[End], con: &[End], extra: Half, out: &mut Vec<Move>| {
        for &end in ext {
            if !lens.contains(&(n + 1)) {
                break;
            }
            let Ok(next) = fp.extended(&Printed, end) else {
                continue;
            };
            let Some(&new) = next.hexes().iter().find(|h| !hexes.contains(h)) else {
                continue;
            };
            let Some(from) = fp.end(end) else { continue };
            if go(new) {
                continue;
            }
            if let Some((hc, sc2, dc)) = enter(sc, a, f, from, new, extra) {
                out.push(Move {
                    action: Action::Extend(new),
                    hexes: next.hexes().to_vec(),
                    facing: next.facing(),
                    cost: Half::ONE + hc + sc2,
                    dc,
                    kind: MoveKind::Extend,
                });
            }
        }
        for &end in con {
            if n < 2 || !lens.contains(&(n - 1)) {
                break;
            }
            let Ok(next) = fp.contracted(&Printed, end) else {
                continue;
            };
            let (gone, into) = match end {
                End::Head => (hexes[0], hexes[1]),
                End::Tail => (hexes[n - 1], hexes[n - 2]),
            };
            if let Some((hc, sc2, dc)) = enter(sc, a, f, gone, into, extra) {
                out.push(Move {
                    action: Action::Contract(gone),
                    hexes: next.hexes().to_vec(),
                    facing: next.facing(),
                    cost: Half::ONE + hc + sc2,
                    dc,
                    kind: MoveKind::Contract,
                });
            }
        }
    };
    match f {
        Formation::Line => line(
            &[End::Head, End::Tail],
            &[End::Head, End::Tail],
            Half::ZERO,
            &mut out,
        ),
        // 11.5e: a right hook works on its left end, a left hook on its right end.
        Formation::HookRight | Formation::HookLeft => {
            let end = if f == Formation::HookRight {
                End::Tail
            } else {
                End::Head
            };
            let ext: &[End] = if n == 1 { &[end] } else { &[] };
            let con: &[End] = if n == 2 { &[end] } else { &[] };
            line(ext, con, Half::ONE, &mut out);
        }
        Formation::MarchColumn => {
            let straight_now = straight(f, hexes, fp.facing());
            if straight_now
                && lens.contains(&(n + 1))
                && let Ok(next) = fp.extended(&Printed, End::Head)
                && let Some(&new) = next.hexes().first()
                && !go(new)
                && let Some((hc, sc2, dc)) = enter(sc, a, f, hexes[0], new, Half::ZERO)
            {
                out.push(Move {
                    action: Action::Extend(new),
                    hexes: next.hexes().to_vec(),
                    facing: next.facing(),
                    cost: hc + sc2,
                    dc,
                    kind: MoveKind::Extend,
                });
            }
            if n >= 2
                && lens.contains(&(n - 1))
                && let Ok(next) = fp.contracted(&Printed, End::Tail)
                && let Some((hc, sc2, dc)) = enter(sc, a, f, hexes[n - 1], hexes[n - 2], Half::ZERO)
            {
                out.push(Move {
                    action: Action::Contract(hexes[n - 1]),
                    hexes: next.hexes().to_vec(),
                    facing: next.facing(),
                    cost: hc + sc2,
                    dc,
                    kind: MoveKind::Contract,
                });
            }
        }
        _ => {}
    }
    out
}

/// Whether any of `units` fired in this activation's fire phase (8.6a, 9.5, 11.6, A25).
fn fired(st: &State, units: &[UnitIx]) -> bool {
    st.activation
        .as_ref()
        .is_some_and(|a| units.iter().any(|u| a.fired.contains(u)))
}

/// Record the units of the activation that fired in its fire phase (8.6a, 9.5, 11.6): called
/// when the fire phase ends.
pub fn note_fired(st: &mut State, firers: &[(UnitIx, HexId)]) {
    if let Some(act) = st.activation.as_mut() {
        for &(u, _) in firers {
            if act.includes(u) && !act.fired.contains(&u) {
                act.fired.push(u);
            }
        }
    }
}

/// 11.6: the prolonge steps of unlimbered artillery, before the EZOC and stacking checks of
/// `open_moves`: every unit with a 'P' mark that did not fire in this activation's fire phase or
/// an 'FP' mark, not disordered (18.5b), no limbered movement this phase, one hex into a front or
/// rear hex keeping its facing, paying the line-type TEC cost (the T1 column "unlimbered artillery
/// by prolonge", 11.2a), not into terrain prohibited to artillery or to unlimbered guns (8.0).
/// The step ends its movement (docs/bar-formations.md).
fn prolonge_steps(sc: &Scenario, st: &State, m: &Mover, disordered: bool) -> Vec<Move> {
    use crate::data::Prolonge;
    let us = lead(st, m);
    let marked = m
        .units
        .iter()
        .all(|&u| match sc.units[usize::from(u)].prolonge {
            Some(Prolonge::Fp) => true,
            Some(Prolonge::P) => !fired(st, &[u]),
            None => false,
        });
    let (Facing::Point(v), &[h]) = (us.facing, &us.hexes[..]) else {
        return Vec::new();
    };
    if !marked || disordered || !m.path.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for d in v.front().into_iter().chain(v.rear()) {
        let Some(n) = h.neighbour(d) else { continue };
        let unlimber_forbidden = sc.board.tec_row(n).is_some_and(|r| {
            r.no_formation
                .iter()
                .any(|k| k == crate::geom::chart_key(Formation::Unlimbered))
        });
        if unlimber_forbidden {
            continue;
        }
        if let Some((c, dc)) = footprint_cost(
            sc,
            Arm::Artillery,
            Formation::Unlimbered,
            &[h],
            &[n],
            Half::ZERO,
        ) {
            out.push(Move {
                action: Action::Prolonge(n),
                hexes: vec![n],
                facing: us.facing,
                cost: c,
                dc,
                kind: MoveKind::Prolonge,
            });
        }
    }
    out
}

/// Why the moving unit may not move by prolonge into `to` now (11.6), the rule first; `None` if
/// it may. For the refusal a player reads when he asks for a prolonge step that is not offered.
pub fn prolonge_refusal(sc: &Scenario, st: &State, to: HexId) -> Option<String> {
    use crate::data::Prolonge;
    let Phase::Moving(m) = &st.phase else {
        return Some("11.1: no unit is moving".into());
    };
    if open_moves(sc, st, m)
        .iter()
        .any(|(mv, _)| mv.action == Action::Prolonge(to))
    {
        return None;
    }
    let us = lead(st, m);
    let why = |s: &str| Some(s.to_string());
    if us.formation != Formation::Unlimbered {
        return why("11.6: only unlimbered artillery moves by prolonge");
    }
    for &u in &m.units {
        match sc.units[usize::from(u)].prolonge {
            None => return why("11.6: the counter has no 'P' or 'FP' mark"),
            Some(Prolonge::P) if fired(st, &[u]) => {
                return why(
                    "11.6: a 'P' battery that fired in the fire phase before may not move by \
                     prolonge (only 'FP' may)",
                );
            }
            Some(_) => {}
        }
    }
    if m.units.iter().any(|&u| st.units[usize::from(u)].disordered) {
        return why("11.6, 18.5b: a disordered battery may not move by prolonge");
    }
    if !m.path.is_empty() {
        return why("11.6: limbered and prolonge movement are not combined in one movement phase");
    }
    let Some(mv) = prolonge_steps(sc, st, m, false)
        .into_iter()
        .find(|mv| mv.action == Action::Prolonge(to))
    else {
        let (Facing::Point(v), Some(&h)) = (us.facing, us.hexes.first()) else {
            return why("11.6: one hex into a front or rear hex");
        };
        let fr: Vec<HexId> = v
            .front()
            .into_iter()
            .chain(v.rear())
            .filter_map(|d| h.neighbour(d))
            .collect();
        return if fr.contains(&to) {
            why("11.6: terrain prohibited to artillery (or to unlimbered guns, 8.0)")
        } else {
            why("11.6: only into one of its front or rear hexes, keeping its facing")
        };
    };
    if enemy_at(sc, st, m.side, &mv.hexes) {
        return why("10.1b: an enemy unit holds the hex");
    }
    if ezoc(sc, st, m.side).contains(&to) && !friendly_foot_or_guns(sc, st, m.side, to, &m.units) {
        return why(
            "11.6, 11.9b: into an enemy ZOC only where friendly infantry or artillery already stands",
        );
    }
    if mv.cost > m.left {
        return Some(format!("11.6: {} MP needed, {} left", mv.cost, m.left));
    }
    why("10.1a: it could not end its movement there in a legal stack")
}

/// Whether friendly infantry or artillery of `side` stands in `h` (11.6, 11.9b).
fn friendly_foot_or_guns(sc: &Scenario, st: &State, side: u8, h: HexId, movers: &[UnitIx]) -> bool {
    any_unit_in(st, h, |u| {
        let x = &sc.units[usize::from(u)];
        x.side == side && x.arm != Arm::Cavalry && !movers.contains(&u)
    })
}

/// A facing change to any other hexpoint for the whole MA (general order 9.3b, unlimbered
/// artillery 9.5).
fn whole_ma_turns(us: &crate::state::UnitState, m: &Mover) -> Vec<Move> {
    hexmap::Vertex::ALL
        .into_iter()
        .map(Facing::Point)
        .filter(|&nf| nf != us.facing)
        .map(|nf| Move {
            action: Action::Turn(nf),
            hexes: us.hexes.to_vec(),
            facing: nf,
            cost: m.ma,
            dc: 0,
            kind: MoveKind::Turn,
        })
        .collect()
}

/// The enemies' ZOC hexes against the mover's side (9.1).
fn ezoc<'a>(sc: &'a Scenario, st: &State, side: u8) -> HexSet<'a> {
    crate::command::ezoc_set(sc, st, side)
}

/// The full cost of a move now: the EZOC surcharge on entering (11.9a) or on a facing change in
/// an EZOC (9.1), whole-MA actions exempt.
fn full_cost(
    mv: &Move,
    m: &Mover,
    now: &[HexId],
    now_in_ezoc: bool,
    ezoc: &HexSet<'_>,
    a: Arm,
) -> Half {
    let whole =
        mv.kind == MoveKind::Reverse || (mv.kind == MoveKind::Turn && mv.cost == m.ma && !m.spent);
    if whole || a == Arm::Artillery {
        return mv.cost;
    }
    let entering = mv
        .hexes
        .iter()
        .any(|h| ezoc.contains(h) && !now.contains(h));
    match mv.kind {
        MoveKind::Step | MoveKind::Back | MoveKind::Extend if entering => mv.cost + Half::ONE,
        MoveKind::Turn if now_in_ezoc => mv.cost + Half::ONE,
        _ => mv.cost,
    }
}

/// The moves the mover may make now, with their full costs: paid for, not into an enemy, not
/// backward into an EZOC (11.7d, 11.8b), the command restrictions (7.6c), and an occupied hex
/// only when it could stop there or go on (10.1a).
fn open_moves(sc: &Scenario, st: &State, m: &Mover) -> Vec<(Move, Half)> {
    open_moves_where(sc, st, m, None, false, &Around::new(sc, st, m.side))
}

/// The first open move that makes `a`, with its full cost ([`open_moves`]).
fn open_move_of(sc: &Scenario, st: &State, m: &Mover, a: &Action) -> Option<(Move, Half)> {
    open_moves_where(sc, st, m, Some(a), true, &Around::new(sc, st, m.side))
        .into_iter()
        .next()
}

/// What a mover's menu reads of the board around it, worked out once for its moves and its
/// changes: the enemies' ZOC (9.1) and the hexes holding anyone.
struct Around<'a> {
    /// The ZOC of the mover's enemies ([`ezoc`]).
    z: HexSet<'a>,
    /// Every hex holding a unit not eliminated (`command::occupied_set`).
    occ: HexSet<'a>,
}

impl<'a> Around<'a> {
    fn new(sc: &'a Scenario, st: &State, side: u8) -> Around<'a> {
        Around {
            z: ezoc(sc, st, side),
            occ: crate::command::occupied_set(sc, st),
        }
    }
}

/// [`open_moves`], only those making `want` (if given), stopping at the first (if `first`): the
/// same moves in the same order, fewer of them checked.
fn open_moves_where(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    want: Option<&Action>,
    first: bool,
    around: &Around<'_>,
) -> Vec<(Move, Half)> {
    if m.must_stop || m.adopt {
        return Vec::new();
    }
    let mut out = Vec::new();
    // One scratch copy of the state for the 10.1a look-ahead, given back as it was after each
    // look.
    let mut scratch: Option<State> = None;
    for mv in moves(sc, st, m) {
        if want.is_some_and(|w| mv.action != *w) {
            continue;
        }
        if let Some(cost) = move_open(sc, st, m, &mv, around, &mut scratch) {
            out.push((mv, cost));
            if first {
                break;
            }
        }
    }
    out
}

/// Whether the mover may make `mv` now, and at what full cost: paid for, not into an enemy, not
/// backward into an EZOC (11.7d, 11.8b), the artillery and command restrictions (11.9b, 7.6c),
/// and an occupied hex only when it could stop there or go on (10.1a). `scratch`: a copy of
/// `st` for the 10.1a look-ahead (made when first needed), given back as it was.
fn move_open(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    mv: &Move,
    around: &Around<'_>,
    scratch: &mut Option<State>,
) -> Option<Half> {
    let a = arm(sc, m);
    let now = &lead(st, m).hexes;
    let z = &around.z;
    // The hexes holding anyone: only those are searched for who stands there.
    let occ = &around.occ;
    let anyone_in =
        |h: HexId, pick: &dyn Fn(UnitIx) -> bool| occ.contains(&h) && any_unit_in(st, h, pick);
    let cost = full_cost(mv, m, now, in_ezoc(z, now), z, a);
    if cost > m.left {
        return None;
    }
    // A free facing change (a square's or a skirmisher's) is made once in a hex: a second one
    // could have been the first (9.2).
    if mv.kind == MoveKind::Turn && cost == Half::ZERO && m.turned_here {
        return None;
    }
    if mv
        .hexes
        .iter()
        .any(|&h| anyone_in(h, &|u| sc.units[usize::from(u)].side != m.side))
    {
        return None;
    }
    let new_ezoc = mv.hexes.iter().any(|h| z.contains(h) && !now.contains(h));
    if mv.kind == MoveKind::Back && new_ezoc {
        return None;
    }
    // 11.9b: limbered artillery never enters an EZOC; unlimbered artillery only by prolonge into
    // a hex already holding friendly infantry or artillery (11.6).
    if a == Arm::Artillery
        && new_ezoc
        && !(mv.kind == MoveKind::Prolonge
            && mv
                .hexes
                .iter()
                .all(|&h| friendly_foot_or_guns(sc, st, m.side, h, &m.units)))
    {
        return None;
    }
    // 7.6c: an out-of-command unit enters an EZOC only as its one action, from adjacent.
    if m.restricted && new_ezoc && m.spent {
        return None;
    }
    // 10.1a: into an occupied hex only if it could stop there or leave again (a facing change or
    // wheel among stationary friends too: they must end as a legal stack).
    if mv
        .hexes
        .iter()
        .any(|&h| anyone_in(h, &|u| !m.units.contains(&u)))
    {
        let t = scratch.get_or_insert_with(|| st.clone());
        place(t, m, &mv.hexes, mv.facing);
        let can_stop = stack_legal(sc, t, m);
        for &u in &m.units {
            let (s, was) = (&mut t.units[usize::from(u)], &st.units[usize::from(u)]);
            s.hexes = was.hexes;
            s.facing = was.facing;
        }
        let m2_left = m.left.saturating_sub(cost);
        // "MPs to leave the hex": a step costs at least one MP (half on a road).
        let cheapest = if lead(st, m).formation == Formation::RoadColumn {
            Half::HALF
        } else {
            Half::ONE
        };
        let can_go = m2_left >= cheapest;
        // 11.6: a prolonge step ends the movement where it goes.
        if !can_stop && (!can_go || mv.kind == MoveKind::Prolonge) {
            return None;
        }
    }
    Some(cost)
}

/// The hexes a unit in skirmish order could step into now and stop in (11.1a, 10.1a): after the
/// free facing change of a skirmisher (9.2), one step it can pay for into a hex where it makes a
/// legal stack. 8.5a's look-ahead for components placed over the skirmisher limit of their hex.
pub(crate) fn skirmisher_exits(sc: &Scenario, st: &State, u: UnitIx) -> Vec<HexId> {
    let mut out: Vec<HexId> = Vec::new();
    if st.units[usize::from(u)].formation != Formation::Skirmish || !st.on_map(u) {
        return out;
    }
    let m = start(sc, st, vec![u]);
    let mut t = st.clone();
    for v in hexmap::Vertex::ALL {
        t.units[usize::from(u)].facing = Facing::Point(v);
        for (mv, cost) in open_moves(sc, &t, &m) {
            if mv.kind != MoveKind::Step || out.contains(&mv.hexes[0]) {
                continue;
            }
            let mut there = t.clone();
            place(&mut there, &m, &mv.hexes, mv.facing);
            let mut m2 = m.clone();
            m2.left = m.left.saturating_sub(cost);
            if stack_legal(sc, &there, &m2) {
                out.push(mv.hexes[0]);
            }
        }
    }
    out.sort_unstable();
    out
}

/// 8.5a: the hexes where skirmisher components placed by a breakdown of this activation stand
/// over the skirmisher limit and one of them may still move: the movement phase may not end
/// before the excess is corrected.
pub fn spread_owed(sc: &Scenario, st: &State) -> Vec<HexId> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    if act.spread.is_empty() {
        return Vec::new();
    }
    let (movable, _) = movable(sc, st);
    act.spread
        .iter()
        .copied()
        .filter(|&h| {
            matches!(
                crate::stacking::legal_at(sc, st, h),
                Err(crate::stacking::StackError::Limit {
                    what: "skirmish",
                    ..
                })
            ) && any_unit_in(st, h, |u| movable.contains(&u))
        })
        .collect()
}

/// The moving unit's menu (its candidate moves and changes in the menu's order, each checked
/// only when first asked about), kept on this thread with the position it belongs to: made by
/// [`after_action`] (which must know whether anything is open: it checks until it finds one), by
/// [`legal`] (which lists every open entry) or by [`sample`] (which checks only the entries it
/// draws), and read by [`execute`] for the chosen action's details, instead of being worked out
/// again (`memo.rs`; speed, issue 15). Used only for the very same position.
struct Menu {
    scenario: (usize, u64),
    /// The position, the mover's phase set.
    state: State,
    cands: Cands,
}

thread_local! {
    static MENU: std::cell::RefCell<Option<Menu>> = const { std::cell::RefCell::new(None) };
}

/// Whether an entry of a menu is open: not yet checked, open, or not open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Unknown,
    Open,
    Closed,
}

/// A mover's candidates in one position, in the menu's order (moves, then changes): its moves
/// (`moves`, each with its full cost once found open, [`move_open`]) and its changes
/// ([`change_candidates`], each open if [`change_may_end`]). The open ones are the menu that
/// [`open_moves`] and [`open_changes`] list.
struct Cands {
    moves: Vec<(Move, Half, Mark)>,
    changes: Vec<(formation::Change, Mark)>,
}

/// What checking the entries of one menu reads of its position, made when first needed during
/// one call ([`Cands::check`]). Used only with the position it was made for.
#[derive(Default)]
struct Looks<'a> {
    around: Option<Around<'a>>,
    change: Option<ChangeLook<'a>>,
    /// A copy of the position for the 10.1a look-aheads, given back as it was after each.
    scratch: Option<State>,
}

/// An action's details from a kept [`Menu`]: the first open move or change that makes it, as
/// [`open_move_of`] and [`open_change_of`] find it (`None`: not open).
enum Known {
    Move(Option<(Move, Half)>),
    Change(Option<formation::Change>),
}

impl Cands {
    /// The candidates of mover `m` in `st`, none checked yet.
    fn new<'a>(sc: &'a Scenario, st: &State, m: &Mover, looks: &mut Looks<'a>) -> Cands {
        if m.must_stop || m.adopt {
            return Cands {
                moves: Vec::new(),
                changes: Vec::new(),
            };
        }
        let around = looks
            .around
            .get_or_insert_with(|| Around::new(sc, st, m.side));
        let in_z = in_ezoc(&around.z, &lead(st, m).hexes);
        Cands {
            moves: moves(sc, st, m)
                .into_iter()
                .map(|mv| (mv, Half::ZERO, Mark::Unknown))
                .collect(),
            changes: change_candidates(sc, st, m, None, Some(in_z))
                .into_iter()
                .map(|c| (c, Mark::Unknown))
                .collect(),
        }
    }

    /// How many entries: moves and changes.
    fn len(&self) -> usize {
        self.moves.len() + self.changes.len()
    }

    /// What is known of entry `e`.
    fn mark(&self, e: usize) -> Mark {
        match self.moves.get(e) {
            Some((.., mark)) => *mark,
            None => self
                .changes
                .get(e - self.moves.len())
                .map_or(Mark::Closed, |(_, mark)| *mark),
        }
    }

    /// Entry `e` as an action.
    fn action(&self, e: usize) -> Option<Action> {
        match self.moves.get(e) {
            Some((mv, ..)) => Some(mv.action.clone()),
            None => self
                .changes
                .get(e - self.moves.len())
                .map(|(c, _)| form_action(c)),
        }
    }

    /// Whether entry `e` is open, checked now if it was not yet.
    fn check<'a>(
        &mut self,
        sc: &'a Scenario,
        st: &State,
        m: &Mover,
        e: usize,
        looks: &mut Looks<'a>,
    ) -> bool {
        let n = self.moves.len();
        if let Some((mv, cost, mark)) = self.moves.get_mut(e) {
            if *mark == Mark::Unknown {
                let around = looks
                    .around
                    .get_or_insert_with(|| Around::new(sc, st, m.side));
                *mark = match move_open(sc, st, m, mv, around, &mut looks.scratch) {
                    Some(c) => {
                        *cost = c;
                        Mark::Open
                    }
                    None => Mark::Closed,
                };
            }
            return *mark == Mark::Open;
        }
        let Some((c, mark)) = self.changes.get_mut(e - n) else {
            return false;
        };
        if *mark == Mark::Unknown {
            let look = looks
                .change
                .get_or_insert_with(|| ChangeLook::new(sc, st, m));
            let t = looks.scratch.get_or_insert_with(|| st.clone());
            *mark = if change_may_end(sc, t, m, c, &look.others, &mut look.alone) {
                Mark::Open
            } else {
                Mark::Closed
            };
        }
        *mark == Mark::Open
    }

    /// Whether any entry is open, checking them in order until one is.
    fn any_open<'a>(
        &mut self,
        sc: &'a Scenario,
        st: &State,
        m: &Mover,
        looks: &mut Looks<'a>,
    ) -> bool {
        (0..self.len()).any(|e| self.check(sc, st, m, e, looks))
    }

    /// Every entry checked.
    fn settle<'a>(&mut self, sc: &'a Scenario, st: &State, m: &Mover, looks: &mut Looks<'a>) {
        for e in 0..self.len() {
            self.check(sc, st, m, e, looks);
        }
    }

    /// The open entries as actions, in the menu's order (every entry checked: [`Cands::settle`]).
    fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.moves
            .iter()
            .filter(|e| e.2 == Mark::Open)
            .map(|(mv, ..)| mv.action.clone())
            .chain(
                self.changes
                    .iter()
                    .filter(|e| e.1 == Mark::Open)
                    .map(|(c, _)| form_action(c)),
            )
    }

    /// The first open entry that makes `a` (checking those that make it, in order).
    fn known(&mut self, sc: &Scenario, st: &State, m: &Mover, a: &Action) -> Known {
        let mut looks = Looks::default();
        let n = self.moves.len();
        if let Action::Form(..) = a {
            for i in 0..self.changes.len() {
                if is_form_action(&self.changes[i].0, a) && self.check(sc, st, m, n + i, &mut looks)
                {
                    return Known::Change(Some(self.changes[i].0.clone()));
                }
            }
            Known::Change(None)
        } else {
            for i in 0..n {
                if self.moves[i].0.action == *a && self.check(sc, st, m, i, &mut looks) {
                    let (mv, cost, _) = &self.moves[i];
                    return Known::Move(Some((mv.clone(), *cost)));
                }
            }
            Known::Move(None)
        }
    }
}

impl Menu {
    /// The mover of the menu's position.
    fn mover(&self) -> Option<&Mover> {
        match &self.state.phase {
            Phase::Moving(m) => Some(m),
            _ => None,
        }
    }

    /// [`Cands::known`] in the menu's position.
    fn known(&mut self, sc: &Scenario, a: &Action) -> Known {
        let Menu { state, cands, .. } = self;
        match &state.phase {
            Phase::Moving(m) => cands.known(sc, state, m, a),
            _ => Known::Move(None),
        }
    }
}

/// What `find` gives of the menu kept for the mover `m` in `st` (whose phase `flow::apply` has
/// taken out, and whose decision count it has raised), if the menu was made for this very
/// position: `None` when there is none, `Some(None)` when the action is not in it. The menu is
/// let go (the position is about to change): its copy of the state no longer shares the units'
/// list with `st` (`state::Units`), which the action then changes in place instead of copying.
fn recall_menu<T>(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    find: impl FnOnce(&mut Menu) -> Option<T>,
) -> Option<Option<T>> {
    let mut menu = MENU.with(|c| c.borrow_mut().take())?;
    let same = menu.scenario == crate::memo::scenario_key(sc)
        && menu.mover().is_some_and(|x| *x == *m)
        && menu.state.same_but_phase_and_count(st);
    same.then(|| find(&mut menu))
}

/// `f` of the menu kept for the mover `m` in this very position `st` (made now, and kept in place
/// of any other, when there is none), with the looks of this call.
fn with_menu<'a, T>(
    sc: &'a Scenario,
    st: &State,
    m: &Mover,
    f: impl FnOnce(&mut Cands, &mut Looks<'a>) -> T,
) -> T {
    let key = crate::memo::scenario_key(sc);
    MENU.with(|c| {
        let mut kept = c.borrow_mut();
        let mut looks = Looks::default();
        let menu = match kept.as_mut() {
            Some(menu) if menu.scenario == key && menu.state == *st => menu,
            _ => kept.insert(Menu {
                scenario: key,
                state: st.clone(),
                cands: Cands::new(sc, st, m, &mut looks),
            }),
        };
        f(&mut menu.cands, &mut looks)
    })
}

/// Whether an action takes the mover out of its hexes (9.4, 10.1a: a mover that can leave may
/// stop only straight and in a legal stack).
fn leaves(a: &Action) -> bool {
    matches!(
        a,
        Action::Step(_)
            | Action::Back(_)
            | Action::ColumnTurn(_)
            | Action::Wheel(..)
            | Action::Prolonge(_)
    )
}

/// Whether the mover may stop (9.4: a bent march column must straighten first; 10.1a: only where it
/// makes a legal stack) — or must, having no move out of its hexes open (`can_leave`, asked only
/// when the first test fails): it stops anyway and the illegal stack routs it (10.13).
fn may_stop(sc: &Scenario, st: &State, m: &Mover, can_leave: impl FnOnce() -> bool) -> bool {
    let us = lead(st, m);
    (straight(us.formation, &us.hexes, us.facing) && stack_legal(sc, st, m)) || !can_leave()
}

/// A uniformly random entry of [`legal`]'s list for a moving unit, drawn with `pick` without
/// checking its whole menu (speed of random playouts, issue 15): an entry is drawn among those not
/// yet found closed and checked; a closed one is set aside and another drawn, so that every open
/// entry is as likely as in the listed menu (rejection sampling). The menu is kept (`Menu`):
/// `execute` reads the chosen entry's details from it. A moving leader's reach is drawn from
/// without making an action of each hex (the same draw as from the list). `None` outside a unit's
/// or leader's movement and for a unit adopting a formation (8.4i): the caller lists the menu
/// instead.
pub fn sample(sc: &Scenario, st: &State, pick: &mut engine::Dice) -> Option<Action> {
    if let Phase::LeaderMoving { leader } = &st.phase {
        // 21.1: the hexes of his reach and the stop, as `legal` lists them, one drawn without
        // making an action of each.
        let reach = leader_reach(sc, st, *leader);
        let i = pick.below(reach.len() + 1);
        return Some(match reach.get(i) {
            Some(&h) => Action::LeaderTo(*leader, h),
            None => Action::Stop,
        });
    }
    let Phase::Moving(m) = &st.phase else {
        return None;
    };
    if m.adopt {
        return None;
    }
    with_menu(sc, st, m, |cands, looks| {
        // The entries: the menu's (0..n), the rapid march (n, 11.4) and the stop (n + 1).
        let n = cands.len();
        let mut alive: tinyvec::TinyVec<[usize; 64]> =
            (0..n).filter(|&e| cands.mark(e) != Mark::Closed).collect();
        if !m.spent && !m.rapid && may_rapid(sc, st, m) {
            alive.push(n);
        }
        alive.push(n + 1);
        while !alive.is_empty() {
            let k = pick.below(alive.len());
            let e = alive[k];
            let open = match e.cmp(&n) {
                std::cmp::Ordering::Less => cands.check(sc, st, m, e, looks),
                std::cmp::Ordering::Equal => true,
                std::cmp::Ordering::Greater => may_stop(sc, st, m, || {
                    (0..cands.moves.len()).any(|i| {
                        leaves(&cands.moves[i].0.action) && cands.check(sc, st, m, i, looks)
                    })
                }),
            };
            if open {
                return match e.cmp(&n) {
                    std::cmp::Ordering::Less => cands.action(e),
                    std::cmp::Ordering::Equal => Some(Action::Rapid),
                    std::cmp::Ordering::Greater => Some(Action::Stop),
                };
            }
            alive.swap_remove(k);
        }
        None
    })
}

/// Put the mover's units on `hexes` with `facing`.
fn place(st: &mut State, m: &Mover, hexes: &[HexId], facing: Facing) {
    for &u in &m.units {
        let s = &mut st.units[usize::from(u)];
        s.hexes = Hexes::from(hexes);
        s.facing = facing;
    }
}

/// Whether the mover may end its movement where it is (10.1c–f, 10.2–10.4, 10.11).
pub fn stack_legal(sc: &Scenario, st: &State, m: &Mover) -> bool {
    lead(st, m)
        .hexes
        .iter()
        .all(|&h| crate::stacking::legal_at(sc, st, h).is_ok())
}

/// The formation changes open to the mover (8.4, `formation::changes`), EZOC included there.
fn open_changes(sc: &Scenario, st: &State, m: &Mover) -> Vec<formation::Change> {
    open_changes_where(sc, st, m, None, false, None)
}

/// The first open change that makes `a` ([`open_changes`]).
fn open_change_of(sc: &Scenario, st: &State, m: &Mover, a: &Action) -> Option<formation::Change> {
    open_changes_where(sc, st, m, Some(a), true, None)
        .into_iter()
        .next()
}

/// [`open_changes`], only those making `want` (if given), stopping at the first (if `first`):
/// the same changes in the same order, fewer of them checked. `in_z`: whether the mover stands
/// in an enemy ZOC, when already known.
fn open_changes_where(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    want: Option<&Action>,
    first: bool,
    in_z: Option<bool>,
) -> Vec<formation::Change> {
    let all = change_candidates(sc, st, m, want, in_z);
    if all.is_empty() {
        return all;
    }
    let mut scratch = st.clone();
    let mut look = ChangeLook::new(sc, st, m);
    let open = all
        .into_iter()
        .filter(|c| change_may_end(sc, &mut scratch, m, c, &look.others, &mut look.alone));
    if first {
        open.take(1).collect()
    } else {
        open.collect()
    }
}

/// The formation changes the mover may pay for now (8.4, `formation::changes`, EZOC included
/// there; none in a limited activation, 7.6c–d), only those making `want` (if given), before
/// 10.1a is checked ([`change_may_end`]). `in_z`: whether the mover stands in an enemy ZOC, when
/// already known.
fn change_candidates(
    sc: &Scenario,
    st: &State,
    m: &Mover,
    want: Option<&Action>,
    in_z: Option<bool>,
) -> Vec<formation::Change> {
    if m.must_stop || m.adopt {
        return Vec::new();
    }
    if st.activation.as_ref().is_some_and(|a| a.limited) {
        return Vec::new();
    }
    let b = Budget {
        ma: m.ma,
        left: m.left,
        spent: m.spent,
        fired: fired(st, &m.units),
    };
    // A wanted change's facing and hexes are its action's: only those candidates are finished.
    let to = match want {
        Some(Action::Form(_, f, h, _)) => Some((*f, &h[..])),
        _ => None,
    };
    let mut all = formation::changes_where(sc, st, &m.units, &b, to, in_z);
    all.retain(|c| c.cost <= m.left && want.is_none_or(|w| is_form_action(c, w)));
    all
}

/// What [`change_may_end`] reads for every change of one mover in one position, worked out once.
struct ChangeLook<'a> {
    /// The hexes where others than the movers stand: only there are the units a change's hexes
    /// hold looked for.
    others: HexSet<'a>,
    /// The answers for a lone unit ([`LoneChanges`]).
    alone: LoneChanges,
}

impl<'a> ChangeLook<'a> {
    fn new(sc: &'a Scenario, st: &State, m: &Mover) -> ChangeLook<'a> {
        let mut others = crate::command::HexSet::new(&sc.board.dense);
        for (i, u) in st.units.iter().enumerate() {
            if !u.eliminated && !m.units.contains(&(i as UnitIx)) {
                for &h in &u.hexes {
                    others.insert(h);
                }
            }
        }
        ChangeLook {
            others,
            alone: LoneChanges::default(),
        }
    }
}

/// What [`change_may_end`] found for a lone unit changing where no other unit stands, by what
/// its answer reads there: the new formation and the terrain rows of the new hexes in footprint
/// order. A lone unit's stack is itself, and `stacking::legal_units` then reads only its formation,
/// its SPs in each hex (the footprint's length and the hex's place in it) and each hex's TEC row
/// (10.1c–e, 10.11): facing is compared only between units. One menu's changes share them.
#[derive(Default)]
struct LoneChanges(Vec<(Formation, [u16; crate::state::MAX_FOOTPRINT], u8, bool)>);

/// 10.1a for a change among stationary friends: afterwards the units must make a legal stack or
/// have the MPs to leave (a change that ends the movement must leave a legal stack). `t` is a
/// scratch copy of the state, given back as it was; `alone` keeps the answers for a lone unit.
fn change_may_end(
    sc: &Scenario,
    t: &mut State,
    m: &Mover,
    c: &formation::Change,
    others: &HexSet<'_>,
    alone: &mut LoneChanges,
) -> bool {
    // A lone unit changing where nobody else stands: its answer is known once per formation and
    // terrain rows (`LoneChanges`).
    let lone = match (&m.units[..], &c.formations[..]) {
        ([u], [(v, f)])
            if u == v
                && c.must_leave.is_empty()
                && c.hexes.len() <= crate::state::MAX_FOOTPRINT
                && !c.hexes.iter().any(|h| others.contains(h)) =>
        {
            let mut rows = [u16::MAX; crate::state::MAX_FOOTPRINT];
            for (r, &h) in rows.iter_mut().zip(&c.hexes) {
                // The TEC row `stacking::terrain_row` reads.
                *r = sc.board.tec_row_key(h).unwrap_or(u16::MAX);
            }
            let key = (*f, rows, c.hexes.len() as u8);
            if let Some(e) = alone.0.iter().find(|e| (e.0, e.1, e.2) == key) {
                return e.3;
            }
            Some(key)
        }
        _ => None,
    };
    let result = change_may_end_now(sc, t, m, c, others);
    if let Some((f, rows, n)) = lone {
        alone.0.push((f, rows, n, result));
    }
    result
}

/// [`change_may_end`] worked out on the scratch state.
fn change_may_end_now(
    sc: &Scenario,
    t: &mut State,
    m: &Mover,
    c: &formation::Change,
    others: &HexSet<'_>,
) -> bool {
    // A few unit indices, kept inline: a stack and its neighbours in a hex are rarely more.
    type Few<T> = tinyvec::TinyVec<[T; 16]>;
    // Everyone who can stand in the change's hexes afterwards: the movers, the units the change
    // puts there and those already there (looked for where `others` stand), in unit order.
    let mut touched: Few<usize> = m.units.iter().map(|&u| usize::from(u)).collect();
    touched.extend(c.formations.iter().map(|&(u, _)| usize::from(u)));
    for h in c.hexes.iter().filter(|h| others.contains(h)) {
        touched.extend(
            (0..t.units.len()).filter(|&i| !t.units[i].eliminated && t.units[i].hexes.contains(h)),
        );
    }
    touched.sort_unstable();
    let mut kept = 0;
    for r in 0..touched.len() {
        if kept == 0 || touched[r] != touched[kept - 1] {
            touched[kept] = touched[r];
            kept += 1;
        }
    }
    touched.truncate(kept);
    // The units in `h` in stacking order, as `stacking::units_at` lists them, from `touched`.
    let occupants = |t: &State, h: HexId| {
        let mut v: Few<UnitIx> = touched
            .iter()
            .filter(|&&i| !t.units[i].eliminated && t.units[i].hexes.contains(&h))
            .map(|&i| i as UnitIx)
            .collect();
        v.sort_by_key(|&u| (t.units[usize::from(u)].order, u));
        v
    };
    let legal_here =
        |t: &State, h: HexId| crate::stacking::legal_units(sc, t, h, &occupants(t, h)).is_ok();
    // What the look changes (hexes, facing, formation), to give back afterwards.
    let saved: Vec<(Hexes, Facing, Formation)> = touched
        .iter()
        .map(|&i| {
            let u = &t.units[i];
            (u.hexes, u.facing, u.formation)
        })
        .collect();
    let is_mover = |i: usize| m.units.contains(&(i as UnitIx));
    let occupied = touched
        .iter()
        .any(|&i| !is_mover(i) && !t.units[i].eliminated);
    apply_change(t, c);
    let result = 'check: {
        // The moving stack itself must be a legal stack in its new formation (10.1c–e, 10.11).
        for &i in touched.iter().filter(|&&i| !is_mover(i)) {
            t.units[i].hexes.clear();
        }
        for &u in &c.must_leave {
            t.units[usize::from(u)].hexes.clear();
        }
        if !c.hexes.iter().all(|&h| legal_here(t, h)) {
            break 'check false;
        }
        if !occupied {
            break 'check true;
        }
        for (k, &i) in touched.iter().enumerate() {
            if !is_mover(i) {
                t.units[i].hexes = saved[k].0;
            }
        }
        // The units that must leave are not counted where they stand (8.6b, 10.4f).
        if c.hexes.iter().all(|&h| legal_here(t, h)) {
            break 'check true;
        }
        let staying = m.units.iter().any(|u| !c.must_leave.contains(u));
        !c.ends_movement && staying && m.left.saturating_sub(c.cost) >= Half::ONE
    };
    for (k, &i) in touched.iter().enumerate() {
        let u = &mut t.units[i];
        (u.hexes, u.facing, u.formation) = saved[k];
    }
    result
}

/// Put a change's formations, facing and hexes on the units.
fn apply_change(st: &mut State, c: &formation::Change) {
    for &(u, f) in &c.formations {
        let s = &mut st.units[usize::from(u)];
        s.formation = f;
        s.hexes = Hexes::from(&c.hexes[..]);
        s.facing = if c.must_leave.contains(&u) {
            c.leave_facing.unwrap_or(c.facing)
        } else {
            c.facing
        };
    }
}

/// The single-hex formations (and facings) a unit leaving general order may adopt (8.4i).
fn adoptions(sc: &Scenario, st: &State, m: &Mover) -> Vec<(Formation, Facing)> {
    let us = lead(st, m);
    let u = &sc.units[usize::from(m.units[0])];
    let h = us.hexes[0];
    let forbidden: Vec<String> = sc
        .board
        .tec_row(h)
        .map(|r| r.no_formation.clone())
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut forms = vec![
        Formation::Line,
        Formation::AttackColumn,
        Formation::MarchColumn,
    ];
    if u.skirmish != crate::scenario::Skirmish::No {
        forms.push(Formation::Skirmish);
    }
    if crate::checks::current_sp(sc, st, m.units[0]) >= 3 {
        forms.push(Formation::Square);
    }
    for f in forms {
        if forbidden.iter().any(|k| k == crate::geom::chart_key(f)) {
            continue;
        }
        let facings: Vec<Facing> = if f.faces_hexside() {
            Dir::ALL.iter().map(|&d| Facing::Side(d)).collect()
        } else {
            hexmap::Vertex::ALL
                .iter()
                .map(|&v| Facing::Point(v))
                .collect()
        };
        for fc in facings {
            out.push((f, fc));
        }
    }
    out
}

/// Legal actions in the movement phase.
pub fn legal(sc: &Scenario, st: &State) -> Vec<Action> {
    match &st.phase {
        Phase::Movement => {
            // 19.10a: voluntary rout is declared before anything moves; once declarations have
            // begun only more of them, or their end, are open.
            let mut v = crate::voluntary_rout::offers(sc, st);
            if crate::voluntary_rout::declaring(st) {
                return v;
            }
            let (units, leaders) = movable(sc, st);
            // The hexes whose stack is offered already (once each).
            let mut seen: Vec<Hexes> = Vec::new();
            for &u in &units {
                v.push(Action::MoveUnit(u));
                let hexes = st.units[usize::from(u)].hexes;
                if seen.contains(&hexes) {
                    continue;
                }
                let stack = stack_among(st, &units, u);
                if stack.len() > 1 {
                    seen.push(hexes);
                    v.push(Action::MoveStack(stack[0]));
                }
            }
            // A leader is offered when he has a first step (21.1a): his neighbours' flags are
            // looked at one by one, without the whole board's field.
            let mut zocs: [Option<HexSet<'_>>; 2] = [None, None];
            for l in leaders {
                let side = sc.leaders[usize::from(l)].side;
                let z = zocs[usize::from(side) % 2]
                    .get_or_insert_with(|| crate::command::ezoc_set(sc, st, side));
                let flag = |x: usize| leader_flags_at(sc, st, side, z, sc.board.dense.ids[x]);
                if !leader_steps_in(sc, st, l, true, flag).is_empty() {
                    v.push(Action::MoveLeader(l));
                }
            }
            v.extend(restacks(sc, st).into_iter().map(Action::Top));
            // 8.5a–c: breakdown and reformation, before the units concerned move.
            v.extend(
                crate::breakdown::breakdowns(sc, st)
                    .into_iter()
                    .map(|(p, _)| Action::Breakdown(p)),
            );
            v.extend(
                crate::breakdown::reforms(sc, st)
                    .into_iter()
                    .map(|o| o.action),
            );
            // 8.5a: skirmisher components over their hex's limit spread out before the end.
            if spread_owed(sc, st).is_empty() {
                v.push(Action::MovementDone);
            }
            v
        }
        Phase::LeaderMoving { leader } => {
            let reach = leader_reach(sc, st, *leader);
            let mut v: Vec<Action> = Vec::with_capacity(reach.len() + 1);
            v.extend(reach.into_iter().map(|h| Action::LeaderTo(*leader, h)));
            v.push(Action::Stop);
            v
        }
        Phase::Moving(m) => {
            // Room for the kept menu, the rapid march and the stop without growing.
            let mut v = Vec::with_capacity(64);
            if m.adopt {
                for (f, fc) in adoptions(sc, st, m) {
                    v.push(Action::Adopt(f, fc));
                }
                return v;
            }
            if !m.spent && !m.rapid && may_rapid(sc, st, m) {
                v.push(Action::Rapid);
            }
            // The menu kept for this very position (`after_action`, `sample`), or made now;
            // every entry checked.
            with_menu(sc, st, m, |cands, looks| {
                cands.settle(sc, st, m, looks);
                v.extend(cands.actions());
            });
            if may_stop(sc, st, m, || v.iter().any(leaves)) {
                v.push(Action::Stop);
            }
            v
        }
        Phase::Reaction {
            mover,
            trigger,
            fired,
            ..
        } => {
            // 12.8b–c, e: at each trigger one infantry and one artillery fire at most.
            let hexes = match trigger {
                Trigger::Change(h) | Trigger::Leave(h) => h,
            };
            let target = target_in(sc, st, mover.side, hexes, &mover.units);
            let mut v: Vec<Action> = Vec::new();
            for art in [false, true] {
                if fired.contains(&art) {
                    continue;
                }
                if !crate::fire::opportunity_groups(sc, st, 1 - mover.side, &target, art).is_empty()
                {
                    v.push(Action::OppFire(art, false));
                }
                // 12.8c: after a change the firer may take the aspect the unit had before it.
                if matches!(trigger, Trigger::Change(_))
                    && let Some(old) = changed_aspect(st, mover)
                {
                    let mut t = st.clone();
                    set_aspect(&mut t, &mover.units, &old);
                    let target = target_in(sc, &t, mover.side, &old.0, &mover.units);
                    if !crate::fire::opportunity_groups(sc, &t, 1 - mover.side, &target, art)
                        .is_empty()
                    {
                        v.push(Action::OppFire(art, true));
                    }
                }
            }
            // pursuit (16) / opportunity charge (17)
            v.extend(
                crate::opportunity_charge::offers(sc, st, mover, hexes)
                    .into_iter()
                    .map(Action::OppCharge),
            );
            v.push(Action::Pass);
            v
        }
        _ => Vec::new(),
    }
}

/// Put a unit on top of its stack, the others keeping their order (10.6f): the stack's order
/// numbers are handed out again, the unit first.
fn put_on_top(st: &mut State, u: UnitIx) {
    let Some(&h) = st.units[usize::from(u)].hexes.first() else {
        return;
    };
    let mut stack = units_in(st, h);
    stack.sort_by_key(|&x| st.units[usize::from(x)].order);
    let numbers: Vec<u16> = stack
        .iter()
        .map(|&x| st.units[usize::from(x)].order)
        .collect();
    let mut new: Vec<UnitIx> = vec![u];
    new.extend(stack.iter().copied().filter(|&x| x != u));
    for (x, n) in new.into_iter().zip(numbers) {
        st.units[usize::from(x)].order = n;
    }
}

/// 10.6f: the units of the activation that may be put on top of their stack now, between moves
/// (before a unit spends MPs or once its movement is over): once each in the phase, not already on
/// top, and only where the stack stays legal (10.6d–e).
fn restacks(sc: &Scenario, st: &State) -> Vec<UnitIx> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cands: Vec<UnitIx> = act
        .units
        .iter()
        .chain(&act.attached)
        .chain(&act.independents)
        .chain(&act.arriving)
        .copied()
        .filter(|&u| {
            st.on_map(u) && !st.units[usize::from(u)].routed && !act.restacked.contains(&u)
        })
        .collect();
    cands.sort_unstable();
    cands.dedup();
    // One copy of the state for every candidate: each is put on top in it and looked at, and the
    // order numbers that changed (those of its hex's units, `put_on_top`) are put back after.
    let mut copy: Option<State> = None;
    for u in cands {
        // Not on top of its stack (its side's units in its hexes, top first by order number, then
        // by unit number): a unit of its side in its first hex comes before it.
        let Some(&h0) = st.units[usize::from(u)].hexes.first() else {
            continue;
        };
        let side = sc.units[usize::from(u)].side;
        let mine = (st.units[usize::from(u)].order, u);
        if !any_unit_in(st, h0, |x| {
            x != u
                && sc.units[usize::from(x)].side == side
                && (st.units[usize::from(x)].order, x) < mine
        }) {
            continue;
        }
        let t = copy.get_or_insert_with(|| st.clone());
        let Some(&h) = t.units[usize::from(u)].hexes.first() else {
            continue;
        };
        let before: Vec<(UnitIx, u16)> = units_in(t, h)
            .into_iter()
            .map(|x| (x, t.units[usize::from(x)].order))
            .collect();
        put_on_top(t, u);
        let ok = t.units[usize::from(u)]
            .hexes
            .iter()
            .all(|&h| crate::stacking::legal_at(sc, t, h).is_ok());
        for (x, order) in before {
            t.units[usize::from(x)].order = order;
        }
        if ok {
            out.push(u);
        }
    }
    out
}

/// 11.4b: who may rapid march.
fn may_rapid(sc: &Scenario, st: &State, m: &Mover) -> bool {
    let us = lead(st, m);
    !m.restricted
        && !m.backward
        && arm(sc, m) != Arm::Artillery
        && matches!(
            us.formation,
            Formation::Line
                | Formation::AttackColumn
                | Formation::RoadColumn
                | Formation::MarchColumn
        )
        && m.units.iter().all(|&u| {
            let s = &st.units[usize::from(u)];
            !s.disordered && !s.ooc
        })
}

/// The hexes an activated leader may move to (21.1a): his MA in leader costs, not into an EZOC
/// unless a friendly combat unit is there.
pub fn leader_reach(sc: &Scenario, st: &State, l: LeaderIx) -> Vec<HexId> {
    leader_steps(sc, st, l, false)
}

/// Who stands where for one side's leaders (21.1a), by the board's dense index: the enemies'
/// ZOC, the friendly and the enemy hexes; built once for every leader of a decision.
struct LeaderField {
    flags: Vec<u8>,
}

/// [`LeaderField`]: an enemy's ZOC, a friendly unit, an enemy unit in the hex.
const L_ZOC: u8 = 1;
const L_FRIEND: u8 = 2;
const L_ENEMY: u8 = 4;

impl LeaderField {
    fn new(sc: &Scenario, st: &State, side: u8) -> LeaderField {
        let d = &sc.board.dense;
        let mut flags = vec![0u8; d.ids.len()];
        let mut mark = |h: HexId, bit: u8| {
            if let Some(i) = d.ix(h) {
                flags[i as usize] |= bit;
            }
        };
        for h in crate::command::ezoc_set(sc, st, side).iter() {
            mark(h, L_ZOC);
        }
        for (i, s) in st.units.iter().enumerate() {
            if s.eliminated {
                continue;
            }
            let bit = if sc.units[i].side == side {
                L_FRIEND
            } else {
                L_ENEMY
            };
            for &h in &s.hexes {
                mark(h, bit);
            }
        }
        LeaderField { flags }
    }
}

/// [`leader_reach`], or (with `first`) as soon as one hex is found.
fn leader_steps(sc: &Scenario, st: &State, l: LeaderIx, first: bool) -> Vec<HexId> {
    let field = LeaderField::new(sc, st, sc.leaders[usize::from(l)].side);
    leader_steps_in(sc, st, l, first, |x| field.flags[x])
}

/// [`LeaderField`]'s flags of one hex for `side`, found without building the whole field; `z`:
/// the side's EZOC.
fn leader_flags_at(sc: &Scenario, st: &State, side: u8, z: &HexSet<'_>, h: HexId) -> u8 {
    let mut f = 0;
    if z.contains(&h) {
        f |= L_ZOC;
    }
    for (i, s) in st.units.iter().enumerate() {
        if !s.eliminated && s.hexes.contains(&h) {
            f |= if sc.units[i].side == side {
                L_FRIEND
            } else {
                L_ENEMY
            };
        }
    }
    f
}

/// [`leader_steps`] with the [`LeaderField`] flags of the leader's side given by dense index.
fn leader_steps_in(
    sc: &Scenario,
    st: &State,
    l: LeaderIx,
    first: bool,
    flag: impl Fn(usize) -> u8,
) -> Vec<HexId> {
    let Some(from) = st.leaders[usize::from(l)].hex else {
        return Vec::new();
    };
    let ma = Half::whole(u16::from(sc.leaders[usize::from(l)].ma));
    let d = &sc.board.dense;
    let Some(start) = d.ix(from) else {
        return Vec::new();
    };
    // The cost of a step from `gi` in direction `k`, if the leader may take it (21.1a, the board's
    // `leader_step`): never into an enemy, nor into an EZOC without friends there.
    let step_to = |gi: usize, k: usize| -> Option<(usize, u16)> {
        let step = d.leader_step[gi][k];
        if step == u16::MAX {
            return None;
        }
        let ni = d.nbr[gi][k] as usize;
        let f = flag(ni);
        if (f & L_ZOC != 0 && f & L_FRIEND == 0) || f & L_ENEMY != 0 {
            return None;
        }
        Some((ni, step))
    };
    let ma = ma.0;
    if first {
        // The first hex the search below would settle: the first open neighbour.
        return (0..6)
            .find_map(|k| step_to(start as usize, k).filter(|&(_, step)| step <= ma))
            .map(|(ni, _)| vec![d.ids[ni]])
            .unwrap_or_default();
    }
    // Dijkstra over the dense board in leader MP (half points), on a bucket queue: one bucket
    // per cost up to the MA, settled cheapest first (the same costs as a heap). The buckets are
    // lists threaded through one vector of (hex, next entry), `head` the last entry of each.
    let mut best: Vec<u16> = vec![u16::MAX; d.ids.len()];
    let mut head: Vec<u32> = vec![u32::MAX; usize::from(ma) + 1];
    let mut entries: Vec<(u32, u32)> = Vec::with_capacity(512);
    best[start as usize] = 0;
    entries.push((start, u32::MAX));
    head[0] = 0;
    for c in 0..head.len() {
        let cost = c as u16;
        while head[c] != u32::MAX {
            let (g, next) = entries[head[c] as usize];
            head[c] = next;
            let gi = g as usize;
            if best[gi] < cost {
                continue;
            }
            // A leader stops on entering an EZOC hex (it may only be entered with friends there).
            if g != start && flag(gi) & L_ZOC != 0 {
                continue;
            }
            for k in 0..6 {
                let Some((ni, step)) = step_to(gi, k) else {
                    continue;
                };
                let nc = cost + step;
                if nc > ma {
                    continue;
                }
                if nc < best[ni] {
                    best[ni] = nc;
                    let b = usize::from(nc);
                    entries.push((ni as u32, head[b]));
                    head[b] = (entries.len() - 1) as u32;
                }
            }
        }
    }
    // Every hex reached but the start, in the board's order (the dense index is sorted by hex id).
    best[start as usize] = u16::MAX;
    best.iter()
        .zip(&d.ids)
        .filter(|&(&b, _)| b != u16::MAX)
        .map(|(_, &h)| h)
        .collect()
}

/// Who decides in the movement phase.
pub fn decider(sc: &Scenario, st: &State) -> Option<u8> {
    match &st.phase {
        Phase::Movement | Phase::LeaderMoving { .. } => st.activation.as_ref().map(|a| a.side),
        Phase::Moving(m) => Some(m.side),
        Phase::Reaction { mover, .. } => Some(1 - mover.side),
        _ => {
            let _ = sc;
            None
        }
    }
}

/// Reactive units that could answer the mover in `hexes` (12.8 opportunity fire: a non-routed
/// firing formation with the hex in its front arc and fire range, artillery in its close zone;
/// 17.1 opportunity charge: cavalry in line or attack column, not shaken, not in an EZOC, the hex
/// within two of its front (one if disordered)). The firers' line of sight is the fire
/// package's (`fire::opportunity_firers`).
pub fn reactors(sc: &Scenario, st: &State, side: u8, hexes: &[HexId]) -> Vec<UnitIx> {
    let enemy = 1 - side;
    // The EZOC only matters for a cavalry that could charge: built at the first one (17.1).
    let mut own_ezoc: Option<HexSet<'_>> = None;
    // 12.8a: the units that could fire at the units in these hexes now (arc, range, sight;
    // artillery within its minimum range).
    let target = target_in(sc, st, side, hexes, &[]);
    let firers: HashSet<UnitIx> = crate::fire::opportunity_firers(sc, st, enemy, &target)
        .into_iter()
        .collect();
    let mut out = Vec::new();
    for (i, s) in st.units.iter().enumerate() {
        let u = &sc.units[i];
        if u.side != enemy || s.eliminated || s.hexes.is_empty() || s.routed {
            continue;
        }
        let in_front = |max: u32| {
            // A unit without a footprint has no front (and is never eligible).
            footprint_of(s).is_some_and(|fp| {
                hexes.iter().any(|&h| {
                    s.hexes.iter().any(|&x| x.distance(h) <= max)
                        && fp.arc_of(&Printed, h) == Some(Arc::Front)
                })
            })
        };
        let eligible = match u.arm {
            Arm::Cavalry => {
                matches!(s.formation, Formation::Line | Formation::AttackColumn)
                    && !s.shaken
                    && in_front(if s.disordered { 1 } else { 2 })
                    && !in_ezoc(
                        own_ezoc.get_or_insert_with(|| ezoc(sc, st, enemy)),
                        &s.hexes,
                    )
            }
            // A unit without a footprint (never on the map in a valid one) is not eligible.
            Arm::Infantry | Arm::Artillery => {
                firers.contains(&(i as UnitIx)) && footprint_of(s).is_some()
            }
        };
        if eligible {
            out.push(i as UnitIx);
        }
    }
    out
}

/// The target of an opportunity fire in `hexes`: the movers first (they take the losses first,
/// 12.9c), then the other units of `side` there (12.8f: they count for the size).
pub fn target_in(
    sc: &Scenario,
    st: &State,
    side: u8,
    hexes: &[HexId],
    movers: &[UnitIx],
) -> Vec<UnitIx> {
    let mut out: Vec<UnitIx> = movers.iter().copied().filter(|&u| st.on_map(u)).collect();
    let mut rest: Vec<UnitIx> = (0..st.units.len() as UnitIx)
        .filter(|&u| {
            sc.units[usize::from(u)].side == side
                && st.on_map(u)
                && !out.contains(&u)
                && st.units[usize::from(u)]
                    .hexes
                    .iter()
                    .any(|h| hexes.contains(h))
        })
        .collect();
    rest.sort_by_key(|&u| st.units[usize::from(u)].order);
    out.extend(rest);
    out
}

/// Offer the reactive player his chance, or say why nobody is asked, then go on with `then`.
fn trigger(
    sc: &Scenario,
    st: &State,
    m: Mover,
    t: Trigger,
    pending: Option<Action>,
    ev: &mut Vec<Event>,
) -> Result<Phase, Box<Mover>> {
    let hexes = match &t {
        Trigger::Change(h) | Trigger::Leave(h) => *h,
    };
    let who = reactors(sc, st, m.side, &hexes);
    let what = match t {
        Trigger::Change(_) => "a facing/formation change",
        Trigger::Leave(_) => "leaving the hex",
    };
    let names = names(sc, &m.units);
    if who.is_empty() {
        ev.push(Event::NoReaction {
            units: names,
            what: what.into(),
            hexes: hexes.iter().map(|&h| sc.board.label(h)).collect(),
        });
        return Err(Box::new(m));
    }
    Ok(Phase::Reaction {
        mover: Box::new(m),
        trigger: t,
        pending,
        reactors: who,
        fired: Vec::new(),
    })
}

fn names(sc: &Scenario, units: &[UnitIx]) -> Vec<String> {
    units
        .iter()
        .map(|&u| sc.units[usize::from(u)].name.clone())
        .collect()
}

/// Apply a movement-phase action.
pub fn apply(
    sc: &Scenario,
    st: &mut State,
    phase: Phase,
    a: &Action,
    ev: &mut Vec<Event>,
) -> Phase {
    match (phase, a) {
        (Phase::Movement, Action::MovementDone) => {
            if let Some(act) = &st.activation {
                ev.push(Event::Movement {
                    army: sc.armies[usize::from(act.side)].name.clone(),
                    text: "ends the movement phase".into(),
                    rule: "11.0".into(),
                });
            }
            Phase::AfterMovement
        }
        (Phase::Movement, Action::MoveUnit(u)) => {
            separate(sc, st, &[*u], ev);
            let m = start(sc, st, vec![*u]);
            ev.push(Event::Movement {
                army: sc.armies[usize::from(m.side)].name.clone(),
                text: format!(
                    "{} begins to move {}",
                    sc.units[usize::from(*u)].name,
                    begins(&m)
                ),
                rule: "11.1".into(),
            });
            Phase::Moving(Box::new(m))
        }
        (Phase::Movement, Action::MoveStack(u)) => {
            let units = stack_of(sc, st, *u);
            separate(sc, st, &units, ev);
            let m = start(sc, st, units);
            ev.push(Event::Movement {
                army: sc.armies[usize::from(m.side)].name.clone(),
                text: format!(
                    "the stack of {} begins to move {}",
                    sc.names(&m.units, ", "),
                    begins(&m)
                ),
                rule: "11.1b".into(),
            });
            Phase::Moving(Box::new(m))
        }
        (Phase::Movement, Action::MoveLeader(l)) => Phase::LeaderMoving { leader: *l },
        (Phase::Movement, Action::Top(u)) => {
            put_on_top(st, *u);
            if let Some(act) = st.activation.as_mut() {
                act.restacked.push(*u);
            }
            ev.push(Event::Movement {
                army: sc.armies[usize::from(sc.units[usize::from(*u)].side)]
                    .name
                    .clone(),
                text: format!(
                    "puts {} on top of its stack",
                    sc.units[usize::from(*u)].name
                ),
                rule: "10.6f".into(),
            });
            Phase::Movement
        }
        (Phase::Movement, Action::VoluntaryRout(u)) => {
            crate::voluntary_rout::declare(sc, st, *u, ev)
        }
        (Phase::Movement, Action::VoluntaryRoutDone) => crate::voluntary_rout::execute(sc, st, ev),
        (Phase::Movement, Action::Breakdown(p)) => {
            crate::breakdown::apply_breakdown(sc, st, *p, ev)
        }
        (Phase::Movement, a @ Action::Reform(..)) => crate::breakdown::apply_reform(sc, st, a, ev),
        (Phase::LeaderMoving { leader }, Action::Stop) => {
            if let Some(act) = st.activation.as_mut() {
                act.moved_leaders.push(leader);
            }
            let d = &sc.leaders[usize::from(leader)];
            let place = st.leaders[usize::from(leader)].hex.map_or_else(
                || "off the map".to_string(),
                |h| format!("in {}", sc.board.label(h)),
            );
            ev.push(Event::Movement {
                army: sc.armies[usize::from(d.side)].name.clone(),
                text: format!("{} stays {place}", d.name),
                rule: "21.1a".into(),
            });
            Phase::Movement
        }
        (Phase::LeaderMoving { .. }, Action::LeaderTo(l, h)) => {
            st.leaders[usize::from(*l)].hex = Some(*h);
            if let Some(act) = st.activation.as_mut() {
                act.moved_leaders.push(*l);
            }
            ev.push(Event::Movement {
                army: sc.armies[usize::from(sc.leaders[usize::from(*l)].side)]
                    .name
                    .clone(),
                text: format!(
                    "{} moves to {}",
                    sc.leaders[usize::from(*l)].name,
                    sc.board.label(*h)
                ),
                rule: "21.1a".into(),
            });
            Phase::Movement
        }
        (Phase::Moving(m), a) => moving(sc, st, *m, a, ev),
        (
            Phase::Reaction {
                mover,
                trigger,
                pending,
                reactors,
                mut fired,
            },
            Action::OppFire(art, old),
        ) => {
            fired.push(*art);
            opportunity_fire(
                sc,
                st,
                *mover,
                trigger,
                pending,
                reactors,
                fired,
                (*art, *old),
                ev,
            )
        }
        // pursuit (16) / opportunity charge (17)
        (
            Phase::Reaction {
                mover,
                trigger,
                pending,
                reactors,
                fired,
            },
            Action::OppCharge(u),
        ) => crate::opportunity_charge::declare(
            sc,
            st,
            crate::opportunity_charge::Resume {
                mover: *mover,
                trigger,
                pending,
                reactors,
                fired,
                disordered: Vec::new(),
                at: Vec::new(),
                recalled: false,
            },
            *u,
            ev,
        ),
        (Phase::Reaction { mover, pending, .. }, Action::Pass) => {
            ev.push(Event::Movement {
                army: sc.armies[usize::from(1 - mover.side)].name.clone(),
                text: "lets the move go on (no opportunity fire or charge)".into(),
                rule: "12.8, 17.0".into(),
            });
            match pending {
                Some(p) => execute(sc, st, *mover, &p, None, ev),
                None => after_action(sc, st, *mover, ev),
            }
        }
        (p, _) => p,
    }
}

/// Opportunity fire at the mover (12.8): the reactive groups of one type fire together at the
/// mover's stack (the movers first, 12.9c, 12.8f); then the move goes on, stops (a failed DC C,
/// 18.2d) or ends in a rout (12.9h, 19.2).
#[allow(clippy::too_many_arguments)]
fn opportunity_fire(
    sc: &Scenario,
    st: &mut State,
    mut m: Mover,
    trigger: Trigger,
    pending: Option<Action>,
    reactors: Vec<UnitIx>,
    fired: Vec<bool>,
    (art, old): (bool, bool),
    ev: &mut Vec<Event>,
) -> Phase {
    let mut hexes = match &trigger {
        Trigger::Change(h) | Trigger::Leave(h) => *h,
    };
    // 12.8c: fired at the aspect before the change, then back to the new one.
    let now = lead(st, &m);
    let new_aspect = (now.hexes, now.facing, now.formation);
    let old_aspect = if old { changed_aspect(st, &m) } else { None };
    if let Some(a) = &old_aspect {
        ev.push(Event::Movement {
            army: sc.armies[usize::from(1 - m.side)].name.clone(),
            text: format!(
                "fires at the aspect before the change: {} facing {} in {}",
                a.2.name(),
                a.1.name(),
                sc.board.labels(&a.0[..], "-")
            ),
            rule: "12.8c".into(),
        });
        set_aspect(st, &m.units, a);
        hexes = a.0;
    }
    let target = target_in(sc, st, m.side, &hexes, &m.units);
    let groups = crate::fire::opportunity_groups(sc, st, 1 - m.side, &target, art);
    let o = crate::fire::resolve_opportunity(sc, st, &groups, &target, &m.units, ev);
    if old_aspect.is_some() {
        let alive: Vec<UnitIx> = m.units.iter().copied().filter(|&u| st.on_map(u)).collect();
        set_aspect(st, &alive, &new_aspect);
        // 12.9j: the losses contract the new aspect too, if its SPs no longer fill it.
        crate::fire::contract(sc, st, &alive, ev);
    }
    m.units
        .retain(|&u| st.on_map(u) && !st.units[usize::from(u)].routed);
    if m.units.is_empty() {
        // Eliminated or routed: its movement is over (its rout retreat is a job).
        if let Some(act) = st.activation.as_mut() {
            act.moved.extend(target.iter().copied());
        }
        st.stack.push(Phase::Movement);
        return Phase::Idle;
    }
    if o.failed_dc {
        m.must_stop = true;
        m.stop_why = "stops: disordered by opportunity fire (18.2d)".into();
        let p = finish(
            sc,
            st,
            m,
            "stops: disordered by opportunity fire (18.2d)",
            ev,
        );
        st.stack.push(p);
        return Phase::Idle;
    }
    let back = Phase::Reaction {
        mover: Box::new(m),
        trigger,
        pending,
        reactors,
        fired,
    };
    let more = {
        let saved = std::mem::replace(&mut st.phase, back);
        let n = legal(sc, st).len();
        let back = std::mem::replace(&mut st.phase, saved);
        (n, back)
    };
    if more.0 > 1 {
        // The other type may still fire.
        st.stack.push(more.1);
        return Phase::Idle;
    }
    let Phase::Reaction { mover, pending, .. } = more.1 else {
        return Phase::Idle;
    };
    let p = match pending {
        Some(p) => execute(sc, st, *mover, &p, None, ev),
        None => after_action(sc, st, *mover, ev),
    };
    st.stack.push(p);
    Phase::Idle
}

/// The aspect the mover had before its last action, if that action changed it (12.8c).
fn changed_aspect(st: &State, m: &Mover) -> Option<(Hexes, Facing, Formation)> {
    let l = lead(st, m);
    m.before
        .filter(|b| (b.0.as_slice(), b.1, b.2) != (l.hexes.as_slice(), l.facing, l.formation))
}

/// Give units an aspect: hexes, facing, formation (guns keep theirs, 10.12c).
fn set_aspect(st: &mut State, units: &[UnitIx], a: &(Hexes, Facing, Formation)) {
    for &u in units {
        let s = &mut st.units[usize::from(u)];
        s.hexes = a.0;
        s.facing = a.1;
        if !matches!(s.formation, Formation::Limbered | Formation::Unlimbered) {
            s.formation = a.2;
        }
    }
}

/// A decision of the moving unit.
fn moving(sc: &Scenario, st: &mut State, mut m: Mover, a: &Action, ev: &mut Vec<Event>) -> Phase {
    // The chosen action's details, from the menu `legal` worked out for this position.
    let known = recall_menu(sc, st, &m, |menu| Some(menu.known(sc, a)));
    match a {
        Action::Stop => finish(sc, st, m, "stops", ev),
        Action::Rapid => {
            m.rapid = true;
            let printed = u32::from(printed_ma(sc, &m.units));
            let ma = Half::whole((printed + drop_fraction(printed, 2)) as u16);
            m.left = m.left + ma - m.ma;
            m.ma = ma;
            m.dc_a.push("rapid_march".into());
            ev.push(Event::Movement {
                army: sc.armies[usize::from(m.side)].name.clone(),
                text: format!("{}: rapid march, {} MP", sc.names(&m.units, ", "), m.ma),
                rule: "11.4a".into(),
            });
            Phase::Moving(Box::new(m))
        }
        Action::Adopt(f, fc) => {
            for &u in &m.units {
                let s = &mut st.units[usize::from(u)];
                s.formation = *f;
                s.facing = *fc;
            }
            m.adopt = false;
            m.must_stop = true;
            m.stop_why = "left general order (8.4i)".into();
            ev.push(Event::Movement {
                army: sc.armies[usize::from(m.side)].name.clone(),
                text: format!(
                    "{} leaves general order: {} facing {}",
                    sc.names(&m.units, ", "),
                    f.name(),
                    fc.name()
                ),
                rule: "8.4i".into(),
            });
            finish(sc, st, m, "adopts its formation", ev)
        }
        Action::Step(_) | Action::Back(_) | Action::Prolonge(_) => {
            // 12.8d: the reactive player answers before the unit leaves its hex (11.6: a
            // prolonge step out of an EZOC too).
            let hexes = lead(st, &m).hexes;
            match trigger(
                sc,
                st,
                m,
                Trigger::Leave(Hexes::from(&hexes[..])),
                Some(a.clone()),
                ev,
            ) {
                Ok(p) => p,
                // Nobody was asked: the position is the menu's.
                Err(m) => execute(sc, st, *m, a, known.flatten(), ev),
            }
        }
        _ => {
            let l = lead(st, &m);
            m.before = Some((l.hexes, l.facing, l.formation));
            execute(sc, st, m, a, known.flatten(), ev)
        }
    }
}

/// Carry out a move or change (after any leave trigger was answered).
/// `known`: the action's details from the menu of this very position, if kept ([`Known`]).
fn execute(
    sc: &Scenario,
    st: &mut State,
    mut m: Mover,
    a: &Action,
    known: Option<Known>,
    ev: &mut Vec<Event>,
) -> Phase {
    let army = sc.armies[usize::from(m.side)].name.clone();
    if let Action::Form(..) = a {
        let remembered = match known {
            Some(Known::Change(c)) => c,
            _ => open_change_of(sc, st, &m, a),
        };
        let Some(c) = remembered else {
            return Phase::Moving(Box::new(m));
        };
        let before = lead(st, &m).formation;
        let was = lead(st, &m).hexes;
        apply_change(st, &c);
        let entered: Vec<HexId> = c
            .hexes
            .iter()
            .copied()
            .filter(|h| !was.contains(h))
            .collect();
        displace_leaders(sc, st, m.side, &entered, ev);
        if c.ends_movement && nonclear(sc, &c.hexes) && c.cost < m.ma {
            // 8.7: an asterisked change in non-clear terrain is the unit's only action; the
            // DC (A) follows (18.2b).
            m.dc_a.push("formation_non_clear".into());
        }
        if !c.must_leave.is_empty() {
            // 10.12c, 8.6b, 10.4f: the guns limbered among infantry go on alone and must leave;
            // the infantry's change ends its movement if it says so.
            let staying: Vec<UnitIx> = m
                .units
                .iter()
                .copied()
                .filter(|u| !c.must_leave.contains(u))
                .collect();
            if let Some(act) = st.activation.as_mut()
                && c.ends_movement
            {
                act.moved.extend(staying.iter().copied());
            }
            let guns_ma = Half::whole(u16::from(printed_ma(sc, &c.must_leave)));
            let pay = c.leave_cost.unwrap_or(c.cost);
            m.units = c.must_leave.clone();
            m.ma = guns_ma;
            m.left = guns_ma.saturating_sub(pay);
            m.spent = true;
            m.among = staying;
        } else {
            spend(&mut m, c.cost);
            if c.ends_movement {
                m.must_stop = true;
                m.stop_why = format!("the change ends its movement ({})", c.rule);
            }
        }
        m.last_step = None;
        m.turned_here = true;
        ev.push(Event::Movement {
            army,
            text: format!(
                "{}: {} → {} facing {} in {} for {} MP, {} left",
                sc.names(&m.units, ", "),
                before.name(),
                c.formations.first().map_or("?", |x| x.1.name()),
                c.facing.name(),
                sc.board.labels(&c.hexes[..], "-"),
                c.cost,
                m.left
            ),
            rule: c.rule.into(),
        });
        return change_trigger(sc, st, m, ev);
    }
    let remembered = match known {
        Some(Known::Move(x)) => x,
        _ => open_move_of(sc, st, &m, a),
    };
    let Some((mv, cost)) = remembered else {
        return Phase::Moving(Box::new(m));
    };
    let us = lead(st, &m).clone();
    // 9.3c: an attack column tests (B) before each facing change.
    if mv.kind == MoveKind::Turn && us.formation == Formation::AttackColumn {
        let out = checks::roll(
            sc,
            st,
            &m.units,
            Spec::dc('B', "Attack column facing change", "9.3c, 18.2c"),
        );
        let passed = out.passed;
        let mut e = out.event;
        e.result = if passed {
            "the column turns".into()
        } else {
            "no change, disordered, its movement is over".into()
        };
        ev.push(Event::Check(e));
        if !passed {
            disorder(sc, st, &m.units.clone(), "9.3c", ev);
            m.must_stop = true;
            m.stop_why = "failed its facing change (9.3c)".into();
            return finish(sc, st, m, "ends its movement", ev);
        }
    }
    let from = us.hexes;
    // 11.9c: a skirmisher entering an enemy ZOC rolls d100 ≥ its ER first (not a check); a
    // failure ends its movement where it stands.
    if mv.kind == MoveKind::Step && us.formation == Formation::Skirmish {
        let z = ezoc(sc, st, m.side);
        if mv.hexes.iter().any(|h| z.contains(h) && !from.contains(h)) {
            let roll = checks::percentile(st);
            let er = sc.units[usize::from(m.units[0])].er;
            let enters = roll.value() >= er;
            ev.push(Event::Movement {
                army: army.clone(),
                text: format!(
                    "{} rolls to enter an enemy ZOC: d100 {roll} {} ER {er} — {}",
                    sc.names(&m.units, ", "),
                    if enters { "≥" } else { "<" },
                    if enters {
                        "it enters"
                    } else {
                        "it cannot enter and its movement ends"
                    }
                ),
                rule: "11.9c".into(),
            });
            if !enters {
                m.must_stop = true;
                m.stop_why = "failed to enter an enemy ZOC (11.9c)".into();
                return finish(sc, st, m, "ends its movement", ev);
            }
        }
    }
    // Leaving a hex among friends: interpenetration is judged now (10.7a).
    let leaving = matches!(
        mv.kind,
        MoveKind::Step | MoveKind::Back | MoveKind::Prolonge
    ) || mv.hexes.iter().any(|h| !from.contains(h));
    if leaving && !m.among.is_empty() {
        let stationary: Vec<UnitIx> = m
            .among
            .iter()
            .copied()
            .filter(|u| {
                st.units[usize::from(*u)]
                    .hexes
                    .iter()
                    .any(|h| from.contains(h) && !mv.hexes.contains(h))
            })
            .collect();
        let is_start = from == m.start;
        if !stationary.is_empty()
            && !is_start
            && crate::stacking::interpenetration(sc, st, &m.units, &stationary, m.turned_here)
        {
            if !m.dc_a.iter().any(|k| k == "interpenetration") {
                m.dc_a.push("interpenetration".into());
            }
            for u in stationary {
                if !m.passed.contains(&u) {
                    m.passed.push(u);
                }
            }
        }
    }
    spend(&mut m, cost);
    m.pending = mv.dc;
    place(st, &m, &mv.hexes, mv.facing);
    let entered: Vec<HexId> = mv
        .hexes
        .iter()
        .copied()
        .filter(|h| !from.contains(h))
        .collect();
    displace_leaders(sc, st, m.side, &entered, ev);
    match mv.kind {
        MoveKind::Step | MoveKind::Back => {
            if let (Facing::Point(_), Some(&h0), Some(&f0)) =
                (us.facing, mv.hexes.first(), from.first())
            {
                m.last_step = f0.direction_to(h0);
            }
            if mv.kind == MoveKind::Back && us.formation != Formation::Skirmish {
                m.backward = true;
                if !m.dc_a.iter().any(|k| k == "backward") {
                    m.dc_a.push("backward".into());
                }
            }
            for &h in &mv.hexes {
                if !from.contains(&h) {
                    m.path.push(h);
                }
            }
            m.turned_here = false;
        }
        MoveKind::Turn | MoveKind::Reverse => {
            m.last_step = None;
            m.turned_here = true;
        }
        // 11.5b: between two moves, on a hex.
        MoveKind::Extend => {
            for &h in &mv.hexes {
                if !from.contains(&h) && !m.path.contains(&h) {
                    m.path.push(h);
                }
            }
        }
        MoveKind::Contract => {}
        MoveKind::Prolonge => {
            m.path
                .extend(mv.hexes.iter().copied().filter(|h| !from.contains(h)));
            m.must_stop = true;
            m.stop_why = "moved its one hex by prolonge (11.6)".into();
        }
    }
    let new_among: Vec<UnitIx> = mv
        .hexes
        .iter()
        .flat_map(|&h| units_in(st, h))
        .filter(|u| !m.units.contains(u))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    m.among = new_among;
    m.among.sort_unstable();
    let what = match (&mv.kind, a) {
        (MoveKind::Reverse, _) => "reverses its direction (9.6: its only action)".to_string(),
        (MoveKind::Turn, Action::Wheel(end, s)) => format!(
            "wheels {} hexpoint{} on its {} end",
            s.unsigned_abs(),
            if s.unsigned_abs() == 1 { "" } else { "s" },
            end_name(*end)
        ),
        (MoveKind::Turn, _) => format!("faces {}", mv.facing.name()),
        (MoveKind::Back, _) => "moves backward".to_string(),
        (MoveKind::Extend, _) => "extends".to_string(),
        (MoveKind::Contract, _) => "contracts".to_string(),
        (MoveKind::Prolonge, _) => "moves by prolonge, keeping its facing,".to_string(),
        (MoveKind::Step, _) => "moves".to_string(),
    };
    let rule = match (&mv.kind, a) {
        (MoveKind::Reverse, _) => "9.6",
        (MoveKind::Turn, Action::Wheel(..)) => "9.4b",
        (MoveKind::Turn, _) => "9.3",
        (MoveKind::Back, _) => {
            if us.formation == Formation::Skirmish {
                "11.8"
            } else {
                "11.7"
            }
        }
        (MoveKind::Step, Action::ColumnTurn(_)) => "9.4a",
        (MoveKind::Extend | MoveKind::Contract, _) => "11.5",
        (MoveKind::Prolonge, _) => "11.6",
        (MoveKind::Step, _) => "11.1",
    };
    ev.push(Event::Movement {
        army,
        text: format!(
            "{} {what} to {} for {} MP, {} left",
            sc.names(&m.units, ", "),
            sc.board.labels(&mv.hexes[..], "-"),
            cost,
            m.left
        ),
        rule: rule.into(),
    });
    if mv.kind == MoveKind::Reverse {
        m.must_stop = true;
        m.stop_why = "reversed (9.6a)".into();
    }
    if mv.kind == MoveKind::Prolonge {
        return after_action(sc, st, m, ev);
    }
    // 8.2b, 8.4i: infantry entering general-order terrain changes to general order and stops;
    // a unit in general order entering other terrain adopts a formation and stops.
    if matches!(mv.kind, MoveKind::Step | MoveKind::Back) {
        let go = mv
            .hexes
            .iter()
            .any(|h| sc.board.tec_row(*h).is_some_and(|r| r.general_order));
        let inf = arm(sc, &m) == Arm::Infantry;
        if us.formation == Formation::GeneralOrder {
            if go {
                m.must_stop = true;
                m.stop_why = "moved in general order (8.1h)".into();
            } else {
                m.adopt = true;
            }
        } else if go && inf && us.formation != Formation::Skirmish {
            let h0 = mv.hexes[0];
            for &u in &m.units {
                let s = &mut st.units[usize::from(u)];
                s.formation = Formation::GeneralOrder;
                s.hexes = Hexes::one(h0);
                if let Facing::Side(d) = s.facing {
                    s.facing = Facing::Point(d.vertices()[0]);
                }
            }
            m.must_stop = true;
            m.stop_why = "entered general-order terrain (8.2b, 8.4i)".into();
            ev.push(Event::Movement {
                army: sc.armies[usize::from(m.side)].name.clone(),
                text: format!("{} changes to general order", sc.names(&m.units, ", ")),
                rule: "8.4i".into(),
            });
        }
        // 7.6c: the one-hex move into an EZOC is the unit's only action.
        if m.restricted {
            let z = ezoc(sc, st, m.side);
            if in_ezoc(&z, &mv.hexes) {
                m.must_stop = true;
                m.stop_why = "out of command, it entered an enemy ZOC (7.6c)".into();
            }
        }
        // 11.9c: a skirmisher rolls to enter an EZOC.
        // (Rolled on entering; a failure ends its movement where it stands.)
        return after_action(sc, st, m, ev);
    }
    change_trigger(sc, st, m, ev)
}

/// 21.1b, 21.1d: an enemy leader alone in a hex the mover enters (no combat unit of his side
/// there) does not stop it: he goes to an adjacent hex holding no enemy and not in an enemy ZOC
/// (unless his own combat units are there, 21.1a), or is eliminated if there is none. The owner's
/// choice is made for him: a hex with his own combat units first, then the one nearest his army's
/// rear (20.2g's sense), then the lowest hex id (docs/bar.md). He is not marked FINISHED.
fn displace_leaders(
    sc: &Scenario,
    st: &mut State,
    side: u8,
    entered: &[HexId],
    ev: &mut Vec<Event>,
) {
    if entered.is_empty() {
        return;
    }
    let enemy = 1 - side;
    let present: Vec<LeaderIx> = (0..sc.leaders.len() as LeaderIx)
        .filter(|&l| {
            let s = &st.leaders[usize::from(l)];
            sc.leaders[usize::from(l)].side == enemy
                && s.status == crate::state::LeaderStatus::Present
                && s.hex.is_some_and(|h| entered.contains(&h))
        })
        .collect();
    if present.is_empty() {
        return;
    }
    let own_at = |st: &State, s: u8, h: HexId| {
        units_in(st, h)
            .iter()
            .any(|&u| sc.units[usize::from(u)].side == s)
    };
    let tec = &sc.charts.tec;
    for l in present {
        let Some(here) = st.leaders[usize::from(l)].hex else {
            continue;
        };
        if own_at(st, enemy, here) {
            continue;
        }
        let z = ezoc(sc, st, enemy);
        let rear = f64::from(sc.armies[usize::from(enemy)].rear);
        let mut best: Option<(bool, i32, HexId)> = None;
        for (_, n) in here.neighbours() {
            let Some(info) = sc.board.hexes.get(&n) else {
                continue;
            };
            let passable =
                tec.terrain
                    .get(&info.terrain)
                    .is_some_and(|r| !r.impassable_to_leaders)
                    && sc.board.hexside(here, n).is_none_or(|k| {
                        tec.hexside.get(k).is_some_and(|x| !x.impassable_to_leaders)
                    });
            let friends = own_at(st, enemy, n);
            if !passable || own_at(st, side, n) || (z.contains(&n) && !friends) {
                continue;
            }
            let d = (here.bearing_to(n) - rear + 540.0).rem_euclid(360.0) - 180.0;
            let key = (friends, -((d.abs() / 30.0).round() as i32), n);
            let better = match &best {
                None => true,
                Some((bf, bd, bh)) => {
                    (key.0, key.1) > (*bf, *bd) || ((key.0, key.1) == (*bf, *bd) && n < *bh)
                }
            };
            if better {
                best = Some(key);
            }
        }
        let name = sc.leaders[usize::from(l)].name.clone();
        let army = sc.armies[usize::from(enemy)].name.clone();
        match best {
            Some((_, _, to)) => {
                st.leaders[usize::from(l)].hex = Some(to);
                ev.push(Event::Movement {
                    army,
                    text: format!(
                        "{name} is displaced by the enemy's move from {} to {}",
                        sc.board.label(here),
                        sc.board.label(to)
                    ),
                    rule: "21.1b".into(),
                });
            }
            None => {
                crate::leaders::kill(sc, st, l);
                ev.push(Event::LeaderRemoved {
                    leader: name,
                    why: format!(
                        "alone in {} entered by the enemy, with no adjacent hex free of enemies and their ZOC: eliminated (21.1b)",
                        sc.board.label(here)
                    ),
                });
            }
        }
    }
}

/// Whether any of the hexes is non-clear terrain (8.7).
fn nonclear(sc: &Scenario, hexes: &[HexId]) -> bool {
    hexes
        .iter()
        .any(|h| sc.board.tec_row(*h).is_some_and(|r| r.non_clear))
}

/// A breakdown or reformation (8.5) was made: the new `units` (one stack, top first) are a
/// formation change the reactive player may answer (8.5: 12.8, 17.0); then the phase goes back
/// to choosing what moves (`Mover::free`).
pub(crate) fn free_change(
    sc: &Scenario,
    st: &mut State,
    units: Vec<UnitIx>,
    ev: &mut Vec<Event>,
) -> Phase {
    let mut m = start(sc, st, units);
    m.free = true;
    change_trigger(sc, st, m, ev)
}

/// After a facing or formation change: the reactive player's chance, once per hex (12.8c, e).
fn change_trigger(sc: &Scenario, st: &mut State, mut m: Mover, ev: &mut Vec<Event>) -> Phase {
    let hexes = lead(st, &m).hexes;
    let key = hexes[0];
    if m.change_asked.contains(&key) {
        return after_action(sc, st, m, ev);
    }
    m.change_asked.push(key);
    match trigger(
        sc,
        st,
        m,
        Trigger::Change(Hexes::from(&hexes[..])),
        None,
        ev,
    ) {
        Ok(p) => p,
        Err(m) => after_action(sc, st, *m, ev),
    }
}

/// Spend MPs: any further expense makes the DC (A) terrain of the last one count (11.2d).
fn spend(m: &mut Mover, cost: Half) {
    if cost > Half::ZERO {
        for _ in 0..m.pending {
            m.dc_a.push("non_clear".into());
        }
        m.pending = 0;
        m.spent = true;
    }
    m.left = m.left.saturating_sub(cost);
}

/// After an action: the mover goes on, or its movement ends.
fn after_action(sc: &Scenario, st: &mut State, m: Mover, ev: &mut Vec<Event>) -> Phase {
    if m.adopt {
        return Phase::Moving(Box::new(m));
    }
    if m.must_stop {
        let why = m.stop_why.clone();
        return finish(sc, st, m, &why, ev);
    }
    if m.free {
        // 8.5a–b: the breakdown or reformation is made; the units may now move with their full
        // MPs, each picked as any other.
        return Phase::Movement;
    }
    // The menu, kept for the `legal` or `sample` that will read it (the position as it will
    // stand, the mover's phase set), checked until an open entry is found: a mover with none
    // stops.
    let mut looks = Looks::default();
    let mut cands = Cands::new(sc, st, &m, &mut looks);
    if !cands.any_open(sc, st, &m, &mut looks) {
        return finish(sc, st, m, "has no move left", ev);
    }
    let mut state = st.clone();
    state.phase = Phase::Moving(Box::new(m.clone()));
    MENU.with(|c| {
        *c.borrow_mut() = Some(Menu {
            scenario: crate::memo::scenario_key(sc),
            state,
            cands,
        });
    });
    Phase::Moving(Box::new(m))
}

/// Disorder units (18.5c: a disordered unit becomes shaken/disordered; skirmishers never, 18.4).
pub fn disorder(
    sc: &Scenario,
    st: &mut State,
    units: &[UnitIx],
    rule: &'static str,
    ev: &mut Vec<Event>,
) {
    let mut names_d = Vec::new();
    let mut names_s = Vec::new();
    for &u in units {
        let s = &mut st.units[usize::from(u)];
        if s.formation == Formation::Skirmish || s.routed {
            continue;
        }
        if s.disordered {
            if !s.shaken {
                s.shaken = true;
                names_s.push(sc.units[usize::from(u)].name.clone());
            }
        } else {
            s.disordered = true;
            names_d.push(sc.units[usize::from(u)].name.clone());
        }
    }
    if !names_d.is_empty() {
        ev.push(Event::State {
            units: names_d,
            state: "disordered".into(),
            rule,
        });
    }
    if !names_s.is_empty() {
        ev.push(Event::State {
            units: names_s,
            state: "shaken and disordered".into(),
            rule: "18.5c",
        });
    }
}

/// The unit's movement ends: stacking (10.1, 10.10), the DC (A) for it and those it passed
/// through (18.2b, 10.7a, 18.2g), and the phase goes on with the next unit.
fn finish(sc: &Scenario, st: &mut State, m: Mover, why: &str, ev: &mut Vec<Event>) -> Phase {
    let army = sc.armies[usize::from(m.side)].name.clone();
    ev.push(Event::Movement {
        army,
        text: format!(
            "{} {why} in {} ({} of {} MP left)",
            sc.names(&m.units, ", "),
            sc.board.labels(&lead(st, &m).hexes[..], "-"),
            m.left,
            m.ma
        ),
        rule: "11.1".into(),
    });
    if let Some(act) = st.activation.as_mut() {
        act.moved.extend(m.units.iter().copied());
    }
    // 10.13: an involuntary illegal stack routs the mover; the others test (F).
    if !stack_legal(sc, st, &m) {
        let here: Vec<UnitIx> = lead(st, &m)
            .hexes
            .iter()
            .flat_map(|&h| units_in(st, h))
            .filter(|u| !m.units.contains(u))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let skirm = lead(st, &m).formation == Formation::Skirmish;
        let from = crate::retreat::nearest_enemies(sc, st, m.units[0]);
        for &u in &m.units {
            st.units[usize::from(u)].routed = true;
        }
        ev.push(Event::State {
            units: names(sc, &m.units),
            state: "routed: an illegal stack".into(),
            rule: "10.13b",
        });
        st.jobs.push(crate::state::Job::Rout {
            units: m.units.clone(),
            from,
        });
        if !skirm && !here.is_empty() {
            let mut here = here;
            here.sort_unstable();
            st.jobs.push(crate::state::Job::MoraleF(here));
        }
        st.stack.push(Phase::Movement);
        return Phase::Idle;
    }
    // 10.10, 18.7c: a stack takes its worst state.
    let here: Vec<UnitIx> = lead(st, &m)
        .hexes
        .iter()
        .flat_map(|&h| units_in(st, h))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    if here.len() > m.units.len() {
        let dis = here.iter().any(|&u| st.units[usize::from(u)].disordered);
        let sh = here.iter().any(|&u| st.units[usize::from(u)].shaken);
        for &u in &here {
            let s = &mut st.units[usize::from(u)];
            s.disordered |= dis && s.formation != Formation::Skirmish;
            s.shaken |= sh;
        }
    }
    // 18.2b: one DC (A) at the end of the movement, each action's modifier added.
    if !m.dc_a.is_empty() {
        let extra: Vec<&str> = m.dc_a.iter().map(String::as_str).collect();
        dc_a(sc, st, &m.units, &extra, ev);
        if !m.passed.is_empty() {
            let mut stacks: BTreeMap<Vec<HexId>, Vec<UnitIx>> = BTreeMap::new();
            for &u in &m.passed {
                if st.on_map(u) {
                    stacks
                        .entry(st.units[usize::from(u)].hexes.to_vec())
                        .or_default()
                        .push(u);
                }
            }
            for (_, units) in stacks {
                dc_a(sc, st, &units, &["interpenetration"], ev);
            }
        }
    }
    Phase::Movement
}

/// A movement actions disorder check (A) (18.2b).
fn dc_a(sc: &Scenario, st: &mut State, units: &[UnitIx], extra: &[&str], ev: &mut Vec<Event>) {
    if units
        .iter()
        .all(|&u| st.units[usize::from(u)].formation == Formation::Skirmish)
    {
        return;
    }
    let out = checks::roll(
        sc,
        st,
        units,
        Spec::dc('A', "Movement actions", "18.2b").with(extra),
    );
    let mut e = out.event;
    let passed = out.passed;
    e.result = if passed {
        String::new()
    } else {
        "disordered".into()
    };
    ev.push(Event::Check(e));
    if out.lose_sp > 0 {
        let top = checks::tester(sc, st, units);
        crate::retreat::lose(
            sc,
            st,
            top,
            out.lose_sp,
            "disorder check special result",
            "18.1a",
            ev,
        );
        crate::fire::contract(sc, st, units, ev);
    }
    if !passed {
        disorder(sc, st, units, "18.2b", ev);
    }
}

/// The action's label.
pub fn label(sc: &Scenario, st: &State, a: &Action) -> Option<String> {
    let u = |i: &UnitIx| sc.units[usize::from(*i)].name.clone();
    let cost_of = |a: &Action| -> Option<Half> {
        if let Phase::Moving(m) = &st.phase {
            open_moves(sc, st, m)
                .into_iter()
                .find(|(x, _)| x.action == *a)
                .map(|(_, c)| c)
        } else {
            None
        }
    };
    Some(match a {
        Action::MoveUnit(x) => format!("Move {} (11.1)", u(x)),
        Action::MoveStack(x) => format!(
            "Move the stack of {} together (11.1b)",
            stack_of(sc, st, *x)
                .iter()
                .map(|&y| sc.units[usize::from(y)].name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Action::MovementDone => "End the movement phase (11.0)".into(),
        Action::MoveLeader(l) => format!(
            "Move the leader {} (21.1a)",
            sc.leaders[usize::from(*l)].name
        ),
        Action::LeaderTo(l, h) => format!(
            "Move {} to {} (21.1a)",
            sc.leaders[usize::from(*l)].name,
            sc.board.label(*h)
        ),
        Action::Rapid => "Declare a rapid march: MA +50%, DC (A) +5 at the end (11.4)".into(),
        Action::Step(h) => format!(
            "Move to {} ({} MP) (11.1)",
            sc.board.label(*h),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Back(h) => format!(
            "Move backward to {} ({} MP) (11.7)",
            sc.board.label(*h),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Turn(f) => format!(
            "Face {} ({} MP) (9.3)",
            f.name(),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Wheel(end, s) => format!(
            "Wheel {} hexpoint{} {} on the {} end ({} MP) (9.4b)",
            s.unsigned_abs(),
            if s.unsigned_abs() == 1 { "" } else { "s" },
            if *s > 0 { "clockwise" } else { "anticlockwise" },
            end_name(*end),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::ColumnTurn(t) => format!(
            "Turn the column's head {} hexside{} {} and advance ({} MP) (9.4a)",
            t.unsigned_abs(),
            if t.unsigned_abs() == 1 { "" } else { "s" },
            if *t > 0 { "right" } else { "left" },
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Reverse => "Reverse direction: its only action this phase (9.6)".into(),
        Action::Extend(h) => format!(
            "Extend into {} ({} MP) (11.5)",
            sc.board.label(*h),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Contract(h) => format!(
            "Contract out of {} ({} MP) (11.5)",
            sc.board.label(*h),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Form(..) => {
            let Phase::Moving(m) = &st.phase else {
                return None;
            };
            let c = open_changes(sc, st, m)
                .into_iter()
                .find(|c| is_form_action(c, a))?;
            format!(
                "Change to {} facing {} in {} ({} MP{}) ({})",
                c.formations.first().map_or("?", |x| x.1.name()),
                c.facing.name(),
                sc.board.labels(&c.hexes[..], "-"),
                c.cost,
                if c.ends_movement {
                    ", ends its movement"
                } else {
                    ""
                },
                c.rule
            )
        }
        Action::Adopt(f, fc) => format!("Adopt {} facing {} (8.4i)", f.name(), fc.name()),
        Action::Breakdown(_) | Action::Reform(..) => return crate::breakdown::label(sc, st, a),
        Action::Prolonge(h) => format!(
            "Move by prolonge to {}, keeping its facing ({} MP, ends its movement) (11.6)",
            sc.board.label(*h),
            cost_of(a).map_or("?".into(), |c| c.to_string())
        ),
        Action::Stop => "Stop: end this unit's movement (11.1)".into(),
        Action::Pass => "Pass: no opportunity fire or charge (12.8, 17.0)".into(),
        Action::VoluntaryRout(x) => format!(
            "Rout voluntarily: {} and its stack retreat before anything moves (19.10)",
            u(x)
        ),
        Action::RoutHex(h) => format!(
            "Rout from {}: the hex the stack keeps (19.7e)",
            sc.board.label(*h)
        ),
        Action::Top(x) => format!("Put {} on top of its stack (10.6f)", u(x)),
        Action::VoluntaryRoutDone => {
            "No more voluntary routs: they retreat, then MC (J) for the rest (19.10c)".into()
        }
        _ => return None,
    })
}

/// A change's formations without repeats, in the order of its units (the formations of its
/// action).
fn change_forms(c: &formation::Change) -> impl Iterator<Item = Formation> + '_ {
    c.formations
        .iter()
        .enumerate()
        .filter(|&(i, &(_, f))| !c.formations[..i].iter().any(|&(_, g)| g == f))
        .map(|(_, &(_, f))| f)
}

/// Whether `a` is the action of change `c` (`form_action(c) == *a`, without building it).
fn is_form_action(c: &formation::Change, a: &Action) -> bool {
    let Action::Form(forms, facing, hexes, leave) = a else {
        return false;
    };
    *facing == c.facing
        && *leave == c.leave_facing
        && hexes[..] == c.hexes[..]
        && change_forms(c).eq(forms.iter().copied())
}

/// The action of a formation change: the top unit's new formation, facing and hexes.
fn form_action(c: &formation::Change) -> Action {
    Action::Form(
        change_forms(c).collect(),
        c.facing,
        c.hexes.to_vec(),
        c.leave_facing,
    )
}

/// A footprint check for the invariants (C6, 9.4): `None` when fine.
pub fn footprint_problem(st: &State, u: UnitIx) -> Option<String> {
    let s = &st.units[usize::from(u)];
    if s.hexes.is_empty() {
        return None;
    }
    match Footprint::new(
        &Printed,
        footprint_kind(s.formation),
        s.facing,
        s.hexes.to_vec(),
    ) {
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    }
}

/// A line's end by name: the head is its right end (8.1a).
fn end_name(e: End) -> &'static str {
    match e {
        End::Head => "right",
        End::Tail => "left",
    }
}

/// Whether a unit at rest is straight (9.4: march columns end their movement straight).
pub fn at_rest_straight(s: &crate::state::UnitState) -> bool {
    straight(s.formation, &s.hexes, s.facing)
}

/// Whether two stacked units agree in facing and formation (10.1d–e, 10.3d–e, 10.4b–c):
/// the same, or infantry with artillery in the compatible pairs (unlimbered artillery with a
/// line, hook, attack column or square, facing as the infantry unless a square; limbered
/// artillery with a march column, same facing).
pub fn compatible(a: &crate::state::UnitState, b: &crate::state::UnitState) -> bool {
    use Formation as F;
    let pair =
        |x: &crate::state::UnitState, y: &crate::state::UnitState| match (x.formation, y.formation)
        {
            (F::Unlimbered, F::Square) => true,
            (F::Unlimbered, F::Line | F::HookLeft | F::HookRight | F::AttackColumn) => {
                x.facing == y.facing
            }
            (F::Limbered, F::MarchColumn) => x.facing == y.facing,
            _ => false,
        };
    (a.formation == b.formation && a.facing == b.facing) || pair(a, b) || pair(b, a)
}

// pursuit (16) / opportunity charge (17)
/// The mover's movement ends after an opportunity charge (17.3c–f, 14.3b): stacking (10.13b,
/// 17.3d) and the DC (A) still owed (17.3f), as at any end of movement.
pub(crate) fn finish_after_charge(
    sc: &Scenario,
    st: &mut State,
    m: Mover,
    why: &str,
    ev: &mut Vec<Event>,
) -> Phase {
    finish(sc, st, m, why, ev)
}

/// The move goes on from where an advance after combat put the mover (17.3e: active cavalry
/// recalled before any pursuit).
pub(crate) fn go_on_after_charge(
    sc: &Scenario,
    st: &mut State,
    m: Mover,
    ev: &mut Vec<Event>,
) -> Phase {
    after_action(sc, st, m, ev)
}

/// The move goes on after an opportunity charge the mover survived (17.3c): back to the reactive
/// player's answer at the same trigger.
pub(crate) fn back_to_reaction(
    sc: &Scenario,
    st: &State,
    mover: Mover,
    trigger: Trigger,
    pending: Option<Action>,
    fired: Vec<bool>,
) -> Phase {
    let hexes = match &trigger {
        Trigger::Change(h) | Trigger::Leave(h) => *h,
    };
    let reactors = reactors(sc, st, mover.side, &hexes);
    // The step it was about to take may be closed now (the charger stands there): it chooses
    // again.
    let pending = pending.filter(|p| {
        let mut t = st.clone();
        t.phase = Phase::Moving(Box::new(mover.clone()));
        legal(sc, &t).contains(p)
    });
    Phase::Reaction {
        mover: Box::new(mover),
        trigger,
        pending,
        reactors,
        fired,
    }
}
