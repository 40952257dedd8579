// vision/examples: VisionDroid's library of functional-bug examples and their retrieval. The
// Detector is shown the k = 4 examples whose activity names are most like the screen under test
// (leaving out the app under test), each a function, the steps that trigger its bug, what was
// expected and what happened, and the bug's kind. The paper compares names by Word2Vec vectors
// and cosine; the caller brings that comparison (run/ has the word vectors), and the character
// trigrams of the names' words (cosine of trigram counts) are the one here, which matches
// "NoteEdit" with "EditNote" and "Notes" with "Note" without any data. Stateless; thread-safe.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace roam::vision {

struct BugExample {
  std::string id;
  std::string app;       // the package it comes from
  std::string activity;  // the screen's activity, as short or as long as known
  std::string function;  // the function under test
  std::vector<std::string> steps;
  std::string expected, actual;
  std::string kind;    // one of ExampleKinds(), or kOtherKind
  std::string source;  // where it was learnt from ("genie", "visiondroid", "real-app", a team's)
  std::string url;     // the public report it was written from ("" : none)
};

// data_loss, wrong_behaviour, function_stops, ui_inconsistency, duplicate.
const std::vector<std::string>& ExampleKinds();
// The kind of a bug the Detector reported under a kind outside ExampleKinds(); an example (a
// confirmed report) may be of it too.
inline constexpr std::string_view kOtherKind = "other";

// A library file: {"examples": [...]}. Errors name the file and the example's field
// ("lib.json: examples[3].kind: \"oops\" is not a kind; kinds: ...").
Result<std::vector<BugExample>> LoadExamples(const std::filesystem::path& file);
// The same from a library's text; `where` names it in errors.
Result<std::vector<BugExample>> ParseExamples(std::string_view text, const std::string& where);
// The library Roam ships (data/vision/bug_examples.json, compiled in) and its text.
Result<std::vector<BugExample>> ShippedExamples();
std::string_view ShippedExamplesJson();

// The words of an activity name, lower-case: its last dotted component split at case changes,
// digits and underscores, without the words "activity", "fragment" and "screen".
std::vector<std::string> NameWords(std::string_view activity);

// The cosine of two names' character-trigram counts (each word with < and > at its ends); 0
// when either has no words.
double NameSimilarity(std::string_view a, std::string_view b);

// How alike two activity names are, the higher the more.
using NameSimilarityFn = std::function<double(std::string_view, std::string_view)>;

// The `k` examples most like `activity` by `similar`, most similar first (ties by id), leaving
// out those of `exclude_app` (the app under test).
std::vector<const BugExample*> Retrieve(const std::vector<BugExample>& examples,
                                        std::string_view activity, size_t k,
                                        std::string_view exclude_app,
                                        const NameSimilarityFn& similar = NameSimilarity);

}  // namespace roam::vision
