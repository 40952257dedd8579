#include "report/verdict.h"

#include <sstream>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "base/utf8.h"

namespace roam::report {

Result<KnownBugs> KnownBugs::Read(const std::filesystem::path& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  KnownBugs known;
  if (TrimSpace(*text).starts_with("{")) {
    auto j = ParseJson(*text, path.string());
    if (!j.ok()) return j.status();
    if (!j->is_object() || !j->contains("crashes"))
      return Status::InvalidArgument(path.string() +
                                     ": is JSON but not a run's summary.json (no \"crashes\")");
    auto summary = SummaryFromJson(*j, path.string());
    if (!summary.ok()) return summary.status();
    for (const auto* list : {&summary->crashes, &summary->anrs})
      for (const auto& f : *list) known.signatures_.insert(f.signature);
    if (summary->functional)
      for (const auto& f : *summary->functional) known.signatures_.insert(f.key);
    return known;
  }
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    line = std::string(TrimSpace(line));
    if (!line.empty() && line[0] != '#') known.signatures_.insert(line);
  }
  return known;
}

Result<int> KnownBugs::Append(const std::filesystem::path& path,
                              const std::vector<std::string>& signatures) {
  std::string text;
  KnownBugs known;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    auto read = Read(path);
    if (!read.ok()) return read.status();
    known = std::move(*read);
    auto t = ReadFile(path);
    if (!t.ok()) return t.status();
    text = std::move(*t);
    if (TrimSpace(text).starts_with("{"))
      return Status::InvalidArgument(path.string() +
                                     ": is a summary.json; add to a text file of signatures");
    if (!text.empty() && text.back() != '\n') text += '\n';
  } else {
    text = "# Known bugs: one signature per line (roam explore/fuzz --known FILE).\n";
  }
  int added = 0;
  for (const auto& s : signatures) {
    if (s.find('\n') != std::string::npos)
      return Status::InvalidArgument(fmt::format("signature \"{}\" spans lines", Excerpt(s)));
    if (!known.signatures_.insert(s).second) continue;
    text += s + "\n";
    ++added;
  }
  if (added > 0) ROAM_RETURN_IF_ERROR(WriteFileAtomic(path, text));
  return added;
}

void MarkKnown(const KnownBugs& known, Summary& summary) {
  for (auto* list : {&summary.crashes, &summary.anrs})
    for (auto& f : *list) f.known = known.Contains(f.signature);
  if (summary.functional)
    for (auto& f : *summary.functional) f.known = known.Contains(f.key);
}

Result<FailOn> FailOn::Parse(const std::string& list) {
  FailOn f;
  if (list.empty() || list == "none") return f;
  std::istringstream in(list);
  for (std::string kind; std::getline(in, kind, ',');) {
    kind = std::string(TrimSpace(kind));
    if (kind == "crash") {
      f.crash = true;
    } else if (kind == "anr") {
      f.anr = true;
    } else if (kind == "functional") {
      f.functional = true;
    } else if (kind == "model") {
      f.model = true;
    } else {
      return Status::InvalidArgument(fmt::format(
          "unknown bug kind \"{}\" (known: crash, anr, functional, model, none){}", Excerpt(kind),
          DidYouMean(kind, {"crash", "anr", "functional", "model", "none"})));
    }
  }
  return f;
}

std::vector<NewBug> FailingBugs(const Summary& summary, const FailOn& fail_on) {
  std::vector<NewBug> out;
  for (const auto* list : {&summary.crashes, &summary.anrs})
    for (const auto& f : *list) {
      const bool counts = f.kind == "anr" ? fail_on.anr : fail_on.crash;
      if (counts && !f.known) out.push_back({f.kind, f.signature, f.bug_dir});
    }
  // The model: more than half its answers replaced.
  if (fail_on.model && summary.sections.is_object() && summary.sections.contains("vision")) {
    const nlohmann::json& v = summary.sections["vision"];
    const int64_t questions = v.value("questions", int64_t{0});
    const int64_t replaced = v.value("answers_replaced", int64_t{0});
    if (replaced > 0 && 2 * replaced > questions)
      out.push_back({"model", fmt::format("{} of {} answers replaced", replaced, questions), ""});
  }
  if (summary.functional && fail_on.functional)
    for (const auto& f : *summary.functional)
      if (!f.known) out.push_back({"functional", f.key, f.bug_dir});
  return out;
}

Result<std::string> BugSignature(const std::filesystem::path& bug_dir) {
  const std::string where = (bug_dir / "bug.json").string();
  auto j = ReadJsonFile(bug_dir / "bug.json");
  if (!j.ok()) return j.status();
  for (const char* key : {"signature", "violation"})
    if (j->contains(key) && (*j)[key].is_string() && !(*j)[key].get<std::string>().empty())
      return (*j)[key].get<std::string>();
  return Status::Corruption(where + ": names no \"signature\" or \"violation\"");
}

}  // namespace roam::report
