#include "explore/word_vectors.h"

#include <charconv>
#include <cmath>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "base/files.h"
#include "gui/abstraction.h"

namespace roam::explore {

namespace {

// SplitMix64: a few good bits from a word's hash, the same on every platform.
uint64_t SplitMix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

WordVectors WordVectors::Hashed(int dim) {
  WordVectors v;
  v.dim_ = dim;
  v.hash_scale_ = static_cast<float>(std::sqrt(3.0 / dim));  // unit length on average
  v.fingerprint_ = gui::StableHash().Add("hashed").Add(static_cast<uint64_t>(dim)).value();
  return v;
}

Result<WordVectors> WordVectors::Parse(std::string_view text, const std::string& source) {
  WordVectors v;
  auto table = std::make_shared<Table>();
  auto& index = table->index;
  auto& values = table->values;
  size_t pos = 0;
  int line_no = 0;
  auto next_line = [&]() -> std::string_view {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  };
  auto fault = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}:{}: {}", source, line_no, what));
  };
  std::string_view header = next_line();
  size_t count = 0;
  int dim = 0;
  {
    const char* p = header.data();
    const char* end = header.data() + header.size();
    auto [p1, e1] = std::from_chars(p, end, count);
    while (p1 < end && *p1 == ' ') ++p1;
    auto [p2, e2] = std::from_chars(p1, end, dim);
    if (e1 != std::errc() || e2 != std::errc() || dim < 1 || dim > 4096)
      return fault("not a word-vector file: the first line must be \"COUNT DIM\"");
  }
  v.dim_ = dim;
  values.reserve(count * dim);
  index.reserve(count);
  double norm_sum = 0;
  while (pos < text.size()) {
    std::string_view line = next_line();
    if (line.empty()) continue;
    size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0) return fault("expected a word and numbers");
    std::string word(line.substr(0, space));
    const char* p = line.data() + space;
    const char* end = line.data() + line.size();
    double norm = 0;
    for (int i = 0; i < dim; ++i) {
      while (p < end && *p == ' ') ++p;
      float x = 0;
      auto [q, ec] = std::from_chars(p, end, x);
      if (ec != std::errc() || !std::isfinite(x))
        return fault(
            fmt::format("\"{}\": expected {} numbers, number {} is not one", word, dim, i + 1));
      values.push_back(x);
      norm += double(x) * x;
      p = q;
    }
    while (p < end && *p == ' ') ++p;
    if (p != end) return fault(fmt::format("\"{}\": more than {} numbers", word, dim));
    norm_sum += std::sqrt(norm);
    if (!index.emplace(std::move(word), index.size()).second)
      values.resize(values.size() - dim);  // a word twice: the first row stays
  }
  if (index.empty()) return fault("no word vectors in the file");
  if (index.size() != count && count != 0)
    return Status::InvalidArgument(
        fmt::format("{}: the header says {} words, the file holds {} (cut short?)", source, count,
                    index.size()));
  const double mean_norm = norm_sum / static_cast<double>(index.size());
  v.hash_scale_ = static_cast<float>(mean_norm * std::sqrt(3.0 / dim));
  v.fingerprint_ = gui::StableHash().Add(text).value();
  v.source_ = source;
  v.table_ = std::move(table);
  return v;
}

Result<WordVectors> WordVectors::Load(const std::filesystem::path& path) {
  // The file read last, kept while it is unchanged: `roam train` and `roam bench` start many
  // runs in one process, and parsing 40 MB costs each of them a tenth of a second or more.
  struct Read {
    std::filesystem::path path;
    uintmax_t size = 0;
    std::filesystem::file_time_type time;
    WordVectors vectors;
  };
  static std::mutex mu;
  static std::optional<Read> last;
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  const auto time =
      ec ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(path, ec);
  std::lock_guard lock(mu);
  if (!ec && last && last->path == path && last->size == size && last->time == time)
    return last->vectors;
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  auto parsed = Parse(*text, path.string());
  if (parsed.ok() && !ec) last = Read{path, size, time, *parsed};
  return parsed;
}

bool WordVectors::Known(std::string_view word) const {
  return table_->index.find(std::string(word)) != table_->index.end();
}

size_t WordVectors::size() const { return table_->index.size(); }

void WordVectors::Lookup(std::string_view word, float* out) const {
  auto it = table_->index.find(std::string(word));
  if (it != table_->index.end()) {
    std::copy_n(table_->values.begin() + static_cast<ptrdiff_t>(it->second * dim_), dim_, out);
    return;
  }
  uint64_t state = gui::StableHash().Add(word).value();
  for (int i = 0; i < dim_; ++i) {
    double unit = static_cast<double>(SplitMix(state) >> 11) * 0x1.0p-53;  // [0, 1)
    out[i] = static_cast<float>((2 * unit - 1) * hash_scale_);
  }
}

}  // namespace roam::explore
