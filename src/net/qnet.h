// net/: the networks that need libtorch, kept to this one layer and one translation unit
// (qnet.cc) so the rest of the build never parses torch's headers.
//
// DinoDroid's Q-network (the paper's Fig. 6): TXC, a words x dim matrix, goes through a 1-D
// convolution over the words (64 filters, width 3) and a max-pool over positions; FCR through a
// dense layer of 16 and FCD through one of 32 (ReLU each); the three are concatenated and pass
// three dense layers (64, 32, 1; the last linear) to one Q value per event. Adam at the given
// learning rate on the mean squared error. One thread (torch::set_num_threads(1)): a decision
// must not compete with the simulator for the machine's cores.
#pragma once

#include "explore/dqn.h"

namespace roam::net {

// Makes and loads the torch Q-network (explore::QNetworkMaker).
explore::QNetworkMaker TorchNetworks();

}  // namespace roam::net
