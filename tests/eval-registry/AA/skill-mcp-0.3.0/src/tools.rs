// tools module - TODO: Implement
