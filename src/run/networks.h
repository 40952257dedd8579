// run/networks: the dqn strategy's torch network, from net/'s module (libroam_net.so) loaded
// with dlopen the first time a network is made, so commands and strategies that make none
// never load libtorch. The module is looked for beside the running binary, then where the build
// put it (ROAM_NET_MODULE). Thread-safe.
#pragma once

#include "explore/dqn.h"

namespace roam::run {

// Makes and loads torch Q-networks (explore::QNetworkMaker); a module that cannot be loaded
// gives an error naming the paths tried and dlopen's reason.
explore::QNetworkMaker TorchNetworks();

}  // namespace roam::run
