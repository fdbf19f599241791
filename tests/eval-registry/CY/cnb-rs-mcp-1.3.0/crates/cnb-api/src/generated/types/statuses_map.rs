use super::StatusGroup;
use std::collections::HashMap;

/// `StatusesMap`
pub type StatusesMap = HashMap<String, Vec<StatusGroup>>;
