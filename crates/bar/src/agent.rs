//! What the computer knows of BAR beyond the rules (`engine::AgentHooks`): how a position stands
//! (the scenario's own victory margin: the enemy's Current Loss Total minus one's own, plus the
//! objective places held, 23.1 and the scenario's victory table), which actions a player would
//! look at first (fire that can hurt, steps toward the enemy, ending what has nothing left), and
//! which decisions deserve a search: the big ones (which brigade, whether to fire, which unit
//! moves next), not each hex of a move already chosen.
//!
//! The close combat and charge odds (13.11, 17) and the look one action ahead at a move (10.13b:
//! a move that ends in an illegal stack routs) are in `agent_odds.rs`.
use crate::Bar;
use crate::action::Action;
use crate::geom::Formation;
use crate::state::{Phase, State};
use engine::{AgentHooks, Ruleset, Seat};

#[path = "agent_odds.rs"]
mod odds;

/// A side attacks while its margin is short of this share of its smallest victory margin.
const ATTACK_SHARE: f64 = 0.0;

/// Within this distance of the enemy a search's playouts look ahead at every choice of a move;
/// farther off only at a stop (`playout_scores`).
const PLAYOUT_PEEK: u32 = 3;

/// The most playout actions a searched decision applies (`search_work_limit`). At 3,000 the
/// longest of 25,911 search decisions at Schwerin (20 games, 2026-12-03, load 2) took 2.66 s
/// against the 2 s issue 18 allows; at 2,000 the same 20 games (every choice the same) took
/// 1.09 s at the longest, so part of the 2.66 s was the machine, but 2,000 leaves the margin.
const SEARCH_WORK: usize = 2_000;

/// Where the heuristic looks one action ahead at a move.
#[derive(Clone, Copy)]
enum Peek {
    /// At every choice (the heuristic's own decisions).
    Always,
    /// At a stop, and at every choice near the enemy (a search's playouts).
    Near,
}

/// The distance within which limbered guns unlimber to fire (the shorter artillery ranges of the
/// fire chart).
const GUN_REACH: u32 = 8;

impl Bar {
    /// The scenario's victory margin for `side` now (positive: ahead).
    fn margin(&self, st: &State, side: usize) -> f64 {
        let sc = &self.sc;
        let clt = [
            crate::army_morale::clt_total(sc, st, 0),
            crate::army_morale::clt_total(sc, st, 1),
        ];
        let points = |s: usize| -> i64 {
            sc.objectives
                .iter()
                .zip(&st.holders)
                .filter(|(_, h)| usize::from(**h) == s)
                .map(|(o, _)| i64::from(o.points))
                .sum()
        };
        (i64::from(clt[1 - side]) - i64::from(clt[side]) + points(side) - points(1 - side)) as f64
    }

    /// The smallest margin that gives `side` a victory in the scenario's table.
    fn win_margin(&self, side: u8) -> f64 {
        let id = &self.sc.armies[usize::from(side)].id;
        self.sc
            .victory
            .iter()
            .filter(|v| v.winner.as_ref() == Some(id))
            .map(|v| f64::from(v.margin))
            .fold(f64::INFINITY, f64::min)
            .min(50.0)
    }

    /// The smallest margin the scenario's victory table asks for (the scale of the evaluation).
    fn victory_scale(&self) -> f64 {
        self.sc
            .victory
            .iter()
            .map(|v| f64::from(v.margin))
            .filter(|m| *m > 0.0)
            .fold(f64::INFINITY, f64::min)
            .clamp(5.0, 50.0)
    }

    /// What is likely to join `side`'s Current Loss Total soon: a quarter of the SP of its shaken
    /// units (a failed check away from a rout, 19.0) and four points a step of its army morale
    /// modifier (23.2a).
    fn soon(&self, st: &State, side: usize) -> f64 {
        let shaken: u32 = st
            .units
            .iter()
            .enumerate()
            .filter(|(i, u)| {
                usize::from(self.sc.units[*i].side) == side
                    && u.shaken
                    && !u.routed
                    && !u.eliminated
            })
            .map(|(i, _)| u32::from(crate::checks::current_sp(&self.sc, st, i as u16)))
            .sum();
        f64::from(shaken) / 4.0 + 4.0 * f64::from(st.armies[side].morale)
    }

    /// The heuristic's score of one action (without the look ahead of a move).
    fn score(
        &self,
        st: &State,
        a: &Action,
        side: u8,
        attacking: bool,
        moving: Option<&crate::movement::Mover>,
        here: Option<u32>,
    ) -> f64 {
        let sc = &self.sc;
        match a {
            // A rallied unit's formation and facing (19.5e).
            Action::Face(x) | Action::Adopt(_, x) if let Phase::RallyFacing { unit } = st.phase => {
                let f = match a {
                    Action::Adopt(f, _) => *f,
                    _ => st.units[usize::from(unit)].formation,
                };
                self.rally_score(st, unit, f, *x, side)
            }
            // Fire whenever it is allowed: a declared fire is offered only at 1:3 or better.
            Action::Face(x) if let Phase::LineFacing { unit } = st.phase => {
                self.rally_score(st, unit, Formation::Line, *x, side)
            }
            Action::FireResolve | Action::OppFire(..) | Action::ReturnFire(_) => 3.0,
            Action::FireWith(_) => 2.5,
            Action::FireAt(t, _) => {
                let s = crate::fire::stack(sc, st, *t);
                1.0 + f64::from(crate::fire::target_size(sc, st, &s)) / 100.0
            }
            Action::FireCancel => -2.0,
            Action::FireDone => -0.5,
            // Close the distance to the enemy; stop once adjacent.
            Action::Step(h) => match (moving, here) {
                (Some(m), Some(d)) => {
                    let after = self.enemy_distance(st, m.side, &[*h]);
                    if d <= 1 {
                        -1.0
                    } else if after < d && attacking {
                        1.5
                    } else {
                        0.2
                    }
                }
                _ => 0.0,
            },
            Action::Back(_) | Action::Reverse => -0.5,
            // A moving leader (21.1a) stays unless a hex within his reach is a better place.
            Action::Stop if let Phase::LeaderMoving { leader } = st.phase => st.leaders
                [usize::from(leader)]
            .hex
            .map_or(0.0, |h| self.leader_place(st, leader, h)),
            Action::Stop => match here {
                Some(d) if d <= 2 => 1.0,
                _ => -0.3,
            },
            // A formation for the distance: columns far from the enemy, lines and unlimbered
            // guns near it (8.1, 12.2a: columns and limbered guns cannot fire; 13.11c: −4 to
            // their CV).
            // Guns unlimber within reach of the enemy to fire (12.2a).
            Action::Form(fs, ..)
                if here.is_some_and(|d| d <= GUN_REACH)
                    && !fs.is_empty()
                    && fs.iter().all(|f| *f == Formation::Unlimbered) =>
            {
                2.0
            }
            Action::Form(fs, ..) | Action::ReactForm(fs, ..) => {
                let near = here.is_none_or(|d| d <= 5);
                let marching = fs.iter().any(|f| {
                    matches!(
                        f,
                        Formation::MarchColumn | Formation::RoadColumn | Formation::Limbered
                    )
                });
                let fighting = fs
                    .iter()
                    .all(|f| matches!(f, Formation::Line | Formation::Unlimbered));
                // From one marching formation to another (march and road column back and
                // forth) only spends MP (8.4a–b).
                let already_marching = moving.is_some_and(|m| {
                    matches!(
                        st.units[usize::from(m.units[0])].formation,
                        Formation::MarchColumn | Formation::RoadColumn | Formation::Limbered
                    )
                });
                if marching && already_marching {
                    return -0.4;
                }
                match (near, marching, fighting) {
                    (true, true, _) => -1.5,
                    (true, _, true) => 0.3,
                    (false, true, _) => 0.1,
                    _ => -0.2,
                }
            }
            // A rapid march (11.4: a DC at the end) only to close a long distance.
            Action::Rapid => match here {
                Some(d) if d > 8 && attacking => 0.1,
                _ => -0.5,
            },
            // Limbered guns within reach of the enemy go and unlimber, holding or not.
            Action::MoveUnit(u)
                if st.units[usize::from(*u)].formation == Formation::Limbered
                    && self.enemy_distance(st, side, &st.units[usize::from(*u)].hexes)
                        <= GUN_REACH =>
            {
                1.5
            }
            Action::MoveUnit(_) | Action::MoveStack(_) => 0.5,
            // A leader is picked up to move (21.1a) only when he has a better place within his
            // reach; otherwise the pick would end in his `stop`, a pair of decisions for nothing.
            Action::MoveLeader(l) => {
                let better = st.leaders[usize::from(*l)].hex.is_some_and(|h0| {
                    let now = self.leader_place(st, *l, h0);
                    crate::movement::leader_reach(sc, st, *l)
                        .into_iter()
                        .any(|h| self.leader_place(st, *l, h) > now + 1e-9)
                });
                if better { 0.4 } else { -1.5 }
            }
            // The initiative (6.1a): a side that holds lets the enemy come (and spend his
            // activations); one that attacks takes its own, first the brigade nearest the enemy.
            Action::Opponent if attacking => -0.5,
            Action::Opponent => 0.5,
            Action::ActivateOwn(b) | Action::Activate(b) => {
                let near = st
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(i, u)| sc.units[*i].brigade == Some(*b) && !u.eliminated && !u.routed)
                    .map(|(_, u)| self.enemy_distance(st, side, &u.hexes))
                    .min()
                    .unwrap_or(u32::MAX);
                if near <= 3 { 0.3 } else { 0.0 }
            }
            // A leader stays where his command reaches (7.5–7.6: a unit beyond its leader's range
            // is out of command and barely moves).
            Action::LeaderTo(l, h) => self.leader_place(st, *l, *h),
            Action::MovementDone if attacking => -1.0,
            Action::MovementDone => 1.0,
            // Never rout on purpose (19.10): the routed SP count in the Current Loss Total.
            Action::VoluntaryRout(_) => -5.0,
            // 8.5, 11.6: the heuristic keeps its battalions whole and its guns where they
            // unlimbered (it has no plan for companies or for guns on the move by prolonge).
            Action::Breakdown(_) | Action::Reform(..) => -1.5,
            Action::Prolonge(_) => -0.5,
            Action::VoluntaryRoutDone => 1.0,
            // Close combat at good odds only (13.1c: voluntary); the value is the die difference
            // expected (13.11).
            Action::Attack(top) | Action::Charge(top) => {
                let charge = matches!(a, Action::Charge(_));
                let stack = match &st.phase {
                    Phase::CcDecision(cc) => cc
                        .eligible
                        .iter()
                        .find(|s| s.first() == Some(top))
                        .cloned()
                        .unwrap_or_else(|| vec![*top]),
                    _ => vec![*top],
                };
                match odds::attack_value(self, st, &stack, charge) {
                    Some(v) => (v - 1.0).clamp(-3.0, 3.0),
                    None => -1.0,
                }
            }
            Action::CcDone => 0.0,
            // An opportunity charge when the charge would be favoured (17.3: a close combat).
            Action::OppCharge(top) => {
                let stack = crate::movement::stack_of(sc, st, *top);
                match odds::attack_value(self, st, &stack, true) {
                    Some(v) => (v - 2.0).clamp(-3.0, 3.0),
                    None => -1.0,
                }
            }
            // Defensive fire always (13.10); stand unless the odds are bad (13.9).
            Action::CcFire | Action::CcFireFrom(_) => 1.0,
            Action::CcHoldFire => -1.0,
            Action::CcStand => 0.5,
            Action::CcWithdraw(_) => 0.0,
            // A leader's CV bonus, weighed against the risk to his loss points (21.2b, 21.4).
            Action::CcLeader(l) => {
                let d = &sc.leaders[usize::from(*l)];
                0.3 * f64::from(d.cv_bonus) - 0.05 * f64::from(d.loss)
            }
            Action::CcNoLeader => 0.0,
            // Losses on the strongest unit: no unit eliminated sooner than need be (14.2b).
            Action::CcLose(u) | Action::Lose(u) => {
                0.1 * f64::from(crate::checks::current_sp(sc, st, *u))
            }
            Action::CcAdvance(..) => 0.3,
            Action::CcAdvanceDone => 0.0,
            Action::Countercharge(_) => 0.5,
            Action::Pass => 0.0,
            _ => 0.0,
        }
    }

    /// How well a leader at `h` commands (7.5): minus a fifth of the distance to the farthest
    /// of those he gives a line of command to (his brigade's units; a wing or army leader's
    /// brigade leaders), two more beyond his range.
    fn leader_place(&self, st: &State, l: crate::scenario::LeaderIx, h: hexmap::HexId) -> f64 {
        let sc = &self.sc;
        let me = &sc.leaders[usize::from(l)];
        let targets: Vec<hexmap::HexId> = match me.brigade {
            Some(b) if me.kind == crate::data::LeaderKind::Brigade => st
                .units
                .iter()
                .enumerate()
                .filter(|(i, u)| sc.units[*i].brigade == Some(b) && !u.eliminated && !u.routed)
                .flat_map(|(_, u)| u.hexes.iter().copied())
                .collect(),
            _ => sc
                .leaders
                .iter()
                .zip(&st.leaders)
                .filter(|(d, _)| {
                    d.side == me.side
                        && d.kind == crate::data::LeaderKind::Brigade
                        && (me.kind != crate::data::LeaderKind::Wing || d.wing == me.wing)
                })
                .filter_map(|(_, s)| s.hex)
                .collect(),
        };
        let far = targets.iter().map(|t| t.distance(h)).max().unwrap_or(0);
        -0.2 * f64::from(far) - if far > u32::from(me.range) { 2.0 } else { 0.0 }
    }

    /// The heuristic's score of every action, with the look ahead at a move where `peek` says.
    fn scores(&self, st: &State, actions: &[Action], peek: Peek) -> Vec<f64> {
        let sc = &self.sc;
        let moving = match &st.phase {
            Phase::Moving(m) => Some(m.as_ref()),
            _ => None,
        };
        let side = crate::flow::decider(sc, st).unwrap_or(0);
        // A side short of its smallest victory (and a little to spare) must go and get it; a
        // side safely above it holds its ground and lets the enemy come into its fire.
        let attacking = self.margin(st, usize::from(side)) < self.win_margin(side) * ATTACK_SHARE;
        let here = moving.map(|m| {
            let u = m.units[0];
            self.enemy_distance(st, m.side, &st.units[usize::from(u)].hexes)
        });
        // Look one action ahead at each choice of a move (10.13b, 12.8) when there is a choice.
        let look = moving.is_some() && actions.len() > 1;
        let near = match peek {
            Peek::Always => true,
            Peek::Near => {
                here.is_some_and(|d| d <= PLAYOUT_PEEK)
                    || moving.is_some_and(|m| self.among_friends(st, m))
            }
        };
        actions
            .iter()
            .map(|a| {
                let base = self.score(st, a, side, attacking, moving, here);
                let lookahead = look
                    && (near || matches!(a, Action::Stop))
                    && matches!(
                        a,
                        Action::Step(_)
                            | Action::Back(_)
                            | Action::Stop
                            | Action::Turn(_)
                            | Action::Wheel(..)
                            | Action::ColumnTurn(_)
                            | Action::Reverse
                            | Action::Form(..)
                            | Action::Adopt(..)
                            | Action::Extend(_)
                            | Action::Contract(_)
                            | Action::Rapid
                    );
                if lookahead {
                    base - odds::move_cost(self, st, a, side)
                } else {
                    base
                }
            })
            .collect()
    }

    /// A rallied unit's choice (19.5e): a line (or unlimbered guns) facing the nearest enemy
    /// when he is within five hexes, a march column farther off; facing him either way.
    fn rally_score(
        &self,
        st: &State,
        u: crate::scenario::UnitIx,
        f: Formation,
        x: crate::geom::Facing,
        side: u8,
    ) -> f64 {
        let Some(&h) = st.units[usize::from(u)].hexes.first() else {
            return 0.0;
        };
        let nearest = st
            .units
            .iter()
            .enumerate()
            .filter(|(i, s)| self.sc.units[*i].side != side && !s.eliminated && !s.routed)
            .flat_map(|(_, s)| s.hexes.iter().copied())
            .min_by_key(|e| h.distance(*e));
        let Some(e) = nearest else { return 0.0 };
        let near = h.distance(e) <= 5;
        let facing_him = x.arc_of(h, e) == Some(hexmap::Arc::Front);
        let form = match (near, f) {
            (true, Formation::Line | Formation::Unlimbered | Formation::Skirmish) => 1.0,
            (true, Formation::AttackColumn | Formation::GeneralOrder) => 0.5,
            (true, _) => -1.0,
            (false, Formation::MarchColumn) => 0.5,
            (false, _) => 0.0,
        };
        form + if facing_him { 0.5 } else { 0.0 }
    }

    /// Whether a friend that is not moving stands in or next to the mover's hexes: where a step,
    /// a turn or a stop may end in an illegal stack (10.13), so the playouts look ahead there too.
    fn among_friends(&self, st: &State, m: &crate::movement::Mover) -> bool {
        let mine = &st.units[usize::from(m.units[0])].hexes;
        st.units.iter().enumerate().any(|(i, s)| {
            self.sc.units[i].side == m.side
                && !s.eliminated
                && !m.units.contains(&(i as crate::scenario::UnitIx))
                && s.hexes
                    .iter()
                    .any(|h| mine.iter().any(|x| x.distance(*h) <= 1))
        })
    }

    /// The nearest enemy's distance from a set of hexes.
    fn enemy_distance(&self, st: &State, side: u8, hexes: &[hexmap::HexId]) -> u32 {
        st.units
            .iter()
            .enumerate()
            .filter(|(i, s)| self.sc.units[*i].side != side && !s.eliminated && !s.routed)
            .flat_map(|(_, s)| s.hexes.iter())
            .flat_map(|e| hexes.iter().map(move |h| h.distance(*e)))
            .min()
            .unwrap_or(u32::MAX)
    }
}

impl AgentHooks for Bar {
    /// The victory margin through a sigmoid scaled by the smallest winning margin: a side a whole
    /// marginal victory ahead stands at about 0.88. Besides the margin (losses and objectives,
    /// 23.1), what is likely to count soon: a quarter of the SP of shaken units (a rout away from
    /// the Current Loss Total, 19.0) and the army morale modifiers (23.2a), both sides'.
    fn evaluate(&self, st: &State, seat: Seat) -> f64 {
        if let Some(o) = self.outcome(st) {
            return match o.winner {
                Some(w) if w == seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let side = usize::from(seat.0 & 1);
        let m = (self.margin(st, side) + self.soon(st, 1 - side) - self.soon(st, side))
            / self.victory_scale();
        1.0 / (1.0 + (-2.0 * m).exp())
    }

    /// The dice re-dealt from `seed`: a search never reads the game's own future rolls (nothing
    /// else of BAR is hidden).
    fn determinize(&self, st: &State, _seat: Seat, seed: u64) -> State {
        let mut s = st.clone();
        s.dice = engine::Dice::new(seed);
        s
    }

    fn action_scores(&self, st: &State, actions: &[Action]) -> Vec<f64> {
        self.scores(st, actions, Peek::Always)
    }

    /// The heuristic's scores with its look ahead at a move only where it is likely to find a
    /// cost: a stop (10.13b: ending in an illegal stack routs the mover) and any choice of a move
    /// within `PLAYOUT_PEEK` hexes of the enemy (opportunity fire and charges, 12.8, 17). The
    /// look ahead applies each choice on a copy of the position and is most of the heuristic's
    /// time; the playouts of a search apply thousands of actions a decision.
    fn playout_scores(&self, st: &State, actions: &[Action]) -> Vec<f64> {
        self.scores(st, actions, Peek::Near)
    }

    /// At most `SEARCH_WORK` playout actions a searched decision (every candidate tried once):
    /// BAR's actions are costly (a step is checked against stacking, zones and the enemy's
    /// reactions, 10.13, 12.8, 17), and the whole battle's activations are long.
    fn search_work_limit(&self) -> Option<usize> {
        Some(SEARCH_WORK)
    }

    /// Search the big decisions: the initiative, which brigade, the army morale spend, what to
    /// fire at, which unit moves next. Each hex of a move, each answer to a move and the details
    /// of a declared fire are the heuristic's.
    fn worth_searching(&self, st: &State, actions: &[Action]) -> bool {
        actions.len() > 1
            && match &st.phase {
                Phase::InitiativeChoice { .. }
                | Phase::ChooseBrigade { .. }
                | Phase::ArmyMoraleSpend { .. }
                | Phase::Movement => true,
                Phase::Fire(f) => f.decl.is_none() && f.ret.is_none(),
                _ => false,
            }
    }

    /// Activations: the turn and the brigades that have activated in it.
    fn progress(&self, st: &State) -> u32 {
        u32::from(st.turn) * 256 + st.brigades.iter().filter(|b| b.activated).count() as u32
    }
}
