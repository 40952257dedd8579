// The torch Q-network (net/qnet.cc) as run/networks loads it.
#include <numeric>

#include <gtest/gtest.h>

#include "base/rng.h"
#include "run/networks.h"

namespace roam::run {
namespace {

explore::DqnShape Shape() { return {.words = 6, .dim = 20, .generations = 3, .histogram = 10}; }

std::vector<float> RandomRows(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> rows(n * Shape().width());
  for (float& x : rows) x = static_cast<float>(rng.Unit() * 2 - 1);
  return rows;
}

TEST(QNet, OneTrainingStepLowersTheLossOnAFixedBatch) {
  auto made = TorchNetworks().fresh(Shape(), 1e-3, 1);
  ASSERT_TRUE(made.ok());
  auto& net = **made;
  auto rows = RandomRows(5, 2);
  std::vector<float> targets = {5, -2, -2, 5, -2};
  double first = net.Fit(rows.data(), targets.data(), 5);
  double second = net.Fit(rows.data(), targets.data(), 5);
  EXPECT_LT(second, first);
  for (int i = 0; i < 300; ++i) net.Fit(rows.data(), targets.data(), 5);
  std::vector<float> q(5);
  net.Predict(rows.data(), 5, q.data());
  for (size_t i = 0; i < 5; ++i) EXPECT_NEAR(q[i], targets[i], 1.0) << i;
}

TEST(QNet, ABatchGivesEachEventItsOwnQAndWeightsRoundTrip) {
  auto a = TorchNetworks().fresh(Shape(), 1e-4, 7);
  auto b = TorchNetworks().fresh(Shape(), 1e-4, 7);
  ASSERT_TRUE(a.ok() && b.ok());
  auto rows = RandomRows(50, 3);
  std::vector<float> qa(50), qb(50), one(1);
  (*a)->Predict(rows.data(), 50, qa.data());
  (*b)->Predict(rows.data(), 50, qb.data());
  EXPECT_EQ(qa, qb);  // one seed, one network
  (*a)->Predict(rows.data() + 17 * Shape().width(), 1, one.data());
  EXPECT_NEAR(one[0], qa[17], 1e-5);  // a row's Q does not depend on the rest of the batch
  EXPECT_GT(*std::max_element(qa.begin(), qa.end()) - *std::min_element(qa.begin(), qa.end()),
            1e-6);

  std::string weights = (*a)->Weights();
  auto c = TorchNetworks().load(weights, Shape(), 1e-4, "m.bin");
  ASSERT_TRUE(c.ok()) << c.status().message();
  std::vector<float> qc(50);
  (*c)->Predict(rows.data(), 50, qc.data());
  EXPECT_EQ(qa, qc);

  auto bad = TorchNetworks().load(weights.substr(0, weights.size() / 2), Shape(), 1e-4, "m.bin");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("m.bin: the network's weights do not load"),
            std::string::npos);
  explore::DqnShape other = Shape();
  other.dim = 30;
  EXPECT_FALSE(TorchNetworks().load(weights, other, 1e-4, "m.bin").ok());
}

// A network made from saved weights learns as a fresh one does, and what it saves after learning
// is what it has learnt (its parameters share one buffer with the optimiser: net/qnet.cc).
TEST(QNet, ALoadedNetworkLearnsAndSavesWhatItLearnt) {
  auto fresh = TorchNetworks().fresh(Shape(), 1e-3, 5);
  ASSERT_TRUE(fresh.ok());
  auto loaded = TorchNetworks().load((*fresh)->Weights(), Shape(), 1e-3, "m.bin");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto& net = **loaded;
  auto rows = RandomRows(5, 4);
  std::vector<float> targets = {5, -2, -2, 5, -2};
  const double first = net.Fit(rows.data(), targets.data(), 5);
  double last = first;
  for (int i = 0; i < 300; ++i) last = net.Fit(rows.data(), targets.data(), 5);
  EXPECT_LT(last, first / 10);
  std::vector<float> q(5), saved_q(5);
  net.Predict(rows.data(), 5, q.data());
  auto saved = TorchNetworks().load(net.Weights(), Shape(), 1e-3, "m.bin");
  ASSERT_TRUE(saved.ok());
  (*saved)->Predict(rows.data(), 5, saved_q.data());
  EXPECT_EQ(q, saved_q);
  // Its weights are one network's, not a buffer per parameter.
  EXPECT_LT(net.Weights().size(), (*fresh)->Weights().size() * 11 / 10);
}

}  // namespace
}  // namespace roam::run
