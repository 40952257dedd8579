// Val: the runtime value of a simulated app's variables, list item fields and typed texts
// (null, bool, integer or string), with the comparison and text rules of docs/app-spec.md.
// Value type, thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace roam::sim {

struct Val {
  enum class Type : uint8_t { kNull, kBool, kInt, kString };
  Type type = Type::kNull;
  int64_t i = 0;  // kBool (0/1) and kInt
  std::string s;  // kString

  static Val Bool(bool b) { return {Type::kBool, b ? 1 : 0, {}}; }
  static Val Int(int64_t v) { return {Type::kInt, v, {}}; }
  static Val Str(std::string v) { return {Type::kString, 0, std::move(v)}; }
  bool operator==(const Val&) const = default;
};

// false, 0, "" and null are false; everything else is true.
bool Truthy(const Val& v);
// The integer a value stands for: bools and ints, and strings holding a decimal integer.
std::optional<int64_t> AsInt(const Val& v);
// Appends the display text: "true"/"false", decimal, the string, "" for null.
void AppendText(const Val& v, std::string& out);
std::string ToText(const Val& v);
// Numeric comparison when both sides are integers (see AsInt), else by text. -1, 0 or 1.
int Compare(const Val& a, const Val& b);
// Converts `v` to `type` (for assignments to typed variables): unparsable strings give 0.
Val ConvertTo(const Val& v, Val::Type type);

}  // namespace roam::sim
