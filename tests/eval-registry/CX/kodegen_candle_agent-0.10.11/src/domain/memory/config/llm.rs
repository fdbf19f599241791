// This file is intentionally empty.
// Models are configured through trait implementations, not config structs.
// Any type implementing CandleModel + capability traits (TextToTextCapable, TextEmbeddingCapable, etc.) just works.
