// The one translation unit that includes libtorch.
#include "net/qnet.h"

#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <torch/torch.h>

#include "net/stored_tensors.h"

namespace roam::net {

namespace {

constexpr int kFilters = 64, kKernel = 3, kFcr = 16, kFcd = 32, kHidden1 = 64, kHidden2 = 32;

struct QNetImpl : torch::nn::Module {
  explicit QNetImpl(const explore::DqnShape& s) : shape(s) {
    conv = register_module(
        "conv",
        torch::nn::Conv1d(torch::nn::Conv1dOptions(s.dim, kFilters, kKernel).padding(kKernel / 2)));
    fcr = register_module("fcr", torch::nn::Linear(1, kFcr));
    fcd = register_module("fcd", torch::nn::Linear(s.fcd_width(), kFcd));
    dense1 = register_module("dense1", torch::nn::Linear(kFilters + kFcr + kFcd, kHidden1));
    dense2 = register_module("dense2", torch::nn::Linear(kHidden1, kHidden2));
    out = register_module("out", torch::nn::Linear(kHidden2, 1));
  }
  // rows: [n, width] as explore::EventRow lays them out.
  torch::Tensor forward(const torch::Tensor& rows) {
    const int64_t n = rows.size(0);
    auto fcr_in = rows.narrow(1, 0, 1);
    auto fcd_in = rows.narrow(1, 1, shape.fcd_width());
    // [n, words * dim] -> [n, words, dim] -> [n, dim, words]: channels are the vector entries.
    auto txc_in = rows.narrow(1, 1 + shape.fcd_width(), shape.txc_width())
                      .reshape({n, shape.words, shape.dim});
    auto txc = torch::relu(conv(txc_in.transpose(1, 2))).amax(2);
    auto merged = torch::cat({txc, torch::relu(fcr(fcr_in)), torch::relu(fcd(fcd_in))}, 1);
    return out(torch::relu(dense2(torch::relu(dense1(merged))))).squeeze(1);
  }
  explore::DqnShape shape;
  torch::nn::Conv1d conv{nullptr};
  torch::nn::Linear fcr{nullptr}, fcd{nullptr}, dense1{nullptr}, dense2{nullptr}, out{nullptr};
};

std::string FirstLine(std::string what) {
  if (size_t cut = what.find('\n'); cut != std::string::npos) what.resize(cut);
  return what;
}

void OneThread() {
  static std::once_flag once;
  std::call_once(once, [] {
    torch::set_num_threads(1);
    torch::set_num_interop_threads(1);
  });
}

class TorchQNetwork final : public explore::QNetwork {
 public:
  TorchQNetwork(const explore::DqnShape& shape, double learning_rate)
      : net_(std::make_shared<QNetImpl>(shape)),
        adam_(net_->parameters(), torch::optim::AdamOptions(learning_rate)) {}

  void Predict(const float* rows, size_t n, float* q) override {
    torch::NoGradGuard no_grad;
    auto result = net_->forward(Rows(rows, n)).contiguous();
    std::copy_n(result.data_ptr<float>(), n, q);
  }

  double Fit(const float* rows, const float* targets, size_t n) override {
    auto target =
        torch::from_blob(const_cast<float*>(targets), {static_cast<int64_t>(n)}, torch::kFloat32);
    auto loss = torch::mse_loss(net_->forward(Rows(rows, n)), target);
    adam_.zero_grad();
    loss.backward();
    adam_.step();
    return loss.item<double>();
  }

  std::string Weights() const override {
    torch::serialize::OutputArchive archive;
    net_->save(archive);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
  }

  QNetImpl& net() { return *net_; }

 private:
  torch::Tensor Rows(const float* rows, size_t n) const {
    return torch::from_blob(const_cast<float*>(rows),
                            {static_cast<int64_t>(n), net_->shape.width()}, torch::kFloat32);
  }
  std::shared_ptr<QNetImpl> net_;
  torch::optim::Adam adam_;
};

}  // namespace
}  // namespace roam::net

extern "C" roam::explore::QNetwork* RoamNetFresh(const roam::explore::DqnShape* shape,
                                                 double learning_rate, uint64_t seed,
                                                 std::string* error) {
  try {
    roam::net::OneThread();
    torch::manual_seed(seed);
    return new roam::net::TorchQNetwork(*shape, learning_rate);
  } catch (const std::exception& e) {
    *error = roam::net::FirstLine(e.what());
    return nullptr;
  } catch (...) {
    *error = "the network library failed";
    return nullptr;
  }
}

extern "C" roam::explore::QNetwork* RoamNetLoad(const char* weights, size_t size,
                                                const roam::explore::DqnShape* shape,
                                                double learning_rate, std::string* error) {
  using roam::net::CheckStoredTensors;
  using roam::net::TorchQNetwork;
  try {
    roam::net::OneThread();
    auto network = std::make_unique<TorchQNetwork>(*shape, learning_rate);
    std::vector<std::vector<int64_t>> expected;
    std::vector<uint64_t> bytes;
    for (const auto& p : network->net().parameters()) {
      expected.push_back(p.sizes().vec());
      bytes.push_back(static_cast<uint64_t>(p.numel()) * p.element_size());
    }
    // libtorch trusts the sizes its archive claims: check the stored tensors before it reads.
    if (std::string fault = CheckStoredTensors({weights, size}, bytes); !fault.empty()) {
      *error = "the network's weights do not load: " + fault;
      return nullptr;
    }
    std::istringstream in{std::string(weights, size)};
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    network->net().load(archive);
    // load() takes tensors of any size: a network of another shape must not slip through.
    auto params = network->net().parameters();
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].sizes().vec() != expected[i]) {
        *error = fmt::format(
            "the network's weights are of another shape (parameter {}: {} values, expected {})", i,
            params[i].numel(), c10::multiply_integers(expected[i]));
        return nullptr;
      }
    // One answer before it is handed out, so a fault the archive hides shows here, caught.
    const std::vector<float> row(static_cast<size_t>(shape->width()), 0.0f);
    float q = 0;
    network->Predict(row.data(), 1, &q);
    return network.release();
  } catch (const std::exception& e) {  // c10::Error among them
    *error = "the network's weights do not load: " + roam::net::FirstLine(e.what());
    return nullptr;
  } catch (...) {
    *error = "the network's weights do not load: the network library failed";
    return nullptr;
  }
}
