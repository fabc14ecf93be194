//! The proto3 front end: parses a `.proto` file and translates it into the schema model with
//! the mapping foryc 1.7.7 uses (so the types, ids and nullability are the ones foryc gives the
//! other languages):
//!
//! - `int32`/`int64` are foryc's `uint32`/`uint64` (varint), `sint32`/`sint64` its `int32`/
//!   `int64`, `fixed32`/`fixed64` fixed `uint32`/`uint64`, `sfixed32`/`sfixed64` fixed
//!   `int32`/`int64`; `float`/`double` are `float32`/`float64`;
//! - `google.protobuf.Timestamp`, `Duration` and `Any` are `timestamp`, `duration`, `any`;
//! - `optional` (or `[(fory).nullable = true]`) is nullable, `[(fory).ref = true]` tracks
//!   references (of the elements for `repeated`, of the values for `map`),
//!   `[(fory).type = "tagged int64"]` picks the tagged encoding;
//! - a `oneof` is a union nested in its message (named in UpperCamelCase), and the message
//!   gets one nullable field for it, numbered as its smallest case;
//! - `option (fory).id = N;` in a message or enum gives its type id.

use crate::fdl::{parse_rpc, skip_option_statement};
use crate::lexer::{doc_text, Cursor, OptValue, Tok};
use crate::model::*;
use crate::Error;
use std::path::Path;

/// Parses one proto3 file.
pub(crate) fn parse(src: &str, file: &Path) -> Result<Schema, Error> {
    let mut p = Cursor::new(src, file)?;
    let mut s = Schema {
        file: file.to_path_buf(),
        format: Format::Proto,
        package: None,
        package_alias: None,
        imports: Vec::new(),
        options: Vec::new(),
        enums: Vec::new(),
        unions: Vec::new(),
        messages: Vec::new(),
        services: Vec::new(),
    };
    let mut syntax = None;
    loop {
        if p.peek().tok == Tok::Eof {
            break;
        }
        if p.eat_punct(';') {
            continue;
        }
        if p.is_ident("syntax") || p.is_ident("edition") {
            p.bump();
            p.punct('=', "after `syntax`")?;
            let v = p.string("the syntax in quotes")?;
            if v != "proto3" {
                return Err(p.error_here(format!("only proto3 is supported, not \"{v}\"")));
            }
            syntax = Some(v);
            p.punct(';', "after the syntax declaration")?;
        } else if p.eat_ident("package") {
            s.package = Some(p.dotted("a package name")?);
            p.punct(';', "after the package declaration")?;
        } else if p.eat_ident("import") {
            let _ = p.eat_ident("public") || p.eat_ident("weak");
            s.imports.push(p.string("an import path in quotes")?);
            p.punct(';', "after the import")?;
        } else if p.eat_ident("option") {
            let (name, v) = option_statement(&mut p)?;
            s.options
                .push((name.strip_prefix("fory.").unwrap_or(&name).to_string(), v));
        } else if p.is_ident("message") {
            s.messages.push(parse_message(&mut p)?);
        } else if p.is_ident("enum") {
            s.enums.push(parse_enum(&mut p)?);
        } else if p.is_ident("service") {
            s.services.push(parse_service(&mut p)?);
        } else if p.is_ident("extend") {
            return Err(p.error_here("`extend` is not supported"));
        } else {
            return Err(p.expected(
                "`syntax`, `package`, `import`, `option`, `message`, `enum` or `service`",
            ));
        }
    }
    if syntax.is_none() {
        return Err(Error::at(
            file,
            1,
            1,
            "missing `syntax = \"proto3\";`".into(),
        ));
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

/// An option name: `a.b`, `(ext.name)`, `(ext).b`; foryc reads `(fory).id` as `fory.id`.
fn option_name(p: &mut Cursor) -> Result<String, Error> {
    let mut name = String::new();
    if p.eat_punct('(') {
        name.push_str(p.dotted("an extension name")?.trim_start_matches('.'));
        p.punct(')', "after the extension name")?;
        if p.eat_punct('.') {
            name.push('.');
            name.push_str(&p.dotted("an option name")?);
        }
    } else {
        name = p.dotted("an option name")?;
    }
    Ok(name)
}

/// `name = value;` after `option`.
fn option_statement(p: &mut Cursor) -> Result<(String, OptValue), Error> {
    let name = option_name(p)?;
    p.punct('=', "after the option name")?;
    let v = p.option_value()?;
    p.punct(';', "after the option")?;
    Ok((name, v))
}

/// `[a = 1, (fory).ref = true]` after a field.
fn field_options(p: &mut Cursor) -> Result<Vec<(String, OptValue)>, Error> {
    let mut out = Vec::new();
    if !p.eat_punct('[') {
        return Ok(out);
    }
    loop {
        let name = option_name(p)?;
        p.punct('=', "after the option name")?;
        out.push((name, p.option_value()?));
        if p.eat_punct(']') {
            return Ok(out);
        }
        p.punct(',', "or `]` between field options")?;
    }
}

/// Splits `fory.*` options into the type id and the rest (without the prefix).
fn type_options(
    p: &Cursor,
    options: Vec<(String, OptValue)>,
) -> Result<(Option<u32>, Options), Error> {
    let mut id = None;
    let mut rest = Vec::new();
    for (k, v) in options {
        if k == "fory.id" {
            match v {
                OptValue::Int(n) if n > 0 && n <= u32::MAX as i64 => id = Some(n as u32),
                other => {
                    return Err(p.error_here(format!(
                        "`(fory).id` must be a positive 32-bit integer, found {other:?}"
                    )))
                }
            }
        } else {
            rest.push((k.strip_prefix("fory.").unwrap_or(&k).to_string(), v));
        }
    }
    Ok((id, rest))
}

fn scalar(name: &str) -> Option<Type> {
    let (k, enc) = match name {
        "bool" => (Prim::Bool, Encoding::Default),
        "int8" => (Prim::Int8, Encoding::Default),
        "int16" => (Prim::Int16, Encoding::Default),
        // foryc 1.7.7 maps proto's int32/int64 to unsigned varints.
        "int32" => (Prim::Uint32, Encoding::Default),
        "int64" => (Prim::Uint64, Encoding::Default),
        "sint32" => (Prim::Int32, Encoding::Default),
        "sint64" => (Prim::Int64, Encoding::Default),
        "uint8" => (Prim::Uint8, Encoding::Default),
        "uint16" => (Prim::Uint16, Encoding::Default),
        "uint32" => (Prim::Uint32, Encoding::Default),
        "uint64" => (Prim::Uint64, Encoding::Default),
        "fixed32" => (Prim::Uint32, Encoding::Fixed),
        "fixed64" => (Prim::Uint64, Encoding::Fixed),
        "sfixed32" => (Prim::Int32, Encoding::Fixed),
        "sfixed64" => (Prim::Int64, Encoding::Fixed),
        "float16" => (Prim::Float16, Encoding::Default),
        "float" => (Prim::Float32, Encoding::Default),
        "double" => (Prim::Float64, Encoding::Default),
        "string" => (Prim::String, Encoding::Default),
        "bytes" => (Prim::Bytes, Encoding::Default),
        _ => {
            let k = match name.trim_start_matches('.') {
                "google.protobuf.Timestamp" => Prim::Timestamp,
                "google.protobuf.Duration" => Prim::Duration,
                "google.protobuf.Any" => Prim::Any,
                _ => return None,
            };
            (k, Encoding::Default)
        }
    };
    Some(Type::Prim(k, enc))
}

fn type_name(p: &mut Cursor) -> Result<Type, Error> {
    let name = p.dotted("a type")?;
    Ok(scalar(&name).unwrap_or(Type::Named(name.trim_start_matches('.').to_string())))
}

fn parse_enum(p: &mut Cursor) -> Result<Enum, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("an enum name")?;
    p.punct('{', "after the enum name")?;
    let mut values = Vec::new();
    let mut options = Vec::new();
    while !p.eat_punct('}') {
        if p.eat_punct(';') {
            continue;
        }
        if p.eat_ident("option") {
            options.push(option_statement(p)?);
            continue;
        }
        if p.eat_ident("reserved") {
            while !p.eat_punct(';') {
                if p.peek().tok == Tok::Eof {
                    return Err(p.expected("`;` after `reserved`"));
                }
                p.bump();
            }
            continue;
        }
        let (vpos, vdoc) = pos_doc(p);
        let vname = p.ident("an enum value name or `}`")?;
        p.punct('=', "after the enum value name")?;
        let value = p.int("the enum value's number")?;
        let _ = field_options(p)?;
        p.punct(';', "after the enum value")?;
        values.push(EnumValue {
            name: vname,
            value,
            doc: vdoc,
            pos: vpos,
        });
    }
    let (id, options) = type_options(p, options)?;
    Ok(Enum {
        name,
        id,
        values,
        options,
        doc,
        pos,
    })
}

/// A proto field's options as the model has them: nullable, ref, a type override.
fn apply_field_options(
    p: &Cursor,
    options: &[(String, OptValue)],
    ty: &mut Type,
    optional: &mut bool,
) -> Result<bool, Error> {
    let mut is_ref = false;
    for (k, v) in options {
        let on = *v == OptValue::Bool(true);
        match k.as_str() {
            "fory.ref" | "fory.weak_ref" if on => is_ref = true,
            "fory.nullable" if on => *optional = true,
            "fory.type" => {
                let enc = match v {
                    OptValue::Str(s) if s == "tagged int64" => Type::Prim(Prim::Int64, Encoding::Tagged),
                    OptValue::Str(s) if s == "tagged uint64" => Type::Prim(Prim::Uint64, Encoding::Tagged),
                    other => return Err(p.error_here(format!("unsupported `(fory).type` override {other:?}: \"tagged int64\" or \"tagged uint64\""))),
                };
                match ty {
                    Type::Prim(..) => *ty = enc,
                    Type::List { elem, .. } if matches!(**elem, Type::Prim(..)) => **elem = enc,
                    _ => return Err(p.error_here("`(fory).type` applies to scalar fields only")),
                }
            }
            _ => {}
        }
    }
    Ok(is_ref)
}

fn oneof_type_name(name: &str) -> String {
    let parts: Vec<&str> = name.split('_').filter(|s| !s.is_empty()).collect();
    let cap = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    };
    if parts.is_empty() {
        cap(name)
    } else {
        parts.iter().map(|s| cap(s)).collect()
    }
}

fn parse_message(p: &mut Cursor) -> Result<Message, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("a message name")?;
    p.punct('{', "after the message name")?;
    let mut m = Message {
        name,
        id: None,
        fields: Vec::new(),
        messages: Vec::new(),
        enums: Vec::new(),
        unions: Vec::new(),
        options: Vec::new(),
        doc,
        pos,
    };
    let mut options = Vec::new();
    let mut oneof_fields = Vec::new();
    while !p.eat_punct('}') {
        if p.eat_punct(';') {
            continue;
        }
        let word = match &p.peek().tok {
            Tok::Ident(w) if !matches!(p.peek_at(1), Tok::Punct('=' | '.')) => w.clone(),
            _ => String::new(),
        };
        match word.as_str() {
            "message" => m.messages.push(parse_message(p)?),
            "enum" => m.enums.push(parse_enum(p)?),
            "option" => {
                p.bump();
                options.push(option_statement(p)?);
            }
            "reserved" | "extensions" => {
                p.bump();
                while !p.eat_punct(';') {
                    if p.peek().tok == Tok::Eof {
                        return Err(p.expected("`;`"));
                    }
                    p.bump();
                }
            }
            "extend" => return Err(p.error_here("`extend` is not supported")),
            "required" => return Err(p.error_here("proto2 `required` fields are not supported")),
            "oneof" => {
                let (upos, udoc) = pos_doc(p);
                p.bump();
                let oname = p.ident("a oneof name")?;
                p.punct('{', "after the oneof name")?;
                let mut cases = Vec::new();
                while !p.eat_punct('}') {
                    if p.eat_punct(';') {
                        continue;
                    }
                    if p.eat_ident("option") {
                        option_statement(p)?;
                        continue;
                    }
                    let (fpos, fdoc) = pos_doc(p);
                    let mut ty = type_name(p)?;
                    let fname = p.ident("a field name")?;
                    p.punct('=', "after the field name")?;
                    let number = field_number(p)?;
                    let opts = field_options(p)?;
                    let mut ignored = false;
                    apply_field_options(p, &opts, &mut ty, &mut ignored)?;
                    p.punct(';', "after the field")?;
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
                let uname = oneof_type_name(&oname);
                if let Some(first) = cases.iter().map(|c| c.number).min() {
                    oneof_fields.push(Field {
                        name: oname.clone(),
                        ty: Type::Named(uname.clone()),
                        number: first,
                        optional: true,
                        is_ref: false,
                        untracked_elements: false,
                        doc: udoc.clone(),
                        pos: upos.clone(),
                    });
                }
                m.unions.push(Union {
                    name: uname,
                    id: None,
                    cases,
                    options: Vec::new(),
                    doc: udoc,
                    pos: upos,
                });
            }
            _ => m.fields.push(parse_field(p)?),
        }
    }
    m.fields.extend(oneof_fields);
    let (id, options) = type_options(p, options)?;
    m.id = id;
    m.options = options;
    Ok(m)
}

fn field_number(p: &mut Cursor) -> Result<u32, Error> {
    let n = p.int("a field number")?;
    u32::try_from(n).map_err(|_| p.error_here(format!("the field number {n} is out of range")))
}

fn parse_field(p: &mut Cursor) -> Result<Field, Error> {
    let (pos, doc) = pos_doc(p);
    let mut optional = false;
    let mut repeated = false;
    let starts_type = |p: &Cursor| !matches!(p.peek_at(1), Tok::Punct('='));
    if p.is_ident("optional") && starts_type(p) {
        p.bump();
        optional = true;
    } else if p.is_ident("repeated") && starts_type(p) {
        p.bump();
        repeated = true;
    }
    let mut ty = if p.is_ident("map") && p.peek_at(1) == &Tok::Punct('<') {
        p.bump();
        p.bump();
        let key = type_name(p)?;
        p.punct(',', "between the map's key and value types")?;
        let value = type_name(p)?;
        p.punct('>', "after the map's value type")?;
        Type::Map {
            key: Box::new(key),
            value: Box::new(value),
            value_optional: false,
            value_ref: false,
        }
    } else {
        type_name(p)?
    };
    if repeated {
        ty = Type::List {
            elem: Box::new(ty),
            elem_optional: false,
            elem_ref: false,
        };
    }
    let name = p.ident("a field name")?;
    p.punct('=', "after the field name")?;
    let number = field_number(p)?;
    let options = field_options(p)?;
    let mut is_ref = apply_field_options(p, &options, &mut ty, &mut optional)?;
    match &mut ty {
        Type::List { elem_ref, .. } if is_ref => {
            *elem_ref = true;
            is_ref = false;
        }
        Type::Map { value_ref, .. } if is_ref => {
            *value_ref = true;
            is_ref = false;
        }
        _ => {}
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

fn parse_service(p: &mut Cursor) -> Result<Service, Error> {
    let (pos, doc) = pos_doc(p);
    p.bump();
    let name = p.ident("a service name")?;
    p.punct('{', "after the service name")?;
    let mut methods = Vec::new();
    while !p.eat_punct('}') {
        if p.eat_punct(';') {
            continue;
        }
        if p.eat_ident("option") {
            skip_option_statement(p)?;
            continue;
        }
        let (mpos, mdoc) = pos_doc(p);
        if !p.eat_ident("rpc") {
            return Err(p.expected("`rpc`, `option` or `}`"));
        }
        let mut m = parse_rpc(p, mpos, mdoc)?;
        m.request = m.request.trim_start_matches('.').to_string();
        m.response = m.response.trim_start_matches('.').to_string();
        methods.push(m);
    }
    Ok(Service {
        name,
        methods,
        doc,
        pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_as_foryc_does() {
        let s = parse(
            r#"syntax = "proto3";
            package demo.shop;
            import "google/protobuf/timestamp.proto";
            option (fory).enable_auto_type_id = true;
            // An order.
            message Order {
              option (fory).id = 42;
              int32 a = 1;
              sint64 b = 2;
              fixed32 c = 3;
              sfixed64 d = 4;
              repeated int64 e = 5 [(fory).ref = true];
              map<string, Order> f = 6;
              optional string g = 7;
              google.protobuf.Timestamp at = 8;
              int64 t = 9 [(fory).type = "tagged int64"];
              oneof pay_method { string card = 11; Order cash = 10; }
              enum Status { UNKNOWN = 0; PAID = 1; }
            }
            service Shop { rpc Place(Order) returns (stream .demo.shop.Order); }"#,
            Path::new("s.proto"),
        )
        .unwrap();
        assert_eq!(
            s.options,
            [("enable_auto_type_id".to_string(), OptValue::Bool(true))]
        );
        let m = &s.messages[0];
        assert_eq!(m.id, Some(42));
        assert_eq!(m.doc.as_deref(), Some("An order."));
        let ty = |i: usize| m.fields[i].ty.clone();
        assert_eq!(ty(0), Type::Prim(Prim::Uint32, Encoding::Default));
        assert_eq!(ty(1), Type::Prim(Prim::Int64, Encoding::Default));
        assert_eq!(ty(2), Type::Prim(Prim::Uint32, Encoding::Fixed));
        assert_eq!(ty(3), Type::Prim(Prim::Int64, Encoding::Fixed));
        assert!(matches!(ty(4), Type::List { elem_ref: true, .. }));
        assert!(m.fields[6].optional);
        assert_eq!(ty(7), Type::Prim(Prim::Timestamp, Encoding::Default));
        assert_eq!(ty(8), Type::Prim(Prim::Int64, Encoding::Tagged));
        // the oneof: a nested union and a nullable field numbered as its smallest case
        assert_eq!(m.unions[0].name, "PayMethod");
        let f = m.fields.last().unwrap();
        assert_eq!(
            (f.name.as_str(), f.number, f.optional),
            ("pay_method", 10, true)
        );
        assert_eq!(s.services[0].methods[0].response, "demo.shop.Order");
    }

    #[test]
    fn errors_name_the_place() {
        let e = parse("syntax = \"proto2\";", Path::new("a.proto")).unwrap_err();
        assert!(
            e.to_string().starts_with("a.proto:1:18: only proto3"),
            "{e}"
        );
        let e = parse(
            "syntax = \"proto3\";\nmessage M {\n  string s 1;\n}",
            Path::new("a.proto"),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.proto:3:12: expected `=` after the field name, found the number 1"
        );
    }
}
