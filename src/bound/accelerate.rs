//! A long loop summarised at once (loop acceleration), so that a bound of
//! a million iterations costs a few queries instead of a million steps.
//!
//! The body is run once, symbolically and merged, from fresh values `x'`
//! of the variables it assigns: its effect `T`. Where every variable the
//! condition `b` depends on (through `T`, transitively) moves by a constant,
//! `T(v) = v' + c_v`, the values after `m` more iterations are
//! `v + c_v·m`, and where `b` is a conjunction of linear comparisons of
//! them, the iterations at which `b` holds form an interval: the loop runs
//! exactly `m` more iterations iff `m = 0 ∧ ¬b(0)` or
//! `m ≥ 1 ∧ b(0) ∧ b(m−1) ∧ ¬b(m)`. Z3 is then asked for the largest such
//! `m` under the path condition, by doubling and bisection, up to the cap.
//! The exploration goes on after the loop with `m` symbolic, the summarised
//! variables as `v + c_v·m` and the body's other variables fresh (an
//! over-approximation: a later loop's count found through them is kept
//! only if its witness replays to it).

use super::{BoundOptions, Shortfall, Sighting};
use crate::explore::{explore, Bounds, ExploreOptions, Merge, Status};
use crate::simplify::simplify;
use crate::solver::{SatResult, Solver};
use std::collections::{BTreeMap, BTreeSet};
use symex_semantics::program::{Block, Code, Stmt};
use symex_semantics::system::{Configuration, Rule, Step, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind, UnOp};

/// A loop entry summarised: the step out of it for every count, and the largest count.
pub(crate) struct Summarised<C> {
    pub(crate) exit: Step<C>,
    pub(crate) largest: Sighting,
    pub(crate) shortfall: Option<Shortfall>,
}

/// The loop at the head of `config`, `done` iterations into this entry,
/// summarised (`fresh` numbers the names it makes); `None` when its body or
/// condition has no such summary, or Z3 cannot decide the count.
pub(crate) fn accelerate<S>(
    system: &S,
    config: &S::Config,
    done: u64,
    fresh: usize,
    options: &BoundOptions,
) -> Option<Summarised<S::Config>>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let Some(Stmt::While(_, condition, body)) = config.head() else {
        return None;
    };
    if !straight(body) {
        return None;
    }
    let sorts: BTreeMap<Name, Sort> = config
        .global_state()
        .into_iter()
        .map(|(x, value)| (x, value.sort()))
        .collect();
    let mut assigned = BTreeSet::new();
    assigned_in(body, &mut assigned);
    let effect = effect(system, config, body, &assigned, &sorts, options)?;
    let steps = steps(condition, &effect, &assigned, &sorts)?;
    if !linear_conjunction(condition, &steps) {
        return None;
    }
    let after = |m: &Term| -> Option<Term> {
        let moved: Vec<(Name, Term)> = steps
            .iter()
            .map(|(v, c)| {
                let now = config.after(&Term::var(v, Sort::Int));
                let by = Term::binary(BinOp::Mul, Term::int(c.clone()), m.clone());
                (v.clone(), Term::binary(BinOp::Add, now, by))
            })
            .collect();
        let moved = config.rebuilt(&|code| code.clone(), &moved, Term::bool(true))?;
        Some(moved.after(condition))
    };
    // At least `t ≥ 1` more iterations: `b` holds at the ends of `[0, t - 1]`.
    let at_least = |t: &Term| -> Option<Term> {
        let last = Term::binary(BinOp::Sub, t.clone(), Term::int(1));
        Some(Term::and(after(&Term::int(0))?, after(&last)?))
    };
    let m = Term::var(&format!("m#{fresh}"), Sort::Int);
    let exactly = Term::or(
        Term::and(
            Term::binary(BinOp::Eq, m.clone(), Term::int(0)),
            Term::not(after(&Term::int(0))?),
        ),
        Term::conjunction([
            Term::binary(BinOp::Ge, m.clone(), Term::int(1)),
            at_least(&m)?,
            Term::not(after(&m)?),
        ]),
    );
    let limit = options.cap.saturating_sub(done);
    let mut solver = Solver::new(options.timeout_ms);
    solver.assert(&options.assumption);
    solver.assert(config.path_condition());
    let largest = largest(limit, |t| {
        let condition = at_least(&Term::int(t))?;
        match solver.check_assuming(&condition) {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Unknown | SatResult::Interrupted => None,
        }
    })?;
    let witness = match largest {
        0 => Term::not(after(&Term::int(0))?),
        n => at_least(&Term::int(n))?,
    };
    let witness = Term::and(config.path_condition().clone(), witness);
    // After the loop: the summarised variables moved `m` times, the others fresh.
    let mut updates: Vec<(Name, Term)> = Vec::new();
    for x in &assigned {
        let sort = sorts.get(x)?.clone();
        let value = match steps.get(x) {
            Some(c) => Term::binary(
                BinOp::Add,
                config.after(&Term::var(x, sort)),
                Term::binary(BinOp::Mul, Term::int(c.clone()), m.clone()),
            ),
            None => Term::var(&format!("{x}#{fresh}"), sort),
        };
        updates.push((x.clone(), value));
    }
    let guard = Term::and(
        exactly,
        Term::binary(BinOp::Le, m.clone(), Term::int(largest)),
    );
    let phi = Term::and(config.path_condition().clone(), guard.clone());
    let next = config.rebuilt(&|code| code.split().map(|(_, rest)| rest).unwrap_or_default(), &updates, phi)?;
    Some(Summarised {
        exit: Step {
            rule: Rule::IterationExit,
            guard,
            next,
        },
        largest: Sighting {
            count: done + largest,
            condition: witness,
            accelerated: true,
        },
        shortfall: (largest >= limit).then_some(Shortfall::Cap(options.cap)),
    })
}

/// Whether `block` only assigns and chooses (no loop, call, assertion or assumption).
fn straight(block: &Block) -> bool {
    block.iter().all(|statement| match statement {
        Stmt::Skip | Stmt::Assign(..) | Stmt::ArrayAssign(..) => true,
        Stmt::If(_, then, otherwise) => straight(then) && straight(otherwise),
        _ => false,
    })
}

fn assigned_in(block: &Block, assigned: &mut BTreeSet<Name>) {
    for statement in block.iter() {
        match statement {
            Stmt::Assign(x, _) | Stmt::ArrayAssign(x, ..) => {
                assigned.insert(x.clone());
            }
            Stmt::If(_, then, otherwise) => {
                assigned_in(then, assigned);
                assigned_in(otherwise, assigned);
            }
            _ => {}
        }
    }
}

/// The primed name `x'` of `x`'s value when an iteration starts.
fn primed(x: &Name) -> Name {
    Name::from(format!("{x}'").as_str())
}

/// `T`: each assigned variable's value after one iteration, over the
/// primed values at its start, from one merged run of the body.
fn effect<S>(
    system: &S,
    config: &S::Config,
    body: &Block,
    assigned: &BTreeSet<Name>,
    sorts: &BTreeMap<Name, Sort>,
    options: &BoundOptions,
) -> Option<BTreeMap<Name, Term>>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let start: Vec<(Name, Term)> = assigned
        .iter()
        .map(|x| Some((x.clone(), Term::var(&primed(x), sorts.get(x)?.clone()))))
        .collect::<Option<_>>()?;
    let body_code = Code::empty().push(body);
    let initial = config.rebuilt(&|_| body_code.clone(), &start, Term::bool(true))?;
    let explored = explore(
        system,
        initial,
        &BTreeMap::new(),
        &ExploreOptions {
            bounds: Bounds {
                unfold: 0,
                ..Bounds::default()
            },
            timeout_ms: options.timeout_ms,
            merge: Merge::Join,
            ..ExploreOptions::default()
        },
    );
    let [node] = explored.paths.as_slice() else {
        return None;
    };
    let leaf = explored.leaf(*node)?;
    if leaf.status != Status::Terminated || !explored.unexplored.is_empty() {
        return None;
    }
    Some(
        leaf.state
            .iter()
            .filter(|(x, _)| assigned.contains(x))
            .cloned()
            .collect(),
    )
}

/// The constant `c_v` by which each variable the condition depends on moves
/// per iteration (those the body leaves alone have none), or `None` when
/// one moves otherwise.
fn steps(
    condition: &Term,
    effect: &BTreeMap<Name, Term>,
    assigned: &BTreeSet<Name>,
    sorts: &BTreeMap<Name, Sort>,
) -> Option<BTreeMap<Name, num_bigint::BigInt>> {
    let mut pending: Vec<Name> = condition.free_vars().into_keys().collect();
    let mut steps = BTreeMap::new();
    while let Some(v) = pending.pop() {
        if !assigned.contains(&v) || steps.contains_key(&v) {
            continue;
        }
        if sorts.get(&v) != Some(&Sort::Int) {
            return None;
        }
        let value = effect.get(&v)?;
        let moved = simplify(&Term::binary(
            BinOp::Sub,
            value.clone(),
            Term::var(&primed(&v), Sort::Int),
        ));
        let TermKind::Int(c) = moved.kind() else {
            return None;
        };
        steps.insert(v.clone(), c.clone());
        for x in value.free_vars().into_keys() {
            if let Some(unprimed) = x.strip_suffix('\'') {
                pending.push(Name::from(unprimed));
            }
        }
    }
    Some(steps)
}

/// Whether `condition` is a conjunction of comparisons (`=` and the
/// orderings, possibly negated orderings) linear in the moving variables:
/// then the iterations at which it holds are an interval.
fn linear_conjunction(condition: &Term, steps: &BTreeMap<Name, num_bigint::BigInt>) -> bool {
    condition.conjuncts().iter().all(|conjunct| {
        let comparison = match conjunct.kind() {
            TermKind::Unary(UnOp::Not, inner) => match inner.kind() {
                TermKind::Binary(BinOp::Eq | BinOp::Ne, ..) => return false,
                _ => inner,
            },
            _ => conjunct,
        };
        match comparison.kind() {
            TermKind::Bool(_) => true,
            TermKind::Binary(op, a, b) if op.is_comparison() && *op != BinOp::Ne => {
                affine(a, steps) && affine(b, steps)
            }
            _ => false,
        }
    })
}

/// Whether `term` is affine in the moving variables (any term that
/// mentions none of them is a constant of the loop).
fn affine(term: &Term, steps: &BTreeMap<Name, num_bigint::BigInt>) -> bool {
    let moving = |t: &Term| t.free_vars().keys().any(|x| steps.contains_key(x));
    if !moving(term) {
        return true;
    }
    match term.kind() {
        TermKind::Var(..) => true,
        TermKind::Unary(UnOp::Neg, a) => affine(a, steps),
        TermKind::Binary(BinOp::Add | BinOp::Sub, a, b) => affine(a, steps) && affine(b, steps),
        TermKind::Binary(BinOp::Mul, a, b) => {
            (!moving(a) && affine(b, steps)) || (!moving(b) && affine(a, steps))
        }
        _ => false,
    }
}

/// The largest `t ≤ limit` that `reaches` (at least `t` more iterations
/// on some input; `0` always): doubling, then bisection. `None` when Z3
/// cannot decide one of them.
fn largest(limit: u64, mut reaches: impl FnMut(u64) -> Option<bool>) -> Option<u64> {
    let (mut low, mut high) = (0, 1);
    while high <= limit && reaches(high)? {
        low = high;
        high = high.saturating_mul(2);
    }
    // `low` is reached and `high` is not (or lies past the limit).
    let mut high = high.min(limit.saturating_add(1));
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if reaches(middle)? {
            low = middle;
        } else {
            high = middle;
        }
    }
    Some(low)
}
