#include "model/model_file.h"

#include <cmath>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam::model {
namespace {

using gui::ActionKind;

Model Sample() {
  Model m("org.app");
  ActivityId main = m.InternActivity("org.app.Main"), about = m.InternActivity("org.app.About");
  EventId open = m.Intern({.activity = "org.app.Main",
                           .resource_id = "org.app:id/about",
                           .text = "About",
                           .kind = ActionKind::kClick});
  EventId back = m.Intern({.activity = "org.app.About", .kind = ActionKind::kBack});
  EventId key =
      m.Intern({.activity = "org.app.Main", .text = "VOLUME_UP", .kind = ActionKind::kKey});
  m.Intern({.activity = "org.app.Other", .resource_id = "x", .kind = ActionKind::kLongClick});
  m.RecordTransition(open, about);
  m.RecordTransition(open, about);
  m.RecordTransition(open, std::nullopt);
  m.RecordTransition(back, main);
  m.RecordTransition(key, main);
  m.SetQ(open, 2.75);
  m.SetQ(back, -0.125);
  m.DynamicText(77, 1);
  m.DynamicText(77, 2);  // slot 77 is dynamic
  return m;
}

void ExpectSame(const Model& a, const Model& b) {
  EXPECT_EQ(a.package(), b.package());
  ASSERT_EQ(a.event_count(), b.event_count());
  for (EventId e = 0; e < a.event_count(); ++e) {
    EXPECT_EQ(a.event(e), b.event(e));
    EXPECT_EQ(a.Count(e), b.Count(e));
    EXPECT_EQ(a.Q(e), b.Q(e));
    for (ActivityId x = 0; x < a.activity_count(); ++x) {
      auto y = b.FindActivity(a.activity(x));
      ASSERT_TRUE(y);
      EXPECT_EQ(a.Count(e, x), b.Count(e, *y));
    }
  }
  EXPECT_EQ(a.DynamicSlots(), b.DynamicSlots());
}

TEST(FastbotModelFile, RoundTrip) {
  Model m = Sample();
  auto path = testing::TempDir("model_round_trip") / "model.bin";
  ASSERT_TRUE(SaveModel(m, path).ok());
  auto loaded = LoadModel(path, "org.app");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ExpectSame(m, *loaded);
  EXPECT_DOUBLE_EQ(loaded->P(0, *loaded->FindActivity("org.app.About")), 2.0 / 3.0);
  // The run state is not kept: a loaded model starts a run with nothing visited.
  EXPECT_FALSE(loaded->Visited(*loaded->FindActivity("org.app.Main")));
  // Saving again gives the same bytes.
  EXPECT_EQ(EncodeModel(*loaded), EncodeModel(m));
}

TEST(FastbotModelFile, MissingFileIsNotFound) {
  auto r = LoadModel(testing::TempDir("model_missing") / "model.bin", "org.app");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotFound());
}

std::string ErrorOf(const std::string& bytes, std::string_view package = "org.app") {
  auto r = DecodeModel(bytes, "dir/model.bin", package);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(FastbotModelFile, FlippedByteIsRefused) {
  std::string bytes = EncodeModel(Sample());
  for (size_t at : {size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    std::string bad = bytes;
    bad[at] ^= 0x10;
    std::string e = ErrorOf(bad);
    EXPECT_NE(e.find("dir/model.bin: corrupt: checksum mismatch"), std::string::npos) << e;
  }
}

TEST(FastbotModelFile, TruncatedFileIsRefused) {
  std::string bytes = EncodeModel(Sample());
  EXPECT_NE(ErrorOf(bytes.substr(0, bytes.size() - 5))
                .find("dir/model.bin: truncated: the header "
                      "announces"),
            std::string::npos);
  EXPECT_NE(ErrorOf(bytes.substr(0, 20)).find("dir/model.bin: truncated: 20 bytes"),
            std::string::npos);
  EXPECT_NE(ErrorOf(bytes.substr(0, 4)).find("dir/model.bin: truncated: 4 bytes"),
            std::string::npos);
  EXPECT_NE(ErrorOf("").find("truncated: 0 bytes"), std::string::npos);
}

TEST(FastbotModelFile, WrongVersionIsRefused) {
  std::string bytes = EncodeModel(Sample());
  bytes[8] = 2;
  EXPECT_NE(ErrorOf(bytes).find("dir/model.bin: model format version 2; this Roam reads version 1"),
            std::string::npos);
}

TEST(FastbotModelFile, ForeignFilesAreRefused) {
  EXPECT_NE(ErrorOf("{\"not\": \"a model\"}\n").find("dir/model.bin: not a Roam model file"),
            std::string::npos);
  std::string e = ErrorOf(EncodeModel(Sample()), "org.other");
  EXPECT_NE(e.find("dir/model.bin: a model of package \"org.app\", not of \"org.other\""),
            std::string::npos)
      << e;
  EXPECT_TRUE(DecodeModel(EncodeModel(Sample()), "x", "").ok());  // no package expected
}

TEST(FastbotModelFile, FaultInsideAValidChecksumIsRefused) {
  // A payload whose checksum matches but whose counts lie: rebuild the header around it.
  Model m("org.app");
  std::string good = EncodeModel(m);
  std::string payload = good.substr(32);
  payload += "junk";
  std::string bytes = good.substr(0, 16);
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>(uint64_t{payload.size()} >> (8 * i));
  uint64_t sum = gui::StableHash().Add(payload).value();
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>(sum >> (8 * i));
  bytes += payload;
  std::string e = ErrorOf(bytes);
  EXPECT_NE(e.find("dir/model.bin: corrupt at payload byte"), std::string::npos) << e;
}

// A model whose Q values are NaN loaded and stayed NaN for ever (every update adds to Q).
TEST(FastbotModelFile, NonFiniteQIsRefused) {
  for (double bad : {std::nan(""), double{INFINITY}, -double{INFINITY}}) {
    Model m = Sample();
    m.SetQ(0, bad);
    std::string e = ErrorOf(EncodeModel(m));
    EXPECT_NE(e.find("hyper-event 0: Q is"), std::string::npos) << e;
    EXPECT_NE(e.find("not a finite number"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace roam::model

namespace roam::model {
namespace {

// Two devices' models of one app: the events they share add their counts and average their Q by
// visits; the others are kept; a model of another app is refused.
TEST(MergeModels, CountsAddQIsWeightedByVisitsPackagesMustAgree) {
  using gui::ActionKind;
  const gui::HyperEvent open{.activity = "org.app.Main",
                             .resource_id = "id/open",
                             .text = "Open",
                             .kind = ActionKind::kClick};
  const gui::HyperEvent back{.activity = "org.app.About", .kind = ActionKind::kBack};
  Model a("org.app"), b("org.app");
  {
    EventId e = a.Intern(open);
    ActivityId about = a.InternActivity("org.app.About");
    a.RecordTransition(e, about);
    a.RecordTransition(e, about);
    a.RecordTransition(e, about);
    a.SetQ(e, 1.0);
    a.MarkDynamic(42);
  }
  {
    ActivityId settings = b.InternActivity("org.app.Settings");  // other ids in b
    ActivityId about = b.InternActivity("org.app.About");
    EventId back_e = b.Intern(back);
    EventId e = b.Intern(open);
    b.RecordTransition(e, settings);
    b.RecordTransition(e, about);
    b.SetQ(e, 3.0);
    b.RecordTransition(back_e, b.InternActivity("org.app.Main"));
    b.SetQ(back_e, -0.5);
  }
  auto m = MergeModels({&a, &b}, {"a.bin", "b.bin"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->package(), "org.app");
  EXPECT_EQ(m->event_count(), 2u);
  const EventId e = *m->Find(open.Hash());
  EXPECT_EQ(m->Count(e), 5u);
  EXPECT_EQ(m->Count(e, *m->FindActivity("org.app.About")), 4u);
  EXPECT_EQ(m->Count(e, *m->FindActivity("org.app.Settings")), 1u);
  EXPECT_DOUBLE_EQ(m->Q(e), (3 * 1.0 + 2 * 3.0) / 5);
  const EventId k = *m->Find(back.Hash());
  EXPECT_EQ(m->Count(k), 1u);
  EXPECT_DOUBLE_EQ(m->Q(k), -0.5);
  EXPECT_EQ(m->DynamicSlots(), std::vector<uint64_t>{42});
  // It saves and loads as any model.
  auto again = DecodeModel(EncodeModel(*m), "merged", "org.app");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->Count(*again->Find(open.Hash())), 5u);

  Model other("org.other");
  auto refused = MergeModels({&a, &other}, {"a.bin", "other.bin"});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("other.bin is a model of org.other"), std::string::npos)
      << refused.status().message();
}

// Issue 44, row 14: Q near the largest double merge to a finite mean, and a model that would
// not load again is never written.
TEST(MergeModels, ExtremeQMergeToAModelThatLoads) {
  const gui::HyperEvent open{
      .activity = "org.app.Main", .resource_id = "id/open", .kind = gui::ActionKind::kClick};
  Model a("org.app"), b("org.app");
  for (Model* m : {&a, &b}) {
    EventId e = m->Intern(open);
    ActivityId main = m->InternActivity("org.app.Main");
    for (int k = 0; k < 3; ++k) m->RecordTransition(e, main);
  }
  a.SetQ(*a.Find(open.Hash()), 1e308);
  b.SetQ(*b.Find(open.Hash()), 1e308);
  auto m = MergeModels({&a, &b}, {"a.bin", "b.bin"});
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(std::isfinite(m->Q(*m->Find(open.Hash()))));
  const auto dir = testing::TempDir("merge_extreme");
  ASSERT_TRUE(SaveModel(*m, dir / "merged.bin").ok());
  EXPECT_TRUE(LoadModel(dir / "merged.bin", "org.app").ok());
  m->SetQ(*m->Find(open.Hash()), INFINITY);
  Status refused = SaveModel(*m, dir / "inf.bin");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("would not load"), std::string::npos) << refused.message();
  EXPECT_FALSE(std::filesystem::exists(dir / "inf.bin"));
}

}  // namespace
}  // namespace roam::model
