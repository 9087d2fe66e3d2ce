//! Commands a user copies from the output into a POSIX shell (`sh`, `bash`,
//! `zsh`): `symex run FILE … --input x=v` lines that replay a model, with
//! each word quoted exactly when a shell would split, expand or glob it.

use symex_semantics::eval::Valuation;
use symex_semantics::value::Value;

/// `word` as one shell word: as it is when every character is one no shell
/// treats specially anywhere in a word (letters, digits, `_-./,:+@%=`),
/// otherwise in single quotes (`'` itself as `'\''`). A word starting with
/// `=` (zsh expands `=cmd`) or `~` and the empty word are quoted too.
pub fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && !word.starts_with('=')
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "_-./,:+@%=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `symex run FILE OPTION… --input x=v …`: a command that runs `file` on
/// `inputs`. Objects and `nil` are left out: an oo program reads them from
/// a `--heap` file, which the caller names.
pub fn run_command(file: &str, options: &[String], inputs: &Valuation) -> String {
    let mut words = vec!["symex".to_string(), "run".to_string(), quoted(file)];
    words.extend(options.iter().map(|option| quoted(option)));
    for (x, value) in inputs.iter() {
        if !matches!(value, Value::Object(_) | Value::Nil) {
            words.push(format!("--input {}", quoted(&format!("{x}={value}"))));
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each word, quoted, is read back by `sh` as that same word: the
    /// quoting is checked against a shell, not against itself.
    #[test]
    fn every_quoted_word_reads_back_as_itself_in_sh() {
        let words = [
            "x=3",
            "a=[1, 2]",
            "paper-examples/basic/abs.sx",
            "--lang=basic",
            "it's",
            "$HOME",
            "*.sx",
            "~user",
            "=ls",
            "",
            "a;b",
            "x=-1",
            "p@host:1,2+3%",
            "{a,b}",
            "naïve",
        ];
        let script: Vec<String> = words
            .iter()
            .map(|w| format!("printf '%s\\n' {}", quoted(w)))
            .collect();
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(script.join("\n"))
            .output()
            .expect("sh runs");
        let read: Vec<&str> = std::str::from_utf8(&output.stdout)
            .expect("UTF-8")
            .split('\n')
            .collect();
        assert_eq!(&read[..words.len()], &words[..]);
    }

    /// Quotes are added exactly when needed: plain words stay bare.
    #[test]
    fn plain_words_stay_bare_and_others_are_quoted() {
        for plain in ["x=3", "x=-1", "a.sx", "--checked-arrays", "p@h:1,2+3%"] {
            assert_eq!(quoted(plain), plain);
        }
        for special in ["a=[1, 2]", "$x", "*", "~", "=ls", "", "a b", "{a,b}"] {
            assert!(quoted(special).starts_with('\''), "{special}");
        }
    }
}
