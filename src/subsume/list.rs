//! The abstraction for singly linked lists (Anand et al. 2006, §5.1,
//! Definitions 3 and 4): every maximal uninterrupted list segment of two
//! or more nodes becomes one summary node, whose valuation is the
//! disjunction of the valuations of the nodes it summarises; numeric
//! variables are discarded.
//!
//! A node is an *interruption* (Definition 3) when it is pointed to by a
//! variable or by two or more nodes; `null` and the cloud interrupt a
//! segment by not being nodes. The paper's lists have one field, `next`;
//! here a node is a list node when its class has one reference field, of
//! its own class, and a node of any other class interrupts (its fields
//! are kept as they are). Pointers into a segment from other fields count
//! as predecessors like `next`, so a segment is entered only at its head.

use super::shape::{Ref, Shape, ShapeNode};

/// `α(H)`: `shape` with its maximal uninterrupted segments summarised and
/// its numeric variables discarded.
pub fn abstract_lists(shape: &Shape) -> Shape {
    let count = shape.nodes.len();
    let mut incoming = vec![0usize; count];
    for node in &shape.nodes {
        for r in &node.refs {
            if let Ref::Node(k) = r {
                incoming[*k] += 1;
            }
        }
    }
    for r in &shape.roots {
        if let Ref::Node(k) = r {
            incoming[*k] += 2;
        }
    }
    let interrupts = |k: usize| shape.nodes[k].next.is_none() || incoming[k] >= 2;
    let next_of = |k: usize| match shape.nodes[k].next.map(|f| shape.nodes[k].refs[f]) {
        Some(Ref::Node(j)) if !interrupts(j) => Some(j),
        _ => None,
    };
    // A segment starts at a list node its predecessor does not continue.
    let mut continued = vec![false; count];
    for k in (0..count).filter(|&k| !interrupts(k)) {
        if let Some(j) = next_of(k) {
            continued[j] = true;
        }
    }
    let mut image = vec![usize::MAX; count];
    let mut nodes: Vec<ShapeNode> = Vec::new();
    for k in 0..count {
        if image[k] != usize::MAX || (!interrupts(k) && continued[k]) {
            continue;
        }
        let mut segment = vec![k];
        if !interrupts(k) {
            while let Some(j) = next_of(*segment.last().unwrap_or(&k)) {
                if segment.contains(&j) {
                    break;
                }
                segment.push(j);
            }
        }
        for &member in &segment {
            image[member] = nodes.len();
        }
        nodes.push(summary(shape, &segment));
    }
    let remap = |r: &Ref| match r {
        Ref::Node(k) => Ref::Node(image[*k]),
        other => *other,
    };
    for node in &mut nodes {
        node.refs = node.refs.iter().map(remap).collect();
    }
    Shape {
        roots: shape.roots.iter().map(remap).collect(),
        nodes,
        numbers: Vec::new(),
    }
}

/// The node standing for `segment` (one node: itself), with the segment's
/// last `next` and every member's valuation.
fn summary(shape: &Shape, segment: &[usize]) -> ShapeNode {
    let first = &shape.nodes[segment[0]];
    let last = &shape.nodes[segment[segment.len() - 1]];
    ShapeNode {
        class: first.class.clone(),
        input: segment.iter().all(|&k| shape.nodes[k].input),
        refs: last.refs.clone(),
        values: segment
            .iter()
            .flat_map(|&k| shape.nodes[k].values.iter().cloned())
            .collect(),
        next: first.next,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_semantics::term::{Sort, Term};

    fn list(length: usize, roots: Vec<Ref>) -> Shape {
        let nodes = (0..length)
            .map(|k| ShapeNode {
                class: "N".into(),
                input: true,
                refs: vec![if k + 1 < length {
                    Ref::Node(k + 1)
                } else {
                    Ref::Uninit
                }],
                values: vec![vec![("val".into(), Term::var(&format!("v{k}"), Sort::Int))]],
                next: Some(0),
            })
            .collect();
        Shape {
            roots,
            nodes,
            numbers: vec![("i".into(), Term::int(3))],
        }
    }

    #[test]
    fn an_interior_segment_becomes_one_summary_node() {
        // l → N0 → [N1, N2] → N3 ← n: the paper's s12 of `find` (§5.1).
        let abstracted = abstract_lists(&list(4, vec![Ref::Node(0), Ref::Node(3)]));
        assert_eq!(abstracted.nodes.len(), 3);
        assert_eq!(abstracted.nodes[1].values.len(), 2);
        assert_eq!(abstracted.roots, vec![Ref::Node(0), Ref::Node(2)]);
        assert!(abstracted.numbers.is_empty());
    }

    #[test]
    fn a_segment_of_one_node_stays_as_it_is() {
        // l → N0 → N1 → N2 ← n: N1 alone between two interruptions (s8).
        let abstracted = abstract_lists(&list(3, vec![Ref::Node(0), Ref::Node(2)]));
        assert_eq!(abstracted.nodes.len(), 3);
        assert!(abstracted.nodes.iter().all(|n| n.values.len() == 1));
    }

    #[test]
    fn a_node_with_two_predecessors_interrupts() {
        let mut shape = list(4, vec![Ref::Node(0)]);
        shape.nodes[3].refs = vec![Ref::Node(1)];
        // N0 → N1 → N2 → N3 → N1: N1 has two predecessors.
        let abstracted = abstract_lists(&shape);
        assert_eq!(abstracted.nodes.len(), 3);
    }
}
