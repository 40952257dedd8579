// A Fastbot model file, as `--model DIR` loads it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto model = roam::model::DecodeModel(bytes, "model.bin", "org.app");
  if (model.ok()) (void)roam::model::EncodeModel(*model);
  return 0;
}
