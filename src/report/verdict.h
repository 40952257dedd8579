// report/verdict: what a run means for a CI job. The bugs a team already knows (a --known file:
// one signature per line, or a previous run's summary.json), the kinds that fail the job
// (--fail-on crash,anr,functional) and the verdict: which bugs are new and fail it. Value types;
// thread-compatible.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "report/summary.h"

namespace roam::report {

// Signatures of known bugs: a crash's or an ANR's signature, a functional report's violation.
class KnownBugs {
 public:
  // A text file (one signature per line; blank lines and lines starting with '#' skipped) or a
  // summary.json (every bug it lists). Errors name the file.
  static Result<KnownBugs> Read(const std::filesystem::path& path);

  bool Contains(const std::string& signature) const { return signatures_.count(signature) > 0; }
  size_t size() const { return signatures_.size(); }
  // Adds signatures to a text file (creating it; ones already there are not added twice);
  // returns how many were new.
  static Result<int> Append(const std::filesystem::path& path,
                            const std::vector<std::string>& signatures);

 private:
  std::set<std::string> signatures_;
};

// Marks the bugs of `summary` that `known` lists.
void MarkKnown(const KnownBugs& known, Summary& summary);

// The kinds that fail a job. A native crash counts as a crash.
struct FailOn {
  bool crash = false, anr = false, functional = false;
  // A vision run whose model's answers were mostly replaced (summary.json "vision").
  bool model = false;
  // "crash,anr,functional,model", "none" or "" (nothing fails); errors name the unknown kind.
  static Result<FailOn> Parse(const std::string& list);
  bool Any() const { return crash || anr || functional || model; }
};

// A bug that fails the job: new (not known) and of a kind in FailOn.
struct NewBug {
  std::string kind;  // "crash", "anr", "native_crash", "functional", "model"
  std::string signature;
  std::string bug_dir;
};
std::vector<NewBug> FailingBugs(const Summary& summary, const FailOn& fail_on);

// The signature a bug folder's bug.json names (crash/ANR: "signature"; functional:
// "violation"). Errors name the file.
Result<std::string> BugSignature(const std::filesystem::path& bug_dir);

}  // namespace roam::report
