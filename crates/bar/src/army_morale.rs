//! Army morale (23): the Current Loss Total on the hour, the Current Loss Level columns, the
//! check and the CR a player may spend on it.
use crate::checks::{current_sp, d10};
use crate::event::Event;
use crate::scenario::Scenario;
use crate::state::{LeaderStatus, Phase, State};

/// An army's Current Loss Total (23.1a): SP lost, SP currently routed and the loss values of
/// eliminated leaders (wounded leaders and those removed by 21.7 do not count, A58).
pub fn clt(sc: &Scenario, st: &State, side: u8) -> (u32, u32, u32) {
    let mut lost = 0u32;
    let mut routed = 0u32;
    for (i, u) in st.units.iter().enumerate() {
        if sc.units[i].side != side {
            continue;
        }
        if u.eliminated {
            lost += u32::from(sc.units[i].sp);
        } else {
            lost += u32::from(u.lost);
            if u.routed {
                routed += u32::from(current_sp(sc, st, i as u16));
            }
        }
    }
    let leaders = sc
        .leaders
        .iter()
        .enumerate()
        .filter(|(i, l)| l.side == side && st.leaders[*i].status == LeaderStatus::Killed)
        .map(|(_, l)| u32::from(l.loss))
        .sum();
    (lost, routed, leaders)
}

/// The total.
pub fn clt_total(sc: &Scenario, st: &State, side: u8) -> u32 {
    let (a, b, c) = clt(sc, st, side);
    a + b + c
}

/// The column an army checks in this hour, if it checks (23.1c–e): a column reached and not yet
/// used; the last column every hour once reached; never one left of a column used.
pub fn due_column(sc: &Scenario, st: &State, side: u8) -> Result<usize, String> {
    let key = &sc.armies[usize::from(side)].loss_table;
    let Some(t) = sc.charts.command.loss_levels.get(key) else {
        return Err("no Current Loss Level table".into());
    };
    let last = t.columns.len().saturating_sub(1);
    let used = st.armies[usize::from(side)].column.map(usize::from);
    let c = t.column_for(clt_total(sc, st, side));
    match (used, c) {
        (Some(u), _) if u == last => Ok(last),
        (_, None) => Err(format!(
            "below {}+",
            t.columns.first().copied().unwrap_or(0)
        )),
        (Some(u), Some(c)) if c <= u => Err(format!("the {}+ column was used", t.columns[u])),
        (_, Some(c)) => Ok(c),
    }
}

/// The CR an army leader may spend: his printed CR less 2, never below 2 left (23.2b).
pub fn spendable(sc: &Scenario, st: &State, side: u8) -> u8 {
    match crate::command::army_leader(sc, st, side) {
        Some(l) => sc.leaders[usize::from(l)].cr.saturating_sub(2),
        None => 0,
    }
}

/// The army morale phase (4.0 A): log each army's CLT and return the first phase: a spending
/// decision, or the roll.
pub fn begin(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    for side in 0..2u8 {
        st.armies[usize::from(side)].cr_spent = 0;
        st.armies[usize::from(side)].pending_spend = None;
        let (lost, routed, leaders) = clt(sc, st, side);
        let due = due_column(sc, st, side);
        let t = sc
            .charts
            .command
            .loss_levels
            .get(&sc.armies[usize::from(side)].loss_table);
        ev.push(Event::LossTotal {
            army: sc.armies[usize::from(side)].name.clone(),
            lost,
            routed,
            leaders,
            column: due.as_ref().ok().and_then(|c| t.map(|t| t.columns[*c])),
            no_check: due.err(),
        });
    }
    next_spend(sc, st, 0)
}

/// The next side (from `from`) that must decide what to spend, or the roll.
pub fn next_spend(sc: &Scenario, st: &State, from: u8) -> Phase {
    for side in from..2 {
        if due_column(sc, st, side).is_ok() && spendable(sc, st, side) > 0 {
            return Phase::ArmyMoraleSpend { side };
        }
    }
    Phase::ArmyMoraleRoll
}

/// Both sides have committed their CR (A63): roll for each army that checks (23.2).
pub fn roll(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    for side in 0..2u8 {
        let Ok(col) = due_column(sc, st, side) else {
            continue;
        };
        let Some(t) = sc
            .charts
            .command
            .loss_levels
            .get(&sc.armies[usize::from(side)].loss_table)
        else {
            continue;
        };
        let spent = st.armies[usize::from(side)]
            .pending_spend
            .take()
            .unwrap_or(0);
        let die = d10(st);
        let result = t.result(col, die.saturating_sub(spent));
        let a = &mut st.armies[usize::from(side)];
        a.cr_spent = spent;
        a.column = Some(col as u8);
        a.morale = a.morale.saturating_add(result);
        ev.push(Event::ArmyMorale {
            army: sc.armies[usize::from(side)].name.clone(),
            column: t.columns[col],
            die,
            spent,
            result,
            morale: a.morale,
        });
    }
}
