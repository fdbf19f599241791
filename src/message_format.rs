//! `--message-format`, with cargo's values and rules: `human`, `short`, `json`, and the `json-*`
//! modifiers (`json-diagnostic-short`, `json-diagnostic-rendered-ansi`, `json-render-diagnostics`),
//! comma-separated or repeated. A `json-*` value implies `json`; `human` and `short` do not mix
//! with them.

use crate::cli::Format;

/// What `--message-format` asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MessageFormat {
    /// Our `--format` decides (the default).
    #[default]
    Human,
    /// One line per finding (`--format concise`).
    Short,
    /// One cargo `compiler-message` line per finding, then `build-finished`.
    Json(JsonOptions),
}

/// The `json-*` modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonOptions {
    /// `rendered` holds the one-line form (`json-diagnostic-short`).
    pub short: bool,
    /// `rendered` carries ANSI colours (`json-diagnostic-rendered-ansi`).
    pub ansi: bool,
    /// Findings are rendered to stderr instead of printed as JSON (`json-render-diagnostics`).
    pub render_diagnostics: bool,
}

/// The values cargo accepts, for help and errors.
pub const VALUES: [&str; 6] = [
    "human",
    "short",
    "json",
    "json-diagnostic-short",
    "json-diagnostic-rendered-ansi",
    "json-render-diagnostics",
];

impl MessageFormat {
    pub fn is_json(self) -> bool {
        matches!(self, MessageFormat::Json(_))
    }

    /// Combine every `--message-format` occurrence (each may be a comma-separated list).
    pub fn combine<S: AsRef<str>>(values: &[S]) -> Result<MessageFormat, String> {
        let mut plain: Option<&str> = None;
        let mut json: Option<JsonOptions> = None;
        for value in values {
            for item in value.as_ref().split(',').map(str::trim) {
                match item {
                    "human" | "short" => {
                        if json.is_some() || plain.is_some_and(|p| p != item) {
                            return Err(conflict());
                        }
                        plain = Some(if item == "human" { "human" } else { "short" });
                    }
                    "json"
                    | "json-diagnostic-short"
                    | "json-diagnostic-rendered-ansi"
                    | "json-render-diagnostics" => {
                        if plain.is_some() {
                            return Err(conflict());
                        }
                        let options = json.get_or_insert_with(JsonOptions::default);
                        match item {
                            "json-diagnostic-short" => options.short = true,
                            "json-diagnostic-rendered-ansi" => options.ansi = true,
                            "json-render-diagnostics" => options.render_diagnostics = true,
                            _ => {}
                        }
                    }
                    other => {
                        return Err(format!(
                            "invalid message format `{other}` (expected one of: {})",
                            VALUES.join(", ")
                        ))
                    }
                }
            }
        }
        Ok(match (plain, json) {
            (_, Some(options)) => MessageFormat::Json(options),
            (Some("short"), None) => MessageFormat::Short,
            _ => MessageFormat::Human,
        })
    }

    /// The `--message-format` value that asks cargo for the same output.
    pub fn cargo_value(self) -> String {
        match self {
            MessageFormat::Human => "human".into(),
            MessageFormat::Short => "short".into(),
            MessageFormat::Json(o) => {
                let mut parts = vec!["json"];
                if o.short {
                    parts.push("json-diagnostic-short");
                }
                if o.ansi {
                    parts.push("json-diagnostic-rendered-ansi");
                }
                if o.render_diagnostics {
                    parts.push("json-render-diagnostics");
                }
                parts.join(",")
            }
        }
    }

    /// The `--format` to use for non-JSON output; `given` is `--format`.
    pub fn report_format(self, given: Format) -> Result<Format, String> {
        match self {
            MessageFormat::Human => Ok(given),
            MessageFormat::Short if matches!(given, Format::Human | Format::Concise) => {
                Ok(Format::Concise)
            }
            MessageFormat::Json(_) if given == Format::Human => Ok(given),
            _ => Err(format!(
                "`--format {}` cannot be combined with `--message-format={}`",
                format_name(given),
                self.cargo_value()
            )),
        }
    }
}

fn format_name(format: Format) -> String {
    use clap::ValueEnum;
    format
        .to_possible_value()
        .map_or_else(|| format!("{format:?}"), |v| v.get_name().to_string())
}

fn conflict() -> String {
    "`--message-format` cannot mix `human` or `short` with each other or with `json`".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(short: bool, ansi: bool, render_diagnostics: bool) -> MessageFormat {
        MessageFormat::Json(JsonOptions {
            short,
            ansi,
            render_diagnostics,
        })
    }

    #[test]
    fn values_combine_like_cargo() {
        let none: [&str; 0] = [];
        assert_eq!(MessageFormat::combine(&none), Ok(MessageFormat::Human));
        assert_eq!(MessageFormat::combine(&["short"]), Ok(MessageFormat::Short));
        assert_eq!(
            MessageFormat::combine(&["json"]),
            Ok(json(false, false, false))
        );
        assert_eq!(
            MessageFormat::combine(&["json-diagnostic-rendered-ansi"]),
            Ok(json(false, true, false))
        );
        assert_eq!(
            MessageFormat::combine(&["json,json-diagnostic-short", "json-render-diagnostics"]),
            Ok(json(true, false, true))
        );
        assert!(MessageFormat::combine(&["json", "human"]).is_err());
        assert!(MessageFormat::combine(&["short,json"]).is_err());
        assert!(MessageFormat::combine(&["human", "short"]).is_err());
        let err = MessageFormat::combine(&["jsno"]).unwrap_err();
        assert!(err.contains("`jsno`") && err.contains("json-diagnostic-rendered-ansi"));
    }

    #[test]
    fn cargo_value_round_trips() {
        for f in [
            MessageFormat::Human,
            MessageFormat::Short,
            json(false, false, false),
            json(true, true, true),
        ] {
            assert_eq!(MessageFormat::combine(&[f.cargo_value()]), Ok(f));
        }
    }

    #[test]
    fn format_and_message_format_must_agree() {
        assert_eq!(
            MessageFormat::Human.report_format(Format::Json),
            Ok(Format::Json)
        );
        assert_eq!(
            MessageFormat::Short.report_format(Format::Human),
            Ok(Format::Concise)
        );
        let err = json(false, false, false)
            .report_format(Format::Json)
            .unwrap_err();
        assert_eq!(
            err,
            "`--format json` cannot be combined with `--message-format=json`"
        );
    }
}
