// explore/word_vectors: word vectors for DinoDroid's TXC feature, read from a fastText `.vec`
// text file (a header "COUNT DIM", then one word and DIM numbers a line). The project builds its
// file from Debian's packages (scripts/word_vectors.sh, run by setup.sh): the paper's text8 cannot
// be downloaded here. A word not in the vocabulary gets a deterministic vector drawn from its
// hash, so an unseen word never fails and always maps to the same point. Immutable after
// loading; thread-safe to read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"

namespace roam::explore {

class WordVectors {
 public:
  // Reads a `.vec` file; errors name the path and the line. The file read last is kept while
  // its size and time stay the same (copies share their table: a copy is cheap).
  static Result<WordVectors> Load(const std::filesystem::path& path);
  // No vocabulary: every word gets its hash vector (tests, and a build without the file).
  static WordVectors Hashed(int dim);
  // The same, from text already in memory; `source` names it in errors.
  static Result<WordVectors> Parse(std::string_view text, const std::string& source);

  int dim() const { return dim_; }
  size_t size() const;
  bool Known(std::string_view word) const;
  // Writes dim() floats: the word's vector, or its hash vector (entries uniform in +-scale,
  // scale chosen so its length is that of an average known vector).
  void Lookup(std::string_view word, float* out) const;
  // Identifies the vocabulary and values: a model trained on other vectors is flagged.
  uint64_t fingerprint() const { return fingerprint_; }
  const std::filesystem::path& source() const { return source_; }

 private:
  struct Table {
    std::unordered_map<std::string, size_t> index;  // word -> row
    std::vector<float> values;                      // rows of dim_
  };
  int dim_ = 0;
  std::shared_ptr<const Table> table_ = std::make_shared<Table>();
  float hash_scale_ = 0.1f;
  uint64_t fingerprint_ = 0;
  std::filesystem::path source_;
};

}  // namespace roam::explore
