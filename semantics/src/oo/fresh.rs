//! Fresh variables (§4): the parameters, `this` and result of each inlined
//! call and each created object get a variable of their own, named from a
//! per-path counter (so output is deterministic) with a subscript, which no
//! identifier of the source language can contain (so no fresh name clashes
//! with a program's variable): the third call of `m(u)` binds `u₃`, `this₃`
//! and `return₃` (the paper's `r`; a keyword, so no parameter shares it);
//! the fourth, a `Node` created, is `node₄`.

use crate::term::Name;

/// `base` with the subscript `n`: `u₃`.
pub fn fresh(base: &str, n: u32) -> Name {
    let subscript: String = n
        .to_string()
        .chars()
        .map(|d| char::from_u32('₀' as u32 + d.to_digit(10).unwrap_or(0)).unwrap_or('₀'))
        .collect();
    format!("{base}{subscript}").into()
}

/// Whether `name` was made by [`fresh`].
pub fn is_fresh(name: &str) -> bool {
    name.chars().any(|c| ('₀'..='₉').contains(&c))
}

/// The variable of the object of class `class` created by the `n`-th
/// fresh step: the class name in lower case.
pub fn object(class: &str, n: u32) -> Name {
    fresh(&class.to_lowercase(), n)
}

/// The variable receiving the result of the `n`-th call (the paper's `r`).
pub fn result(n: u32) -> Name {
    fresh("return", n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_carry_a_subscript() {
        assert_eq!(&*fresh("u", 3), "u₃");
        assert_eq!(&*object("Node", 12), "node₁₂");
        assert!(is_fresh(&result(1)));
        assert!(!is_fresh("u3"));
    }
}
