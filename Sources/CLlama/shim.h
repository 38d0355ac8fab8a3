// llama.cpp's C API, from the headers llama-cpp-python installs into the project venv.
// Only Sources/StudyKit/Engines/LlamaEngine.swift imports this module, and only when the
// `LlamaCpp` package trait is enabled (scripts/setup generates the pkg-config file it needs).
#include <llama.h>
