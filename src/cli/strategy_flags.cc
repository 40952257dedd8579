#include "cli/strategy_flags.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "cli/flags.h"

namespace roam::cli {

void AddDeclaredStrategyFlags(CLI::App& app, explore::StrategySettings& settings) {
  for (const auto& info : explore::Strategies()) {
    const std::string group = fmt::format("Strategy {}", info.name);
    for (const auto& s : info.settings) {
      std::string flag = fmt::format("--{}-{}", info.name, s.name);
      for (const auto& alias : info.aliases) flag += fmt::format(",--{}-{}", alias, s.name);
      std::replace(flag.begin(), flag.end(), '_', '-');
      nlohmann::json& into = settings.declared[info.name][s.name];
      into = s.value;  // the default until the flag is given
      CLI::Option* option = nullptr;
      if (s.value.is_number_integer()) {
        option = app.add_option_function<int64_t>(
            flag, [&into](int64_t v) { into = v; }, s.help);
      } else if (s.value.is_number()) {
        option = app.add_option_function<double>(
            flag, [&into](double v) { into = v; }, s.help);
      } else if (s.value.is_boolean()) {
        option = app.add_option_function<std::string>(
                        flag, [&into](const std::string& v) { into = v == "on"; }, s.help)
                     ->check(CLI::IsMember({"on", "off"}));
      } else {
        option = app.add_option_function<std::string>(
            flag, [&into](const std::string& v) { into = v; }, s.help);
      }
      if (s.value.is_number()) option->check(Within(s.min, s.max));
      option
          ->default_str(s.value.is_boolean()  ? (s.value.get<bool>() ? "on" : "off")
                        : s.value.is_string() ? s.value.get<std::string>()
                                              : s.value.dump())
          ->group(group);
    }
  }
}

}  // namespace roam::cli
