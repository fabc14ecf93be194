//! Loading a set of schema files with their imports, and the rules foryc 1.7.7 applies
//! before generating code: type ids derived from qualified names, message fields made
//! nullable, names resolved across nested scopes and packages.

use crate::model::*;
use crate::Error;
use fury_types::ids::name_type_id;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

type AddFn<'a> = dyn FnMut(Vec<String>, Kind, &Pos) -> Result<(), Error> + 'a;
type AssignFn<'a> =
    dyn FnMut(&mut Option<u32>, &str, &[(String, OptValue)], &Pos) -> Result<(), Error> + 'a;

/// What a named type is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Message,
    Enum,
    Union,
}

/// A type declared somewhere in the loaded files.
#[derive(Debug, Clone)]
pub(crate) struct TypeInfo {
    pub kind: Kind,
    /// The package it is in ("" for none).
    pub package: String,
    /// Its names from the top-level type down (`["Item", "Inner"]`).
    pub path: Vec<String>,
}

/// Every file read, in the order their types must be registered (imports first).
pub(crate) struct Loaded {
    pub schemas: Vec<Schema>,
    /// For each schema, the indices of the schemas it imports.
    pub imports: Vec<Vec<usize>>,
    /// Fully qualified name (`pkg.Outer.Inner`, no leading dot) to its declaration.
    pub types: HashMap<String, TypeInfo>,
}

/// The imports foryc does not read: the well-known protobuf types it maps to its own.
fn is_well_known(import: &str) -> bool {
    import.starts_with("google/protobuf/")
}

/// Reads `files` and everything they import, searching `includes` (and the importing
/// file's folder first).
pub(crate) fn load(files: &[PathBuf], includes: &[PathBuf]) -> Result<Loaded, Error> {
    let mut l = Loaded {
        schemas: Vec::new(),
        imports: Vec::new(),
        types: HashMap::new(),
    };
    let mut by_path: HashMap<PathBuf, usize> = HashMap::new();
    let mut visiting = Vec::new();
    for f in files {
        let path = if f.exists() {
            f.clone()
        } else {
            includes
                .iter()
                .map(|dir| dir.join(f))
                .find(|p| p.exists())
                .ok_or_else(|| {
                    Error::in_file(f, "no such file (nor in the include folders)".into())
                })?
        };
        load_one(&path, includes, &mut l, &mut by_path, &mut visiting)?;
    }
    for (i, s) in l.schemas.iter().enumerate() {
        let package = s.package.clone().unwrap_or_default();
        let mut add = |path: Vec<String>, kind: Kind, pos: &Pos| -> Result<(), Error> {
            let fq = qualified(&package, &path.join("."));
            let info = TypeInfo {
                kind,
                package: package.clone(),
                path,
            };
            if l.types.insert(fq.clone(), info).is_some() {
                return Err(Error::at(
                    &s.file,
                    pos.line,
                    pos.col,
                    format!("the type `{fq}` is declared twice"),
                ));
            }
            Ok(())
        };
        for e in &s.enums {
            add(vec![e.name.clone()], Kind::Enum, &e.pos)?;
        }
        for u in &s.unions {
            add(vec![u.name.clone()], Kind::Union, &u.pos)?;
        }
        fn walk(m: &Message, parent: &[String], add: &mut AddFn) -> Result<(), Error> {
            let mut path = parent.to_vec();
            path.push(m.name.clone());
            add(path.clone(), Kind::Message, &m.pos)?;
            for e in &m.enums {
                add(
                    [path.clone(), vec![e.name.clone()]].concat(),
                    Kind::Enum,
                    &e.pos,
                )?;
            }
            for u in &m.unions {
                add(
                    [path.clone(), vec![u.name.clone()]].concat(),
                    Kind::Union,
                    &u.pos,
                )?;
            }
            for n in &m.messages {
                walk(n, &path, add)?;
            }
            Ok(())
        }
        for m in &s.messages {
            walk(m, &[], &mut add)?;
        }
        let _ = i;
    }
    Ok(l)
}

fn load_one(
    path: &Path,
    includes: &[PathBuf],
    l: &mut Loaded,
    by_path: &mut HashMap<PathBuf, usize>,
    visiting: &mut Vec<PathBuf>,
) -> Result<usize, Error> {
    let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if let Some(&i) = by_path.get(&key) {
        return Ok(i);
    }
    if visiting.contains(&key) {
        return Err(Error::in_file(
            path,
            "imports itself (through a cycle of imports)".into(),
        ));
    }
    let src = std::fs::read_to_string(path)
        .map_err(|e| Error::in_file(path, format!("cannot be read: {e}")))?;
    let schema = match path.extension().and_then(|e| e.to_str()) {
        Some("proto") => crate::proto::parse(&src, path)?,
        Some("fdl") | Some("fory") => crate::fdl::parse(&src, path)?,
        Some("fbs") => {
            return Err(Error::in_file(
                path,
                "FlatBuffers schemas (.fbs) are not supported; use .fdl or .proto".into(),
            ))
        }
        _ => {
            // foryc reads an unknown extension as Fory IDL too.
            crate::fdl::parse(&src, path)?
        }
    };
    visiting.push(key.clone());
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut deps = Vec::new();
    for imp in &schema.imports {
        let found = std::iter::once(&dir)
            .chain(includes.iter())
            .map(|d| d.join(imp))
            .find(|p| p.is_file());
        match found {
            Some(p) => deps.push(load_one(&p, includes, l, by_path, visiting)?),
            None if is_well_known(imp) => {}
            None => {
                return Err(Error::in_file(
                    path,
                    format!("the import \"{imp}\" is in none of the folders searched ({} and the include folders)", dir.display()),
                ))
            }
        }
    }
    visiting.pop();
    l.schemas.push(schema);
    l.imports.push(deps);
    let i = l.schemas.len() - 1;
    by_path.insert(key, i);
    Ok(i)
}

pub(crate) fn qualified(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    }
}

impl Loaded {
    /// Resolves `name` as written inside `scope` (package, then enclosing message names), as
    /// protobuf scoping does: the innermost scope first, a leading `.` for a full name.
    pub fn resolve(
        &self,
        name: &str,
        package: &str,
        scope: &[String],
    ) -> Option<(String, &TypeInfo)> {
        if let Some(full) = name.strip_prefix('.') {
            return self.types.get(full).map(|t| (full.to_string(), t));
        }
        let mut prefixes: Vec<String> = Vec::new();
        for i in (0..=scope.len()).rev() {
            prefixes.push(qualified(package, &scope[..i].join(".")));
        }
        let parts: Vec<&str> = package.split('.').filter(|p| !p.is_empty()).collect();
        for i in (0..parts.len()).rev() {
            prefixes.push(parts[..i].join("."));
        }
        for p in prefixes {
            let p = p.trim_end_matches('.');
            let fq = qualified(p, name);
            if let Some(t) = self.types.get(&fq) {
                return Some((fq, t));
            }
        }
        // foryc merges an import's types into the importing schema, so a type of another
        // package is found by its own name too (when only one type has that name).
        let mut found = self.types.iter().filter(|(_, t)| t.path.join(".") == name);
        match (found.next(), found.next()) {
            (Some((fq, t)), None) => Some((fq.clone(), t)),
            _ => None,
        }
    }

    /// The names of the top-level types of schema `i` and of everything it imports: the
    /// names foryc's merged schema holds.
    fn top_level_names(&self, i: usize) -> HashSet<String> {
        let mut out = HashSet::new();
        let mut stack = vec![i];
        let mut seen = HashSet::new();
        while let Some(j) = stack.pop() {
            if !seen.insert(j) {
                continue;
            }
            let s = &self.schemas[j];
            out.extend(s.enums.iter().map(|e| e.name.clone()));
            out.extend(s.unions.iter().map(|e| e.name.clone()));
            out.extend(s.messages.iter().map(|e| e.name.clone()));
            stack.extend(self.imports[j].iter().copied());
        }
        out
    }

    /// Applies foryc's rules to every loaded schema: checks references, makes message
    /// fields nullable, derives type ids.
    pub fn apply_rules(&mut self) -> Result<(), Error> {
        for i in 0..self.schemas.len() {
            let tops = self.top_level_names(i);
            let mut schema = self.schemas[i].clone();
            let package = schema.package.clone().unwrap_or_default();
            for m in &mut schema.messages {
                self.field_rules(&schema.file, schema.format, &package, &[], m, &tops)?;
            }
            for u in &schema.unions {
                self.check_cases(&schema.file, &package, &[], u)?;
            }
            check_enums(&schema)?;
            assign_ids(&mut schema)?;
            self.schemas[i] = schema;
        }
        Ok(())
    }

    fn check_type(
        &self,
        file: &Path,
        package: &str,
        scope: &[String],
        f: &Field,
        ty: &Type,
    ) -> Result<(), Error> {
        match ty {
            Type::Named(n) => {
                if self.resolve(n, package, scope).is_none() {
                    return Err(Error::at(
                        file,
                        f.pos.line,
                        f.pos.col,
                        format!("the field `{}` has the type `{n}`, which is declared nowhere in this file or its imports", f.name),
                    ));
                }
                Ok(())
            }
            Type::List { elem, .. } => self.check_type(file, package, scope, f, elem),
            Type::Map { key, value, .. } => {
                if let Type::Named(_) | Type::List { .. } | Type::Map { .. } = **key {
                    let is_enum = matches!(&**key, Type::Named(n) if self.resolve(n, package, scope).map(|t| t.1.kind) == Some(Kind::Enum));
                    if !is_enum {
                        return Err(Error::at(
                            file,
                            f.pos.line,
                            f.pos.col,
                            format!(
                                "the map `{}` has a key type that is not a scalar or an enum",
                                f.name
                            ),
                        ));
                    }
                }
                self.check_type(file, package, scope, f, key)?;
                self.check_type(file, package, scope, f, value)
            }
            _ => Ok(()),
        }
    }

    fn check_cases(
        &self,
        file: &Path,
        package: &str,
        scope: &[String],
        u: &Union,
    ) -> Result<(), Error> {
        let mut ids = HashSet::new();
        for c in &u.cases {
            if !ids.insert(c.number) {
                return Err(Error::at(
                    file,
                    c.pos.line,
                    c.pos.col,
                    format!("the union `{}` has the case id {} twice", u.name, c.number),
                ));
            }
            self.check_type(file, package, scope, c, &c.ty)?;
        }
        Ok(())
    }

    fn field_rules(
        &self,
        file: &Path,
        format: Format,
        package: &str,
        parent: &[String],
        m: &mut Message,
        tops: &HashSet<String>,
    ) -> Result<(), Error> {
        let mut scope = parent.to_vec();
        scope.push(m.name.clone());
        let mut numbers = HashSet::new();
        for f in &mut m.fields {
            if !numbers.insert(f.number) {
                return Err(Error::at(
                    file,
                    f.pos.line,
                    f.pos.col,
                    format!(
                        "the message `{}` has the field number {} twice",
                        m.name, f.number
                    ),
                ));
            }
            self.check_type(file, package, &scope, f, &f.ty)?;
            f.untracked_elements = match &f.ty {
                Type::List {
                    elem,
                    elem_ref: false,
                    ..
                } => self.foryc_ref_target(elem, tops),
                Type::Map {
                    value,
                    value_ref: false,
                    ..
                } => self.foryc_ref_target(value, tops),
                _ => false,
            };
            if let Type::Named(n) = &f.ty {
                if self.foryc_sees_message(n, package, &scope, tops) {
                    if format == Format::Fdl && f.optional && !f.is_ref {
                        // foryc 1.7.7 refuses this too; the field is nullable anyway.
                        return Err(Error::at(
                            file,
                            f.pos.line,
                            f.pos.col,
                            format!(
                                "message fields are always optional: remove `optional` from `{}`",
                                f.name
                            ),
                        ));
                    }
                    f.optional = true;
                }
            }
        }
        for u in &m.unions {
            self.check_cases(file, package, &scope, u)?;
        }
        for n in &mut m.messages {
            self.field_rules(file, format, package, &scope, n, tops)?;
        }
        Ok(())
    }

    /// Whether foryc 1.7.7 finds a message behind the name `n` when it makes message fields
    /// nullable. Its lookup reads a dotted name from a top-level type of the file (or of its
    /// imports) down, so a package-qualified name (`common.Money`) is not seen as a message
    /// and that field stays non-nullable in every language foryc generates
    /// (spec/DISAGREEMENTS.md records it); the bytes must follow.
    fn foryc_sees_message(
        &self,
        n: &str,
        package: &str,
        scope: &[String],
        tops: &HashSet<String>,
    ) -> bool {
        let is_message = self.resolve(n, package, scope).map(|t| t.1.kind) == Some(Kind::Message);
        match n.split_once('.') {
            None => is_message,
            Some((first, _)) => {
                is_message
                    && tops.contains(first)
                    && !self.is_package_prefix(first, n, package, scope)
            }
        }
    }

    /// Whether foryc's Python output wraps an element of type `ty` in `Ref[T, False]`: a
    /// message or union its schema lookup finds, which reads a name from a top-level type of
    /// the file or its imports down (`Outer.Inner`), or package-qualified, but does not find a
    /// nested type by its own name (`Inner` inside `Outer`).
    fn foryc_ref_target(&self, ty: &Type, tops: &HashSet<String>) -> bool {
        let Type::Named(n) = ty else { return false };
        let n = n.trim_start_matches('.');
        let first = n.split('.').next().unwrap_or(n);
        let found = if tops.contains(first) {
            let mut hits = self.types.values().filter(|t| t.path.join(".") == n);
            match (hits.next(), hits.next()) {
                (Some(t), None) => Some(t),
                _ => None,
            }
        } else {
            self.types.get(n)
        };
        found.is_some_and(|t| t.kind != Kind::Enum)
    }

    /// True when `n` resolved through a package name rather than a type name starting with
    /// `first`: foryc would then look for a type named `first` and find none.
    fn is_package_prefix(&self, first: &str, n: &str, package: &str, scope: &[String]) -> bool {
        match self.resolve(n, package, scope) {
            Some((_, t)) => t.path.first().map(String::as_str) != Some(first),
            None => true,
        }
    }
}

/// Enum values are the numbers on the wire (pyfory writes a member's value): they must be
/// distinct and fit a varuint32.
fn check_enums(s: &Schema) -> Result<(), Error> {
    fn check(file: &Path, e: &Enum) -> Result<(), Error> {
        let mut seen = HashSet::new();
        for v in &e.values {
            if !(0..=i64::from(u32::MAX)).contains(&v.value) || !seen.insert(v.value) {
                return Err(Error::at(
                    file,
                    v.pos.line,
                    v.pos.col,
                    format!(
                        "the value {} of `{}.{}` must be distinct and in 0..=4294967295 (it is the number on the wire)",
                        v.value, e.name, v.name
                    ),
                ));
            }
        }
        Ok(())
    }
    fn walk(file: &Path, m: &Message) -> Result<(), Error> {
        m.enums.iter().try_for_each(|e| check(file, e))?;
        m.messages.iter().try_for_each(|n| walk(file, n))
    }
    s.enums.iter().try_for_each(|e| check(&s.file, e))?;
    s.messages.iter().try_for_each(|m| walk(&s.file, m))
}

/// foryc's ids: `[id=N]` as given, else murmur3 of the qualified name (package alias or
/// package, the type's path, or its `alias` option), unless `enable_auto_type_id = false`.
fn assign_ids(s: &mut Schema) -> Result<(), Error> {
    if s.option("enable_auto_type_id") == Some(&OptValue::Bool(false)) {
        return Ok(());
    }
    let package = s
        .package_alias
        .clone()
        .or_else(|| s.package.clone())
        .unwrap_or_default();
    let mut used: HashMap<u32, String> = HashMap::new();
    // Explicit ids first, as foryc collects them before generating any.
    fn explicit(m: &Message, used: &mut HashMap<u32, String>) {
        if let Some(id) = m.id {
            used.insert(id, m.name.clone());
        }
        for e in &m.enums {
            if let Some(id) = e.id {
                used.insert(id, e.name.clone());
            }
        }
        for u in &m.unions {
            if let Some(id) = u.id {
                used.insert(id, u.name.clone());
            }
        }
        m.messages.iter().for_each(|n| explicit(n, used));
    }
    for e in &s.enums {
        if let Some(id) = e.id {
            used.insert(id, e.name.clone());
        }
    }
    for u in &s.unions {
        if let Some(id) = u.id {
            used.insert(id, u.name.clone());
        }
    }
    s.messages.iter().for_each(|m| explicit(m, &mut used));

    let file = s.file.clone();
    let mut assign = |id: &mut Option<u32>,
                      full: &str,
                      options: &[(String, OptValue)],
                      pos: &Pos|
     -> Result<(), Error> {
        if id.is_some() {
            return Ok(());
        }
        let source = match type_option(options, "alias") {
            Some(OptValue::Str(a)) if a.contains('.') => a.clone(),
            Some(OptValue::Str(a)) => qualified(&package, a),
            _ => qualified(&package, full),
        };
        let n = name_type_id(&source);
        if let Some(other) = used.get(&n) {
            return Err(Error::at(
                &file,
                pos.line,
                pos.col,
                format!("the type id derived from `{source}` ({n}) is the id of `{other}` too: give one an [id=...] or an [alias=\"...\"]"),
            ));
        }
        used.insert(n, source);
        *id = Some(n);
        Ok(())
    };
    for e in &mut s.enums {
        assign(&mut e.id, &e.name.clone(), &e.options, &e.pos)?;
    }
    for u in &mut s.unions {
        assign(&mut u.id, &u.name.clone(), &u.options, &u.pos)?;
    }
    fn walk(m: &mut Message, parent: &str, assign: &mut AssignFn) -> Result<(), Error> {
        let full = if parent.is_empty() {
            m.name.clone()
        } else {
            format!("{parent}.{}", m.name)
        };
        assign(&mut m.id, &full, &m.options, &m.pos)?;
        for e in &mut m.enums {
            assign(&mut e.id, &format!("{full}.{}", e.name), &e.options, &e.pos)?;
        }
        for u in &mut m.unions {
            assign(&mut u.id, &format!("{full}.{}", u.name), &u.options, &u.pos)?;
        }
        for n in &mut m.messages {
            walk(n, &full, assign)?;
        }
        Ok(())
    }
    for m in &mut s.messages {
        walk(m, "", &mut assign)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(src: &str) -> Result<Schema, Error> {
        let dir = std::env::temp_dir().join(format!("fury-build-resolve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join(format!("t{}.fdl", src.len()));
        std::fs::write(&f, src).unwrap();
        let mut l = load(&[f], &[])?;
        l.apply_rules()?;
        Ok(l.schemas.pop().unwrap())
    }

    #[test]
    fn ids_are_foryc_ids() {
        // The numbers foryc 1.7.7 generated for this schema (its Python output's
        // register_type calls), for a top-level enum, union, message and a nested message.
        let s = rules(
            "package demo.inv;\nenum Color [id=101] { RED = 0; }\nenum Size { S = 0; }\n\
             union Shape [id=300] { string label = 1; }\n\
             message Item { message Inner { string a = 1; } Inner inner = 1; }",
        )
        .unwrap();
        assert_eq!(s.enums[0].id, Some(101));
        assert_eq!(s.enums[1].id, Some(537214787));
        assert_eq!(s.unions[0].id, Some(300));
        assert_eq!(s.messages[0].id, Some(1329290402));
        assert_eq!(s.messages[0].messages[0].id, Some(375504076));
        // A message field is nullable without `optional`.
        assert!(s.messages[0].fields[0].optional);
    }

    #[test]
    fn references_and_collisions_are_checked() {
        let e = rules("package p;\nmessage M {\n  Missing m = 1;\n}").unwrap_err();
        assert!(e.to_string().ends_with(":3:3: the field `m` has the type `Missing`, which is declared nowhere in this file or its imports"), "{e}");
        let e = rules("package p;\nmessage M { Inner x = 1; optional M y = 2; }\nmessage Inner {}")
            .unwrap_err();
        assert!(
            e.to_string().contains("message fields are always optional"),
            "{e}"
        );
        let e = rules("package p;\nenum E { A = 0; B = -1; }").unwrap_err();
        assert!(
            e.to_string().contains(":2:17: the value -1 of `E.B`"),
            "{e}"
        );
        let e = rules("package p; message M { int32 a = 1; int32 b = 1; }").unwrap_err();
        assert!(e.to_string().contains("field number 1 twice"), "{e}");
    }
}
