//! Do the two methods agree on a path? Their path conditions must be
//! equivalent (§4.1 and §4 compute the same condition on the inputs): Z3
//! proves `φ_forward ⇔ φ_wp` valid or gives inputs on which they differ.
//! One solver asks every path's question, each in a scope of its own, so
//! the terms the conditions share are translated once and the watchdog's
//! per-query limit ends a hard question as `unknown`.

use crate::explore::readable::{readable, BoundedModels};
use crate::report::values::inputs_json;
use crate::solver::{SatResult, Solver};
use crate::stop::Limit;
use serde::Serialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::time::Instant;
use symex_semantics::draws::as_listed;
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::program::Language;
use symex_semantics::term::{Name, Sort, Term};

/// The verdict on one path.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "verdict", content = "detail")]
pub enum Agreement {
    /// Z3 proved the two path conditions equivalent.
    Equivalent,
    /// Inputs (confirmed by the evaluator) that satisfy one condition and not the other.
    Differ(Witness),
    /// Z3 could not decide the equivalence within the per-query limit.
    Unknown,
    /// Only this method found the path.
    OnlyIn(&'static str),
    /// One method is not available for this program (why).
    NotCompared(String),
}

/// Inputs on which the two conditions of a path differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Witness {
    /// As `run --input` reads them (an oo program's as `run --heap` reads them).
    pub inputs: Json,
    /// The method whose condition holds on them: `symex run` on these
    /// inputs takes the path exactly when that method is right.
    pub holds: &'static str,
    #[serde(skip)]
    pub valuation: Valuation,
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

/// The equivalence queries of one program, on one solver.
pub struct Equivalence<'a> {
    solver: Solver,
    inputs: &'a BTreeMap<Name, Sort>,
    language: Language,
}

impl<'a> Equivalence<'a> {
    /// Each query gives up after `timeout_ms` (as `unknown`); none runs past `deadline`.
    pub fn new(
        inputs: &'a BTreeMap<Name, Sort>,
        language: Language,
        timeout_ms: u64,
        deadline: Option<Instant>,
    ) -> Equivalence<'a> {
        let mut solver = Solver::new(timeout_ms);
        solver.set_deadline(deadline);
        Equivalence {
            solver,
            inputs,
            language,
        }
    }

    /// Whether `forward` and `wp` are equivalent over the inputs.
    pub fn agree(&mut self, forward: &Term, wp: &Term) -> Agreement {
        let differ = Term::not(Term::and(
            Term::implies(forward.clone(), wp.clone()),
            Term::implies(wp.clone(), forward.clone()),
        ));
        self.solver.push();
        self.solver.assert(&differ);
        let answer = self.solver.check();
        let model = (answer == SatResult::Sat)
            .then(|| self.solver.model(self.inputs))
            .flatten();
        self.solver.pop();
        match answer {
            SatResult::Unsat => Agreement::Equivalent,
            SatResult::Sat => model.map_or(Agreement::Unknown, |model| {
                let model = as_listed(readable(model, &differ, self.inputs, self));
                Agreement::Differ(Witness {
                    inputs: inputs_json(&model, self.language),
                    holds: if eval_bool(forward, &model) == Ok(true) {
                        "forward"
                    } else {
                        "wp"
                    },
                    valuation: model,
                })
            }),
            SatResult::Unknown => Agreement::Unknown,
            SatResult::Interrupted => Agreement::NotCompared(Limit::Interrupted.to_string()),
        }
    }
}

impl BoundedModels for Equivalence<'_> {
    fn model_of(&mut self, condition: &Term, vars: &BTreeMap<Name, Sort>) -> Option<Valuation> {
        self.solver.values_satisfying(condition, vars)
    }
}
