#include "cli/llm_flags.h"

#include "cli/flags.h"

namespace roam::cli {

CLI::Option* AddLlmFlags(CLI::App& app, llm::ClientOptions& l) {
  auto* url = app.add_option("--llm-url", l.url,
                             "the model's OpenAI-compatible API base, e.g. "
                             "http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:8080/v1 "
                             "(llama.cpp's server)")
                  ->group("Model");
  app.add_option("--llm-model", l.model, "the model's name on that server, e.g. llava")
      ->group("Model");
  app.add_option("--llm-key-env", l.key_env,
                 "the environment variable holding the API key (never written to the run "
                 "folder; unset: no key sent)")
      ->capture_default_str()
      ->group("Model");
  app.add_option("--llm-timeout", l.timeout_seconds, "seconds per request")
      ->check(Positive())
      ->capture_default_str()
      ->group("Model");
  app.add_option("--llm-retries", l.retries, "retries after a 429, a 5xx or a network fault")
      ->check(NonNegative())
      ->capture_default_str()
      ->group("Model");
  app.add_option("--llm-max-requests", l.max_requests, "requests at most per run (0: no cap)")
      ->check(NonNegative())
      ->capture_default_str()
      ->group("Model");
  return url;
}

}  // namespace roam::cli
