// JSON file utilities — reserved for future diff/merge operations
// Current JSON read/write is in store/mod.rs
