// The one translation unit that includes libtorch.
#include "net/qnet.h"

#include <cmath>
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

// Adam (torch::optim::Adam's defaults: betas 0.9 and 0.999, eps 1e-8, no weight decay) over
// every parameter at once: the parameters become views of one buffer and their gradients views
// of another, so a step is six tensor operations rather than six for each of the network's
// twelve tensors (each a dispatch through libtorch costing more than its arithmetic here). The
// arithmetic is torch's, element by element, so the losses are the same.
class FlatAdam {
 public:
  explicit FlatAdam(double learning_rate) : learning_rate_(learning_rate) {}
  // Makes `params` views of one buffer (their values kept) and their gradients views of a
  // zeroed one. Again after the parameters' storage was replaced (Module::load).
  void Flatten(const std::vector<torch::Tensor>& params) {
    torch::NoGradGuard no_grad;
    int64_t total = 0;
    for (const auto& p : params) total += p.numel();
    values_ = torch::empty({total}, torch::kFloat32);
    grads_ = torch::zeros({total}, torch::kFloat32);
    exp_avg_ = torch::zeros({total}, torch::kFloat32);
    exp_avg_sq_ = torch::zeros({total}, torch::kFloat32);
    denom_ = torch::empty({total}, torch::kFloat32);
    steps_ = 0;
    int64_t at = 0;
    for (auto p : params) {
      auto value = values_.narrow(0, at, p.numel()).view(p.sizes());
      value.copy_(p);
      p.set_data(value);
      p.mutable_grad() = grads_.narrow(0, at, p.numel()).view(p.sizes());
      at += p.numel();
    }
  }
  void ZeroGrad() { grads_.zero_(); }
  void Step() {
    torch::NoGradGuard no_grad;
    constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
    ++steps_;
    const double correction1 = 1 - std::pow(kBeta1, steps_);
    const double correction2 = 1 - std::pow(kBeta2, steps_);
    exp_avg_.mul_(kBeta1).add_(grads_, 1 - kBeta1);
    exp_avg_sq_.mul_(kBeta2).addcmul_(grads_, grads_, 1 - kBeta2);
    // Into a buffer of its own: a fresh tensor of this size a step costs glibc a consolidation
    // of its free lists when freed.
    torch::sqrt_out(denom_, exp_avg_sq_).div_(std::sqrt(correction2)).add_(kEps);
    values_.addcdiv_(exp_avg_, denom_, -learning_rate_ / correction1);
  }

 private:
  double learning_rate_;
  torch::Tensor values_, grads_, exp_avg_, exp_avg_sq_, denom_;
  int64_t steps_ = 0;
};

class TorchQNetwork final : public explore::QNetwork {
 public:
  TorchQNetwork(const explore::DqnShape& shape, double learning_rate)
      : net_(std::make_shared<QNetImpl>(shape)), adam_(learning_rate) {
    adam_.Flatten(net_->parameters());
  }

  void Predict(const float* rows, size_t n, float* q) override {
    torch::NoGradGuard no_grad;
    auto result = net_->forward(Rows(rows, n)).contiguous();
    std::copy_n(result.data_ptr<float>(), n, q);
  }

  double Fit(const float* rows, const float* targets, size_t n) override {
    auto target =
        torch::from_blob(const_cast<float*>(targets), {static_cast<int64_t>(n)}, torch::kFloat32);
    auto loss = torch::mse_loss(net_->forward(Rows(rows, n)), target);
    adam_.ZeroGrad();
    loss.backward();
    adam_.Step();
    return loss.item<double>();
  }

  std::string Weights() const override {
    // Saved from a copy: a parameter is a view of one buffer, and libtorch's archive would
    // write the whole buffer for each.
    auto copy = std::make_shared<QNetImpl>(net_->shape);
    {
      torch::NoGradGuard no_grad;
      auto from = net_->parameters();
      auto to = copy->parameters();
      for (size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
    }
    torch::serialize::OutputArchive archive;
    copy->save(archive);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
  }

  QNetImpl& net() { return *net_; }
  // After Module::load replaced the parameters' storage.
  void Reflatten() { adam_.Flatten(net_->parameters()); }

 private:
  torch::Tensor Rows(const float* rows, size_t n) const {
    return torch::from_blob(const_cast<float*>(rows),
                            {static_cast<int64_t>(n), net_->shape.width()}, torch::kFloat32);
  }
  std::shared_ptr<QNetImpl> net_;
  FlatAdam adam_;
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
    network->Reflatten();
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
