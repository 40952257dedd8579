// What a model's server answers: the chat-completions body, then the text in it as each of
// VisionDroid's three agents reads it (the Explorer, the Monitor and the Detector).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "llm/chat.h"
#include "vision/agents.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto answer = roam::llm::ParseResponse(text);
  const std::string_view content = answer.ok() ? std::string_view(answer->content) : text;
  (void)roam::vision::FirstJsonObject(content);
  (void)roam::vision::ParseExplorerAnswer(content, 12);
  (void)roam::vision::ParseMonitorAnswer(content, 6);
  (void)roam::vision::ParseDetectorAnswer(content);
  return 0;
}
