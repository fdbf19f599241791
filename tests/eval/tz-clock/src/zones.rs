//! Time-zone parsing with suggestions.

use chrono_tz::{Tz, TZ_VARIANTS};

pub fn parse_tz(name: &str) -> Result<Tz, String> {
    if let Ok(tz) = name.parse::<Tz>() {
        return Ok(tz);
    }
    let needle = name.to_ascii_lowercase().replace(' ', "_");
    let suggestions: Vec<&str> = TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter(|n| n.to_ascii_lowercase().contains(&needle))
        .take(5)
        .collect();
    if suggestions.is_empty() {
        Err(format!(
            "unknown time zone {name:?}; use an IANA name such as Europe/Berlin or America/New_York"
        ))
    } else {
        Err(format!(
            "unknown time zone {name:?}; did you mean {}?",
            suggestions.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names() {
        let err = parse_tz("berlin").unwrap_err();
        assert!(err.contains("Europe/Berlin"), "{err}");
        assert!(parse_tz("Asia/Tokyo").is_ok());
    }
}
