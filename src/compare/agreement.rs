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
    /// Only one method found the path: which, and inputs that satisfy its condition.
    OnlyIn(Unmatched),
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

/// A path only one method found, and inputs on which its condition holds:
/// `symex run` on them takes the path exactly when that method is right.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unmatched {
    pub method: &'static str,
    /// As `run --input` reads them (an oo program's as `run --heap` reads
    /// them); `null` when Z3 gave no model within the per-query limit.
    pub inputs: Json,
    #[serde(skip)]
    pub valuation: Option<Valuation>,
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
        match self.solve(&differ) {
            (SatResult::Unsat, _) => Agreement::Equivalent,
            (SatResult::Sat, Some(model)) => Agreement::Differ(Witness {
                inputs: inputs_json(&model, self.language),
                holds: if eval_bool(forward, &model) == Ok(true) {
                    "forward"
                } else {
                    "wp"
                },
                valuation: model,
            }),
            (SatResult::Sat | SatResult::Unknown, _) => Agreement::Unknown,
            (SatResult::Interrupted, _) => Agreement::NotCompared(Limit::Interrupted.to_string()),
        }
    }

    /// The path of condition `condition` that only `method` found, with
    /// inputs that reach it by that condition.
    pub fn unmatched(&mut self, method: &'static str, condition: &Term) -> Agreement {
        let valuation = self.solve(condition).1;
        Agreement::OnlyIn(Unmatched {
            method,
            inputs: valuation
                .as_ref()
                .map_or(Json::Null, |model| inputs_json(model, self.language)),
            valuation,
        })
    }

    /// Z3's answer on `condition` and, when satisfiable, a readable model
    /// of the inputs that the evaluator confirms.
    fn solve(&mut self, condition: &Term) -> (SatResult, Option<Valuation>) {
        self.solver.push();
        self.solver.assert(condition);
        let answer = self.solver.check();
        let model = (answer == SatResult::Sat)
            .then(|| self.solver.model(self.inputs))
            .flatten();
        self.solver.pop();
        let model = model.map(|model| as_listed(readable(model, condition, self.inputs, self)));
        (answer, model)
    }
}

impl BoundedModels for Equivalence<'_> {
    fn model_of(&mut self, condition: &Term, vars: &BTreeMap<Name, Sort>) -> Option<Valuation> {
        self.solver.values_satisfying(condition, vars)
    }
}
