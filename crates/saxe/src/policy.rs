//! Reaction policies (issue 19) for the French series: the answers a side's standing policy gives
//! to the reactive prompts of 8.6 (cavalry reaction) and 9.3 (reaction fire), as that side's own
//! decision. Retreat before combat (1.3) and every other decision are always asked.
use crate::Saxe;
use crate::action::Action;
use crate::state::{Frame, State};
use engine::policy::{Cavalry, Policy, React};

impl Saxe {
    /// [`engine::Ruleset::policy_answer`]: `Pass` for "never react"; for "react when", the first
    /// legal reaction fire at a hex within the policy's range (9.3), else the first legal cavalry
    /// reaction the policy allows (8.6: against cavalry only when every moving unit the side sees
    /// is cavalry, 3.6), else `Pass`. `None` (ask) outside a reaction prompt.
    pub fn reaction_policy_answer(&self, s: &State, policy: &Policy) -> Option<Action> {
        let Some(Frame::Reaction(r)) = s.frames.last() else {
            return None;
        };
        let legal = self.legal(s);
        if !legal.contains(&Action::Pass) {
            return None;
        }
        match policy.react {
            React::Ask => None,
            React::Never => Some(Action::Pass),
            React::When => {
                let fire = legal.iter().find(|a| match a {
                    Action::ReactionFire { unit, target } => {
                        policy.fire_within > 0
                            && s.units[usize::from(*unit)].hex.is_some_and(|h| {
                                h.distance(*target) <= u32::from(policy.fire_within)
                            })
                    }
                    _ => false,
                });
                if let Some(a) = fire {
                    return Some(a.clone());
                }
                // The movers the reacting side sees: each moving unit on top of its hex (3.6).
                let seen: Vec<_> = r
                    .movers
                    .iter()
                    .filter(|(u, _, to)| self.units_at(s, *to).first() == Some(u))
                    .collect();
                let seen_cavalry =
                    !seen.is_empty() && seen.iter().all(|(u, _, _)| self.kind(*u).is_cavalry());
                let cavalry_ok = match policy.cavalry {
                    Cavalry::Never => false,
                    Cavalry::AgainstCavalry => seen_cavalry,
                    Cavalry::Always => true,
                };
                let cav = legal.iter().find(|a| {
                    cavalry_ok
                        && matches!(
                            a,
                            Action::CavalryReaction { .. } | Action::CavalryLineReaction { .. }
                        )
                });
                Some(cav.cloned().unwrap_or(Action::Pass))
            }
        }
    }
}
