#include "cli/harness_flags.h"

#include <fmt/format.h>

#include "cli/flags.h"

namespace roam::cli {

void AddHarnessFlags(CLI::App& app, explore::HarnessOptions& o) {
  const char* group = "Input and filters (docs/harness.md)";
  app.add_option("--strings", o.strings_file,
                 "texts to type into edit fields, one a line (turns text input on)")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--filters", o.filters_file,
                 "JSON black and white lists of widgets and activities")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--actions", o.actions_file,
                 "JSON custom-action scripts (e.g. a login), each with an activity and a "
                 "probability")
      ->type_name("FILE")
      ->group(group);
  auto& m = o.mix;
  auto text_on = [&o](const std::string&) { o.text_input = true; };
  for (auto [flag, field, what] :
       {std::tuple{"--input-pct-user", &m.pct_user, "the --strings file"},
        {"--input-pct-seen", &m.pct_seen, "texts seen earlier in the app"},
        {"--input-pct-awkward", &m.pct_awkward,
         "awkward strings (empty, long, emoji, RTL, SQL, %n)"},
        {"--input-pct-plain", &m.pct_plain, "plain words and numbers"}}) {
    app.add_option(flag, *field,
                   fmt::format("text input: weight of {} (turns text input on)", what))
        ->check(NonNegative())
        ->capture_default_str()
        ->each(text_on)
        ->group(group);
  }
  app.add_option("--max-seen", m.max_seen, "text input: texts seen in the app kept at most")
      ->check(NonNegative())
      ->capture_default_str()
      ->each(text_on)
      ->group(group);
  app.add_option("--max-backs", o.max_backs,
                 "activity lists: backs in a row on a forbidden activity before a restart")
      ->check(Positive())
      ->capture_default_str()
      ->group(group);
}

}  // namespace roam::cli
