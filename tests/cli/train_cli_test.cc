// `roam train` and `roam explore --strategy dqn` as a user meets them: a model trained on one
// app tests another, a corrupt model or a wrong flag is refused with what is wrong and where.
#include <fstream>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam {
namespace {

using Ran = testing::CommandRun;
Ran Roam(const std::string& args) { return testing::RunRoam(args); }

TEST(TrainCli, TrainsThenTestsAnotherAppAndRefusesACorruptModel) {
  auto dir = testing::TempDir("cli_train");
  const std::string model = (dir / "m.bin").string();
  ASSERT_EQ(
      Roam("sim generate --seed 7201 --activities 10 --out " + (dir / "a.json").string()).code, 0);
  Ran trained = Roam("train --apps " + (dir / "a.json").string() + " --events 300 --model " +
                     model + " --out " + (dir / "runs").string());
  ASSERT_EQ(trained.code, 0) << trained.out;
  EXPECT_NE(trained.out.find("roam train: 1/1 "), std::string::npos) << trained.out;
  EXPECT_NE(trained.out.find("trained on 1 runs, 300 events; model: " + model), std::string::npos)
      << trained.out;

  const std::string app = (testing::SourceDir() / "tests/apps/deep.json").string();
  const std::string run = "explore --app " + app +
                          " --strategy dqn --events 200 -q --force --out " +
                          (dir / "run").string() + " --dqn-model " + model;
  Ran tested = Roam(run);
  ASSERT_EQ(tested.code, 0) << tested.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "run/dqn.json"));

  { std::ofstream(model, std::ios::binary | std::ios::app) << "x"; }
  Ran refused = Roam(run);
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.out.find(model + ": corrupt: 1 bytes after the"), std::string::npos)
      << refused.out;
  Ran missing = Roam("explore --app " + app + " --strategy dqn --events 10 -q --force --out " +
                     (dir / "run").string() + " --dqn-model " + (dir / "none.bin").string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("none.bin: no such model file (`roam train --model"),
            std::string::npos)
      << missing.out;
}

TEST(TrainCli, BadFlagsAreRefused) {
  const std::string app = (testing::SourceDir() / "tests/apps/deep.json").string();
  Ran wrong = Roam("explore --app " + app + " --strategy random --dqn-model m.bin --events 5");
  EXPECT_EQ(wrong.code, 2);
  EXPECT_NE(wrong.out.find("--dqn-model is for --strategy dqn, not random"), std::string::npos)
      << wrong.out;
  Ran epsilon = Roam("explore --app " + app + " --strategy dqn --dqn-epsilon 2 --events 5");
  EXPECT_EQ(epsilon.code, 2);
  EXPECT_NE(epsilon.out.find("--dqn-epsilon"), std::string::npos) << epsilon.out;
  Ran no_apps = Roam("train --apps /nonexistent --model m.bin");
  EXPECT_EQ(no_apps.code, 2);
  EXPECT_NE(no_apps.out.find("/nonexistent: no such file or folder"), std::string::npos)
      << no_apps.out;
  Ran vectors = Roam("explore --app " + app +
                     " --strategy dqn --dqn-vectors /nonexistent.vec --events 5 --out " +
                     testing::TempDir("cli_train_vec").string() + " --force");
  EXPECT_EQ(vectors.code, 2);
  EXPECT_NE(vectors.out.find("/nonexistent.vec"), std::string::npos) << vectors.out;
}

}  // namespace
}  // namespace roam
