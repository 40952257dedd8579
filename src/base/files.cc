#include "base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/json_fields.h"

namespace roam {

namespace {

// What a file that is not a regular one is, in words.
std::string KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

}  // namespace

Result<std::string> ReadFile(const std::filesystem::path& path, size_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::NotFound(path.string() + ": no such file");
    return Status::Io(fmt::format("{}: {}", path.string(), std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode))
    return Status::InvalidArgument(path.string() + ": is a directory, expected a file");
  if (!S_ISREG(st.st_mode))
    return Status::InvalidArgument(
        fmt::format("{}: is {}, expected a regular file", path.string(), KindOf(st.st_mode)));
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    return Status::InvalidArgument(fmt::format("{}: {} bytes, more than the {} this input may hold",
                                               path.string(), st.st_size, max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Io(path.string() + ": cannot open for reading");
  std::string out(static_cast<size_t>(st.st_size), '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));
  return out;
}

Status CheckOutputPath(const std::filesystem::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return Status::Ok();  // nothing there yet
  if (S_ISREG(st.st_mode)) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("{}: is {}; Roam writes its outputs only where nothing or a regular file is",
                  path.string(), KindOf(st.st_mode)));
}

Status CheckOutputFolder(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code ec;
  if (std::filesystem::is_directory(folder, ec)) return Status::Ok();
  return Status::NotFound(
      fmt::format("{}: the folder {} does not exist", path.string(), folder.string()));
}

Status CheckNotAnInput(const std::filesystem::path& output,
                       const std::vector<std::filesystem::path>& inputs) {
  std::error_code ec;
  for (const auto& input : inputs) {
    if (input.empty()) continue;
    if (std::filesystem::equivalent(output, input, ec))
      return Status::InvalidArgument(
          fmt::format("{}: is one of this command's inputs ({}); write the output elsewhere",
                      output.string(), input.string()));
  }
  return Status::Ok();
}

std::optional<std::filesystem::path> PathInside(const std::filesystem::path& file,
                                                const std::filesystem::path& folder) {
  std::error_code ec;
  auto rel = std::filesystem::weakly_canonical(file, ec).lexically_relative(
      std::filesystem::weakly_canonical(folder, ec));
  if (ec || rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel;
}

Status WriteFileAtomic(const std::filesystem::path& path, const std::string& content) {
  ROAM_RETURN_IF_ERROR(CheckOutputPath(path));
  std::filesystem::path tmp = path;
  tmp += fmt::format(".tmp{}", ::getpid());
  // The cause (errno) and the file are in every error; a half-written temp file is removed, so
  // nothing that looks like a result is left behind.
  auto fail = [&](const char* what, int err) {
    ::unlink(tmp.c_str());
    return Status::Io(fmt::format("{}: {}: {}", path.string(), what, std::strerror(err)));
  };
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    std::error_code ec;
    const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
    if (err == ENOENT && !std::filesystem::exists(folder, ec))
      return Status::Io(fmt::format("{}: cannot create it: the folder {} does not exist",
                                    path.string(), folder.string()));
    return Status::Io(fmt::format("{}: cannot create {}: {}", path.string(),
                                  tmp.filename().string(), std::strerror(err)));
  }
  for (size_t done = 0; done < content.size();) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      ::close(fd);
      return fail("write failed", err);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) return fail("write failed", errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail("rename failed", errno);
  return Status::Ok();
}

Status WriteJsonFile(const std::filesystem::path& path, const nlohmann::json& value) {
  return WriteFileAtomic(
      path, value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::string JsonLine(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// Line and column (1-based) of byte `at` of `text`.
std::pair<size_t, size_t> LineColumn(const std::string& text, size_t at) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

// The first byte at which arrays and objects nest deeper than kMaxJsonDepth, or npos.
size_t TooDeep(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string::npos;
}

}  // namespace

Result<nlohmann::json> ParseJson(const std::string& text, const std::string& source_name) {
  if (size_t at = TooDeep(text); at != std::string::npos) {
    auto [line, col] = LineColumn(text, at);
    return Status::Corruption(fmt::format("{}:{}:{}: JSON nested deeper than {} levels",
                                          source_name, line, col, kMaxJsonDepth));
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    auto [line, col] = LineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    // "[json.exception.parse_error.101] parse error at line 3, column 11: syntax error ...": the
    // place is said once, in front, as a compiler says it.
    std::string what = e.what();
    if (auto pos = what.find("parse error"); pos != std::string::npos) {
      const size_t colon = what.find(": ", pos);
      what = colon == std::string::npos ? what.substr(pos) : what.substr(colon + 2);
    }
    return Status::Corruption(
        fmt::format("{}:{}:{}: malformed JSON: {}", source_name, line, col, what));
  } catch (const nlohmann::json::exception& e) {
    // A number too large for a double (out_of_range.406) is not a parse_error and carries no
    // position: the number it names is looked up in the text.
    std::string what = e.what();
    size_t open = what.find('\''), close = what.rfind('\'');
    size_t at = open != std::string::npos && close > open
                    ? text.find(what.substr(open + 1, close - open - 1))
                    : std::string::npos;
    auto [line, col] = LineColumn(text, at == std::string::npos ? 0 : at);
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    return Status::Corruption(
        fmt::format("{}:{}:{}: malformed JSON: {}", source_name, line, col, Excerpt(what, 120)));
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
