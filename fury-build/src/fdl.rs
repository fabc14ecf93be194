//! The Fory IDL (`.fdl`) parser: the grammar foryc 1.7.7 accepts (package with alias, imports,
//! options, enums, messages with nested types, unions, services; `optional`, `ref`,
//! `repeated`, `list<>`, `array<>`, `map<>`, integer encodings, `reserved`).

use crate::lexer::{doc_text, Cursor, OptValue, Tok};
use crate::model::*;
use crate::Error;
use std::path::Path;

/// Parses one Fory IDL file.
pub(crate) fn parse(src: &str, file: &Path) -> Result<Schema, Error> {
    let mut p = Cursor::new(src, file)?;
    let mut s = Schema {
        file: file.to_path_buf(),
        format: Format::Fdl,
        package: None,
        package_alias: None,
        imports: Vec::new(),
        options: Vec::new(),
        enums: Vec::new(),
        unions: Vec::new(),
        messages: Vec::new(),
        services: Vec::new(),
    };
    loop {
        if p.peek().tok == Tok::Eof {
            break;
        }
        if p.eat_ident("package") {
            if s.package.is_some() {
                return Err(p.error_here("a second `package` declaration"));
            }
            s.package = Some(p.dotted("a package name")?);
            if p.eat_ident("alias") {
                s.package_alias = Some(p.dotted("an alias after `alias`")?);
            }
            p.punct(';', "after the package declaration")?;
        } else if p.eat_ident("import") {
            let _ = p.eat_ident("public") || p.eat_ident("weak");
            s.imports.push(p.string("an import path in quotes")?);
            p.punct(';', "after the import")?;
        } else if p.eat_ident("option") {
            let name = p.dotted("an option name")?;
            p.punct('=', "after the option name")?;
            let v = p.option_value()?;
            p.punct(';', "after the option")?;
            s.options.push((name, v));
        } else if p.is_ident("enum") {
            s.enums.push(parse_enum(&mut p)?);
        } else if p.is_ident("union") {
            s.unions.push(parse_union(&mut p)?);
        } else if p.is_ident("message") {
            s.messages.push(parse_message(&mut p)?);
        } else if p.is_ident("service") {
            s.services.push(parse_service(&mut p)?);
        } else {
            return Err(p.expected(
                "`package`, `import`, `option`, `enum`, `union`, `message` or `service`",
            ));
        }
    }
    Ok(s)
}

fn pos_doc(p: &Cursor) -> (Pos, Option<String>) {
    let t = p.peek();
    (
        Pos {
            line: t.line,
            col: t.col,
        },
        doc_text(&t.doc),
    )
}

/// `[name = value, ...]` after a type name.
fn type_options(p: &mut Cursor) -> Result<Vec<(String, OptValue)>, Error> {
    let mut out = Vec::new();
    if !p.eat_punct('[') {
        return Ok(out);
    }
    loop {
        let name = p.dotted("an option name")?;
        p.punct('=', "after the option name")?;
        let v = p.option_value()?;
        out.push((name, v));
        if p.eat_punct(']') {
            return Ok(out);
        }
        p.punct(',', "or `]` between options")?;
    }
}

fn type_id(
    p: &Cursor,
    options: &[(String, OptValue)],
    allow_zero: bool,
) -> Result<Option<u32>, Error> {
    match type_option(options, "id") {
        None => Ok(None),
        Some(OptValue::Int(n)) if (*n > 0 || (allow_zero && *n == 0)) && *n <= u32::MAX as i64 => {
            Ok(Some(*n as u32))
        }
        Some(v) => Err(p.error_here(format!(
            "the type option `id` must be a positive 32-bit integer, found {v:?}"
        ))),
    }
}

fn skip_reserved(p: &mut Cursor) -> Result<(), Error> {
    // `reserved 2, 9 to 11, 40 to max;` or `reserved "a", "b";`: nothing to generate.
    loop {
        match p.bump().tok {
            Tok::Punct(';') => return Ok(()),
            Tok::Eof => return Err(p.expected("`;` after `reserved`")),
            _ => {}
        }
    }
}

fn parse_enum(p: &mut Cursor) -> Result<Enum, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("an enum name")?;
    let options = type_options(p)?;
    let id = type_id(p, &options, false)?;
    p.punct('{', "after the enum name")?;
    let mut values = Vec::new();
    while !p.eat_punct('}') {
        if p.eat_ident("reserved") {
            skip_reserved(p)?;
            continue;
        }
        if p.is_ident("option") {
            return Err(p.error_here("option statements inside an enum are not supported"));
        }
        let (vpos, vdoc) = pos_doc(p);
        let vname = p.ident("an enum value name or `}`")?;
        p.punct('=', "after the enum value name")?;
        let value = p.int("the enum value's number")?;
        let _ = type_options(p)?;
        p.punct(';', "after the enum value")?;
        values.push(EnumValue {
            name: vname,
            value,
            doc: vdoc,
            pos: vpos,
        });
    }
    Ok(Enum {
        name,
        id,
        values,
        options,
        doc,
        pos,
    })
}

fn parse_union(p: &mut Cursor) -> Result<Union, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("a union name")?;
    let options = type_options(p)?;
    let id = type_id(p, &options, true)?;
    p.punct('{', "after the union name")?;
    let mut cases = Vec::new();
    while !p.eat_punct('}') {
        if p.eat_ident("reserved") {
            skip_reserved(p)?;
            continue;
        }
        let (fpos, fdoc) = pos_doc(p);
        if p.is_ident("optional") || p.is_ident("ref") {
            return Err(p.error_here("union cases take no `optional` or `ref` modifier"));
        }
        let repeated = p.eat_ident("repeated");
        let mut ty = parse_type(p)?;
        if repeated {
            ty = Type::List {
                elem: Box::new(ty),
                elem_optional: false,
                elem_ref: false,
            };
        }
        let fname = p.ident("a union case name")?;
        p.punct('=', "after the union case name")?;
        let number = field_number(p)?;
        let _ = type_options(p)?;
        p.punct(';', "after the union case")?;
        cases.push(Field {
            name: fname,
            ty,
            number,
            optional: false,
            is_ref: false,
            untracked_elements: false,
            doc: fdoc,
            pos: fpos,
        });
    }
    Ok(Union {
        name,
        id,
        cases,
        options,
        doc,
        pos,
    })
}

fn field_number(p: &mut Cursor) -> Result<u32, Error> {
    let n = p.int("a field number")?;
    u32::try_from(n).map_err(|_| p.error_here(format!("the field number {n} is out of range")))
}

fn parse_message(p: &mut Cursor) -> Result<Message, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("a message name")?;
    let options = type_options(p)?;
    let id = type_id(p, &options, false)?;
    p.punct('{', "after the message name")?;
    let mut m = Message {
        name,
        id,
        fields: Vec::new(),
        messages: Vec::new(),
        enums: Vec::new(),
        unions: Vec::new(),
        options,
        doc,
        pos,
    };
    while !p.eat_punct('}') {
        if p.eat_ident("reserved") {
            skip_reserved(p)?;
        } else if p.is_ident("option") {
            return Err(p.error_here("option statements inside a message are not supported"));
        } else if p.is_ident("message")
            && matches!(p.peek_at(1), Tok::Ident(_))
            && !matches!(p.peek_at(2), Tok::Punct('='))
        {
            m.messages.push(parse_message(p)?);
        } else if p.is_ident("enum") && matches!(p.peek_at(2), Tok::Punct('{' | '[')) {
            m.enums.push(parse_enum(p)?);
        } else if p.is_ident("union") && matches!(p.peek_at(2), Tok::Punct('{' | '[')) {
            m.unions.push(parse_union(p)?);
        } else {
            m.fields.push(parse_field(p)?);
        }
    }
    Ok(m)
}

/// `ref(weak=true, ...)`: the options are about pointer kinds in other languages; the bytes
/// do not depend on them.
fn skip_ref_options(p: &mut Cursor) -> Result<(), Error> {
    if p.eat_punct('(') {
        while !p.eat_punct(')') {
            if p.peek().tok == Tok::Eof {
                return Err(p.expected("`)` after the ref options"));
            }
            p.bump();
        }
    }
    Ok(())
}

fn parse_field(p: &mut Cursor) -> Result<Field, Error> {
    let (pos, doc) = pos_doc(p);
    let (mut optional, mut is_ref, mut repeated) = (false, false, false);
    let (mut elem_optional, mut elem_ref) = (false, false);
    loop {
        // A modifier only if a type follows it (`optional` could also be a type's name).
        if p.is_ident("optional") && !matches!(p.peek_at(1), Tok::Punct('=')) {
            p.bump();
            if repeated {
                elem_optional = true;
            } else {
                optional = true;
            }
        } else if p.is_ident("ref") && !matches!(p.peek_at(1), Tok::Punct('=')) {
            p.bump();
            skip_ref_options(p)?;
            if repeated {
                elem_ref = true;
            } else {
                is_ref = true;
            }
        } else if p.is_ident("repeated") && !matches!(p.peek_at(1), Tok::Punct('=')) {
            if repeated {
                return Err(p.error_here("`repeated` given twice"));
            }
            p.bump();
            repeated = true;
        } else {
            break;
        }
    }
    let mut ty = parse_type(p)?;
    if repeated {
        ty = Type::List {
            elem: Box::new(ty),
            elem_optional,
            elem_ref,
        };
    }
    let name = p.ident("a field name")?;
    p.punct('=', "after the field name")?;
    let number = field_number(p)?;
    let options = field_options(p)?;
    for (k, v) in &options {
        let on = *v == OptValue::Bool(true);
        match k.as_str() {
            "ref" if on => match &mut ty {
                Type::List { elem_ref, .. } => *elem_ref = true,
                Type::Map { value_ref, .. } => *value_ref = true,
                _ => is_ref = true,
            },
            "nullable" if on => optional = true,
            _ => {}
        }
    }
    p.punct(';', "after the field")?;
    Ok(Field {
        name,
        ty,
        number,
        optional,
        is_ref,
        untracked_elements: false,
        doc,
        pos,
    })
}

fn field_options(p: &mut Cursor) -> Result<Vec<(String, OptValue)>, Error> {
    let mut out = Vec::new();
    if !p.eat_punct('[') {
        return Ok(out);
    }
    loop {
        let name = p.dotted("a field option name")?;
        let v = if p.eat_punct('=') {
            p.option_value()?
        } else {
            OptValue::Bool(true)
        };
        out.push((name, v));
        if p.eat_punct(']') {
            return Ok(out);
        }
        p.punct(',', "or `]` between field options")?;
    }
}

fn parse_type(p: &mut Cursor) -> Result<Type, Error> {
    let is_generic = |p: &Cursor| p.peek_at(1) == &Tok::Punct('<');
    if p.is_ident("map") && is_generic(p) {
        p.bump();
        p.bump();
        if p.is_ident("ref") {
            return Err(p.error_here("map keys take no `ref` modifier"));
        }
        let key = parse_type(p)?;
        p.punct(',', "between the map's key and value types")?;
        let (mut value_optional, mut value_ref) = (false, false);
        loop {
            if p.eat_ident("optional") {
                value_optional = true;
            } else if p.eat_ident("ref") {
                skip_ref_options(p)?;
                value_ref = true;
            } else {
                break;
            }
        }
        let value = parse_type(p)?;
        p.punct('>', "after the map's value type")?;
        return Ok(Type::Map {
            key: Box::new(key),
            value: Box::new(value),
            value_optional,
            value_ref,
        });
    }
    if p.is_ident("list") && is_generic(p) {
        p.bump();
        p.bump();
        let (mut elem_optional, mut elem_ref) = (false, false);
        loop {
            if p.eat_ident("optional") {
                elem_optional = true;
            } else if p.eat_ident("ref") {
                skip_ref_options(p)?;
                elem_ref = true;
            } else {
                break;
            }
        }
        let elem = parse_type(p)?;
        p.punct('>', "after the list's element type")?;
        return Ok(Type::List {
            elem: Box::new(elem),
            elem_optional,
            elem_ref,
        });
    }
    if p.is_ident("array") && is_generic(p) {
        p.bump();
        p.bump();
        if p.is_ident("optional") || p.is_ident("ref") {
            return Err(p.error_here("array elements take no `optional` or `ref` modifier"));
        }
        let elem = parse_type(p)?;
        let Type::Prim(k, _) = elem else {
            return Err(p.error_here("`array<T>` needs a number or bool element type"));
        };
        if !k.is_numeric() {
            return Err(p.error_here("`array<T>` needs a number or bool element type"));
        }
        p.punct('>', "after the array's element type")?;
        return Ok(Type::Array(k));
    }
    for (word, enc) in [
        ("fixed", Encoding::Fixed),
        ("varint", Encoding::Default),
        ("tagged", Encoding::Tagged),
    ] {
        if p.is_ident(word)
            && matches!(p.peek_at(1), Tok::Ident(_))
            && !matches!(p.peek_at(2), Tok::Punct('='))
        {
            p.bump();
            let t = p.ident("an integer type after the encoding")?;
            let ok = match enc {
                Encoding::Tagged => ["int64", "uint64"].contains(&t.as_str()),
                _ => ["int32", "int64", "uint32", "uint64"].contains(&t.as_str()),
            };
            let kind = Prim::from_fdl(&t).filter(|_| ok).ok_or_else(|| {
                p.error_here(format!("`{word}` applies to int32, int64, uint32 and uint64 (tagged: 64-bit only), not `{t}`"))
            })?;
            return Ok(Type::Prim(kind, enc));
        }
    }
    let name = p.dotted("a type")?;
    if let Some(k) = Prim::from_fdl(&name) {
        return Ok(Type::Prim(k, Encoding::Default));
    }
    Ok(Type::Named(name))
}

fn parse_service(p: &mut Cursor) -> Result<Service, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("a service name")?;
    p.punct('{', "after the service name")?;
    let mut methods = Vec::new();
    while !p.eat_punct('}') {
        if p.eat_ident("option") {
            skip_option_statement(p)?;
            continue;
        }
        let (mpos, mdoc) = pos_doc(p);
        if !p.eat_ident("rpc") {
            return Err(p.expected("`rpc`, `option` or `}`"));
        }
        methods.push(parse_rpc(p, mpos, mdoc)?);
    }
    Ok(Service {
        name,
        methods,
        doc,
        pos,
    })
}

pub(crate) fn skip_option_statement(p: &mut Cursor) -> Result<(), Error> {
    if p.eat_punct('(') {
        p.dotted("an option name")?;
        p.punct(')', "after the option name")?;
    }
    while p.eat_punct('.') || matches!(p.peek().tok, Tok::Ident(_)) {
        p.bump();
    }
    p.punct('=', "after the option name")?;
    p.option_value()?;
    p.punct(';', "after the option")
}

/// `Name (stream Req) returns (stream Resp) { option ...; }` or `... ;`
pub(crate) fn parse_rpc(p: &mut Cursor, pos: Pos, doc: Option<String>) -> Result<Method, Error> {
    let name = p.ident("a method name")?;
    p.punct('(', "before the request type")?;
    let client_streaming =
        p.is_ident("stream") && !matches!(p.peek_at(1), Tok::Punct(')')) && p.eat_ident("stream");
    let request = p.dotted("the request type")?;
    p.punct(')', "after the request type")?;
    if !p.eat_ident("returns") {
        return Err(p.expected("`returns`"));
    }
    p.punct('(', "before the response type")?;
    let server_streaming =
        p.is_ident("stream") && !matches!(p.peek_at(1), Tok::Punct(')')) && p.eat_ident("stream");
    let response = p.dotted("the response type")?;
    p.punct(')', "after the response type")?;
    if p.eat_punct('{') {
        while !p.eat_punct('}') {
            if p.eat_punct(';') {
                continue;
            }
            if !p.eat_ident("option") {
                return Err(p.expected("`option` or `}` in the method body"));
            }
            skip_option_statement(p)?;
        }
        let _ = p.eat_punct(';');
    } else {
        p.punct(';', "after the method")?;
    }
    Ok(Method {
        name,
        request,
        response,
        client_streaming,
        server_streaming,
        doc,
        pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(src: &str) -> Result<Schema, Error> {
        parse(src, Path::new("t.fdl"))
    }

    #[test]
    fn parses_every_construct() {
        let s = parse_str(
            r#"
            package demo.inv alias inv;
            import "other.fdl";
            option enable_auto_type_id = true;
            // Colours.
            enum Color [id=101] { reserved 3 to 5; RED = 0; GREEN = 7; }
            union Shape [id=0] { Item item = 1; repeated string labels = 2; }
            message Item {
                /// The SKU.
                string sku = 1;
                optional fixed int32 qty = 2;
                tagged uint64 t = 3;
                repeated optional int32 maybe = 4;
                list<ref Item> items = 5;
                array<float32> dense = 6;
                map<string, optional Inner> m = 7;
                ref(weak=true) Item parent = 8;
                Inner.Deep d = 9 [nullable=true];
                message Inner { message Deep { bool ok = 1; } }
                enum Kind { A = 0; }
                union U { int32 a = 1; }
            }
            service Store { rpc Get (Item) returns (stream Item); rpc Put (stream Item) returns (Item) {} }
            "#,
        )
        .unwrap();
        assert_eq!(s.package.as_deref(), Some("demo.inv"));
        assert_eq!(s.package_alias.as_deref(), Some("inv"));
        assert_eq!(s.imports, ["other.fdl"]);
        assert_eq!(s.enums[0].id, Some(101));
        assert_eq!(s.enums[0].doc.as_deref(), Some("Colours."));
        assert_eq!(s.enums[0].values[1].value, 7);
        assert_eq!(s.unions[0].id, Some(0));
        let m = &s.messages[0];
        assert_eq!(m.fields.len(), 9);
        assert_eq!(m.fields[0].doc.as_deref(), Some("The SKU."));
        assert_eq!(m.fields[1].ty, Type::Prim(Prim::Int32, Encoding::Fixed));
        assert!(m.fields[1].optional);
        assert_eq!(m.fields[2].ty, Type::Prim(Prim::Uint64, Encoding::Tagged));
        assert!(matches!(
            &m.fields[3].ty,
            Type::List {
                elem_optional: true,
                ..
            }
        ));
        assert!(matches!(&m.fields[4].ty, Type::List { elem_ref: true, .. }));
        assert_eq!(m.fields[5].ty, Type::Array(Prim::Float32));
        assert!(matches!(
            &m.fields[6].ty,
            Type::Map {
                value_optional: true,
                ..
            }
        ));
        assert!(m.fields[7].is_ref);
        assert!(m.fields[8].optional);
        assert_eq!(m.fields[8].ty, Type::Named("Inner.Deep".into()));
        assert_eq!((m.messages.len(), m.enums.len(), m.unions.len()), (1, 1, 1));
        let svc = &s.services[0];
        assert!(svc.methods[0].server_streaming && !svc.methods[0].client_streaming);
        assert!(svc.methods[1].client_streaming);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = parse_str("package a;\nmessage M {\n  int32 x = ;\n}\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.fdl:3:13: expected a field number, found `;`"
        );
        let e = parse_str("message M { fixed string s = 1; }").unwrap_err();
        assert!(e.to_string().starts_with("t.fdl:1:"), "{e}");
        let e = parse_str("enum E [id=-1] { A = 0; }").unwrap_err();
        assert!(e.to_string().contains("positive"), "{e}");
        let e = parse_str("message M { string s = 1; /* open").unwrap_err();
        assert_eq!(e.to_string(), "t.fdl:1:27: a `/*` comment is not closed");
    }
}
