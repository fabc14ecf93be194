//! `#[fury(rename_all = "..")]`: serde's case conventions, applied to the field names of a
//! struct (written in `snake_case`) or to the variant names of an enum (written in
//! `PascalCase`).

/// One of serde's case conventions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// The rule serde spells `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// The accepted names, for error messages.
    pub const NAMES: &'static str = "\"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \
        \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\" or \"SCREAMING-KEBAB-CASE\"";

    /// A name made of `words` (lowercase), joined as this rule joins them.
    fn join(self, words: &[String]) -> String {
        let cap = |w: &String| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        };
        match self {
            RenameRule::Lower => words.concat(),
            RenameRule::Upper => words.concat().to_uppercase(),
            RenameRule::Pascal => words.iter().map(cap).collect(),
            RenameRule::Camel => {
                let mut out = words.first().cloned().unwrap_or_default();
                out.extend(words.iter().skip(1).map(cap));
                out
            }
            RenameRule::Snake => words.join("_"),
            RenameRule::ScreamingSnake => words.join("_").to_uppercase(),
            RenameRule::Kebab => words.join("-"),
            RenameRule::ScreamingKebab => words.join("-").to_uppercase(),
        }
    }

    /// A field name (`snake_case` as written) under this rule.
    pub fn field(self, name: &str) -> String {
        let words: Vec<String> = name
            .split('_')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        self.join(&words)
    }

    /// A variant name (`PascalCase` as written) under this rule.
    pub fn variant(self, name: &str) -> String {
        let mut words: Vec<String> = Vec::new();
        for c in name.chars() {
            match words.last_mut() {
                Some(w) if !c.is_uppercase() => w.push(c),
                _ => words.push(c.to_lowercase().collect()),
            }
        }
        self.join(&words)
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn fields_and_variants_follow_serdes_conventions() {
        for (rule, field, variant) in [
            (Lower, "hometown", "instock"),
            (Upper, "HOMETOWN", "INSTOCK"),
            (Pascal, "HomeTown", "InStock"),
            (Camel, "homeTown", "inStock"),
            (Snake, "home_town", "in_stock"),
            (ScreamingSnake, "HOME_TOWN", "IN_STOCK"),
            (Kebab, "home-town", "in-stock"),
            (ScreamingKebab, "HOME-TOWN", "IN-STOCK"),
        ] {
            assert_eq!(rule.field("home_town"), field, "{rule:?}");
            assert_eq!(rule.variant("InStock"), variant, "{rule:?}");
        }
    }
}
