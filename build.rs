//! Embeds the lab sheets' programs and the paper examples for `symex
//! serve`'s menu: `$OUT_DIR/examples.rs` lists each `labs/*/NAME.sx` and
//! `paper-examples/*/NAME.sx` with its text (`include_str!`), so the server
//! reads no file at run time.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn programs(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(folders) = std::fs::read_dir(root) else {
        return found;
    };
    for folder in folders.flatten() {
        let Ok(files) = std::fs::read_dir(folder.path()) else {
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "sx") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut list = String::from("&[\n");
    for folder in ["labs", "paper-examples"] {
        println!("cargo:rerun-if-changed={folder}");
        for path in programs(&manifest.join(folder)) {
            let name = path.strip_prefix(&manifest).expect("under the manifest");
            let _ = writeln!(
                list,
                "    ({:?}, include_str!({:?})),",
                name.display().to_string(),
                path.display().to_string()
            );
        }
    }
    list.push_str("]\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("examples.rs"), list).expect("OUT_DIR is writable");
}
