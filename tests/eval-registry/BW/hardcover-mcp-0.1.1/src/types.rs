//! Domain enums shared across tools, mapping LLM-friendly string values to the
//! integer ids the Hardcover GraphQL API expects.

/// Reading status for a book in the user's library.
///
/// String values are what tool parameters accept; integer ids are what the API
/// stores in `status_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    WantToRead,
    CurrentlyReading,
    Read,
    Paused,
    Dnf,
    Ignored,
}

impl Status {
    /// All valid string values, in id order, for error messages.
    const VALID: &'static [&'static str] = &[
        "want_to_read",
        "currently_reading",
        "read",
        "paused",
        "dnf",
        "ignored",
    ];

    /// Parse a status from its string value. Errors list the valid values.
    pub fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "want_to_read" => Ok(Status::WantToRead),
            "currently_reading" => Ok(Status::CurrentlyReading),
            "read" => Ok(Status::Read),
            "paused" => Ok(Status::Paused),
            "dnf" => Ok(Status::Dnf),
            "ignored" => Ok(Status::Ignored),
            other => Err(format!(
                "invalid status '{}', valid values are: {}",
                other,
                Self::VALID.join(", ")
            )),
        }
    }

    /// The Hardcover `status_id` for this status.
    pub fn to_id(self) -> i64 {
        match self {
            Status::WantToRead => 1,
            Status::CurrentlyReading => 2,
            Status::Read => 3,
            Status::Paused => 4,
            Status::Dnf => 5,
            Status::Ignored => 6,
        }
    }

    /// Map a Hardcover `status_id` back to a status.
    pub fn from_id(id: i64) -> Result<Self, String> {
        match id {
            1 => Ok(Status::WantToRead),
            2 => Ok(Status::CurrentlyReading),
            3 => Ok(Status::Read),
            4 => Ok(Status::Paused),
            5 => Ok(Status::Dnf),
            6 => Ok(Status::Ignored),
            other => Err(format!("unknown status id: {}", other)),
        }
    }

    /// The string value for this status.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::WantToRead => "want_to_read",
            Status::CurrentlyReading => "currently_reading",
            Status::Read => "read",
            Status::Paused => "paused",
            Status::Dnf => "dnf",
            Status::Ignored => "ignored",
        }
    }
}

/// Privacy setting for library entries, lists, and journal entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Privacy {
    Public,
    Followers,
    Private,
}

impl Privacy {
    /// All valid string values, in id order, for error messages.
    const VALID: &'static [&'static str] = &["public", "followers", "private"];

    /// Parse a privacy setting from its string value. Errors list the valid values.
    pub fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "public" => Ok(Privacy::Public),
            "followers" => Ok(Privacy::Followers),
            "private" => Ok(Privacy::Private),
            other => Err(format!(
                "invalid privacy '{}', valid values are: {}",
                other,
                Self::VALID.join(", ")
            )),
        }
    }

    /// The Hardcover `privacy_setting_id` for this setting.
    pub fn to_id(self) -> i64 {
        match self {
            Privacy::Public => 1,
            Privacy::Followers => 2,
            Privacy::Private => 3,
        }
    }

    /// Map a Hardcover `privacy_setting_id` back to a privacy setting.
    pub fn from_id(id: i64) -> Result<Self, String> {
        match id {
            1 => Ok(Privacy::Public),
            2 => Ok(Privacy::Followers),
            3 => Ok(Privacy::Private),
            other => Err(format!("unknown privacy id: {}", other)),
        }
    }

    /// The string value for this privacy setting.
    pub fn as_str(self) -> &'static str {
        match self {
            Privacy::Public => "public",
            Privacy::Followers => "followers",
            Privacy::Private => "private",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_roundtrip_string() {
        for s in Status::VALID {
            let status = Status::from_str(s).unwrap();
            assert_eq!(status.as_str(), *s);
        }
    }

    #[test]
    fn status_roundtrip_id() {
        for id in 1..=6 {
            let status = Status::from_id(id).unwrap();
            assert_eq!(status.to_id(), id);
        }
    }

    #[test]
    fn status_ids_match_spec() {
        assert_eq!(Status::WantToRead.to_id(), 1);
        assert_eq!(Status::CurrentlyReading.to_id(), 2);
        assert_eq!(Status::Read.to_id(), 3);
        assert_eq!(Status::Paused.to_id(), 4);
        assert_eq!(Status::Dnf.to_id(), 5);
        assert_eq!(Status::Ignored.to_id(), 6);
    }

    #[test]
    fn status_from_str_error_lists_valid_values() {
        let err = Status::from_str("nope").unwrap_err();
        assert!(err.contains("want_to_read"));
        assert!(err.contains("currently_reading"));
        assert!(err.contains("ignored"));
    }

    #[test]
    fn status_from_id_rejects_unknown() {
        assert!(Status::from_id(0).is_err());
        assert!(Status::from_id(7).is_err());
    }

    #[test]
    fn privacy_roundtrip_string() {
        for s in Privacy::VALID {
            let privacy = Privacy::from_str(s).unwrap();
            assert_eq!(privacy.as_str(), *s);
        }
    }

    #[test]
    fn privacy_roundtrip_id() {
        for id in 1..=3 {
            let privacy = Privacy::from_id(id).unwrap();
            assert_eq!(privacy.to_id(), id);
        }
    }

    #[test]
    fn privacy_ids_match_spec() {
        assert_eq!(Privacy::Public.to_id(), 1);
        assert_eq!(Privacy::Followers.to_id(), 2);
        assert_eq!(Privacy::Private.to_id(), 3);
    }

    #[test]
    fn privacy_from_str_error_lists_valid_values() {
        let err = Privacy::from_str("secret").unwrap_err();
        assert!(err.contains("public"));
        assert!(err.contains("followers"));
        assert!(err.contains("private"));
    }

    #[test]
    fn privacy_from_id_rejects_unknown() {
        assert!(Privacy::from_id(0).is_err());
        assert!(Privacy::from_id(4).is_err());
    }
}
