//! Algorithm 1 of Anand, Păsăreanu & Visser (SPIN 2006): whether the heap
//! of a stored state `H₂` subsumes the heap of a new one `H₁`, and the
//! labelling of the nodes it matched. Both graphs are walked together from
//! their roots, breadth first, successors in field order; two matched
//! nodes get one label; a cloud of `H₂` matches any subgraph of `H₁` (whose
//! nodes stay unlabelled), a cloud of `H₁` only a cloud; `null` only `null`.
//!
//! The paper's graphs are untyped and its inputs all materialised alike.
//! Lazy initialisation's are not, so a match also needs, for the concrete
//! heaps of `H₁` to be among those of `H₂`:
//! - matched nodes of one class;
//! - an input object of `H₁` matched by an input object of `H₂` (a later
//!   initialisation may alias an input object, never one made by `new`);
//! - under each cloud of `H₂`, no node of `H₁` matched by an object of
//!   `H₂` made by `new` (the cloud's own initialisation cannot reach it).

use super::shape::{Ref, Shape};
use std::collections::VecDeque;

/// The matched pairs `(n₁, n₂)`, the `k`-th labelled `ℓk`.
pub type Labelling = Vec<(usize, usize)>;

/// Algorithm 1: the labelling if `stored` subsumes `new`.
pub fn subsumes(new: &Shape, stored: &Shape) -> Option<Labelling> {
    let mut wl1: VecDeque<Ref> = new.roots.iter().copied().collect();
    let mut wl2: VecDeque<Ref> = stored.roots.iter().copied().collect();
    let mut l1: Vec<Option<usize>> = vec![None; new.nodes.len()];
    let mut l2: Vec<Option<usize>> = vec![None; stored.nodes.len()];
    let mut pairs = Labelling::new();
    let mut clouded = Vec::new();
    while let Some(n2) = wl2.pop_front() {
        let n1 = wl1.pop_front()?;
        if n2 == Ref::Uninit {
            if let Ref::Node(k) = n1 {
                clouded.push(k);
            }
            continue;
        }
        if n1 == Ref::Uninit {
            return None;
        }
        let label = |r: Ref, l: &[Option<usize>]| match r {
            Ref::Node(k) => l[k],
            _ => None,
        };
        let (label1, label2) = (label(n1, &l1), label(n2, &l2));
        if (label1.is_some() || label2.is_some()) && label1 != label2 {
            return None;
        }
        if label2.is_some() {
            continue;
        }
        match (n1, n2) {
            (Ref::Null, Ref::Null) => {}
            (Ref::Node(a), Ref::Node(b)) => {
                let (x, y) = (&new.nodes[a], &stored.nodes[b]);
                if x.class != y.class || (x.input && !y.input) || x.refs.len() != y.refs.len() {
                    return None;
                }
                l1[a] = Some(pairs.len());
                l2[b] = Some(pairs.len());
                pairs.push((a, b));
                wl1.extend(x.refs.iter().copied());
                wl2.extend(y.refs.iter().copied());
            }
            _ => return None,
        }
    }
    if !wl1.is_empty() {
        return None;
    }
    let created = |k: usize| l1[k].is_some_and(|label| !stored.nodes[pairs[label].1].input);
    if reachable(new, &clouded).into_iter().any(created) {
        return None;
    }
    Some(pairs)
}

/// The nodes of `shape` reachable from `from`.
fn reachable(shape: &Shape, from: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; shape.nodes.len()];
    let mut pending: Vec<usize> = from.to_vec();
    let mut found = Vec::new();
    while let Some(k) = pending.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        found.push(k);
        pending.extend(shape.nodes[k].refs.iter().filter_map(|r| match r {
            Ref::Node(j) => Some(*j),
            _ => None,
        }));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subsume::shape::ShapeNode;

    fn node(class: &str, input: bool, refs: Vec<Ref>) -> ShapeNode {
        ShapeNode {
            class: class.into(),
            input,
            refs,
            values: vec![Vec::new()],
            next: Some(0),
        }
    }

    fn list(length: usize, end: Ref) -> Shape {
        let nodes = (0..length)
            .map(|k| {
                node(
                    "N",
                    true,
                    vec![if k + 1 < length {
                        Ref::Node(k + 1)
                    } else {
                        end
                    }],
                )
            })
            .collect();
        Shape {
            roots: vec![Ref::Node(0)],
            nodes,
            numbers: Vec::new(),
        }
    }

    #[test]
    fn a_cloud_of_the_stored_heap_matches_any_subgraph() {
        let stored = list(1, Ref::Uninit);
        assert_eq!(subsumes(&list(3, Ref::Null), &stored), Some(vec![(0, 0)]));
        assert_eq!(subsumes(&list(1, Ref::Uninit), &stored), Some(vec![(0, 0)]));
    }

    #[test]
    fn a_cloud_of_the_new_heap_matches_only_a_cloud() {
        assert_eq!(subsumes(&list(1, Ref::Uninit), &list(2, Ref::Null)), None);
        assert_eq!(subsumes(&list(1, Ref::Uninit), &list(1, Ref::Null)), None);
    }

    #[test]
    fn matched_parts_correspond_one_to_one() {
        // x and y name one object in the new heap, two in the stored one.
        let shared = Shape {
            roots: vec![Ref::Node(0), Ref::Node(0)],
            nodes: vec![node("N", true, vec![Ref::Null])],
            numbers: Vec::new(),
        };
        let apart = Shape {
            roots: vec![Ref::Node(0), Ref::Node(1)],
            nodes: vec![
                node("N", true, vec![Ref::Null]),
                node("N", true, vec![Ref::Null]),
            ],
            numbers: Vec::new(),
        };
        assert_eq!(subsumes(&shared, &apart), None);
        assert_eq!(subsumes(&apart, &shared), None);
        assert!(subsumes(&shared, &shared).is_some());
    }

    #[test]
    fn an_input_object_is_not_matched_by_a_created_one() {
        let mut created = list(1, Ref::Null);
        created.nodes[0].input = false;
        let input = list(1, Ref::Null);
        assert_eq!(subsumes(&input, &created), None);
        assert!(subsumes(&created, &input).is_some());
    }

    #[test]
    fn a_cloud_cannot_reach_an_object_made_by_new() {
        // New: x → A(created), y → B(input) whose next is A. Stored: x → A'
        // (created), y → B' whose next is uninitialised: B'.next could never
        // be A'.
        let new = Shape {
            roots: vec![Ref::Node(0), Ref::Node(1)],
            nodes: vec![
                node("N", false, vec![Ref::Null]),
                node("N", true, vec![Ref::Node(0)]),
            ],
            numbers: Vec::new(),
        };
        let stored = Shape {
            roots: vec![Ref::Node(0), Ref::Node(1)],
            nodes: vec![
                node("N", false, vec![Ref::Null]),
                node("N", true, vec![Ref::Uninit]),
            ],
            numbers: Vec::new(),
        };
        assert_eq!(subsumes(&new, &stored), None);
        let mut input = stored.clone();
        input.nodes[0].input = true;
        assert!(subsumes(&new, &input).is_some());
    }
}
