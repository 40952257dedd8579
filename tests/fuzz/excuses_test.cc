// fuzz/excuses: the table of CheckMutant's excuses (named, each switched by its setting), and the
// line a violation carries for each excuse that took views out of its missing effect.
#include "fuzz/excuses.h"

#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tree.h"

namespace roam::fuzz {
namespace {

using testing::ClickOn;
using testing::L;
using testing::W;

TEST(Excuses, EachHasANameAndTheSettingThatSwitchesIt) {
  std::set<std::string_view> names;
  for (const Excuse& e : Excuses()) {
    EXPECT_FALSE(e.name.empty());
    EXPECT_TRUE(names.insert(e.name).second) << e.name << " twice";
    EXPECT_EQ(e.setting == nullptr, e.setting_name == "always") << e.name;
    EXPECT_NE(e.function, nullptr) << e.name;
    EXPECT_FALSE(e.why.empty()) << e.name;
  }
  // Every setting that excuses views switches at least one.
  std::set<std::string_view> settings;
  for (const Excuse& e : Excuses()) settings.insert(e.setting_name);
  for (std::string_view s : {"read_windows", "excuse_tau_effects", "count_window_rows",
                             "excuse_tau_data", "attribute_to_rows", "always"})
    EXPECT_TRUE(settings.count(s)) << s;
}

// A profile: a status line and a like counter; Like sets the status and counts, Copy link sets
// the status only.
Layout Profile(const std::string& status, int likes) {
  return L(W("FrameLayout", "",
             {W("TextView", "status").Text(status),
              W("TextView", "like_count").Text(fmt::format("Like count: {}", likes)),
              W("Button", "btn_like").Text("Like").Click(),
              W("Button", "btn_copy_link").Text("Copy link").Click()}),
           "app.Profile");
}

TEST(Excuses, AViolationSaysWhichExcusesTookViewsOut) {
  // Seed: [Like]: the status goes idle -> liked and the count 0 -> 1. Mutant: τ = [Copy link]
  // sets the status to "copied", and then Like does nothing. The status τ wrote itself is
  // excused (tau_wrote_them); the count that stayed is the violation.
  const std::vector<Layout> seed = {Profile("idle", 0), Profile("liked", 1)};
  const std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Like")};
  const std::vector<Event> mutant_events = {ClickOn(seed[0].screen, "Copy link"), seed_events[0]};
  const std::vector<Layout> mutant = {Profile("idle", 0), Profile("copied", 0),
                                      Profile("copied", 0)};
  IndependentViewSettings settings;
  settings.attribute_to_rows = false;  // τ changed the status: else only rows would be judged
  auto v = CheckMutant(seed, seed_events, mutant, mutant_events, 0, 1, {}, settings);
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->missing.added.empty());
  ASSERT_EQ(v->missing.changed.size(), 1u);
  EXPECT_EQ(v->missing.changed.begin()->first.key(), "android.widget.TextView|app:id/like_count");
  ASSERT_EQ(v->excused.size(), 1u);
  EXPECT_EQ(v->excused[0],
            "tau_wrote_them (excuse_tau_effects): views whose key τ changed itself: "
            "+android.widget.TextView|app:id/status 'liked||cEs'");
  // The line is not part of the report's key.
  EXPECT_EQ(v->Key(), "app.Profile:~android.widget.TextView|app:id/like_count;");
  // With the excuse off, the status is missing too, and no excuse says anything.
  settings.excuse_tau_effects = false;
  auto off = CheckMutant(seed, seed_events, mutant, mutant_events, 0, 1, {}, settings);
  ASSERT_TRUE(off.has_value());
  EXPECT_EQ(off->missing.added.size(), 1u);
  EXPECT_TRUE(off->excused.empty());
}

}  // namespace
}  // namespace roam::fuzz
