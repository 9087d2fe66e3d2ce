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
//! - `wp_ρ(e.f)` reads the field `f` as an array (§4.1): `F_ρ` is the
//!   initial field array `C.f` updated by one `(F_ρ'[wp_ρ'(h)] := wp_ρ'(e'))`
//!   per write `h.f := e'` on ρ, built once and shared by every later read
//!   of `f`. McCarthy's read over write, `(F[h] := v)[W] = if W = h then v
//!   else F[W] fi`, is the aliasing conditional of `[h.f := e']`; a read
//!   `F_ρ[wp_ρ(e)]` shows the latest [`UNFOLDED_WRITES`] writes of `f` that
//!   way, as the paper writes them, and the older ones in array form.
//!   Unfolding all of them would build, for every object read, a chain as
//!   long as all earlier writes of `f` — quadratic on a long trace whose
//!   reads go through ever new references; bounded, a read costs a bounded
//!   number of nodes and `path(ρ)` stays linear in ρ
//!   (`symex bench --family path`);
//! - a created object keeps its fresh name `x` while it is a value, and
//!   `x := new C` updates each field array of `C` at `x` with the field's
//!   default, as forward execution does; the clauses of `[x := new C]` then
//!   remove the created objects from every condition, in array form
//!   ([`super::created`]: `x = x` is `true`, `x = e` is `false`,
//!   `(f[x])[x := new C]` the default, conditionals with `x` as an argument
//!   pushed outward). So every path condition mentions only initial
//!   values; `wp_ρ` of an object-valued variable may name the objects ρ
//!   creates.
//!
//! Terms stay shared (a field array is built once and extended), and the
//! work is done with an explicit stack: traces are as long as exploration
//! goes, and nothing here recurses along them.

use super::action::{Action, Location};
use super::created::{read, Creations};
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
    /// What the action writes, worked out once ([`Trace::writer`] asks at
    /// every variable `wp` meets).
    written: [Option<Written>; 2],
    /// The latest node above this one (in ρ') that writes each variable
    /// (an assignment, or the creation that introduces it), each field and
    /// the fields of each class (a creation).
    writers: im::HashMap<Written, Trace>,
    memo: RefCell<Memo>,
    /// What all prefixes of one trace share: the elimination of created
    /// objects, memoised term by term.
    creations: Rc<Creations>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Written {
    Var(Name),
    /// The field `f` of class `C`, by `(C, f)`.
    Field(Name, Name),
    /// Every field of the objects of a class: a creation.
    Class(Name),
}

/// `wp` results of one prefix.
#[derive(Default)]
struct Memo {
    /// `wp_ρ(e)` by `e`'s id, with `e` itself: a key term built during the
    /// walk (the `(a[i] := v)` of an array write) must stay alive, or the
    /// next attempt rebuilds it under a new id, misses, and never ends.
    wp: IdMap<(Term, Term)>,
    /// `F_ρ`, the array of the field `f` of class `C` after ρ, by `(C, f)`.
    fields: HashMap<(Name, Name), Term>,
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
            written: [None, None],
            writers: im::HashMap::new(),
            memo: RefCell::default(),
            creations: Rc::default(),
        }))
    }

    /// `ρ · a`.
    pub fn then(&self, action: Action) -> Trace {
        let mut writers = self.0.writers.clone();
        for written in self.0.written.iter().flatten() {
            writers.insert(written.clone(), self.clone());
        }
        Trace(Rc::new(Node {
            written: written_by(&action),
            action: Some(action),
            before: Some(self.clone()),
            len: self.0.len + 1,
            writers,
            memo: RefCell::default(),
            creations: self.0.creations.clone(),
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
        let mut actions: Vec<Action> = std::iter::successors(Some(self), |t| t.before())
            .filter_map(|t| t.last().cloned())
            .collect();
        actions.reverse();
        actions
    }

    /// `wp_ρ(e)`: the value of `e` after ρ, as an expression over the
    /// initial state — an object, where it may be one that ρ creates, by
    /// that object's fresh name.
    pub fn wp(&self, e: &Term) -> Term {
        self.0
            .creations
            .eliminate(&solve(Job::Wp(self.clone(), e.clone())))
    }

    /// What `path(ρ · a)` adds to `path(ρ)` (Definition 4.2):
    /// `wp_ρ(δ(h, e))` for an assignment, `wp_ρ(δ(b) ∧ b)` for a test
    /// (`δ(b)`: see [`Action::definedness`]), `true` for a creation.
    pub fn condition(&self, action: &Action, checks: Checks) -> Term {
        self.wp(&action.condition(checks))
    }

    /// The latest node at or above this one that writes `written`.
    fn writer(&self, written: &Written) -> Option<&Trace> {
        if self.0.written.iter().flatten().any(|w| w == written) {
            return Some(self);
        }
        self.0.writers.get(written)
    }
}

/// What `action` writes: a variable, a field, or (a creation) its
/// variable and the fields of its class.
fn written_by(action: &Action) -> [Option<Written>; 2] {
    match action {
        Action::Assign(Location::Var(x, _) | Location::Element(x, ..), _) => {
            [Some(Written::Var(x.clone())), None]
        }
        Action::Assign(Location::Field(object, f, _), _) => match object.sort() {
            Sort::Object(class) => [Some(Written::Field(class, f.clone())), None],
            _ => [None, None],
        },
        Action::New(x, class) => [
            Some(Written::Var(x.clone())),
            Some(Written::Class(class.clone())),
        ],
        Action::Test(_) => [None, None],
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
    /// `wp_ρ(e)`, created objects by their fresh names.
    Wp(Trace, Term),
    /// `F_ρ`: the array of the field `f` of sort `sort` of class `C` after ρ.
    Field(Trace, Name, Name, Sort),
}

impl Job {
    fn trace(&self) -> &Trace {
        match self {
            Job::Wp(rho, _) | Job::Field(rho, ..) => rho,
        }
    }

    fn memoised(&self) -> Option<Term> {
        let memo = self.trace().0.memo.borrow();
        match self {
            Job::Wp(_, e) => memo.wp.get(&e.id()).map(|(_, result)| result.clone()),
            Job::Field(_, class, f, _) => memo.fields.get(&(class.clone(), f.clone())).cloned(),
        }
    }

    fn remember(&self, result: &Term) {
        let mut memo = self.trace().0.memo.borrow_mut();
        match self {
            Job::Wp(_, e) => {
                memo.wp.insert(e.id(), (e.clone(), result.clone()));
            }
            Job::Field(_, class, f, _) => {
                memo.fields
                    .insert((class.clone(), f.clone()), result.clone());
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
        let Some(top) = stack.last() else {
            return Term::bool(true);
        };
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
        Job::Field(rho, class, f, sort) => field(rho, class, f, sort, needs),
    }
}

// Each attempt returns the answer, or `None` after noting at least one
// unanswered job it needs.

/// `wp_ρ(e)`, one node of `e`.
fn wp(rho: &Trace, e: &Term, needs: &mut Needs) -> Option<Term> {
    match e.kind() {
        TermKind::Int(_) | TermKind::Bool(_) | TermKind::Len(_) | TermKind::Nil(_) => {
            Some(e.clone())
        }
        TermKind::Var(y, _) => {
            let written = rho
                .writer(&Written::Var(y.clone()))
                .and_then(|w| Some((w.before()?.clone(), w.last()?)));
            let Some((before, action)) = written else {
                return Some(e.clone());
            };
            match action {
                // y[y := e'] = e'
                Action::Assign(Location::Var(..), value) => {
                    needs.want(Job::Wp(before, value.clone()))
                }
                // a[a[i] := v] = (a[i] := v)  (§2.1)
                Action::Assign(Location::Element(a, sort, index), value) => {
                    let update =
                        Term::store(Term::var(a, sort.clone()), index.clone(), value.clone());
                    needs.want(Job::Wp(before, update))
                }
                // The created object, by its fresh name.
                _ => Some(e.clone()),
            }
        }
        TermKind::Field(object, f, sort) => {
            let w = needs.want(Job::Wp(rho.clone(), object.clone()));
            let Sort::Object(class) = object.sort() else {
                return Some(Term::field(w?, f, sort.clone()));
            };
            let array = needs.want(Job::Field(rho.clone(), class, f.clone(), sort.clone()));
            // (e.f)[ρ] = F_ρ[e[ρ]]
            Some(aliasing(&array?, &w?))
        }
        _ => {
            let children: Vec<Option<Term>> = e
                .children()
                .into_iter()
                .map(|c| needs.want(Job::Wp(rho.clone(), c.clone())))
                .collect();
            let children: Option<Vec<Term>> = children.into_iter().collect();
            Some(e.with_children(&children?))
        }
    }
}

/// How many of the latest updates of a field array a read shows as the
/// aliasing conditional of `[h.f := e]` (older ones stay in array form):
/// enough for a program's few writes to read as in the paper, few enough
/// that a read costs a bounded number of nodes.
const UNFOLDED_WRITES: usize = 4;

/// `F[W]` with the latest [`UNFOLDED_WRITES`] updates of `F` unfolded by
/// read over write, `(F[h] := v)[W] = if W = h then v else F[W] fi` — that
/// is `(h'.f)[h.f := e] = if h'[h.f := e] = h then e else h'[h.f := e].f fi`
/// — and `(F[W] := v)[W] = v` at any depth where the index is `W` itself.
fn aliasing(array: &Term, w: &Term) -> Term {
    let mut updates = Vec::new();
    let mut rest = array;
    let older = loop {
        match rest.kind() {
            TermKind::Store(_, h, v) if h == w => break v.clone(),
            TermKind::Store(inner, h, v) if updates.len() < UNFOLDED_WRITES => {
                updates.push((h, v));
                rest = inner;
            }
            _ => break read(rest, w),
        }
    };
    updates.into_iter().rev().fold(older, |otherwise, (h, v)| {
        Term::ite(
            Term::binary(BinOp::Eq, w.clone(), h.clone()),
            v.clone(),
            otherwise,
        )
    })
}

/// `F_ρ`: the array of the field `f` of class `C` after ρ, the initial
/// `C.f` updated by every write of `f` and creation of a `C` on ρ.
fn field(rho: &Trace, class: &Name, f: &Name, sort: &Sort, needs: &mut Needs) -> Option<Term> {
    let write = rho.writer(&Written::Field(class.clone(), f.clone()));
    let creation = rho.writer(&Written::Class(class.clone()));
    let latest = match (write, creation) {
        (Some(w), Some(c)) => Some(if w.len() > c.len() { w } else { c }),
        (w, c) => w.or(c),
    };
    let Some(latest) = latest else {
        return Some(Term::field_array(f, class, sort.clone()));
    };
    if latest.len() < rho.len() {
        return needs.want(Job::Field(
            latest.clone(),
            class.clone(),
            f.clone(),
            sort.clone(),
        ));
    }
    let before = latest.before()?.clone();
    let array = needs.want(Job::Field(
        before.clone(),
        class.clone(),
        f.clone(),
        sort.clone(),
    ));
    match latest.last()? {
        // f[h.f := e] = (f[h] := e)  (§4.1)
        Action::Assign(Location::Field(h, _, _), value) => {
            let target = needs.want(Job::Wp(before.clone(), h.clone()));
            let value = needs.want(Job::Wp(before, value.clone()));
            Some(Term::store(array?, target?, value?))
        }
        // f[x := new C] = (f[x] := the default of f), where f has one (§4.1, SPEC §1.5)
        Action::New(x, _) => {
            let array = array?;
            Some(match initial_value(sort) {
                Some(default) => {
                    Term::store(array, Term::var(x, Sort::Object(class.clone())), default)
                }
                None => array,
            })
        }
        _ => array,
    }
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
