#include "sim/spec.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"

namespace roam::sim {

int AppSpec::FindBug(const std::string& id) const {
  for (size_t i = 0; i < bugs_.size(); ++i)
    if (bugs_[i].id == id) return static_cast<int>(i);
  return -1;
}

std::vector<SpecError> CheckSpec(const nlohmann::json& doc) {
  std::vector<SpecError> errors;
  CompileSpec(doc, errors);
  return errors;
}

Result<std::shared_ptr<const AppSpec>> LoadSpecJson(const nlohmann::json& doc,
                                                    const std::string& source_name) {
  std::vector<SpecError> errors;
  std::unique_ptr<AppSpec> spec = CompileSpec(doc, errors, source_name);
  if (!errors.empty() || !spec) {
    std::string message;
    for (const SpecError& e : errors) {
      if (!message.empty()) message += '\n';
      message += source_name + ": " + e.path + ": " + e.message;
    }
    return Status::InvalidArgument(message.empty() ? source_name + ": invalid app spec" : message);
  }
  return std::shared_ptr<const AppSpec>(std::move(spec));
}

std::string DescribeSpec(const AppSpec& s) {
  return fmt::format("{} screens, {} dialogs, {} code units, {} planted bugs", s.screens().size(),
                     s.dialogs().size(), s.units().size(), s.bugs().size());
}

Result<std::shared_ptr<const AppSpec>> LoadSpec(const std::filesystem::path& path) {
  auto doc = ReadJsonFile(path);
  if (!doc.ok()) return doc.status();
  return LoadSpecJson(*doc, path.string());
}

}  // namespace roam::sim
