//! Do the two methods agree on a path? Their path conditions must be
//! equivalent (§4.1 and §4 compute the same condition on the inputs): Z3
//! proves `φ_forward ⇔ φ_wp` valid or gives inputs on which they differ.

use crate::report::values::valuation_json;
use crate::solver::{prove, Proof};
use crate::stop::Limit;
use serde::Serialize;
use std::collections::BTreeMap;
use symex_semantics::term::{Name, Sort, Term};

/// The verdict on one path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "verdict", content = "detail")]
pub enum Agreement {
    /// Z3 proved the two path conditions equivalent.
    Equivalent,
    /// Inputs (confirmed by the evaluator) that satisfy one condition and not the other.
    Differ(String),
    /// Z3 could not decide the equivalence.
    Unknown,
    /// Only this method found the path.
    OnlyIn(&'static str),
    /// One method is not available for this program (why).
    NotCompared(String),
}

impl Agreement {
    /// A short word for tables.
    pub fn word(&self) -> &'static str {
        match self {
            Agreement::Equivalent => "yes",
            Agreement::Differ(_) => "NO",
            Agreement::Unknown => "unknown",
            Agreement::OnlyIn(_) => "unmatched",
            Agreement::NotCompared(_) => "-",
        }
    }

    /// Whether this verdict shows the methods disagree.
    pub fn is_disagreement(&self) -> bool {
        matches!(self, Agreement::Differ(_) | Agreement::OnlyIn(_))
    }
}

/// Whether `forward` and `wp` are equivalent over `inputs`.
pub fn agree(
    forward: &Term,
    wp: &Term,
    inputs: &BTreeMap<Name, Sort>,
    timeout_ms: u64,
) -> Agreement {
    let equivalence = Term::and(
        Term::implies(forward.clone(), wp.clone()),
        Term::implies(wp.clone(), forward.clone()),
    );
    match prove(&equivalence, inputs, timeout_ms) {
        Proof::Valid => Agreement::Equivalent,
        Proof::Counterexample(inputs) => Agreement::Differ(valuation_json(&inputs).to_string()),
        Proof::Unknown => Agreement::Unknown,
        Proof::Interrupted => Agreement::NotCompared(Limit::Interrupted.to_string()),
    }
}
