//! The input sequences `nondet()` and `nondet_bool()` draw from (issue 34,
//! docs/surface.md): the desugarer writes the `k`-th draw as the read
//! `nondet_ints[k]` through the counter `nondet_count` (`nondet_bools[k]`
//! through `nondet_bool_count`). The names are reserved for this, so the
//! core that `symex desugar` prints means what the sugar means:
//!
//! - a draw is not an array access of the program: `--checked-arrays`
//!   does not check reads of a sequence ([`crate::delta::in_bounds`],
//!   [`crate::checked`]), whose length nothing reads;
//! - a model shows a sequence as the list of the values a run drew, in
//!   order ([`as_drawn`]), which `--input` reads back.

use crate::term::Name;
use crate::valuation::Valuation;
use crate::value::{ArrayValue, Value};
use num_bigint::BigInt;

/// Each sequence with the counter of its draws.
pub const SEQUENCES: [(&str, &str); 2] = [
    ("nondet_ints", "nondet_count"),
    ("nondet_bools", "nondet_bool_count"),
];

/// Whether `array` names a sequence of draws.
pub fn is_sequence(array: &str) -> bool {
    SEQUENCES.iter().any(|(values, _)| *values == array)
}

/// `inputs` with each sequence cut to the values a run that ended in
/// `final_state` drew: the list of its entries `0..k`, `k` the counter's
/// final value. The run reads no other entry and nothing reads the
/// length, so the list replays the same run.
pub fn as_drawn(inputs: Valuation, final_state: &Valuation) -> Valuation {
    let mut shown = inputs;
    for (values, count) in SEQUENCES {
        let (Some(Value::Array(sequence)), Some(Value::Int(drawn))) =
            (shown.get(values), final_state.get(count))
        else {
            continue;
        };
        let element = match *sequence.default {
            Value::Bool(_) => Value::Bool(false),
            _ => Value::Int(BigInt::from(0)),
        };
        let mut list = ArrayValue::constant(drawn.clone(), element);
        let mut i = BigInt::from(0);
        while &i < drawn {
            list = list.set(i.clone(), sequence.get(&i));
            i += 1;
        }
        shown.insert(Name::from(values), Value::Array(list));
    }
    shown
}

/// `inputs` with each sequence that holds the element's default past its
/// entries shown as the list up to its last entry, where no run says how
/// many values are drawn (`compare`'s witnesses, models of a formula): the
/// same values at every index, so the same draws.
pub fn as_listed(inputs: Valuation) -> Valuation {
    let mut shown = inputs;
    for (values, _) in SEQUENCES {
        let Some(Value::Array(sequence)) = shown.get(values) else {
            continue;
        };
        let plain = matches!(*sequence.default, Value::Bool(false))
            || sequence
                .default
                .as_int()
                .is_some_and(|n| n == &BigInt::from(0));
        let (Some((first, _)), Some((last, _))) =
            (sequence.entries.get_min(), sequence.entries.get_max())
        else {
            continue;
        };
        if plain && first >= &BigInt::from(0) && last >= &sequence.len {
            let list = ArrayValue {
                len: last + 1,
                ..sequence.clone()
            };
            shown.insert(Name::from(values), Value::Array(list));
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(len: i64, default: i64, entries: &[(i64, i64)]) -> Value {
        let mut array = ArrayValue::constant(len.into(), Value::Int(default.into()));
        for (i, v) in entries {
            array = array.set((*i).into(), Value::Int((*v).into()));
        }
        Value::Array(array)
    }

    fn valuation(pairs: &[(&str, Value)]) -> Valuation {
        pairs
            .iter()
            .map(|(x, v)| (Name::from(*x), v.clone()))
            .collect()
    }

    /// Z3's default is a value drawn; an entry past the draws is not shown,
    /// and an unconstrained draw between others is 0.
    #[test]
    fn a_sequence_shows_the_values_drawn_in_order() {
        let model = valuation(&[("nondet_ints", ints(0, 5, &[(1, 2), (7, 9)]))]);
        let run = valuation(&[("nondet_count", Value::Int(3.into()))]);
        let shown = as_drawn(model, &run);
        assert_eq!(shown.get("nondet_ints").unwrap().to_string(), "[5, 2, 5]");
        let gaps = valuation(&[("nondet_ints", ints(0, 0, &[(2, 4)]))]);
        let shown = as_drawn(gaps, &run);
        assert_eq!(shown.get("nondet_ints").unwrap().to_string(), "[0, 0, 4]");
    }

    /// Without a run, a sequence is listed up to its last entry.
    #[test]
    fn a_sequence_of_a_formulas_model_is_listed_up_to_its_last_entry() {
        let model = valuation(&[
            ("nondet_ints", ints(0, 0, &[(0, 5), (2, 1)])),
            ("a", ints(0, 0, &[(1, 2)])),
        ]);
        let shown = as_listed(model);
        assert_eq!(shown.get("nondet_ints").unwrap().to_string(), "[5, 0, 1]");
        assert_eq!(shown.get("a").unwrap().to_string(), "{1: 2; len 0}");
        let by_default = valuation(&[("nondet_ints", ints(0, 4, &[(1, 2)]))]);
        assert_eq!(as_listed(by_default.clone()), by_default);
    }

    /// Arrays of other names, and a sequence without a final count, stay.
    #[test]
    fn other_arrays_are_left_as_they_are() {
        let model = valuation(&[
            ("a", ints(0, 0, &[(3, 1)])),
            ("nondet_bools", ints(0, 0, &[(0, 1)])),
        ]);
        let run = valuation(&[("nondet_count", Value::Int(3.into()))]);
        assert_eq!(as_drawn(model.clone(), &run), model);
    }
}
