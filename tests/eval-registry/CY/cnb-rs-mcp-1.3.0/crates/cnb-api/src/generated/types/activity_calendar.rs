use super::ActivityCalendarDate;
use std::collections::HashMap;

/// `ActivityCalendar`
pub type ActivityCalendar = HashMap<String, ActivityCalendarDate>;
