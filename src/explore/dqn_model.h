// explore/dqn_model: the DQN model file (`roam train` writes it, `--strategy dqn` reads it), in
// the envelope of every Roam model file (model/envelope.h, magic "ROAMDQNM", version 1), so a
// truncated, corrupt or foreign file is refused with its path and the fault. Payload: u32 length
// and a JSON object (the input shape, the word vectors the network was trained with, what it was
// trained on), then the network's weights as the network library writes them. Plain functions;
// thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "explore/dqn_graph.h"

namespace roam::explore {

constexpr uint32_t kDqnModelVersion = 1;

struct DqnModelMeta {
  DqnShape shape;
  uint64_t vectors_fingerprint = 0;  // WordVectors::fingerprint of the training vectors
  int64_t trained_events = 0;        // events it has learned from, over all runs
  std::vector<std::string> apps;     // the apps it was trained on, in order (at most 1,000)
};

struct DqnModel {
  DqnModelMeta meta;
  std::string weights;
};

std::string EncodeDqnModel(const DqnModelMeta& meta, std::string_view weights);
// `source` names the bytes in errors.
Result<DqnModel> DecodeDqnModel(std::string_view bytes, const std::string& source);
// Through a temporary file and a rename.
Status SaveDqnModel(const DqnModelMeta& meta, std::string_view weights,
                    const std::filesystem::path& path);
// NotFound when `path` does not exist; the other faults as DecodeDqnModel.
Result<DqnModel> LoadDqnModel(const std::filesystem::path& path);

// The model shipped inside the binary (data/dqn/model.bin at build time); empty when the build
// had none.
std::string_view ShippedDqnModel();

}  // namespace roam::explore
