// SQLite-specific utilities and migrations
// Currently all in mod.rs — this module reserved for future FTS5 + sqlite-vec extensions
