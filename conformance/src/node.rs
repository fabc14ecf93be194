//! Typed JSON nodes (the vectors' expected values) to `fury::Value`.
//!
//! This conversion is written from the node grammar alone and does not use the crate's
//! decoder, so comparing its output with a decoded stream checks the decoder.

use fury::{Date, Duration, Timestamp, Value, BF16, F16};
use serde_json::Value as Json;

type R<T> = Result<T, String>;

fn int_str(node: &Json, key: &str) -> R<i128> {
    let s = node[key]
        .as_str()
        .ok_or_else(|| format!("node {node} has no decimal string {key:?}"))?;
    s.parse::<i128>().map_err(|e| format!("{s:?}: {e}"))
}

fn fit<T: TryFrom<i128>>(v: i128) -> R<T> {
    T::try_from(v).map_err(|_| format!("{v} out of range for {}", std::any::type_name::<T>()))
}

fn bits_of(s: &Json) -> R<u64> {
    let s = s
        .as_str()
        .ok_or_else(|| format!("float bits {s} is not a string"))?;
    u64::from_str_radix(s, 16).map_err(|e| format!("bits {s:?}: {e}"))
}

fn items(node: &Json, key: &str) -> R<Vec<Json>> {
    node[key]
        .as_array()
        .cloned()
        .ok_or_else(|| format!("node {node} has no array {key:?}"))
}

fn int_items<T: TryFrom<i128>>(node: &Json) -> R<Vec<T>> {
    items(node, "values")?
        .iter()
        .map(|x| {
            let s = x
                .as_str()
                .ok_or_else(|| format!("array value {x} is not a string"))?;
            fit(s.parse::<i128>().map_err(|e| format!("{s:?}: {e}"))?)
        })
        .collect()
}

fn bit_items(node: &Json) -> R<Vec<u64>> {
    items(node, "bits")?.iter().map(bits_of).collect()
}

/// Converts an expected-value node into the `Value` the decoder should produce.
pub fn node_to_value(node: &Json) -> R<Value> {
    let ty = node["type"]
        .as_str()
        .ok_or_else(|| format!("node without type: {node}"))?;
    let i = || int_str(node, "value");
    Ok(match ty {
        "null" => Value::Null,
        "ref" => Value::Ref(
            node["id"]
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| format!("ref node {node}"))?,
        ),
        "bool" => Value::Bool(
            node["value"]
                .as_bool()
                .ok_or_else(|| format!("bool node {node}"))?,
        ),
        "int8" => Value::Int8(fit(i()?)?),
        "int16" => Value::Int16(fit(i()?)?),
        "int32" => Value::Int32(fit(i()?)?),
        "varint32" => Value::VarInt32(fit(i()?)?),
        "int64" => Value::Int64(fit(i()?)?),
        "varint64" => Value::VarInt64(fit(i()?)?),
        "tagged_int64" => Value::TaggedInt64(fit(i()?)?),
        "uint8" => Value::UInt8(fit(i()?)?),
        "uint16" => Value::UInt16(fit(i()?)?),
        "uint32" => Value::UInt32(fit(i()?)?),
        "var_uint32" => Value::VarUInt32(fit(i()?)?),
        "uint64" => Value::UInt64(fit(i()?)?),
        "var_uint64" => Value::VarUInt64(fit(i()?)?),
        "tagged_uint64" => Value::TaggedUInt64(fit(i()?)?),
        "float16" => Value::Float16(F16(bits_of(&node["bits"])? as u16)),
        "bfloat16" => Value::BFloat16(BF16(bits_of(&node["bits"])? as u16)),
        "float32" => Value::Float32(f32::from_bits(bits_of(&node["bits"])? as u32)),
        "float64" => Value::Float64(f64::from_bits(bits_of(&node["bits"])?)),
        "string" => Value::String(
            node["value"]
                .as_str()
                .ok_or_else(|| format!("string node {node}"))?
                .to_string(),
        ),
        "binary" => {
            let h = node["hex"]
                .as_str()
                .ok_or_else(|| format!("binary node {node}"))?;
            Value::Binary(crate::hex_decode(h)?)
        }
        "duration" => {
            let nanos = node["nanos"].as_u64().ok_or("duration nanos")? as u32;
            Value::Duration(Duration::new(fit(int_str(node, "seconds")?)?, nanos).ok_or("nanos")?)
        }
        "timestamp" => {
            let nanos = node["nanos"].as_u64().ok_or("timestamp nanos")? as u32;
            Value::Timestamp(Timestamp::new(fit(int_str(node, "seconds")?)?, nanos).ok_or("nanos")?)
        }
        "date" => Value::Date(Date::from_days(node["days"].as_i64().ok_or("date days")?)),
        "list" => Value::List(
            items(node, "items")?
                .iter()
                .map(node_to_value)
                .collect::<R<_>>()?,
        ),
        "set" => Value::Set(
            items(node, "items")?
                .iter()
                .map(node_to_value)
                .collect::<R<_>>()?,
        ),
        "map" => Value::Map(
            items(node, "entries")?
                .iter()
                .map(|e| {
                    let pair = e.as_array().filter(|p| p.len() == 2).ok_or("map entry")?;
                    Ok((node_to_value(&pair[0])?, node_to_value(&pair[1])?))
                })
                .collect::<R<_>>()?,
        ),
        "bool_array" => Value::BoolArray(
            items(node, "values")?
                .iter()
                .map(|b| b.as_bool().ok_or_else(|| format!("bool item {b}")))
                .collect::<R<_>>()?,
        ),
        "int8_array" => Value::Int8Array(int_items(node)?),
        "int16_array" => Value::Int16Array(int_items(node)?),
        "int32_array" => Value::Int32Array(int_items(node)?),
        "int64_array" => Value::Int64Array(int_items(node)?),
        "uint8_array" => Value::UInt8Array(int_items(node)?),
        "uint16_array" => Value::UInt16Array(int_items(node)?),
        "uint32_array" => Value::UInt32Array(int_items(node)?),
        "uint64_array" => Value::UInt64Array(int_items(node)?),
        "float16_array" => Value::Float16Array(
            bit_items(node)?
                .into_iter()
                .map(|b| F16(b as u16))
                .collect(),
        ),
        "bfloat16_array" => Value::BFloat16Array(
            bit_items(node)?
                .into_iter()
                .map(|b| BF16(b as u16))
                .collect(),
        ),
        "float32_array" => Value::Float32Array(
            bit_items(node)?
                .into_iter()
                .map(|b| f32::from_bits(b as u32))
                .collect(),
        ),
        "float64_array" => {
            Value::Float64Array(bit_items(node)?.into_iter().map(f64::from_bits).collect())
        }
        other => return Err(format!("unknown node type {other:?}")),
    })
}
