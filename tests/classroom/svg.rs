//! `explore --format svg`: King's SEARCH tree, every leaf drawn, no two
//! boxes overlapping, edges labelled `true`/`false`, no internal ids; large
//! trees folded to fit the width.

use super::stdout_of;

/// The boxes of an SVG: `(x, y, width, height)`.
fn boxes(svg: &str) -> Vec<(f64, f64, f64, f64)> {
    let attribute = |element: &str, name: &str| -> f64 {
        let start = element.find(&format!(" {name}=\"")).expect("attribute") + name.len() + 3;
        element[start..]
            .split('"')
            .next()
            .expect("value")
            .parse()
            .expect("a number")
    };
    svg.lines()
        .filter(|line| line.starts_with("<rect x="))
        .map(|line| {
            (
                attribute(line, "x"),
                attribute(line, "y"),
                attribute(line, "width"),
                attribute(line, "height"),
            )
        })
        .collect()
}

/// The picture's width attribute.
fn width(svg: &str) -> f64 {
    let start = svg.find(" width=\"").expect("a width") + 8;
    svg[start..]
        .split('"')
        .next()
        .and_then(|w| w.parse().ok())
        .expect("a number")
}

#[test]
fn king_search_draws_eleven_leaves_without_overlap() {
    let svg = stdout_of(
        &[
            "explore",
            "paper-examples/basic/king_search.sx",
            "--format",
            "svg",
        ],
        0,
    );
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    for path in 0..11 {
        assert!(
            svg.contains(&format!(">path {path}: terminated</text>")),
            "path {path} is drawn"
        );
    }
    let boxes = boxes(&svg);
    assert_eq!(
        boxes.len(),
        21,
        "the start, 10 forks and 11 leaves: a start that is a fork is one box"
    );
    assert!(svg.contains(">if a[j] = x</text>"), "forks show their test");
    assert_eq!(
        svg.matches(">true</text>").count(),
        10,
        "each fork has a true edge"
    );
    assert_eq!(svg.matches(">false</text>").count(), 10, "and a false one");
    let texts: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| t.split('>').nth(1))
        .collect();
    assert!(
        texts
            .iter()
            .all(|t| !t.contains('#') && !t.contains("steps")),
        "no node ids: {texts:?}"
    );
    assert!(
        width(&svg) <= 1000.0,
        "King's SEARCH is narrow: {}",
        width(&svg)
    );
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart =
                a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
            assert!(apart, "boxes {a:?} and {b:?} overlap");
        }
    }
}

#[test]
fn a_large_tree_is_folded_with_a_count() {
    let svg = stdout_of(
        &[
            "explore",
            "tests/classroom/eight_choices.sx",
            "--format",
            "svg",
        ],
        0,
    );
    assert!(svg.contains("256 paths: 256 terminated"));
    assert_eq!(
        svg.matches(">16 paths</text>").count(),
        16,
        "the deepest levels are folded"
    );
    assert!(width(&svg) <= 2000.0, "folded to fit: {}", width(&svg));
    assert!(boxes(&svg).len() <= 64);
}
