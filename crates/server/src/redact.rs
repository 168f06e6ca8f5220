//! Redaction of hidden information (rule 3.6 and its kind in other rulesets): before anything is
//! sent to a seat, every name or id the ruleset says that seat may not learn now is replaced by
//! "a hidden unit", longest first, in every string (and object key) of what is sent.
//!
//! One Aho-Corasick automaton per redactor finds every name in one pass over a string, and
//! leftmost-longest matching replaces "Von Block 2" whole rather than a shorter name inside it;
//! JSON is redacted in place, touching only the strings that hold a name.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// What a hidden name becomes.
pub const HIDDEN: &str = "a hidden unit";

/// Replaces hidden names in text and JSON.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    names: Vec<String>,
    finder: Option<AhoCorasick>,
}

impl Redactor {
    /// A redactor for these names (empty strings are ignored; duplicates merged).
    pub fn new<I: IntoIterator<Item = String>>(names: I) -> Self {
        Self::of_sorted(sorted(names))
    }

    /// `previous` if it hides exactly these names, else a new redactor. Building the automaton
    /// costs more than asking the ruleset for the names, and most actions hide the same names as
    /// the one before, so a game keeps its last redactor per role and reuses it.
    pub fn reuse<I: IntoIterator<Item = String>>(
        previous: Option<&Arc<Redactor>>,
        names: I,
    ) -> Arc<Redactor> {
        let names = sorted(names);
        match previous {
            Some(p) if p.names == names => p.clone(),
            _ => Arc::new(Self::of_sorted(names)),
        }
    }

    fn of_sorted(names: Vec<String>) -> Self {
        // Building fails only beyond limits far above a few hundred short names; should it
        // fail, every string is then replaced whole (see `text`), which hides too much but never
        // too little.
        let finder = if names.is_empty() {
            None
        } else {
            // A contiguous NFA: quick to build for a few dozen names (a redactor lives for one
            // answer), and quick enough to run over the short strings of a view.
            AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .match_kind(MatchKind::LeftmostLongest)
                .build(&names)
                .ok()
        };
        Self { names, finder }
    }

    /// Whether there is nothing to hide.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names, longest first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether a string holds a hidden name.
    pub fn hits(&self, s: &str) -> bool {
        match &self.finder {
            Some(f) => f.is_match(s),
            None => !self.names.is_empty(),
        }
    }

    /// A string with every hidden name replaced; borrowed when it holds none.
    pub fn cow<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if self.hits(s) {
            Cow::Owned(self.text(s))
        } else {
            Cow::Borrowed(s)
        }
    }

    /// Replace every hidden name in a string.
    pub fn text_in_place(&self, s: &mut String) {
        if self.hits(s) {
            *s = self.text(s);
        }
    }

    /// A string with every hidden name replaced.
    pub fn text(&self, s: &str) -> String {
        match &self.finder {
            Some(f) => {
                let mut out = String::with_capacity(s.len());
                f.replace_all_with(s, &mut out, |_, _, dst| {
                    dst.push_str(HIDDEN);
                    true
                });
                out
            }
            None if self.names.is_empty() => s.to_string(),
            None => HIDDEN.to_string(),
        }
    }

    /// Redact every string and object key of a JSON value in place.
    pub fn json_in_place(&self, v: &mut Value) {
        if self.is_empty() {
            return;
        }
        match v {
            Value::String(s) => self.text_in_place(s),
            Value::Array(a) => a.iter_mut().for_each(|x| self.json_in_place(x)),
            Value::Object(o) => {
                if o.keys().any(|k| self.hits(k)) {
                    let old = std::mem::take(o);
                    for (k, x) in old {
                        o.insert(self.text(&k), x);
                    }
                }
                o.values_mut().for_each(|x| self.json_in_place(x));
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// A JSON value redacted.
    pub fn json(&self, mut v: Value) -> Value {
        self.json_in_place(&mut v);
        v
    }

    /// A list of lines redacted.
    pub fn lines<'a, I: IntoIterator<Item = &'a String>>(&self, lines: I) -> Vec<String> {
        lines
            .into_iter()
            .map(|l| self.cow(l).into_owned())
            .collect()
    }

    /// Lines that serialise as a JSON array of redacted strings, each redacted as it is written
    /// (no copy of the lines that hide nothing).
    pub fn serialize_lines<'a, L>(&'a self, lines: L) -> RedactedLines<'a, L>
    where
        L: IntoIterator<Item = &'a String> + Copy,
    {
        RedactedLines {
            redactor: self,
            lines,
        }
    }
}

/// See [`Redactor::serialize_lines`].
pub struct RedactedLines<'a, L> {
    redactor: &'a Redactor,
    lines: L,
}

impl<'a, L> Serialize for RedactedLines<'a, L>
where
    L: IntoIterator<Item = &'a String> + Copy,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.lines.into_iter().map(|l| self.redactor.cow(l)))
    }
}

/// Names without empty strings and duplicates, longest first (then in byte order).
fn sorted<I: IntoIterator<Item = String>>(names: I) -> Vec<String> {
    let mut names: Vec<String> = names.into_iter().filter(|n| !n.is_empty()).collect();
    names.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn longest_first_and_everywhere() {
        let r = Redactor::new(["Von Block".to_string(), "Von Block 2".to_string()]);
        assert_eq!(
            r.text("Von Block 2 and Von Block"),
            "a hidden unit and a hidden unit"
        );
        let v = r.json(json!({"Von Block 2": ["x Von Block 2 y", 3, null], "n": "Von Block"}));
        let s = v.to_string();
        assert!(!s.contains("Von Block"), "{s}");
        assert_eq!(v["n"], HIDDEN);
        assert_eq!(v[HIDDEN][0], "x a hidden unit y");
    }

    #[test]
    fn no_replacement_inside_a_replacement() {
        let r = Redactor::new(["unit".to_string(), "Orleans".to_string()]);
        assert_eq!(r.text("Orleans, unit"), format!("{HIDDEN}, {HIDDEN}"));
        assert!(Redactor::new(Vec::new()).is_empty());
        assert_eq!(Redactor::new(Vec::new()).text("Orleans"), "Orleans");
    }

    #[test]
    fn overlapping_names() {
        let r = Redactor::new(
            [
                "Erbprinz von Brunswick 2",
                "erbprinz-von-brunswick-2",
                "Brunswick",
            ]
            .map(String::from),
        );
        let t = r.text("Erbprinz von Brunswick 2 (erbprinz-von-brunswick-2) of Brunswick");
        assert_eq!(t, "a hidden unit (a hidden unit) of a hidden unit");
        let lines = r.lines(&["plain".to_string(), "Brunswick".to_string()]);
        assert_eq!(lines, ["plain", HIDDEN]);
        let raw = ["plain".to_string(), "Brunswick of Brunswick".to_string()];
        assert_eq!(
            serde_json::to_string(&r.serialize_lines(&raw)).expect("serialises"),
            r#"["plain","a hidden unit of a hidden unit"]"#
        );
    }

    #[test]
    fn a_redactor_is_reused_only_for_the_same_names() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let a = Redactor::reuse(None, names(&["Orleans", "Von Block 2"]));
        let same = Redactor::reuse(Some(&a), names(&["Von Block 2", "Orleans", "Orleans", ""]));
        assert!(Arc::ptr_eq(&a, &same), "the same names in another order");
        let other = Redactor::reuse(Some(&a), names(&["Orleans"]));
        assert!(!Arc::ptr_eq(&a, &other));
        assert_eq!(
            other.text("Orleans and Von Block 2"),
            "a hidden unit and Von Block 2"
        );
        let none = Redactor::reuse(Some(&a), Vec::new());
        assert!(none.is_empty());
        assert_eq!(none.text("Von Block 2"), "Von Block 2");
    }
}
