#include "vision/examples.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"

namespace roam::vision {

const std::vector<std::string>& ExampleKinds() {
  static const std::vector<std::string> kKinds = {"data_loss", "wrong_behaviour", "function_stops",
                                                  "ui_inconsistency", "duplicate"};
  return kKinds;
}

namespace {

Result<std::vector<BugExample>> ExamplesFrom(const nlohmann::json* j, const std::string& name) {
  if (!j->is_object() || !j->contains("examples") || !(*j)["examples"].is_array())
    return Status::Corruption(name + ": needs an \"examples\" array");
  std::vector<BugExample> out;
  const auto& list = (*j)["examples"];
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = fmt::format("{}: examples[{}]", name, i);
    if (!list[i].is_object()) return Status::Corruption(where + ": not an object");
    BugExample e;
    for (auto [key, field] : {std::pair{"id", &e.id},
                              {"app", &e.app},
                              {"activity", &e.activity},
                              {"function", &e.function},
                              {"expected", &e.expected},
                              {"actual", &e.actual},
                              {"kind", &e.kind},
                              {"source", &e.source},
                              {"url", &e.url}})
      ROAM_RETURN_IF_ERROR(ReadField(list[i], key, *field, where));
    ROAM_RETURN_IF_ERROR(ReadField(list[i], "steps", e.steps, where));
    for (auto [key, value] : {std::pair{"id", &e.id},
                              {"activity", &e.activity},
                              {"function", &e.function},
                              {"expected", &e.expected},
                              {"actual", &e.actual}})
      if (value->empty())
        return Status::Corruption(fmt::format("{}.{}: missing or empty", where, key));
    if (e.steps.empty()) return Status::Corruption(where + ".steps: no steps");
    const auto& kinds = ExampleKinds();
    if (e.kind != kOtherKind && std::find(kinds.begin(), kinds.end(), e.kind) == kinds.end())
      return Status::Corruption(fmt::format("{}.kind: \"{}\" is not a kind{}; kinds: {}", where,
                                            Excerpt(e.kind), DidYouMean(e.kind, kinds),
                                            fmt::join(kinds, ", ")));
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

Result<std::vector<BugExample>> LoadExamples(const std::filesystem::path& file) {
  auto j = ReadJsonFile(file);
  if (!j.ok()) return j.status();
  return ExamplesFrom(&*j, file.string());
}

Result<std::vector<BugExample>> ParseExamples(std::string_view text, const std::string& where) {
  auto j = ParseJson(std::string(text), where);
  if (!j.ok()) return j.status();
  return ExamplesFrom(&*j, where);
}

Result<std::vector<BugExample>> ShippedExamples() {
  return ParseExamples(ShippedExamplesJson(),
                       "the shipped library (data/vision/bug_examples.json)");
}

std::vector<std::string> NameWords(std::string_view activity) {
  if (auto dot = activity.rfind('.'); dot != std::string_view::npos)
    activity = activity.substr(dot + 1);
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && word != "activity" && word != "fragment" && word != "screen")
      words.push_back(word);
    word.clear();
  };
  for (size_t i = 0; i < activity.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(activity[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    const bool upper = std::isupper(c);
    const bool digit = std::isdigit(c);
    if (!word.empty()) {
      const unsigned char prev = static_cast<unsigned char>(activity[i - 1]);
      const bool next_lower =
          i + 1 < activity.size() && std::islower(static_cast<unsigned char>(activity[i + 1]));
      // "NoteEdit" -> note edit; "HTMLView" -> html view; "Tab2" -> tab 2.
      if ((upper && (std::islower(prev) || std::isdigit(prev) || next_lower)) ||
          digit != static_cast<bool>(std::isdigit(prev)))
        flush();
    }
    word += static_cast<char>(std::tolower(c));
  }
  flush();
  return words;
}

namespace {

std::map<std::string, double> Trigrams(std::string_view name) {
  std::map<std::string, double> counts;
  for (const std::string& w : NameWords(name)) {
    const std::string padded = "<" + w + ">";
    for (size_t i = 0; i + 3 <= padded.size(); ++i) counts[padded.substr(i, 3)] += 1;
  }
  return counts;
}

}  // namespace

double NameSimilarity(std::string_view a, std::string_view b) {
  const auto x = Trigrams(a), y = Trigrams(b);
  double dot = 0, nx = 0, ny = 0;
  for (const auto& [t, c] : x) {
    nx += c * c;
    if (auto it = y.find(t); it != y.end()) dot += c * it->second;
  }
  for (const auto& [t, c] : y) ny += c * c;
  return nx > 0 && ny > 0 ? dot / std::sqrt(nx * ny) : 0;
}

std::vector<const BugExample*> Retrieve(const std::vector<BugExample>& examples,
                                        std::string_view activity, size_t k,
                                        std::string_view exclude_app,
                                        const NameSimilarityFn& similar) {
  std::vector<std::pair<double, const BugExample*>> scored;
  for (const BugExample& e : examples)
    if (e.app != exclude_app) scored.push_back({similar(activity, e.activity), &e});
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second->id < b.second->id;
  });
  std::vector<const BugExample*> out;
  for (size_t i = 0; i < scored.size() && i < k; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace roam::vision
