//! The untyped-field vectors (group `any`, `conformance/vectors/any/`) through the mirrors
//! of `fury_conformance::any`: `Box<dyn AnyObject>` fields, and `Rc<dyn AnyObject>` where
//! reference tracking shares a value.
//!
//! * `decode`: reads the bytes as the root's Rust type and answers the node of the concrete
//!   types read (`Root::to_node`; shared `Rc`s as `ref` nodes);
//! * `encode`: builds the Rust value from the request's node (`Root::from_node`) and writes it;
//! * `roundtrip`: reads and writes the Rust type.

use fury::Fury;
use fury_conformance::any::{fury_for, Root};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};
use std::collections::HashMap;

/// One Fury per settings (same-schema or compatible, with or without reference tracking).
#[derive(Default)]
pub struct AnyMirrors {
    forys: std::cell::RefCell<HashMap<(bool, bool), std::rc::Rc<Fury>>>,
}

impl AnyMirrors {
    fn fury(&self, settings: &Json) -> std::rc::Rc<Fury> {
        let key = (settings["ref"] == true, settings["compatible"] == true);
        self.forys
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| std::rc::Rc::new(fury_for(settings)))
            .clone()
    }

    /// The answer to a request of the group `any`; `None` for the other groups.
    pub fn handle(&self, req: &Json) -> Option<Result<Json, String>> {
        if req["group"] != "any" {
            return None;
        }
        Some(self.answer(req))
    }

    fn answer(&self, req: &Json) -> Result<Json, String> {
        let fury = self.fury(&req["settings"]);
        let refs = req["settings"]["ref"] == true;
        let schema = req["schema"].as_str().unwrap_or("");
        let read = || {
            Root::read(
                &fury,
                schema,
                refs,
                &hex_decode(req["hex"].as_str().unwrap_or(""))?,
            )
        };
        match req["op"].as_str().unwrap_or("") {
            "decode" => Ok(json!({ "value": read()?.to_node(refs)? })),
            "roundtrip" => Ok(json!({ "hex": hex_encode(&read()?.write(&fury)?) })),
            "encode" => {
                let root = Root::from_node(schema, refs, &req["value"])?;
                Ok(json!({ "hex": hex_encode(&root.write(&fury)?) }))
            }
            other => Err(format!("unknown op {other:?}")),
        }
    }
}
