// model/model_file: the Fastbot2 model on disk, so a model learned in one run (or on one version
// of an app) guides the next. Plain functions; thread-safe (no shared state).
//
// Format, version 1 (all integers little-endian):
//   offset 0   8 bytes  magic "ROAMMODL"
//          8   u32      format version (1)
//         12   u32      reserved, 0
//         16   u64      payload length in bytes
//         24   u64      checksum: gui::StableHash of the payload bytes
//         32   payload:
//     str  package                          (str = u32 byte length, then the bytes)
//     u32  activity count, then each activity name (str)
//     u32  dynamic-text slot count, then each slot (u64)
//     u32  hyper-event count, then per hyper-event:
//          u32 activity index, str resource-id, str text, str action kind name ("click"),
//          u32 N(e), f64 Q(e), u32 transition count, then per transition
//          u32 activity index, u32 N(e, A)
// A file is refused (with its path and the fault) when it is shorter than the header or its
// payload, has another magic (not a Roam model), another version, a checksum that does not
// match, a fault inside the payload, or a package other than the expected one.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "base/status.h"
#include "model/model.h"

namespace roam::model {

constexpr uint32_t kModelFormatVersion = 1;

std::string EncodeModel(const Model& model);
// `source` names the bytes in errors (the file path). An empty `package` accepts any.
Result<Model> DecodeModel(std::string_view bytes, const std::string& source,
                          std::string_view package);

// Writes `path` through a temporary file and a rename; a model that DecodeModel would refuse
// (a Q that is not finite) is refused instead of written.
Status SaveModel(const Model& model, const std::filesystem::path& path);
// NotFound when `path` does not exist; the other faults as DecodeModel.
Result<Model> LoadModel(const std::filesystem::path& path, std::string_view package);

}  // namespace roam::model
