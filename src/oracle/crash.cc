#include "oracle/crash.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace roam::oracle {
namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == sep) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

bool IsSyntheticPart(const std::string& part) {
  return part.empty() || std::all_of(part.begin(), part.end(), ::isdigit) ||
         part.rfind("lambda", 0) == 0 || part.find("Synthetic") != std::string::npos;
}

// Per dotted segment: "Foo$1", "Foo$$ExternalSyntheticLambda0" -> "Foo"; "lambda$onClick$0" ->
// "onClick"; named inner classes ("Foo$Holder") stay, being stable across builds.
std::string StripSynthetic(const std::string& name) {
  std::string out;
  for (const std::string& segment : Split(name, '.')) {
    std::vector<std::string> parts = Split(segment, '$');
    std::string kept = parts[0];
    if (parts[0] == "lambda" && parts.size() > 1) {
      kept = parts[1];
    } else {
      for (size_t i = 1; i < parts.size(); ++i)
        if (!IsSyntheticPart(parts[i])) kept += "$" + parts[i];
    }
    if (kept.empty()) continue;
    if (!out.empty()) out += '.';
    out += kept;
  }
  return out;
}

bool InPackage(const std::string& frame, const std::string& package) {
  return !package.empty() && frame.size() > package.size() &&
         frame.compare(0, package.size(), package) == 0 && frame[package.size()] == '.';
}

}  // namespace

std::string NormaliseFrame(const std::string& frame) {
  std::string f = frame;
  if (f.rfind("at ", 0) == 0) f = f.substr(3);
  if (auto paren = f.find('('); paren != std::string::npos) f.resize(paren);
  while (!f.empty() && std::isspace(static_cast<unsigned char>(f.back()))) f.pop_back();
  return StripSynthetic(f);
}

std::string CrashSignature(const device::Event& event, const std::string& package, int top_frames) {
  std::string sig = event.kind == device::Event::Kind::kAnr ? std::string("ANR") : event.exception;
  std::vector<std::string> frames;
  for (const auto& f : event.frames)
    if (InPackage(NormaliseFrame(f), package)) frames.push_back(NormaliseFrame(f));
  if (frames.empty())
    for (const auto& f : event.frames) frames.push_back(NormaliseFrame(f));
  // An ANR without a stack is told apart by its reason, digits masked.
  if (frames.empty() && event.kind == device::Event::Kind::kAnr) {
    std::string reason;
    for (char c : event.message) {
      if (std::isdigit(static_cast<unsigned char>(c))) {
        if (reason.empty() || reason.back() != '#') reason += '#';
      } else {
        reason += c;
      }
    }
    return sig + "@" + reason;
  }
  for (int i = 0; i < top_frames && i < static_cast<int>(frames.size()); ++i)
    sig += (i == 0 ? "@" : "<") + frames[i];
  return sig;
}

CrashOracle::Seen CrashOracle::Observe(const device::Event& event, int64_t events) {
  std::string sig = CrashSignature(event, package_, options_.top_frames);
  for (size_t i = 0; i < findings_.size(); ++i) {
    if (findings_[i].signature == sig) {
      ++findings_[i].count;
      return {i, false};
    }
  }
  findings_.push_back({.kind = std::string(device::EventKindName(event.kind)),
                       .signature = std::move(sig),
                       .first_step = events,
                       .bug_id = event.bug_id,
                       .report = event});
  return {findings_.size() - 1, true};
}

void CrashOracle::Hear(const StepHeard& heard, Verdict& verdict) {
  for (const auto& e : *heard.reports) {
    auto seen = Observe(e, heard.events);
    const Finding& f = findings_[seen.index];
    verdict.failures.push_back(fmt::format("{} {}", device::EventKindName(e.kind), f.signature));
    verdict.signatures.push_back(f.signature);
    if (seen.is_new) verdict.found.push_back(f);
  }
}

size_t CrashOracle::CountOf(device::Event::Kind kind) const {
  return std::count_if(findings_.begin(), findings_.end(),
                       [kind](const Finding& f) { return f.report && f.report->kind == kind; });
}

}  // namespace roam::oracle
