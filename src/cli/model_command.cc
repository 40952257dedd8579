// `roam model merge`: Fastbot2 models learned on several devices or machines, as one.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/flags.h"
#include "explore/fastbot.h"
#include "model/model_file.h"

namespace roam::cli {

namespace {

// A model folder (as --model takes) holds model.bin; a file is the model itself.
std::filesystem::path ModelPath(const std::filesystem::path& given) {
  std::error_code ec;
  if (std::filesystem::is_directory(given, ec) || given.extension() != ".bin")
    return explore::ModelFile(given);
  return given;
}

int ModelMergeCommand(int argc, char** argv) {
  CLI::App app(
      "Merge Fastbot2 models learned apart (other devices, other machines) into one: counts add, "
      "Q values are averaged by visits; all must be models of one app.",
      "model merge");
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path out;
  app.add_option("MODELS", inputs, "model folders (as --model takes) or model.bin files")
      ->required()
      ->check(CLI::ExistingPath);
  app.add_option("--out", out, "the merged model: a folder (model.bin in it) or a .bin file")
      ->required();
  if (int rc = ParseFlags(app, "roam model merge", argc, argv); rc >= 0) return rc;
  std::vector<model::Model> models;
  std::vector<std::string> names;
  for (const auto& in : inputs) {
    const auto path = ModelPath(in);
    auto m = model::LoadModel(path, "");
    if (!m.ok()) return Fail("roam model merge", m.status());
    models.push_back(std::move(*m));
    names.push_back(path.string());
  }
  std::vector<const model::Model*> list;
  for (const auto& m : models) list.push_back(&m);
  auto merged = model::MergeModels(list, names);
  if (!merged.ok()) return Fail("roam model merge", merged.status());
  const auto target = ModelPath(out);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (Status s = model::SaveModel(*merged, target); !s.ok()) return Fail("roam model merge", s);
  fmt::print("{} models of {} merged into {}: {} hyper-events, {} activities, {} transitions\n",
             models.size(), merged->package(), target.string(), merged->event_count(),
             merged->activity_count(), merged->transition_count());
  return kExitOk;
}

}  // namespace

int ModelCommand(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "merge") return ModelMergeCommand(argc - 1, argv + 1);
  fmt::print(stderr,
             "roam model: the one subcommand is `roam model merge MODEL... --out MODEL` (models "
             "are written by `roam explore --strategy fastbot --model DIR`)\n");
  return argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")
             ? kExitOk
             : kExitUsage;
}

}  // namespace roam::cli
