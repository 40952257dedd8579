// A DQN model file, as `--dqn-model FILE` loads it: the envelope and its JSON header, then the
// check of the network's weights archive that runs before libtorch sees it.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "explore/dqn_model.h"
#include "net/stored_tensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The tensors' bytes of the network of the default shape (data/dqn/model.bin's).
  static const std::vector<uint64_t> kExpected = {76800, 256, 64,   64,  3840, 128,
                                                  28672, 256, 8192, 128, 128,  4};
  auto model = roam::explore::DecodeDqnModel(bytes, "model.bin");
  (void)roam::net::CheckStoredTensors(model.ok() ? std::string_view(model->weights) : bytes,
                                      kExpected);
  return 0;
}
