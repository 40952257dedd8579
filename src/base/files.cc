#include "base/files.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace roam {

Result<std::string> ReadFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Status::NotFound(path.string() + ": no such file");
  if (std::filesystem::is_directory(path, ec))
    return Status::InvalidArgument(path.string() + ": is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Io(path.string() + ": cannot open for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status WriteFileAtomic(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::path tmp = path;
  tmp += fmt::format(".tmp{}", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Io(tmp.string() + ": cannot open for writing");
    out << content;
    out.flush();
    if (!out) return Status::Io(tmp.string() + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status::Io(path.string() + ": rename failed: " + ec.message());
  return Status::Ok();
}

Status WriteJsonFile(const std::filesystem::path& path, const nlohmann::json& value) {
  return WriteFileAtomic(path,
                         value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::string JsonLine(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<nlohmann::json> ParseJson(const std::string& text, const std::string& source_name) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    auto pos = what.find("parse error");
    if (pos != std::string::npos) what = what.substr(pos);
    return Status::Corruption(fmt::format("{}:{}:{}: malformed JSON: {}", source_name, line, col, what));
  }
}

Result<nlohmann::json> ReadJsonFile(const std::filesystem::path& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseJson(*text, path.string());
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = EditDistance(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string hint = ClosestName(name, candidates);
  return hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint);
}

}  // namespace roam
