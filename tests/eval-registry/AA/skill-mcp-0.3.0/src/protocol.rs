// protocol module - TODO: Implement
