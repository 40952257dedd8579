#include "explore/dqn_model.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "gui/abstraction.h"
#include "model/envelope.h"

namespace roam::explore {

namespace {

constexpr model::Envelope kEnvelope{
    .magic = "ROAMDQNM", .version = kDqnModelVersion, .what = "Roam DQN model"};

}  // namespace

std::string EncodeDqnModel(const DqnModelMeta& meta, std::string_view weights) {
  nlohmann::json j = {{"words", meta.shape.words},
                      {"dim", meta.shape.dim},
                      {"generations", meta.shape.generations},
                      {"histogram", meta.shape.histogram},
                      {"vectors", gui::KeyHex(meta.vectors_fingerprint)},
                      {"trained_events", meta.trained_events},
                      {"apps", meta.apps}};
  std::string text = j.dump();
  std::string payload;
  model::PutU32(payload, static_cast<uint32_t>(text.size()));
  payload += text;
  payload += weights;
  return model::Seal(kEnvelope, payload);
}

Result<DqnModel> DecodeDqnModel(std::string_view bytes, const std::string& source) {
  auto payload = model::Unseal(kEnvelope, bytes, source);
  if (!payload.ok()) return payload.status();
  auto fail = [&](const std::string& what) {
    return Status::Corruption(fmt::format("{}: corrupt: {}", source, what));
  };
  if (payload->size() < 4) return fail("no header in the payload");
  uint64_t length = model::GetLe(payload->data(), 4);
  if (length > payload->size() - 4) return fail("the header runs past the payload");
  auto header = ParseJson(std::string(payload->substr(4, length)), source + ": header");
  if (!header.ok()) return fail(header.status().message());
  DqnModel m;
  try {
    const nlohmann::json& j = *header;
    m.meta.shape.words = j.at("words").get<int>();
    m.meta.shape.dim = j.at("dim").get<int>();
    m.meta.shape.generations = j.at("generations").get<int>();
    m.meta.shape.histogram = j.at("histogram").get<int>();
    m.meta.vectors_fingerprint = std::stoull(j.at("vectors").get<std::string>(), nullptr, 16);
    m.meta.trained_events = j.at("trained_events").get<int64_t>();
    m.meta.apps = j.at("apps").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    return fail(fmt::format("the header is not the expected JSON: {}", e.what()));
  }
  const DqnShape& s = m.meta.shape;
  if (!s.InBounds())
    return fail(
        fmt::format("an input shape out of range (words {}, dim {}, generations {}, "
                    "histogram {})",
                    s.words, s.dim, s.generations, s.histogram));
  m.weights = std::string(payload->substr(4 + length));
  if (m.weights.empty()) return fail("no weights after the header");
  return m;
}

Status SaveDqnModel(const DqnModelMeta& meta, std::string_view weights,
                    const std::filesystem::path& path) {
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
  }
  return WriteFileAtomic(path, EncodeDqnModel(meta, weights));
}

Result<DqnModel> LoadDqnModel(const std::filesystem::path& path) {
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  return DecodeDqnModel(*bytes, path.string());
}

}  // namespace roam::explore
