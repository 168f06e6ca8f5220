//! Events: what a player reads in the log, each with its rule and its numbers.
//!
//! An event is structured: its text is a [`Line`] of parts, and a part that names units carries,
//! unit by unit, who may not see that unit at the moment of the event (3.6: "Players may not
//! inspect stacks of enemy units"). A line is written *for a reader* ([`Line::render`]): a run of
//! units hidden from the reader becomes one "hidden units" item, with no count; numbers that would
//! tell something about hidden units are [`Part::Private`] and left out for the readers they are
//! hidden from. No text is written for everyone and patched afterwards (docs/rules-decisions.md,
//! 3.6).
use engine::{Seat, Viewer};
use serde::Serialize;
use std::fmt;

/// What a viewer of a hidden group reads.
pub const HIDDEN_UNITS: &str = "hidden units";

/// The readers something is hidden from: a bit for the French seat, one for the Allied seat and
/// one for spectators. [`Viewer::All`] reads everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Hidden(pub u8);

impl Hidden {
    /// Hidden from nobody.
    pub const NONE: Hidden = Hidden(0);
    /// Hidden from the French seat.
    pub const FRENCH: Hidden = Hidden(1);
    /// Hidden from the Allied seat.
    pub const ALLIES: Hidden = Hidden(2);
    /// Hidden from spectators.
    pub const PUBLIC: Hidden = Hidden(4);

    /// Hidden from everyone but the owner `side` (3.6): the other seat and spectators.
    pub fn but_from(owner: crate::scenario::Side) -> Hidden {
        match owner {
            crate::scenario::Side::French => Hidden(2 | 4),
            crate::scenario::Side::Allies => Hidden(1 | 4),
        }
    }

    /// Whether `viewer` may not read it.
    pub fn from(self, viewer: Viewer) -> bool {
        let bit = match viewer {
            Viewer::All => return false,
            Viewer::Seat(Seat(0)) => 1,
            Viewer::Seat(_) => 2,
            Viewer::Spectator => 4,
        };
        self.0 & bit != 0
    }

    /// Hidden from anyone either is hidden from.
    pub fn or(self, other: Hidden) -> Hidden {
        Hidden(self.0 | other.0)
    }
}

/// A unit named in a line, with the readers it is hidden from when the line is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Named {
    /// The unit's printed name.
    pub name: String,
    /// Who may not learn that it is there.
    pub hidden: Hidden,
}

/// A piece of a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Part {
    /// Text every reader may read.
    Text(String),
    /// Units, joined by " + "; each run of units hidden from the reader is one "hidden units".
    Units(Vec<Named>),
    /// A verb agreeing with the units before it: `one` after a single unit the reader sees,
    /// `many` after several or after hidden units (whose number is not told).
    Verb {
        /// After one unit ("routs").
        one: String,
        /// After several, or hidden ones ("rout").
        many: String,
    },
    /// Text (a number, a list of values) that tells something about hidden units: left out for
    /// the readers it is hidden from, with nothing in its place.
    Private {
        /// Who may not read it.
        hidden: Hidden,
        /// The text.
        text: String,
    },
}

/// A line of the log, made of parts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Line(pub Vec<Part>);

impl Line {
    /// An empty line, to build on.
    pub fn new() -> Line {
        Line(Vec::new())
    }

    /// Append text every reader may read.
    pub fn t(mut self, text: impl Into<String>) -> Line {
        self.0.push(Part::Text(text.into()));
        self
    }

    /// Append units.
    pub fn units(mut self, units: Vec<Named>) -> Line {
        self.0.push(Part::Units(units));
        self
    }

    /// Append a verb agreeing with the units before it ("loses" / "lose").
    pub fn verb(mut self, one: &str, many: &str) -> Line {
        self.0.push(Part::Verb {
            one: one.into(),
            many: many.into(),
        });
        self
    }

    /// Append text hidden from some readers.
    pub fn private(mut self, hidden: Hidden, text: impl Into<String>) -> Line {
        self.0.push(Part::Private {
            hidden,
            text: text.into(),
        });
        self
    }

    /// Append another line.
    pub fn then(mut self, more: Line) -> Line {
        self.0.extend(more.0);
        self
    }

    /// The line as `viewer` may read it, and whether something was hidden from it.
    pub fn render(&self, viewer: Viewer) -> (String, bool) {
        let mut out = String::new();
        let mut hid = false;
        let mut plural = false;
        for p in &self.0 {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Verb { one, many } => out.push_str(if plural { many } else { one }),
                Part::Units(us) => {
                    // The units the reader sees, in order, then one "hidden units" for all the
                    // others: neither their number nor their place among the others is told.
                    let mut items: Vec<&str> = us
                        .iter()
                        .filter(|u| !u.hidden.from(viewer))
                        .map(|u| u.name.as_str())
                        .collect();
                    if items.len() < us.len() {
                        hid = true;
                        items.push(HIDDEN_UNITS);
                    }
                    plural = items.len() != 1 || items[0] == HIDDEN_UNITS;
                    out.push_str(&items.join(" + "));
                }
                Part::Private { hidden, text } => {
                    if hidden.from(viewer) {
                        hid = true;
                    } else {
                        out.push_str(text);
                    }
                }
            }
        }
        (out, hid)
    }

    /// Whether the line as everyone may read it ([`Viewer::All`]) contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.to_string().contains(needle)
    }

    /// Whether the line names any unit hidden from someone or holds private text.
    pub fn hides_anything(&self) -> bool {
        self.0.iter().any(|p| match p {
            Part::Text(_) | Part::Verb { .. } => false,
            Part::Units(us) => us.iter().any(|u| u.hidden != Hidden::NONE),
            Part::Private { hidden, .. } => *hidden != Hidden::NONE,
        })
    }
}

impl From<String> for Line {
    fn from(s: String) -> Line {
        Line(vec![Part::Text(s)])
    }
}

impl From<&str> for Line {
    fn from(s: &str) -> Line {
        Line(vec![Part::Text(s.to_string())])
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Viewer::All).0)
    }
}

impl PartialEq<&str> for Line {
    fn eq(&self, other: &&str) -> bool {
        self.render(Viewer::All).0.as_str() == *other
    }
}

impl PartialEq<str> for Line {
    fn eq(&self, other: &str) -> bool {
        self.render(Viewer::All).0.as_str() == other
    }
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A die roll with its modifiers.
    Roll {
        /// Rule or table ("CRT (10.2)").
        rule: String,
        /// What was rolled for.
        what: Line,
        /// The die.
        die: u8,
        /// Modifiers with their reasons.
        mods: Vec<(String, i32)>,
        /// Modified total.
        total: i32,
        /// What it gives.
        result: Line,
        /// Who may not see this roll at all (a test of hidden units alone: 3.6); they read that
        /// hidden units were tested, once for a run of such rolls.
        hidden: Hidden,
    },
    /// A rule applied.
    Rule {
        /// Rule number.
        rule: String,
        /// Text.
        text: Line,
    },
}

impl Event {
    /// A rule event.
    pub fn rule(rule: &str, text: impl Into<Line>) -> Event {
        Event::Rule {
            rule: rule.to_string(),
            text: text.into(),
        }
    }

    /// The event as `viewer` may read it, and whether something was hidden from it.
    pub fn render(&self, viewer: Viewer) -> (String, bool) {
        match self {
            Event::Roll {
                rule,
                what,
                die,
                mods,
                total,
                result,
                hidden,
            } => {
                if hidden.from(viewer) {
                    return (format!("{rule}: a roll for {HIDDEN_UNITS}"), true);
                }
                let (w, h1) = what.render(viewer);
                let (r, h2) = result.render(viewer);
                let mut out = format!("{rule}: {w}: 1d6={die}");
                for (why, v) in mods {
                    if *v >= 0 {
                        out.push_str(&format!(", +{v} {why}"));
                    } else {
                        out.push_str(&format!(", −{} {why}", -v));
                    }
                }
                out.push_str(&format!(" = {total} → {r}"));
                (out, h1 || h2)
            }
            Event::Rule { rule, text } => {
                let (t, h) = text.render(viewer);
                (format!("{rule}: {t}"), h)
            }
        }
    }

    /// Whether the event says nothing to `viewer`: a rule event whose every part is hidden from it
    /// (a marker placed on a hidden unit, 3.6) is not shown at all, not even its rule number.
    pub fn silent_for(&self, viewer: Viewer) -> bool {
        match self {
            Event::Roll { .. } => false,
            Event::Rule { text, .. } => {
                !text.0.is_empty()
                    && text.0.iter().all(|p| match p {
                        Part::Private { hidden, .. } => hidden.from(viewer),
                        Part::Text(_) | Part::Units(_) | Part::Verb { .. } => false,
                    })
            }
        }
    }
}

/// The log lines of `events` for `viewer`: each event rendered for it, and a run of identical
/// lines that hid something read once (the tests of three hidden units must not read as three).
pub fn render_events(events: &[Event], viewer: Viewer) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(events.len());
    let mut last_hid = false;
    for e in events {
        if e.silent_for(viewer) {
            continue;
        }
        let (line, hid) = e.render(viewer);
        if hid && last_hid && out.last() == Some(&line) {
            continue;
        }
        last_hid = hid;
        out.push(line);
    }
    out
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Viewer::All).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Side;

    fn named(name: &str, hidden: Hidden) -> Named {
        Named {
            name: name.into(),
            hidden,
        }
    }

    #[test]
    fn r3_6_a_hidden_group_reads_as_one_item_without_a_count() {
        let h = Hidden::but_from(Side::French);
        let line = Line::new()
            .units(vec![
                named("Art. 12L", Hidden::NONE),
                named("Mailly", h),
                named("Orleans", h),
            ])
            .t(" move to 1209")
            .private(h, " (MP left [4, 3])");
        let fr = Viewer::Seat(Seat(0));
        let al = Viewer::Seat(Seat(1));
        assert_eq!(
            line.render(fr).0,
            "Art. 12L + Mailly + Orleans move to 1209 (MP left [4, 3])"
        );
        assert_eq!(line.render(al).0, "Art. 12L + hidden units move to 1209");
        let reordered = Line::new()
            .units(vec![
                named("Mailly", h),
                named("Art. 12L", Hidden::NONE),
                named("Orleans", h),
            ])
            .t(" move to 1209");
        assert_eq!(
            reordered.render(al).0,
            "Art. 12L + hidden units move to 1209"
        );
        assert_eq!(
            line.render(Viewer::Spectator).0,
            "Art. 12L + hidden units move to 1209"
        );
        let one = Line::new()
            .units(vec![named("Art. 12L", Hidden::NONE), named("Mailly", h)])
            .t(" move to 1209");
        assert_eq!(one.render(al).0, "Art. 12L + hidden units move to 1209");
    }

    #[test]
    fn r3_6_runs_of_hidden_rolls_read_once() {
        let h = Hidden::but_from(Side::Allies);
        let roll = |name: &str| Event::Roll {
            rule: "8.3".into(),
            what: Line::new().t("morale test of ").units(vec![named(name, h)]),
            die: 3,
            mods: vec![],
            total: 3,
            result: "passed".into(),
            hidden: h,
        };
        let evs = vec![roll("A"), roll("B"), roll("C")];
        assert_eq!(render_events(&evs, Viewer::Seat(Seat(0))).len(), 1);
        assert_eq!(render_events(&evs, Viewer::Seat(Seat(1))).len(), 3);
        assert_eq!(render_events(&evs, Viewer::All).len(), 3);
    }
}
