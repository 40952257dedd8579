#include "sim/value.h"

#include <charconv>

namespace roam::sim {

bool Truthy(const Val& v) {
  switch (v.type) {
    case Val::Type::kNull:
      return false;
    case Val::Type::kBool:
    case Val::Type::kInt:
      return v.i != 0;
    case Val::Type::kString:
      return !v.s.empty();
  }
  return false;
}

std::optional<int64_t> AsInt(const Val& v) {
  switch (v.type) {
    case Val::Type::kBool:
    case Val::Type::kInt:
      return v.i;
    case Val::Type::kString: {
      if (v.s.empty()) return std::nullopt;
      int64_t out = 0;
      const char* end = v.s.data() + v.s.size();
      auto [p, ec] = std::from_chars(v.s.data(), end, out);
      if (ec != std::errc() || p != end) return std::nullopt;
      return out;
    }
    case Val::Type::kNull:
      break;
  }
  return std::nullopt;
}

void AppendText(const Val& v, std::string& out) {
  switch (v.type) {
    case Val::Type::kNull:
      return;
    case Val::Type::kBool:
      out += v.i ? "true" : "false";
      return;
    case Val::Type::kInt: {
      char buf[24];
      auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v.i);
      out.append(buf, p);
      return;
    }
    case Val::Type::kString:
      out += v.s;
      return;
  }
}

std::string ToText(const Val& v) {
  std::string s;
  AppendText(v, s);
  return s;
}

int Compare(const Val& a, const Val& b) {
  auto x = AsInt(a), y = AsInt(b);
  if (x && y) return *x < *y ? -1 : (*x > *y ? 1 : 0);
  if (a.type == Val::Type::kString && b.type == Val::Type::kString) {
    int c = a.s.compare(b.s);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int c = ToText(a).compare(ToText(b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

Val ConvertTo(const Val& v, Val::Type type) {
  if (v.type == type) return v;
  switch (type) {
    case Val::Type::kNull:
      return Val{};
    case Val::Type::kBool:
      return Val::Bool(Truthy(v));
    case Val::Type::kInt:
      return Val::Int(AsInt(v).value_or(0));
    case Val::Type::kString:
      return Val::Str(ToText(v));
  }
  return v;
}

}  // namespace roam::sim
