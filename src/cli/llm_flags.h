// The flags that name a model behind an OpenAI-compatible API (llm::ClientOptions), shared by
// `roam vision` and `roam bench --strategies vision`. Thread-compatible.
#pragma once

#include <CLI/CLI.hpp>

#include "llm/chat.h"

namespace roam::cli {

// --llm-url, --llm-model, --llm-key-env, --llm-timeout, --llm-retries, --llm-max-requests, in
// the group "Model". Returns the --llm-url option.
CLI::Option* AddLlmFlags(CLI::App& app, llm::ClientOptions& llm);

}  // namespace roam::cli
