#include "base/json_fields.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace roam {

using nlohmann::json;

std::string Excerpt(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  // Do not cut a UTF-8 sequence in two.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string JsonExcerpt(const json& value, size_t max) {
  return Excerpt(value.dump(-1, ' ', false, json::error_handler_t::replace), max);
}

namespace {

// Finds `key` in `object`: null when absent; an error when `object` is not an object.
Status Lookup(const json& object, std::string_view key, std::string_view where,
              const json*& found) {
  found = nullptr;
  if (!object.is_object())
    return Status::Corruption(
        fmt::format("{}: expected an object, got {}", where, JsonExcerpt(object)));
  auto it = object.find(std::string(key));
  if (it != object.end()) found = &*it;
  return Status::Ok();
}

Status WrongType(std::string_view where, std::string_view key, std::string_view expected,
                 const json& got) {
  return Status::Corruption(
      fmt::format("{}.{}: expected {}, got {}", where, key, expected, JsonExcerpt(got)));
}

template <typename Int>
Status ReadInteger(const json& object, std::string_view key, Int& out, std::string_view where,
                   std::string_view expected) {
  const json* v = nullptr;
  ROAM_RETURN_IF_ERROR(Lookup(object, key, where, v));
  if (!v) return Status::Ok();
  if (v->is_number_unsigned()) {
    uint64_t u = v->get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<Int>::max())) {
      out = static_cast<Int>(u);
      return Status::Ok();
    }
  } else if (v->is_number_integer() && std::numeric_limits<Int>::is_signed) {
    int64_t i = v->get<int64_t>();
    if (i >= static_cast<int64_t>(std::numeric_limits<Int>::min()) &&
        i <= static_cast<int64_t>(std::numeric_limits<Int>::max())) {
      out = static_cast<Int>(i);
      return Status::Ok();
    }
  }
  return WrongType(where, key, expected, *v);
}

}  // namespace

Status ReadField(const json& object, std::string_view key, std::string& out,
                 std::string_view where) {
  const json* v = nullptr;
  ROAM_RETURN_IF_ERROR(Lookup(object, key, where, v));
  if (!v) return Status::Ok();
  if (!v->is_string()) return WrongType(where, key, "a string", *v);
  out = v->get<std::string>();
  return Status::Ok();
}

Status ReadField(const json& object, std::string_view key, bool& out, std::string_view where) {
  const json* v = nullptr;
  ROAM_RETURN_IF_ERROR(Lookup(object, key, where, v));
  if (!v) return Status::Ok();
  if (!v->is_boolean()) return WrongType(where, key, "true or false", *v);
  out = v->get<bool>();
  return Status::Ok();
}

Status ReadField(const json& object, std::string_view key, int& out, std::string_view where) {
  return ReadInteger(object, key, out, where, "an integer");
}

Status ReadField(const json& object, std::string_view key, int64_t& out, std::string_view where) {
  return ReadInteger(object, key, out, where, "an integer");
}

Status ReadField(const json& object, std::string_view key, uint64_t& out, std::string_view where) {
  return ReadInteger(object, key, out, where, "an unsigned integer");
}

Status ReadField(const json& object, std::string_view key, double& out, std::string_view where) {
  const json* v = nullptr;
  ROAM_RETURN_IF_ERROR(Lookup(object, key, where, v));
  if (!v) return Status::Ok();
  if (!v->is_number() || !std::isfinite(v->get<double>()))
    return WrongType(where, key, "a finite number", *v);
  out = v->get<double>();
  return Status::Ok();
}

Status ReadField(const json& object, std::string_view key, std::vector<std::string>& out,
                 std::string_view where) {
  const json* v = nullptr;
  ROAM_RETURN_IF_ERROR(Lookup(object, key, where, v));
  if (!v) return Status::Ok();
  if (!v->is_array()) return WrongType(where, key, "an array of strings", *v);
  std::vector<std::string> items;
  for (const auto& item : *v) {
    if (!item.is_string()) return WrongType(where, key, "an array of strings", *v);
    items.push_back(item.get<std::string>());
  }
  out = std::move(items);
  return Status::Ok();
}

}  // namespace roam
