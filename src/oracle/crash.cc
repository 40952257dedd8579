#include "oracle/crash.h"

#include <algorithm>
#include <cctype>

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

CrashOracle::Seen CrashOracle::Observe(const device::Event& event, int64_t step) {
  std::string sig = CrashSignature(event, package_, options_.top_frames);
  for (size_t i = 0; i < findings_.size(); ++i) {
    if (findings_[i].signature == sig) {
      ++findings_[i].count;
      return {i, false};
    }
  }
  CrashFinding f;
  f.id = static_cast<int>(findings_.size()) + 1;
  f.kind = event.kind;
  f.signature = std::move(sig);
  f.first = event;
  f.bug_id = event.bug_id;
  f.first_step = step;
  f.count = 1;
  findings_.push_back(std::move(f));
  return {findings_.size() - 1, true};
}

size_t CrashOracle::CountOf(device::Event::Kind kind) const {
  return std::count_if(findings_.begin(), findings_.end(),
                       [kind](const CrashFinding& f) { return f.kind == kind; });
}

}  // namespace roam::oracle
