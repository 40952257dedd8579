// `roam explore --strategy fastbot --model DIR` as a user meets it: the model folder is
// created and kept, a corrupt model stops the run unless --model-reset, bad values are refused.

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam {
namespace {

using Ran = testing::CommandRun;
Ran Roam(const std::string& args) { return testing::RunRoam(args); }

TEST(FastbotCli, ModelFolderCorruptFileAndReset) {
  auto dir = testing::TempDir("cli_fastbot");
  std::filesystem::remove_all(dir);
  const std::string model = (dir / "model").string(), out = (dir / "run").string();
  const std::string run = "explore --app " +
                          (testing::SourceDir() / "tests/apps/deep.json").string() +
                          " --strategy fastbot --events 200 --seed 3 -q --force --out " + out +
                          " --model " + model + " --model-save-every 50";
  Ran first = Roam(run);
  ASSERT_EQ(first.code, 0) << first.out;
  ASSERT_TRUE(std::filesystem::exists(dir / "model/model.bin"));
  auto config = ReadJsonFile(dir / "run/config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["model_save_every"], 50);
  EXPECT_EQ((*config)["fastbot"]["route"], true);

  { std::ofstream(dir / "model/model.bin", std::ios::binary | std::ios::app) << "x"; }
  Ran refused = Roam(run);
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.out.find(model + "/model.bin: corrupt: 1 bytes after the"), std::string::npos)
      << refused.out;
  Ran reset = Roam(run + " --model-reset");
  EXPECT_EQ(reset.code, 0) << reset.out;
  EXPECT_NE(reset.out.find("--model-reset: " + model + "/model.bin: corrupt"), std::string::npos)
      << reset.out;

  // Another app's model: refused with the hint once (issue 46: it was given twice).
  Ran other = Roam("explore --app " + (testing::SourceDir() / "tests/apps/crashy.json").string() +
                   " --strategy fastbot --events 20 -q --force --out " + out + " --model " + model);
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.out.find("a model of package"), std::string::npos) << other.out;
  const size_t hint = other.out.find("--model-reset");
  ASSERT_NE(hint, std::string::npos) << other.out;
  EXPECT_EQ(other.out.find("--model-reset", hint + 1), std::string::npos) << other.out;
}

TEST(FastbotCli, BadSettingsAreRefused) {
  const std::string app = (testing::SourceDir() / "tests/apps/deep.json").string();
  EXPECT_EQ(Roam("explore --app " + app + " --strategy fastbot --fastbot-alpha 0").code, 2);
  Ran globals = Roam("explore --app " + app +
                     " --strategy fastbot --fastbot-globals back,jump -q "
                     "--out " +
                     (testing::TempDir("cli_fastbot_globals")).string() + " --force");
  EXPECT_EQ(globals.code, 2);
  EXPECT_NE(globals.out.find("unknown global action \"jump\""), std::string::npos) << globals.out;
  EXPECT_EQ(Roam("bench --apps " + app + " --strategies fastbot --fastbot-beta -1").code, 2);
  Ran route = Roam("explore --app " + app + " --strategy fastbot --fastbot-route maybe");
  EXPECT_EQ(route.code, 2);
  EXPECT_NE(route.out.find("--fastbot-route: maybe not in {on,off}"), std::string::npos)
      << route.out;
  Ran random =
      Roam("explore --app " + app + " --model " + testing::TempDir("cli_fastbot_m").string());
  EXPECT_EQ(random.code, 2);
  EXPECT_NE(random.out.find("--model keeps a Fastbot2 model"), std::string::npos) << random.out;
}

}  // namespace
}  // namespace roam
