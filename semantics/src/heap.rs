//! Heaps (§4): a finite map from object identities to local states, each
//! assigning a value to every field of the object's class. Persistent
//! (`im`), so forking a configuration copies nothing.

use crate::term::{Name, Sort};
use crate::value::{Oid, Value};
use std::collections::BTreeMap;
use std::fmt;

/// The local state of one object: its class and the value of each field.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Object {
    pub class: Name,
    pub fields: im::OrdMap<Name, Value>,
}

/// `H`: the existing objects and their local states.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Heap {
    objects: im::OrdMap<Oid, Object>,
}

thread_local! {
    /// The empty heap, shared: `im` allocates a whole B-tree node for every
    /// new map, and the evaluator makes an empty heap for each ground term.
    static EMPTY: im::OrdMap<Oid, Object> = im::OrdMap::new();
}

impl Default for Heap {
    fn default() -> Heap {
        Heap {
            objects: EMPTY.with(Clone::clone),
        }
    }
}

impl Heap {
    pub fn new() -> Heap {
        Heap::default()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// `H(o)`, if `o` exists.
    pub fn get(&self, o: Oid) -> Option<&Object> {
        self.objects.get(&o)
    }

    /// `H(o, f)`, if `o` exists and has the field `f`.
    pub fn field(&self, o: Oid, f: &str) -> Option<&Value> {
        self.objects.get(&o)?.fields.get(f)
    }

    /// `H[o.f := v]`; `None` when `o` does not exist or has no field `f`.
    pub fn set_field(&self, o: Oid, f: &Name, v: Value) -> Option<Heap> {
        let object = self.objects.get(&o)?;
        if !object.fields.contains_key(f) {
            return None;
        }
        let fields = object.fields.update(f.clone(), v);
        Some(Heap {
            objects: self.objects.update(
                o,
                Object {
                    class: object.class.clone(),
                    fields,
                },
            ),
        })
    }

    /// `H` with the object `o` added (or replaced).
    pub fn insert(&self, o: Oid, object: Object) -> Heap {
        Heap {
            objects: self.objects.update(o, object),
        }
    }

    /// An identity no object has: the one after the last in use.
    pub fn unused(&self) -> Oid {
        Oid(self.objects.keys().next_back().map_or(1, |last| last.0 + 1))
    }

    /// `H'` of `V[x := new C]` (§4): a new object of class `class` whose
    /// fields (`fields`, with their sorts) hold their default values (`nil`,
    /// `0`, `false`), and its identity, the first one not in use.
    pub fn allocate(&self, class: &Name, fields: &BTreeMap<Name, Sort>) -> (Oid, Heap) {
        let o = self.unused();
        let o = if crate::mutants::active(crate::mutants::Mutant::NewObjectNumberedByCount) {
            Oid(self.objects.len() as u32 + 1)
        } else {
            o
        };
        let fields = fields
            .iter()
            .map(|(f, sort)| (f.clone(), Value::default_of(sort)))
            .collect();
        (
            o,
            self.insert(
                o,
                Object {
                    class: class.clone(),
                    fields,
                },
            ),
        )
    }

    /// The objects with their local states, by identity.
    pub fn iter(&self) -> impl Iterator<Item = (&Oid, &Object)> {
        self.objects.iter()
    }

    /// The objects reachable from `roots` through fields, in the order a
    /// breadth-first walk meets them (the roots in the order given).
    pub fn reachable(&self, roots: impl IntoIterator<Item = Oid>) -> Vec<Oid> {
        let mut seen = std::collections::HashSet::new();
        let mut order = Vec::new();
        let mut queue: std::collections::VecDeque<Oid> = roots.into_iter().collect();
        while let Some(o) = queue.pop_front() {
            if !seen.insert(o) {
                continue;
            }
            order.push(o);
            if let Some(object) = self.objects.get(&o) {
                queue.extend(
                    object
                        .fields
                        .values()
                        .filter_map(|v| v.as_reference().flatten()),
                );
            }
        }
        order
    }

    /// A cycle of references, if the heap has one: the fields `o.f ↦ o'`
    /// followed from an object back to it (the first found from the
    /// objects in identity order and their fields in name order). A heap
    /// without one satisfies the precondition `acyclic`
    /// ([`crate::system::Options::acyclic`]).
    pub fn cycle(&self) -> Option<Vec<(Oid, Name, Oid)>> {
        /// Not yet met, on the walk's current path, or done with.
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            Open,
            Done,
        }
        let mut marks: BTreeMap<Oid, Mark> = BTreeMap::new();
        for &root in self.objects.keys() {
            if marks.contains_key(&root) {
                continue;
            }
            // The path from `root`: each object with the fields it has
            // left to follow, and the edges taken to reach the next.
            let mut path: Vec<(Oid, Vec<(Name, Oid)>)> = vec![(root, self.references(root))];
            let mut edges: Vec<(Oid, Name, Oid)> = Vec::new();
            marks.insert(root, Mark::Open);
            while let Some((o, pending)) = path.last_mut() {
                let o = *o;
                let Some((f, next)) = pending.pop() else {
                    marks.insert(o, Mark::Done);
                    path.pop();
                    edges.pop();
                    continue;
                };
                match marks.get(&next) {
                    Some(Mark::Done) => {}
                    Some(Mark::Open) => {
                        let start = edges.iter().position(|(from, ..)| *from == next);
                        let mut cycle = edges.split_off(start.unwrap_or(edges.len()));
                        cycle.push((o, f, next));
                        return Some(cycle);
                    }
                    None => {
                        marks.insert(next, Mark::Open);
                        edges.push((o, f, next));
                        path.push((next, self.references(next)));
                    }
                }
            }
        }
        None
    }

    /// The heap with every cycle broken, the field that closes each one
    /// found set to `nil`: a heap of the precondition `acyclic`.
    pub fn without_cycles(&self) -> Heap {
        let mut heap = self.clone();
        while let Some((o, f, _)) = heap.cycle().and_then(|cycle| cycle.last().cloned()) {
            heap = heap
                .set_field(o, &f, Value::Nil)
                .unwrap_or_else(|| heap.clone());
        }
        heap
    }

    /// The objects `o`'s fields refer to, the last field first.
    fn references(&self, o: Oid) -> Vec<(Name, Oid)> {
        let mut references: Vec<(Name, Oid)> = self
            .objects
            .get(&o)
            .map(|object| {
                object
                    .fields
                    .iter()
                    .filter_map(|(f, v)| Some((f.clone(), v.as_reference().flatten()?)))
                    .collect()
            })
            .unwrap_or_default();
        references.reverse();
        references
    }

    /// The heap restricted to the objects `keep`.
    pub fn restrict(&self, keep: &[Oid]) -> Heap {
        Heap {
            objects: keep
                .iter()
                .filter_map(|o| Some((*o, self.objects.get(o)?.clone())))
                .collect(),
        }
    }

    /// A reference that does not denote an existing object, if any among
    /// `values` and the fields of the existing objects: a heap is
    /// *consistent* (§4) when there is none.
    pub fn dangling<'v>(&'v self, values: impl IntoIterator<Item = &'v Value>) -> Option<Oid> {
        let fields = self
            .objects
            .values()
            .flat_map(|object| object.fields.values());
        values
            .into_iter()
            .chain(fields)
            .filter_map(|v| v.as_reference().flatten())
            .find(|o| !self.objects.contains_key(o))
    }
}

impl fmt::Display for Heap {
    /// `{o1: Node{next ↦ o2, val ↦ 3}, …}`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, (o, object)) in self.objects.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{o}: {}{{", object.class)?;
            for (j, (field, value)) in object.fields.iter().enumerate() {
                if j > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{field} ↦ {value}")?;
            }
            write!(f, "}}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_fields() -> BTreeMap<Name, Sort> {
        [
            ("next".into(), Sort::Object("Node".into())),
            ("val".into(), Sort::Int),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn new_objects_get_the_next_identity_and_default_fields() {
        let (o1, heap) = Heap::new().allocate(&"Node".into(), &node_fields());
        let (o2, heap) = heap.allocate(&"Node".into(), &node_fields());
        assert_eq!((o1, o2), (Oid(1), Oid(2)));
        assert_eq!(heap.field(o2, "next"), Some(&Value::Nil));
        assert_eq!(heap.field(o2, "val"), Some(&Value::Int(0.into())));
        let heap = heap
            .set_field(o1, &"next".into(), Value::Object(o2))
            .unwrap();
        assert_eq!(heap.reachable([o1]), vec![o1, o2]);
        assert_eq!(
            heap.to_string(),
            "{o1: Node{next ↦ o2, val ↦ 0}, o2: Node{next ↦ nil, val ↦ 0}}"
        );
        assert!(heap.set_field(Oid(7), &"next".into(), Value::Nil).is_none());
    }

    #[test]
    fn a_reference_to_a_missing_object_is_dangling() {
        let (o1, heap) = Heap::new().allocate(&"Node".into(), &node_fields());
        assert_eq!(heap.dangling([&Value::Object(o1)]), None);
        let heap = heap
            .set_field(o1, &"next".into(), Value::Object(Oid(9)))
            .unwrap();
        assert_eq!(heap.dangling([]), Some(Oid(9)));
    }

    #[test]
    fn a_cycle_is_found_with_its_fields_and_a_shared_object_is_none() {
        let fields = node_fields();
        let (o1, heap) = Heap::new().allocate(&"Node".into(), &fields);
        let (o2, heap) = heap.allocate(&"Node".into(), &fields);
        let (o3, heap) = heap.allocate(&"Node".into(), &fields);
        let next: Name = "next".into();
        let dag = heap
            .set_field(o1, &next, Value::Object(o3))
            .and_then(|h| h.set_field(o2, &next, Value::Object(o3)))
            .unwrap();
        assert_eq!(dag.cycle(), None, "two objects sharing a third: no cycle");
        let cyclic = dag.set_field(o3, &next, Value::Object(o2)).unwrap();
        assert_eq!(
            cyclic.cycle(),
            Some(vec![(o3, next.clone(), o2), (o2, next.clone(), o3)])
        );
        let own = heap.set_field(o2, &next, Value::Object(o2)).unwrap();
        assert_eq!(own.cycle(), Some(vec![(o2, next.clone(), o2)]));
        let broken = cyclic.without_cycles();
        assert_eq!(broken.cycle(), None);
        assert_eq!(broken.field(o2, "next"), Some(&Value::Nil));
        assert_eq!(broken.field(o1, "next"), Some(&Value::Object(o3)));
    }
}
