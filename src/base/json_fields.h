// Typed reads of JSON objects that come from files (bug.json, config files): a field that is
// present with the wrong type is an error naming where it is ("bug.json: replay.seed: expected
// an unsigned integer, got \"seven\""), never a library exception. An absent field leaves the
// output as it is (its default). Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace roam {

// At most `max` characters of `text`, with "..." when cut: errors quote input, never all of it.
std::string Excerpt(std::string_view text, size_t max = 60);
// A JSON value as an excerpt of its text.
std::string JsonExcerpt(const nlohmann::json& value, size_t max = 60);

// Reads `object[key]` into `out` when present. `where` names the object ("bug.json: replay").
// Not an object: Corruption.
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key, std::string& out,
                               std::string_view where);
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key, bool& out,
                               std::string_view where);
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key, int& out,
                               std::string_view where);
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key, int64_t& out,
                               std::string_view where);
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key, uint64_t& out,
                               std::string_view where);
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key, double& out,
                               std::string_view where);
[[nodiscard]] Status ReadField(const nlohmann::json& object, std::string_view key,
                               std::vector<std::string>& out, std::string_view where);

}  // namespace roam
