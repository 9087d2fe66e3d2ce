//! The questions a model at hand answers, so that [`InContext::rewrite`]
//! need not ask the solver. In the order it tries them, for a conjunct:
//! a model of the prefix that falsifies it ([`InContext::refuting_prefix_model`]),
//! the path's or the prefix's with a variable set to a fresh copy of its
//! object ([`InContext::refuting_fresh_copy`]), or, for a conjunct left an
//! atom, mended so that its negation holds ([`InContext::mended_refutes`]);
//! then, for each of its atoms and their negations, the path's model and
//! those of refuted questions ([`InContext::holds_in_some`]) and mended
//! ones. Each model is confirmed on the context before it answers, except
//! under the mutants that show the confirmation is needed.

use super::InContext;
use crate::mutants::{self, Mutant};
use crate::simplify::mended::{self, Bases, Changed};
use symex_semantics::eval::{eval, eval_bool, Valuation};
use symex_semantics::term::Term;
use symex_semantics::value::Value;

impl InContext {
    /// Whether `atom` has the value `value` in the path's model or one of
    /// `models`, models of the context: then the context entails neither
    /// `atom` (when `value` is `false`) nor its negation (when `true`),
    /// and the question is spared. A model comes from each refuted
    /// question; the path's is counted apart.
    pub(super) fn holds_in_some(
        &mut self,
        (path_model, models): (Option<&Valuation>, &[Valuation]),
        atom: &Term,
        value: bool,
    ) -> bool {
        let value = value != mutants::active(Mutant::ModelSparesTheOtherQuestion);
        let holds_in =
            |model: &Valuation| matches!(eval(atom, model), Ok(Value::Bool(b)) if b == value);
        if path_model.is_some_and(holds_in) {
            self.spared_by_path_model += 1;
            return true;
        }
        let holds = self.models_spare_questions && models.iter().any(holds_in);
        self.spared_by_models += usize::from(holds);
        holds
    }

    /// A model of the prefix that satisfies `context` and falsifies
    /// `conjunct`: it refutes `context ⊨ conjunct`, the question not
    /// asked (a sound solver answers no or does not know; where it does
    /// not know, the questions about the disjuncts that a no spares are
    /// answered no or not known, as the model refutes them too).
    pub(super) fn refuting_prefix_model(
        &mut self,
        context: &Term,
        conjunct: &Term,
        prefix_models: &[&Valuation],
    ) -> Option<Valuation> {
        let model = prefix_models.iter().find(|model| {
            eval_bool(conjunct, model) == Ok(false)
                && (mutants::active(Mutant::PrefixModelUnchecked)
                    || eval_bool(context, model) == Ok(true))
        })?;
        let model = (*model).clone();
        self.refuted_by_prefix_model += 1;
        // Remembered as an answer: the leaf asks again under the same
        // context when no later guard joins it.
        self.remember((context.id(), conjunct.id()), Some(false));
        Some(model)
    }

    /// A model of `context` (its conjuncts) that falsifies `conjunct`,
    /// made from one of `bases`, models of the context, by setting a
    /// variable of the conjunct to a fresh copy of its object
    /// ([`mended::fresh_copy`]): it refutes `context ⊨ conjunct` as the
    /// prefix's model does.
    pub(super) fn refuting_fresh_copy(
        &mut self,
        (context, conjuncts): (&Term, &[Term]),
        conjunct: &Term,
        bases: &mut Bases,
    ) -> Option<Valuation> {
        let compared = mended::compared(conjunct);
        if compared.is_empty() {
            return None;
        }
        let refuting = bases.find(|base| {
            compared.iter().find_map(|x| {
                let mended = mended::fresh_copy(base, x)?;
                let refutes = eval_bool(conjunct, &mended) == Ok(false)
                    && (mutants::active(Mutant::FreshCopyUnchecked)
                        || mended::still_satisfies(conjuncts, &Changed::Var(x.clone()), &mended));
                refutes.then_some(mended)
            })
        })?;
        self.refuted_by_fresh_copy += 1;
        self.remember((context.id(), conjunct.id()), Some(false));
        Some(refuting)
    }

    /// Whether one of `bases`, models of `context` (the path's, the
    /// prefix's), mended so that `wanted`, the negation of `goal`, holds
    /// ([`mended::satisfying`]), satisfies `context` still: then the
    /// context does not entail `goal`, the question is spared, and the
    /// mended model joins `models` (the disjuncts of an `else` branch's
    /// guard, `r1 = r5 || r1 = r6`, each their own case split).
    pub(super) fn mended_refutes(
        &mut self,
        (context, conjuncts): (&Term, &[Term]),
        (goal, wanted): (&Term, &Term),
        (bases, models): (&mut Bases, &mut Vec<Valuation>),
    ) -> bool {
        let mended = bases.find(|base| {
            mended::satisfying(base, wanted).find(|(changed, mended)| {
                eval_bool(wanted, mended) == Ok(true)
                    && (mutants::active(Mutant::MendedModelUnchecked)
                        || mended::still_satisfies(conjuncts, changed, mended))
            })
        });
        let Some((changed, mended)) = mended else {
            return false;
        };
        self.spared_by_mended += 1;
        self.spared_by_mended_field += usize::from(matches!(changed, Changed::Field(_)));
        models.push(mended);
        // Remembered as an answer, for the leaf (see
        // [`InContext::refuting_prefix_model`]).
        self.remember((context.id(), goal.id()), Some(false));
        true
    }
}
