"""Pure decoding algorithms (numpy only; never imports the engine, ggml or llama_cpp)."""
