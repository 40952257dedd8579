// Small file helpers: whole-file read, atomic write (temp name then rename, so a reader never
// sees half a file), JSON read with line:column in errors. Thread-safe (no shared state).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace roam {

// Files read from outside are capped: a model, a recording or a spec is far smaller.
constexpr size_t kMaxInputBytes = size_t{1} << 30;

// Only a regular file (or a symlink to one) is read: a FIFO, a device or a socket is refused
// with what it is, so /dev/zero or a pipe cannot hang or flood a reader; so is one larger than
// `max_bytes`.
Result<std::string> ReadFile(const std::filesystem::path& path, size_t max_bytes = kMaxInputBytes);
// An output may be written over only where nothing or a regular file is: a symlink, a device, a
// FIFO or a folder there is refused, naming it (as root, `--junit /dev/null` would otherwise
// replace /dev/null).
Status CheckOutputPath(const std::filesystem::path& path);
// The folder `path` is to be written into exists (checked before a long run, not found missing
// at its end).
Status CheckOutputFolder(const std::filesystem::path& path);
// Refuses `output` when it is the same file as one of `inputs` (an existing file; paths that
// do not exist yet are none): the output would replace what the command reads.
Status CheckNotAnInput(const std::filesystem::path& output,
                       const std::vector<std::filesystem::path>& inputs);
// `file` relative to `folder` when it lies in `folder` or below (both as they resolve, links
// followed; neither need exist); nullopt when it lies elsewhere.
std::optional<std::filesystem::path> PathInside(const std::filesystem::path& file,
                                                const std::filesystem::path& folder);
// Through CheckOutputPath first.
Status WriteFileAtomic(const std::filesystem::path& path, const std::string& content);
// Writes `value` as indented JSON, atomically. Text that is not UTF-8 is written as U+FFFD,
// never thrown about (text from outside is made valid where it enters; this is the last guard).
Status WriteJsonFile(const std::filesystem::path& path, const nlohmann::json& value);
// One line of JSON, with the same guard.
std::string JsonLine(const nlohmann::json& value);
// JSON nested deeper than this is refused before it is parsed: every reader, writer and
// destructor of a JSON value recurses once a level.
constexpr int kMaxJsonDepth = 256;
// Parses JSON; errors name the file and the line:column of the fault.
Result<nlohmann::json> ParseJson(const std::string& text, const std::string& source_name);
Result<nlohmann::json> ReadJsonFile(const std::filesystem::path& path);
// "did you mean" helper: the closest candidate within a small edit distance, or "".
std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates);
// ` (did you mean "x"?)` for the closest candidate, or "" when none is close.
std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates);
size_t EditDistance(const std::string& a, const std::string& b);

}  // namespace roam
