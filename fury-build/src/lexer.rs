//! One tokenizer for both grammars: Fory IDL and proto3 share identifiers, integers, quoted
//! strings, C/C++ comments and the same punctuation.

use crate::Error;
use std::path::Path;

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i64),
    /// A number with a fraction or exponent (only ever an option value).
    Float(String),
    Str(String),
    Punct(char),
    Eof,
}

/// A token, where it starts, and the comments just before it (for rustdoc).
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
    /// The text of the comments between the previous token and this one, one entry a line.
    pub doc: Vec<String>,
}

impl Tok {
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(n) => format!("the number {n}"),
            Tok::Float(s) => format!("the number {s}"),
            Tok::Str(s) => format!("the string {s:?}"),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Eof => "the end of the file".to_string(),
        }
    }
}

/// Splits `src` into tokens; the last one is [`Tok::Eof`].
pub(crate) fn tokenize(src: &str, file: &Path) -> Result<Vec<Token>, Error> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let mut doc: Vec<String> = Vec::new();
    let err = |line: u32, col: u32, msg: String| Error::at(file, line, col, msg);
    // Advances over one char, keeping the line and column current.
    macro_rules! bump {
        () => {{
            if chars.get(i) == Some(&'\n') {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            // A blank line ends a comment block: it documented nothing below it.
            if c == '\n' && chars.get(i + 1) == Some(&'\n') {
                doc.clear();
            }
            bump!();
            continue;
        }
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let start = i + 2;
            while i < chars.len() && chars[i] != '\n' {
                bump!();
            }
            let text: String = chars[start..i].iter().collect();
            // A comment after a token on its line is about that token, not the next one.
            if out.last().is_some_and(|t: &Token| t.line == line) {
                continue;
            }
            // `///` and `//!` doc markers are comments like any other here.
            let text = text.trim_start_matches(['/', '!']);
            doc.push(
                text.strip_prefix(' ')
                    .unwrap_or(text)
                    .trim_end()
                    .to_string(),
            );
            continue;
        }
        if c == '/' && next == Some('*') {
            let (l0, c0) = (line, col);
            bump!();
            bump!();
            let start = i;
            loop {
                if i >= chars.len() {
                    return Err(err(l0, c0, "a `/*` comment is not closed".into()));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    break;
                }
                bump!();
            }
            let text: String = chars[start..i].iter().collect();
            bump!();
            bump!();
            for l in text.lines() {
                let l = l.trim();
                let l = l.strip_prefix('*').unwrap_or(l);
                doc.push(l.strip_prefix(' ').unwrap_or(l).trim_end().to_string());
            }
            continue;
        }
        let (tl, tc) = (line, col);
        let tok = if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                bump!();
            }
            Tok::Ident(chars[start..i].iter().collect())
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.'
                    || ((chars[i] == '-' || chars[i] == '+')
                        && matches!(chars.get(i.wrapping_sub(1)), Some('e' | 'E'))
                        && !chars[start..i].iter().any(|c| *c == 'x' || *c == 'X')))
            {
                bump!();
            }
            let text: String = chars[start..i].iter().collect();
            let parsed = if let Some(hex) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
                i64::from_str_radix(hex, 16).ok()
            } else if text.len() > 1
                && text.starts_with('0')
                && text.bytes().all(|b| b.is_ascii_digit())
            {
                i64::from_str_radix(&text[1..], 8).ok()
            } else {
                text.parse::<i64>().ok()
            };
            match parsed {
                Some(n) => Tok::Int(n),
                None if text.parse::<f64>().is_ok() => Tok::Float(text),
                None => return Err(err(tl, tc, format!("`{text}` is not a number"))),
            }
        } else if c == '"' || c == '\'' {
            let quote = c;
            bump!();
            let mut s = String::new();
            loop {
                let Some(&ch) = chars.get(i) else {
                    return Err(err(tl, tc, "a string is not closed".into()));
                };
                if ch == '\n' {
                    return Err(err(tl, tc, "a string runs past the end of its line".into()));
                }
                bump!();
                if ch == quote {
                    break;
                }
                if ch == '\\' {
                    let Some(&e) = chars.get(i) else { continue };
                    bump!();
                    s.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '0' => '\0',
                        other => other,
                    });
                } else {
                    s.push(ch);
                }
            }
            Tok::Str(s)
        } else if "{}[]()<>;,=.-+:".contains(c) {
            bump!();
            Tok::Punct(c)
        } else {
            return Err(err(tl, tc, format!("unexpected character `{c}`")));
        };
        out.push(Token {
            tok,
            line: tl,
            col: tc,
            doc: std::mem::take(&mut doc),
        });
    }
    out.push(Token {
        tok: Tok::Eof,
        line,
        col,
        doc,
    });
    Ok(out)
}

/// A cursor over tokens with the helpers both parsers use.
pub(crate) struct Cursor<'a> {
    pub toks: Vec<Token>,
    pub pos: usize,
    pub file: &'a Path,
}

impl<'a> Cursor<'a> {
    pub fn new(src: &str, file: &'a Path) -> Result<Self, Error> {
        Ok(Cursor {
            toks: tokenize(src, file)?,
            pos: 0,
            file,
        })
    }

    pub fn peek(&self) -> &Token {
        // tokenize always ends with Eof, and `bump` never moves past it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    pub fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    pub fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    pub fn error_here(&self, msg: impl Into<String>) -> Error {
        let t = self.peek();
        Error::at(self.file, t.line, t.col, msg.into())
    }

    /// An error that says what was expected and what was found instead.
    pub fn expected(&self, what: &str) -> Error {
        let found = self.peek().tok.describe();
        self.error_here(format!("expected {what}, found {found}"))
    }

    pub fn is_ident(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(s) if s == word)
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.peek().tok == Tok::Punct(c)
    }

    pub fn eat_ident(&mut self, word: &str) -> bool {
        if self.is_ident(word) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn punct(&mut self, c: char, context: &str) -> Result<(), Error> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{c}` {context}")))
        }
    }

    pub fn ident(&mut self, what: &str) -> Result<String, Error> {
        match &self.peek().tok {
            Tok::Ident(s) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// `a.b.c` (a leading `.` is kept: it marks a fully qualified name).
    pub fn dotted(&mut self, what: &str) -> Result<String, Error> {
        let mut s = String::new();
        if self.eat_punct('.') {
            s.push('.');
        }
        s.push_str(&self.ident(what)?);
        while self.is_punct('.') {
            self.bump();
            s.push('.');
            s.push_str(&self.ident(&format!("a name after `.` in {what}"))?);
        }
        Ok(s)
    }

    pub fn int(&mut self, what: &str) -> Result<i64, Error> {
        let neg = self.eat_punct('-');
        match self.peek().tok {
            Tok::Int(n) => {
                self.bump();
                Ok(if neg { -n } else { n })
            }
            _ => Err(self.expected(what)),
        }
    }

    pub fn string(&mut self, what: &str) -> Result<String, Error> {
        match &self.peek().tok {
            Tok::Str(s) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// An option value: a string, number, `true`/`false` or a name.
    pub fn option_value(&mut self) -> Result<OptValue, Error> {
        let neg = self.eat_punct('-');
        let t = self.bump();
        Ok(match t.tok {
            Tok::Str(s) => OptValue::Str(s),
            Tok::Int(n) => OptValue::Int(if neg { -n } else { n }),
            Tok::Float(f) => OptValue::Other(if neg { format!("-{f}") } else { f }),
            Tok::Ident(s) if s == "true" => OptValue::Bool(true),
            Tok::Ident(s) if s == "false" => OptValue::Bool(false),
            Tok::Ident(s) => OptValue::Other(s),
            Tok::Punct('{') => {
                // A proto aggregate value: skipped to its closing brace.
                let mut depth = 1;
                while depth > 0 {
                    match self.bump().tok {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => depth -= 1,
                        Tok::Eof => return Err(self.error_here("an option's `{` is not closed")),
                        _ => {}
                    }
                }
                OptValue::Other(String::new())
            }
            other => {
                return Err(Error::at(
                    self.file,
                    t.line,
                    t.col,
                    format!("expected an option value, found {}", other.describe()),
                ))
            }
        })
    }
}

/// The value of a schema option.
#[derive(Debug, Clone, PartialEq)]
pub enum OptValue {
    /// A quoted string.
    Str(String),
    /// An integer.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A name (an enum constant) or another literal, as written.
    Other(String),
}

/// Joins comment lines into the text of a rustdoc comment, or `None` if there are none.
pub(crate) fn doc_text(lines: &[String]) -> Option<String> {
    let start = lines.iter().position(|l| !l.trim().is_empty())?;
    let end = lines.iter().rposition(|l| !l.trim().is_empty())? + 1;
    Some(lines[start..end].join("\n"))
}
