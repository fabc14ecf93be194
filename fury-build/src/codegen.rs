//! Rust source for one package: its types with `#[derive(fury::FuryObject)]`, the attributes
//! that give the bytes foryc's other languages write, `register_types`, a per-module `Fury`
//! and `to_bytes`/`from_bytes`.

use crate::model::*;
use crate::resolve::{qualified, Kind, Loaded};
use crate::Config;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;

/// The file name (without `.rs`) and module name of a package: foryc's (`a.b` → `a_b`,
/// no package → `generated`).
pub(crate) fn module_name(package: &str) -> String {
    if package.is_empty() {
        "generated".to_string()
    } else {
        escape_ident(&snake(&package.replace('.', "_")))
    }
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// A Rust identifier for `s`: raw (`r#type`) for keywords, with `_` after those that cannot be
/// raw.
pub(crate) fn escape_ident(s: &str) -> String {
    if matches!(s, "self" | "Self" | "crate" | "super" | "_") {
        format!("{s}_")
    } else if KEYWORDS.contains(&s) {
        format!("r#{s}")
    } else {
        s.to_string()
    }
}

/// Words of an identifier: split at `_`, at a lower-to-upper step and before the last capital
/// of a run followed by a lowercase letter (`HTTPServer` → `HTTP`, `Server`).
fn words(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = if i > 0 {
            chars.get(i - 1).copied()
        } else {
            None
        };
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && !cur.is_empty()
            && (prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                || (prev.is_some_and(char::is_uppercase) && next.is_some_and(char::is_lowercase)));
        if boundary {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `snake_case`.
pub(crate) fn snake(s: &str) -> String {
    words(s)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// `UpperCamelCase`.
pub(crate) fn camel(s: &str) -> String {
    let out: String = words(s)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase())
                .unwrap_or_default()
        })
        .collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        format!("_{out}")
    } else {
        out
    }
}

type VisitFn<'a> = dyn FnMut(String, Kind, Vec<String>, &[Field]) + 'a;

/// A type declared in the package being generated, with what codegen needs to know about it.
struct Decl {
    /// Fields or cases hold a `dyn AnyObject`, so Clone and PartialEq cannot be derived.
    has_any: bool,
}

pub(crate) struct Gen<'a> {
    pub loaded: &'a Loaded,
    pub config: &'a Config,
    /// The package being generated.
    package: String,
    /// Every type of the loaded files by qualified name, with the facts codegen derives.
    decls: HashMap<String, Decl>,
    /// The (source, target) edges that hold a value inline (a non-collection message or union
    /// field, a union case) and close a cycle: they get a `Box`.
    boxed: HashSet<(String, String)>,
    out: String,
}

/// The Rust-side path of a type relative to the package module, for paths inside the file.
fn rust_path_in_package(path: &[String]) -> String {
    let mut s = String::new();
    for p in &path[..path.len().saturating_sub(1)] {
        s.push_str(&escape_ident(&snake(p)));
        s.push_str("::");
    }
    if let Some(last) = path.last() {
        s.push_str(&camel(last));
    }
    s
}

/// A string literal of `s`.
pub(crate) fn lit(s: &str) -> String {
    format!("{s:?}")
}

impl<'a> Gen<'a> {
    pub fn new(loaded: &'a Loaded, config: &'a Config, package: &str) -> Self {
        let mut g = Gen {
            loaded,
            config,
            package: package.to_string(),
            decls: HashMap::new(),
            boxed: HashSet::new(),
            out: String::new(),
        };
        g.analyse();
        g
    }

    /// Fills `decls` (has_any, to a fixed point) and `boxed` (cycles through inline values).
    fn analyse(&mut self) {
        let mut edges: HashMap<String, Vec<(String, bool)>> = HashMap::new();
        let mut any_direct: HashSet<String> = HashSet::new();
        let mut refs: HashMap<String, Vec<String>> = HashMap::new();
        for s in &self.loaded.schemas {
            let package = s.package.clone().unwrap_or_default();
            let mut visit = |fq: String, kind: Kind, path: Vec<String>, fields: &[Field]| {
                let scope: Vec<String> = if kind == Kind::Message {
                    path.clone()
                } else {
                    path[..path.len() - 1].to_vec()
                };
                for f in fields {
                    collect(
                        self.loaded,
                        &package,
                        &scope,
                        &f.ty,
                        true,
                        f.is_ref,
                        &fq,
                        &mut edges,
                        &mut refs,
                        &mut any_direct,
                    );
                }
                self.decls.insert(fq, Decl { has_any: false });
            };
            fn walk(m: &Message, parent: &[String], package: &str, visit: &mut VisitFn) {
                let mut path = parent.to_vec();
                path.push(m.name.clone());
                visit(
                    qualified(package, &path.join(".")),
                    Kind::Message,
                    path.clone(),
                    &m.fields,
                );
                for e in &m.enums {
                    let p = [path.clone(), vec![e.name.clone()]].concat();
                    visit(qualified(package, &p.join(".")), Kind::Enum, p, &[]);
                }
                for u in &m.unions {
                    let p = [path.clone(), vec![u.name.clone()]].concat();
                    visit(qualified(package, &p.join(".")), Kind::Union, p, &u.cases);
                }
                for n in &m.messages {
                    walk(n, &path, package, visit);
                }
            }
            for e in &s.enums {
                visit(
                    qualified(&package, &e.name),
                    Kind::Enum,
                    vec![e.name.clone()],
                    &[],
                );
            }
            for u in &s.unions {
                visit(
                    qualified(&package, &u.name),
                    Kind::Union,
                    vec![u.name.clone()],
                    &u.cases,
                );
            }
            for m in &s.messages {
                walk(m, &[], &package, &mut visit);
            }
        }
        // has_any: directly, or through any referenced type.
        let mut with_any = any_direct;
        loop {
            let before = with_any.len();
            for (src, targets) in &refs {
                if targets.iter().any(|t| with_any.contains(t)) {
                    with_any.insert(src.clone());
                }
            }
            if with_any.len() == before {
                break;
            }
        }
        for (k, d) in &mut self.decls {
            d.has_any = with_any.contains(k);
        }
        // A Box on every inline edge whose target reaches back to its source inline.
        let inline: HashMap<&String, Vec<&String>> = edges
            .iter()
            .map(|(k, v)| (k, v.iter().filter(|e| e.1).map(|e| &e.0).collect()))
            .collect();
        for (src, targets) in &inline {
            for t in targets {
                let mut stack = vec![*t];
                let mut seen = HashSet::new();
                let mut cycle = false;
                while let Some(n) = stack.pop() {
                    if n == *src {
                        cycle = true;
                        break;
                    }
                    if seen.insert(n) {
                        if let Some(next) = inline.get(n) {
                            stack.extend(next.iter().copied());
                        }
                    }
                }
                if cycle {
                    self.boxed.insert(((*src).clone(), (*t).clone()));
                }
            }
        }
    }

    pub(crate) fn line(&mut self, indent: usize, text: &str) {
        if !text.is_empty() {
            self.out.push_str(&"    ".repeat(indent));
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    pub(crate) fn doc(&mut self, indent: usize, doc: &Option<String>) {
        let Some(doc) = doc else { return };
        for l in doc.lines() {
            // Indented or fenced text in a schema comment is not Rust: keep rustdoc from
            // running it as a doctest.
            let mut l = l.trim().to_string();
            if l.starts_with("```") {
                l = format!("```text{}", l.trim_start_matches('`'));
                if l == "```text" {
                    l = "```".to_string();
                }
            }
            let text = format!("#[doc = {}]", lit(&format!(" {l}")));
            self.line(indent, &text);
        }
    }

    /// Whether a config path list matches `fq` (a type, `.pkg.Msg`, or a field,
    /// `.pkg.Msg.field`): `.` matches everything, a full name itself and what is inside it,
    /// a name without the leading dot any suffix of whole segments.
    fn matches(paths: &[String], fq: &str) -> bool {
        let dotted = format!(".{fq}");
        paths.iter().any(|p| {
            p == "."
                || (p.starts_with('.') && (dotted == *p || dotted.starts_with(&format!("{p}."))))
                || (!p.starts_with('.') && (dotted.ends_with(&format!(".{p}"))))
        })
    }

    fn attrs_for(list: &[(String, String)], fq: &str) -> Vec<String> {
        list.iter()
            .filter(|(p, _)| Self::matches(std::slice::from_ref(p), fq))
            .map(|(_, a)| a.clone())
            .collect()
    }

    /// The Rust path from inside module depth `depth` of this package to the type `fq`.
    pub(crate) fn type_path(&self, fq: &str, depth: usize) -> String {
        // extern_path: the longest prefix mapped to the user's own Rust path.
        let dotted = format!(".{fq}");
        if let Some((proto, rust)) = self
            .config
            .extern_paths
            .iter()
            .filter(|(p, _)| dotted == *p || dotted.starts_with(&format!("{p}.")))
            .max_by_key(|(p, _)| p.len())
        {
            let rest: Vec<String> = dotted[proto.len()..]
                .split('.')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            return if rest.is_empty() {
                rust.clone()
            } else {
                format!("{rust}::{}", rust_path_in_package(&rest))
            };
        }
        let Some(t) = self.loaded.types.get(fq) else {
            return camel(fq);
        };
        let mut s = "super::".repeat(depth);
        if t.package != self.package {
            s.push_str("super::");
            s.push_str(&module_name(&t.package));
            s.push_str("::");
        }
        if s.is_empty() {
            s.push_str("self::");
        }
        s + &rust_path_in_package(&t.path)
    }

    /// The package being generated.
    pub(crate) fn package(&self) -> &str {
        &self.package
    }

    pub fn is_extern(&self, fq: &str) -> bool {
        let dotted = format!(".{fq}");
        self.config
            .extern_paths
            .iter()
            .any(|(p, _)| dotted == *p || dotted.starts_with(&format!("{p}.")))
    }

    /// The Rust type of a scalar (`elem`: inside a collection or a union case, where the
    /// integer encodings are wrapper types instead of field attributes).
    fn prim(&self, k: Prim, enc: Encoding, elem: bool, bytes: bool) -> String {
        let base = match k {
            Prim::Bool => "bool",
            Prim::Int8 => "i8",
            Prim::Int16 => "i16",
            Prim::Int32 => "i32",
            Prim::Int64 => "i64",
            Prim::Uint8 => "u8",
            Prim::Uint16 => "u16",
            Prim::Uint32 => "u32",
            Prim::Uint64 => "u64",
            Prim::Float16 => "::fury::F16",
            Prim::Bfloat16 => "::fury::BF16",
            Prim::Float32 => "f32",
            Prim::Float64 => "f64",
            Prim::String => "::std::string::String",
            Prim::Bytes if bytes => "::bytes::Bytes",
            Prim::Bytes => "::std::vec::Vec<u8>",
            Prim::Date => "::fury::Date",
            Prim::Timestamp => "::fury::Timestamp",
            Prim::Duration => "::fury::Duration",
            Prim::Decimal => "::fury::Decimal",
            Prim::Any => "::std::boxed::Box<dyn ::fury::AnyObject>",
        };
        match (elem, enc) {
            (true, Encoding::Fixed) => format!("::fury::Fixed<{base}>"),
            (true, Encoding::Tagged) => format!("::fury::Tagged<{base}>"),
            _ => base.to_string(),
        }
    }

    fn map_type(&self, fq_field: &str) -> &'static str {
        if Self::matches(&self.config.btree_map, fq_field) {
            "::std::collections::BTreeMap"
        } else {
            "::std::collections::HashMap"
        }
    }

    /// The Rust type of `ty` inside a collection or as a union case.
    fn elem_type(
        &self,
        ty: &Type,
        scope: &[String],
        depth: usize,
        fq_field: &str,
        owner: &str,
    ) -> String {
        let bytes = Self::matches(&self.config.bytes, fq_field);
        match ty {
            Type::Prim(k, enc) => self.prim(*k, *enc, true, bytes),
            Type::Named(n) => match self.loaded.resolve(n, &self.package, scope) {
                Some((fq, _)) => {
                    let p = self.type_path(&fq, depth);
                    if self.boxed.contains(&(owner.to_string(), fq.clone())) {
                        format!("::std::boxed::Box<{p}>")
                    } else {
                        p
                    }
                }
                None => camel(n),
            },
            Type::List {
                elem,
                elem_optional,
                elem_ref,
            } => {
                let mut e = self.elem_type(elem, scope, depth, fq_field, "");
                if *elem_ref {
                    e = format!("::std::sync::Arc<{e}>");
                }
                if *elem_optional {
                    e = format!("::std::option::Option<{e}>");
                }
                // A list of numbers is a LIST (as pyfory's List[int32]), not a dense array.
                if matches!(**elem, Type::Prim(k, _) if k.is_numeric())
                    && !elem_optional
                    && !elem_ref
                {
                    format!("::fury::List<{e}>")
                } else {
                    format!("::std::vec::Vec<{e}>")
                }
            }
            Type::Array(k) => match k {
                Prim::Uint8 => "::fury::UInt8Array".to_string(),
                k => format!(
                    "::std::vec::Vec<{}>",
                    self.prim(*k, Encoding::Default, false, false)
                ),
            },
            Type::Map {
                key,
                value,
                value_optional,
                value_ref,
            } => {
                let k = self.elem_type(key, scope, depth, fq_field, "");
                let mut v = self.elem_type(value, scope, depth, fq_field, "");
                if *value_ref {
                    v = format!("::std::sync::Arc<{v}>");
                }
                if *value_optional {
                    v = format!("::std::option::Option<{v}>");
                }
                format!("{}<{k}, {v}>", self.map_type(fq_field))
            }
        }
    }

    /// Generates the whole file for the package.
    pub fn generate(mut self, imported_packages: &[String]) -> String {
        self.out
            .push_str("// Generated by fury-build from Fory IDL / proto3; do not edit.\n");
        let package = self.package.clone();
        let schemas: Vec<&Schema> = self
            .loaded
            .schemas
            .iter()
            .filter(|s| s.package.clone().unwrap_or_default() == package)
            .collect();
        let mut registrations: Vec<String> = Vec::new();
        for s in &schemas {
            for e in &s.enums {
                self.gen_enum(e, &[], 0, &mut registrations);
            }
            for u in &s.unions {
                self.gen_union(u, &[], 0, &mut registrations);
            }
            for m in &s.messages {
                self.gen_message(m, &[], 0, &mut registrations);
            }
        }
        let pkg_desc = if package.is_empty() {
            "this schema".to_string()
        } else {
            format!("package `{package}`")
        };
        self.line(0, "");
        self.line(0, &format!("/// Registers every type of {pkg_desc} on `fury` (not those of the packages it imports)."));
        self.line(
            0,
            "pub fn register_types(fury: &mut ::fury::Fury) -> ::fury::Result<()> {",
        );
        for r in &registrations {
            self.line(1, &format!("fury.register::<{r}>()?;"));
        }
        self.line(1, "::std::result::Result::Ok(())");
        self.line(0, "}");
        self.line(0, "");
        self.line(0, "/// The `Fury` that `to_bytes`/`from_bytes` use: compatible mode with reference tracking, as");
        self.line(0, "/// foryc's generated code configures its own, with the types of this package and of the");
        self.line(0, "/// packages it imports registered.");
        self.line(
            0,
            "pub fn fury() -> ::fury::Result<&'static ::fury::Fury> {",
        );
        self.line(1, "static FURY: ::std::sync::OnceLock<::fury::Result<::fury::Fury>> = ::std::sync::OnceLock::new();");
        self.line(1, "FURY.get_or_init(|| {");
        self.line(
            2,
            "let mut fury = ::fury::Fury::builder().compatible(true).ref_tracking(true).build();",
        );
        for p in imported_packages {
            self.line(
                2,
                &format!("super::{}::register_types(&mut fury)?;", module_name(p)),
            );
        }
        self.line(2, "register_types(&mut fury)?;");
        self.line(2, "::std::result::Result::Ok(fury)");
        self.line(1, "})");
        self.line(1, ".as_ref()");
        self.line(1, ".map_err(::std::clone::Clone::clone)");
        self.line(0, "}");
        let services: Vec<&Service> = schemas.iter().flat_map(|s| &s.services).collect();
        self.gen_services(&services);
        self.out
    }

    fn bytes_methods(&mut self, indent: usize, depth: usize) {
        let f = format!("{}fury()", "super::".repeat(depth));
        self.line(
            indent + 1,
            "/// This value's bytes, written by the `fury()` of its package's module.",
        );
        self.line(
            indent + 1,
            "pub fn to_bytes(&self) -> ::fury::Result<::std::vec::Vec<u8>> {",
        );
        self.line(indent + 2, &format!("{f}?.serialize(self)"));
        self.line(indent + 1, "}");
        self.line(indent, "");
        self.line(
            indent + 1,
            "/// Reads a value from `bytes` with the `fury()` of its package's module.",
        );
        self.line(
            indent + 1,
            "pub fn from_bytes(bytes: &[u8]) -> ::fury::Result<Self> {",
        );
        self.line(indent + 2, &format!("{f}?.deserialize(bytes)"));
        self.line(indent + 1, "}");
    }

    fn registration_attr(&self, id: Option<u32>, path: &[String]) -> String {
        match id {
            Some(id) => format!("#[fury(id = {id})]"),
            None => {
                // foryc registers `package.Outer.Inner` by name when ids are off ("default"
                // without a package), and pyfory splits it at the last dot: namespace
                // `package.Outer`, name `Inner`.
                let ns = if self.package.is_empty() {
                    "default"
                } else {
                    &self.package
                };
                let full = format!("{ns}.{}", path.join("."));
                let (namespace, name) = full.rsplit_once('.').unwrap_or(("", &full));
                format!(
                    "#[fury(namespace = {}, name = {})]",
                    lit(namespace),
                    lit(name)
                )
            }
        }
    }

    fn fq(&self, path: &[String]) -> String {
        qualified(&self.package, &path.join("."))
    }

    fn gen_enum(&mut self, e: &Enum, parent: &[String], depth: usize, regs: &mut Vec<String>) {
        let path = [parent.to_vec(), vec![e.name.clone()]].concat();
        let fq = self.fq(&path);
        if self.is_extern(&fq) {
            return;
        }
        regs.push(rust_path_in_package(&path));
        let name = camel(&e.name);
        self.line(depth, "");
        self.doc(depth, &e.doc);
        self.line(depth, "#[derive(::fury::FuryObject, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]");
        let reg = self.registration_attr(e.id, &path);
        self.line(depth, &reg);
        for a in Self::attrs_for(&self.config.type_attributes, &fq) {
            self.line(depth, &a);
        }
        self.line(depth, &format!("pub enum {name} {{"));
        // Variants lose the enum's name as a prefix (`STATUS_PAID` in `Status` is `Paid`) when
        // every variant has it and what remains is still a name.
        let prefix = format!("{}_", snake(&e.name).to_uppercase());
        let strip = e.values.iter().all(|v| {
            v.name.to_uppercase().starts_with(&prefix)
                && v.name[prefix.len()..].starts_with(|c: char| c.is_alphabetic())
        });
        let mut seen = HashSet::new();
        let names: Vec<String> = e
            .values
            .iter()
            .map(|v| {
                camel(if strip {
                    &v.name[prefix.len()..]
                } else {
                    &v.name
                })
            })
            .collect();
        let unique = names.iter().all(|n| seen.insert(n.clone()));
        for (i, v) in e.values.iter().enumerate() {
            let vname = if unique {
                names[i].clone()
            } else {
                camel(&v.name)
            };
            self.doc(depth + 1, &v.doc);
            if i == 0 {
                self.line(depth + 1, "#[default]");
            }
            self.line(depth + 1, &format!("#[fury(id = {})]", v.value));
            self.line(depth + 1, &format!("{vname},"));
        }
        self.line(depth, "}");
        self.line(depth, "");
        self.line(depth, &format!("impl {name} {{"));
        self.bytes_methods(depth, depth);
        self.line(depth, "}");
    }

    fn derives(&self, has_any: bool) -> &'static str {
        if has_any {
            "#[derive(::fury::FuryObject, Debug, Default)]"
        } else {
            "#[derive(::fury::FuryObject, Debug, Clone, PartialEq, Default)]"
        }
    }

    fn gen_union(&mut self, u: &Union, parent: &[String], depth: usize, regs: &mut Vec<String>) {
        let path = [parent.to_vec(), vec![u.name.clone()]].concat();
        let fq = self.fq(&path);
        if self.is_extern(&fq) {
            return;
        }
        regs.push(rust_path_in_package(&path));
        let has_any = self.decls.get(&fq).is_some_and(|d| d.has_any);
        let name = camel(&u.name);
        self.line(depth, "");
        self.doc(depth, &u.doc);
        let derive = self.derives(has_any).replace(", Default", "");
        self.line(depth, &derive);
        let reg = self.registration_attr(u.id, &path);
        self.line(depth, &reg);
        for a in Self::attrs_for(&self.config.type_attributes, &fq) {
            self.line(depth, &a);
        }
        self.line(depth, &format!("pub enum {name} {{"));
        let mut first: Option<String> = None;
        for c in &u.cases {
            let fq_case = format!("{fq}.{}", c.name);
            let ty = self.elem_type(&c.ty, parent, depth, &fq_case, &fq);
            let vname = camel(&c.name);
            if first.is_none() {
                first = Some(vname.clone());
            }
            self.doc(depth + 1, &c.doc);
            self.line(depth + 1, &format!("#[fury(id = {})]", c.number));
            for a in Self::attrs_for(&self.config.field_attributes, &fq_case) {
                self.line(depth + 1, &a);
            }
            self.line(depth + 1, &format!("{vname}({ty}),"));
        }
        self.line(
            depth + 1,
            "/// A case this side does not know (a newer schema's), kept to be written back.",
        );
        self.line(depth + 1, "#[fury(unknown)]");
        self.line(depth + 1, "Unknown(::fury::UnknownCase),");
        self.line(depth, "}");
        self.line(depth, "");
        // The default foryc's other languages use for a union field never set: its first case.
        self.line(
            depth,
            &format!("impl ::std::default::Default for {name} {{"),
        );
        self.line(depth + 1, "fn default() -> Self {");
        match first {
            Some(v) => self.line(depth + 2, &format!("{name}::{v}(::std::default::Default::default())")),
            None => self.line(
                depth + 2,
                &format!("{name}::Unknown(::fury::UnknownCase {{ case_id: 0, value: ::fury::Value::Null }})"),
            ),
        }
        self.line(depth + 1, "}");
        self.line(depth, "}");
        self.line(depth, "");
        self.line(depth, &format!("impl {name} {{"));
        self.bytes_methods(depth, depth);
        self.line(depth, "}");
    }

    fn gen_message(
        &mut self,
        m: &Message,
        parent: &[String],
        depth: usize,
        regs: &mut Vec<String>,
    ) {
        let path = [parent.to_vec(), vec![m.name.clone()]].concat();
        let fq = self.fq(&path);
        if self.is_extern(&fq) {
            return;
        }
        regs.push(rust_path_in_package(&path));
        let has_any = self.decls.get(&fq).is_some_and(|d| d.has_any);
        let name = camel(&m.name);
        self.line(depth, "");
        self.doc(depth, &m.doc);
        self.line(depth, self.derives(has_any));
        let reg = self.registration_attr(m.id, &path);
        self.line(depth, &reg);
        for a in Self::attrs_for(&self.config.type_attributes, &fq) {
            self.line(depth, &a);
        }
        self.line(depth, &format!("pub struct {name} {{"));
        let mut used = BTreeSet::new();
        for f in &m.fields {
            let fq_field = format!("{fq}.{}", f.name);
            let mut fname = escape_ident(&snake(&f.name));
            while !used.insert(fname.clone()) {
                fname.push('_');
            }
            let (ty, enc) = self.field_type(f, &path, depth, &fq_field, &fq);
            self.doc(depth + 1, &f.doc);
            let mut attr = format!("id = {}", f.number);
            if let Some(enc) = enc {
                write!(attr, ", encoding = {}", lit(enc)).ok();
            }
            if f.is_ref {
                attr.push_str(", ref");
            }
            if f.untracked_elements {
                attr.push_str(", untracked_elements");
            }
            self.line(depth + 1, &format!("#[fury({attr})]"));
            for a in Self::attrs_for(&self.config.field_attributes, &fq_field) {
                self.line(depth + 1, &a);
            }
            self.line(depth + 1, &format!("pub {fname}: {ty},"));
        }
        self.line(depth, "}");
        self.line(depth, "");
        self.line(depth, &format!("impl {name} {{"));
        self.bytes_methods(depth, depth);
        self.line(depth, "}");
        if !(m.messages.is_empty() && m.enums.is_empty() && m.unions.is_empty()) {
            self.line(depth, "");
            self.line(depth, &format!("/// The types nested in [`{name}`]."));
            self.line(
                depth,
                &format!("pub mod {} {{", escape_ident(&snake(&m.name))),
            );
            for e in &m.enums {
                self.gen_enum(e, &path, depth + 1, regs);
            }
            for u in &m.unions {
                self.gen_union(u, &path, depth + 1, regs);
            }
            for n in &m.messages {
                self.gen_message(n, &path, depth + 1, regs);
            }
            self.line(depth, "}");
        }
    }

    /// A message field's Rust type, and the encoding attribute its integer needs.
    fn field_type(
        &self,
        f: &Field,
        scope: &[String],
        depth: usize,
        fq_field: &str,
        owner: &str,
    ) -> (String, Option<&'static str>) {
        let bytes = Self::matches(&self.config.bytes, fq_field);
        let (mut ty, enc) = match &f.ty {
            Type::Prim(Prim::Any, _) => {
                // `any` is always nullable (foryc and pyfory declare it so).
                return (
                    format!(
                        "::std::option::Option<{}>",
                        self.prim(Prim::Any, Encoding::Default, false, false)
                    ),
                    None,
                );
            }
            Type::Prim(k, enc) => {
                let e = match enc {
                    Encoding::Default => None,
                    Encoding::Fixed => Some("fixed"),
                    Encoding::Tagged => Some("tagged"),
                };
                (self.prim(*k, *enc, false, bytes), e)
            }
            // A `ref` field is an `Arc`, which breaks a cycle without a `Box`.
            other => (
                self.elem_type(
                    other,
                    scope,
                    depth,
                    fq_field,
                    if f.is_ref { "" } else { owner },
                ),
                None,
            ),
        };
        if f.is_ref {
            ty = format!("::std::sync::Arc<{ty}>");
        }
        if f.optional || f.is_ref {
            ty = format!("::std::option::Option<{ty}>");
        }
        (ty, enc)
    }
}

/// Collects the types a field refers to (for has_any) and its inline edges (for boxing).
#[allow(clippy::too_many_arguments)]
fn collect(
    loaded: &Loaded,
    package: &str,
    scope: &[String],
    ty: &Type,
    inline: bool,
    is_ref: bool,
    owner: &str,
    edges: &mut HashMap<String, Vec<(String, bool)>>,
    refs: &mut HashMap<String, Vec<String>>,
    any: &mut HashSet<String>,
) {
    match ty {
        Type::Prim(Prim::Any, _) => {
            any.insert(owner.to_string());
        }
        Type::Prim(..) | Type::Array(_) => {}
        Type::Named(n) => {
            if let Some((fq, t)) = loaded.resolve(n, package, scope) {
                refs.entry(owner.to_string()).or_default().push(fq.clone());
                if t.kind != Kind::Enum {
                    edges
                        .entry(owner.to_string())
                        .or_default()
                        .push((fq, inline && !is_ref));
                }
            }
        }
        Type::List { elem, .. } => collect(
            loaded, package, scope, elem, false, is_ref, owner, edges, refs, any,
        ),
        Type::Map { key, value, .. } => {
            collect(
                loaded, package, scope, key, false, is_ref, owner, edges, refs, any,
            );
            collect(
                loaded, package, scope, value, false, is_ref, owner, edges, refs, any,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_case() {
        assert_eq!(snake("maybeInts"), "maybe_ints");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("Item"), "item");
        assert_eq!(camel("RED"), "Red");
        assert_eq!(camel("pay_method"), "PayMethod");
        assert_eq!(camel("HTTPServer"), "HttpServer");
        assert_eq!(camel("v2_thing"), "V2Thing");
        assert_eq!(escape_ident("type"), "r#type");
        assert_eq!(escape_ident("self"), "self_");
        assert_eq!(module_name("demo.inv"), "demo_inv");
        assert_eq!(module_name(""), "generated");
    }
}
