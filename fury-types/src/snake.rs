//! The snake_case form of field names that the peers sort, fingerprint and match fields by.
//!
//! One copy for the runtime and the derive.

/// Converts a field name to snake_case as the peers do: an upper-case letter starts a new word
/// after a lower-case letter or a digit, or after an upper-case letter when a lower-case
/// letter follows (`HTTPServer` -> `http_server`); trailing underscores are dropped.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let after_word = prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
            let after_upper = prev.is_some_and(|p| p.is_uppercase());
            if !out.is_empty() && !out.ends_with('_') && (after_word || (after_upper && next_lower))
            {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out.trim_end_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn snake_case_matches_the_peers() {
        for (input, want) in [
            ("myField", "my_field"),
            ("MyHTTPServer2", "my_http_server2"),
            ("already_snake", "already_snake"),
            ("ABC", "abc"),
            ("userID", "user_id"),
            ("x1Y", "x1_y"),
            ("trailing_", "trailing"),
            ("_private", "_private"),
            ("_0", "_0"),
        ] {
            assert_eq!(snake_case(input), want, "{input}");
        }
    }
}
