//! Argument checks shared by the tools.

use chrono::{DateTime, NaiveDateTime, Utc};

use crate::error::{AppError, ManifestError};

/// Parses "2026-03-14T06:30" (harbour local time is UTC here) into RFC 3339.
pub fn parse_time(field: &'static str, raw: &str) -> Result<String, AppError> {
    let naive = NaiveDateTime::parse_from_str(raw.trim(), "%Y-%m-%dT%H:%M").map_err(|e| {
        AppError::invalid(field, format!("{raw:?} is not YYYY-MM-DDTHH:MM ({e})"))
    })?;
    let at: DateTime<Utc> = naive.and_utc();
    Ok(at.to_rfc3339())
}

/// IMO numbers are 7 digits whose last digit is a weighted checksum.
pub fn check_imo(imo: &str) -> Result<(), String> {
    let digits: Vec<u32> = imo
        .trim_start_matches("IMO")
        .trim()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    if digits.len() != 7 {
        return Err(format!("IMO number {imo:?} must have 7 digits"));
    }
    let sum: u32 = digits[..6]
        .iter()
        .enumerate()
        .map(|(i, d)| d * (7 - i as u32))
        .sum();
    if sum % 10 != digits[6] {
        return Err(format!("IMO number {imo:?} fails its check digit"));
    }
    Ok(())
}

/// HS codes are 6 digits (chapters 01..97).
pub fn check_hs_code(code: &str) -> Result<(), ManifestError> {
    let ok = code.len() == 6
        && code.chars().all(|c| c.is_ascii_digit())
        && matches!(code[..2].parse::<u8>(), Ok(1..=97));
    if !ok {
        return Err(ManifestError::UnknownHsCode(code.to_string()));
    }
    Ok(())
}

pub fn check_tonnes(tonnes: f64, deck_limit: f64) -> Result<(), ManifestError> {
    if tonnes > deck_limit {
        return Err(ManifestError::Overweight(tonnes));
    }
    Ok(())
}
