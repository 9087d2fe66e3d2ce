//! A symbolic trace ρ that grows on the right, and the weakest
//! precondition `wp_ρ(e)` of every prefix, memoised per prefix (§4).
//!
//! Definition 4.2 computes `path(ρ)` backwards, substituting through the
//! whole condition at every action. During exploration each prefix needs
//! its own path condition, and `path(ρ · a) = path(ρ) ∧ wp_ρ(δ(a))` (for a
//! test `b`: `∧ wp_ρ(b)`), where `wp_ρ(e) = e[a_n]…[a_1]` is the expression
//! over the initial state whose value is that of `e` after ρ. So each new
//! action costs one `wp_ρ` of a small term, and `wp_ρ` is memoised in every
//! node of ρ, term by term:
//! - `wp_ρ(y)` jumps to the latest action that assigns `y` (`y := e` gives
//!   `wp_ρ'(e)` for the prefix ρ' before it); operators are rebuilt from
//!   their operands' `wp`;
//! - `wp_ρ(e.f)` is `F_ρ(wp_ρ(e))`, where `F_ρ(W)` walks the writes `h.f := e'`
//!   of `f` on ρ, latest first: `if W = wp(h) then wp(e') else F_ρ'(W) fi` —
//!   the aliasing conditional of `[h.f := e']` — ending in `W.f`;
//! - a created object keeps its fresh name `x` while it is a value; where
//!   it is dereferenced or compared, the clauses of `[x := new C]` apply:
//!   `F(x)` ends in the default value where `x` was created,
//!   `x = x` is `true`, `x = e` is `false`, and conditionals with `x` as an
//!   argument are pushed outward first. So every path condition mentions
//!   only initial values; `wp_ρ` of an object-valued variable may name the
//!   objects ρ creates.
//!
//! Terms stay shared (an aliasing chain is built once and extended), and
//! the work is done with an explicit stack: traces are as long as
//! exploration goes, and nothing here recurses along them.

use super::action::{Action, Location};
use super::fresh::is_fresh;
use crate::delta::Checks;
use crate::term::{BinOp, IdMap, Name, Sort, Term, TermKind};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// ρ: `ε` or `ρ' · a`, sharing `ρ'` with every other extension of it.
#[derive(Clone)]
pub struct Trace(Rc<Node>);

struct Node {
    action: Option<Action>,
    before: Option<Trace>,
    len: usize,
    /// The latest node above this one (in ρ') that writes each variable
    /// (an assignment, or the creation that introduces it) and each field.
    writers: im::HashMap<Written, Trace>,
    memo: RefCell<Memo>,
    shared: Rc<Shared>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Written {
    Var(Name),
    Field(Name),
}

/// `wp` results of one prefix.
#[derive(Default)]
struct Memo {
    /// `wp_ρ(e)` by `e`'s id, with `e` itself: a key term built during the
    /// walk (the `(a[i] := v)` of an array write) must stay alive, or the
    /// next attempt rebuilds it under a new id, misses, and never ends.
    wp: IdMap<(Term, Term)>,
    /// `F_ρ(W)` by `W`'s id and the field.
    fields: HashMap<(u64, Name), Term>,
    /// `W = W'` (or `W != W'`) for objects, by ids and polarity.
    equal: HashMap<(u64, u64, bool), Term>,
}

/// What all prefixes of one trace share: whether a term has a created
/// object among the values of its conditional branches (a property of the
/// term alone, memoised once).
#[derive(Default)]
struct Shared {
    created_inside: RefCell<IdMap<bool>>,
}

impl Default for Trace {
    fn default() -> Trace {
        Trace::new()
    }
}

impl Trace {
    /// `ε`.
    pub fn new() -> Trace {
        Trace(Rc::new(Node {
            action: None,
            before: None,
            len: 0,
            writers: im::HashMap::new(),
            memo: RefCell::default(),
            shared: Rc::default(),
        }))
    }

    /// `ρ · a`.
    pub fn then(&self, action: Action) -> Trace {
        let mut writers = self.0.writers.clone();
        if let Some(written) = self.written() {
            writers.insert(written, self.clone());
        }
        Trace(Rc::new(Node {
            action: Some(action),
            before: Some(self.clone()),
            len: self.0.len + 1,
            writers,
            memo: RefCell::default(),
            shared: self.0.shared.clone(),
        }))
    }

    pub fn len(&self) -> usize {
        self.0.len
    }

    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }

    /// The last action, `a` of `ρ' · a`.
    pub fn last(&self) -> Option<&Action> {
        self.0.action.as_ref()
    }

    /// `ρ'` of `ρ' · a`.
    pub fn before(&self) -> Option<&Trace> {
        self.0.before.as_ref()
    }

    /// The actions, first to last.
    pub fn actions(&self) -> Vec<Action> {
        let mut actions: Vec<Action> = std::iter::successors(Some(self), |t| t.before()).filter_map(|t| t.last().cloned()).collect();
        actions.reverse();
        actions
    }

    /// `wp_ρ(e)`: the value of `e` after ρ, as an expression over the
    /// initial state (and the fresh names of the objects ρ creates).
    pub fn wp(&self, e: &Term) -> Term {
        solve(Job::Wp(self.clone(), e.clone()))
    }

    /// What `path(ρ · a)` adds to `path(ρ)` (Definition 4.2):
    /// `wp_ρ(δ(h, e))` for an assignment, `wp_ρ(δ(b) ∧ b)` for a test
    /// (`δ(b)`: see [`Action::definedness`]), `true` for a creation.
    pub fn condition(&self, action: &Action, checks: Checks) -> Term {
        self.wp(&action.condition(checks))
    }

    /// What the last action writes: a variable or a field.
    fn written(&self) -> Option<Written> {
        match self.last()? {
            Action::Assign(Location::Var(x, _) | Location::Element(x, ..), _) | Action::New(x, _) => Some(Written::Var(x.clone())),
            Action::Assign(Location::Field(_, f, _), _) => Some(Written::Field(f.clone())),
            Action::Test(_) => None,
        }
    }

    /// The latest node at or above this one that writes `written`.
    fn writer(&self, written: &Written) -> Option<&Trace> {
        if self.written().as_ref() == Some(written) {
            return Some(self);
        }
        self.0.writers.get(written)
    }

    /// Where `w` is the fresh name of an object created on ρ, the length
    /// of the prefix that ends with its creation.
    fn created(&self, w: &Term) -> Option<usize> {
        let TermKind::Var(x, Sort::Object(_)) = w.kind() else { return None };
        let creation = self.writer(&Written::Var(x.clone()))?;
        matches!(creation.last(), Some(Action::New(..))).then_some(creation.len())
    }

    /// Whether a created object is among the values of `w`'s conditional
    /// branches (`if b then x else y fi` with `x` created on ρ): the form
    /// the clauses of `[x := new C]` push outward first.
    fn created_inside(&self, w: &Term) -> bool {
        let mut memo = self.0.shared.created_inside.borrow_mut();
        let mut stack = vec![(w.clone(), false)];
        while let Some((term, expanded)) = stack.pop() {
            if memo.contains_key(&term.id()) {
                continue;
            }
            match term.kind() {
                TermKind::Var(x, Sort::Object(_)) => {
                    memo.insert(term.id(), is_fresh(x));
                }
                TermKind::Ite(_, a, b) if expanded => {
                    let inside = memo.get(&a.id()).copied().unwrap_or(false) || memo.get(&b.id()).copied().unwrap_or(false);
                    memo.insert(term.id(), inside);
                }
                TermKind::Ite(_, a, b) => {
                    stack.push((term.clone(), true));
                    stack.push((a.clone(), false));
                    stack.push((b.clone(), false));
                }
                _ => {
                    memo.insert(term.id(), false);
                }
            }
        }
        memo.get(&w.id()).copied().unwrap_or(false)
    }
}

impl Drop for Node {
    /// Frees a long chain of prefixes iteratively: a trace of a million
    /// actions must not overflow the stack when dropped. (`writers` only
    /// points at ancestors that `before` keeps alive, so clearing it never
    /// frees a node.)
    fn drop(&mut self) {
        self.writers = im::HashMap::new();
        let mut before = self.before.take();
        while let Some(Trace(node)) = before {
            match Rc::try_unwrap(node) {
                Ok(mut node) => {
                    node.writers = im::HashMap::new();
                    before = node.before.take();
                }
                Err(_) => break,
            }
        }
    }
}

/// One memoised question about a prefix.
enum Job {
    /// `wp_ρ(e)`.
    Wp(Trace, Term),
    /// `F_ρ(W)` for the field `f` of sort `sort`: the value of `W.f` after ρ,
    /// for an object `W` given by its value (a `wp` result).
    Field(Trace, Term, Name, Sort),
    /// `W = W'` (`true`) or `W != W'` (`false`) for objects given by their values.
    Equal(Trace, Term, Term, bool),
}

impl Job {
    fn trace(&self) -> &Trace {
        match self {
            Job::Wp(rho, _) | Job::Field(rho, ..) | Job::Equal(rho, ..) => rho,
        }
    }

    fn memoised(&self) -> Option<Term> {
        let memo = self.trace().0.memo.borrow();
        match self {
            Job::Wp(_, e) => memo.wp.get(&e.id()).map(|(_, result)| result.clone()),
            Job::Field(_, w, f, _) => memo.fields.get(&(w.id(), f.clone())).cloned(),
            Job::Equal(_, a, b, positive) => memo.equal.get(&(a.id(), b.id(), *positive)).cloned(),
        }
    }

    fn remember(&self, result: &Term) {
        let mut memo = self.trace().0.memo.borrow_mut();
        match self {
            Job::Wp(_, e) => {
                memo.wp.insert(e.id(), (e.clone(), result.clone()));
            }
            Job::Field(_, w, f, _) => {
                memo.fields.insert((w.id(), f.clone()), result.clone());
            }
            Job::Equal(_, a, b, positive) => {
                memo.equal.insert((a.id(), b.id(), *positive), result.clone());
            }
        }
    }
}

/// The jobs an attempt found unanswered.
#[derive(Default)]
struct Needs(Vec<Job>);

impl Needs {
    /// The answer to `job` if it is known, else `None`, noting the job.
    fn want(&mut self, job: Job) -> Option<Term> {
        let known = job.memoised();
        if known.is_none() {
            self.0.push(job);
        }
        known
    }
}

/// Answers `job` and every job it depends on, depth first with an explicit
/// stack: a job is retried once the jobs it needs are answered. Every job a
/// job needs is about a shorter prefix or a smaller term, so this ends.
fn solve(job: Job) -> Term {
    let mut stack = vec![job];
    loop {
        let Some(top) = stack.last() else { return Term::bool(true) };
        let answer = match top.memoised() {
            Some(known) => known,
            None => {
                let mut needs = Needs::default();
                match attempt(top, &mut needs) {
                    Some(answer) => {
                        top.remember(&answer);
                        answer
                    }
                    None => {
                        stack.extend(needs.0);
                        continue;
                    }
                }
            }
        };
        stack.pop();
        if stack.is_empty() {
            return answer;
        }
    }
}

fn attempt(job: &Job, needs: &mut Needs) -> Option<Term> {
    match job {
        Job::Wp(rho, e) => wp(rho, e, needs),
        Job::Field(rho, w, f, sort) => field(rho, w, f, sort, needs),
        Job::Equal(rho, a, b, positive) => equal(rho, a, b, *positive, needs),
    }
}

// Each attempt returns the answer, or `None` after noting at least one
// unanswered job it needs.

/// `wp_ρ(e)`, one node of `e`.
fn wp(rho: &Trace, e: &Term, needs: &mut Needs) -> Option<Term> {
    match e.kind() {
        TermKind::Int(_) | TermKind::Bool(_) | TermKind::Len(_) | TermKind::Nil(_) => Some(e.clone()),
        TermKind::Var(y, _) => {
            let written = rho.writer(&Written::Var(y.clone())).and_then(|w| Some((w.before()?.clone(), w.last()?)));
            let Some((before, action)) = written else { return Some(e.clone()) };
            match action {
                // y[y := e'] = e'
                Action::Assign(Location::Var(..), value) => needs.want(Job::Wp(before, value.clone())),
                // a[a[i] := v] = (a[i] := v)  (§2.1)
                Action::Assign(Location::Element(a, sort, index), value) => {
                    let update = Term::store(Term::var(a, sort.clone()), index.clone(), value.clone());
                    needs.want(Job::Wp(before, update))
                }
                // The created object, by its fresh name.
                _ => Some(e.clone()),
            }
        }
        TermKind::Field(object, f, sort) => {
            let w = needs.want(Job::Wp(rho.clone(), object.clone()))?;
            needs.want(Job::Field(rho.clone(), w, f.clone(), sort.clone()))
        }
        TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) if matches!(a.sort(), Sort::Object(_)) => {
            let a = needs.want(Job::Wp(rho.clone(), a.clone()));
            let b = needs.want(Job::Wp(rho.clone(), b.clone()));
            needs.want(Job::Equal(rho.clone(), a?, b?, *op == BinOp::Eq))
        }
        _ => {
            let children: Vec<Option<Term>> = e.children().into_iter().map(|c| needs.want(Job::Wp(rho.clone(), c.clone()))).collect();
            let children: Option<Vec<Term>> = children.into_iter().collect();
            Some(e.with_children(&children?))
        }
    }
}

/// `F_ρ(W)`: the value of the field `f` of the object `W` after ρ.
fn field(rho: &Trace, w: &Term, f: &Name, sort: &Sort, needs: &mut Needs) -> Option<Term> {
    if let TermKind::Ite(c, a, b) = w.kind() {
        if rho.created_inside(w) {
            // (if c then a else b fi).f = if c then a.f else b.f fi
            let a = needs.want(Job::Field(rho.clone(), a.clone(), f.clone(), sort.clone()));
            let b = needs.want(Job::Field(rho.clone(), b.clone(), f.clone(), sort.clone()));
            return Some(Term::ite(c.clone(), a?, b?));
        }
    }
    let unwritten = || Some(Term::field(w.clone(), f, sort.clone()));
    let write = rho.writer(&Written::Field(f.clone()));
    if let Some(created) = rho.created(w) {
        if write.map_or(true, |d| d.len() <= created) {
            // (x.f)[x := new C] = the default value of f: no write since x was created.
            return initial_value(sort).or_else(unwritten);
        }
    }
    let written = write.and_then(|d| Some((d.before()?.clone(), d.last()?)));
    let Some((before, Action::Assign(Location::Field(h, ..), value))) = written else { return unwritten() };
    // (h'.f)[h.f := e] = if h'[h.f := e] = h then e else h'[h.f := e].f fi
    let target = needs.want(Job::Wp(before.clone(), h.clone()));
    let value = needs.want(Job::Wp(before.clone(), value.clone()));
    let rest = needs.want(Job::Field(before.clone(), w.clone(), f.clone(), sort.clone()));
    let aliased = needs.want(Job::Equal(before, w.clone(), target?, true));
    let aliased = aliased?;
    Some(match aliased.kind() {
        TermKind::Bool(true) => value?,
        TermKind::Bool(false) => rest?,
        _ => Term::ite(aliased.clone(), value?, rest?),
    })
}

/// `W = W'` (or `W != W'`) for objects: `[x := new C]`'s clauses where a
/// created object is compared (`x = x` is true, `x = e` false), after
/// pushing conditionals with a created object as argument outward.
fn equal(rho: &Trace, a: &Term, b: &Term, positive: bool, needs: &mut Needs) -> Option<Term> {
    for (operand, other, left) in [(a, b, true), (b, a, false)] {
        let TermKind::Ite(c, then, otherwise) = operand.kind() else { continue };
        if !rho.created_inside(operand) {
            continue;
        }
        let job = |branch: &Term| {
            let (x, y) = if left { (branch.clone(), other.clone()) } else { (other.clone(), branch.clone()) };
            Job::Equal(rho.clone(), x, y, positive)
        };
        let then = needs.want(job(then));
        let otherwise = needs.want(job(otherwise));
        return Some(Term::ite(c.clone(), then?, otherwise?));
    }
    // One term denotes one object: `x = x` is true whatever `x` is.
    if rho.created(a).is_some() || rho.created(b).is_some() || a == b {
        return Some(Term::bool((a == b) == positive));
    }
    Some(Term::binary(if positive { BinOp::Eq } else { BinOp::Ne }, a.clone(), b.clone()))
}

/// The value of a field of a new object (SPEC §1.5: `nil`, `0`, `false`).
pub(super) fn initial_value(sort: &Sort) -> Option<Term> {
    match sort {
        Sort::Int => Some(Term::int(0)),
        Sort::Bool => Some(Term::bool(false)),
        Sort::Object(class) => Some(Term::nil(class)),
        Sort::Array(_) | Sort::Field(..) => None,
    }
}
