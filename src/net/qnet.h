// net/: the networks that need libtorch, kept to this one layer and one translation unit
// (qnet.cc) so the rest of the build never parses torch's headers.
//
// DinoDroid's Q-network (the paper's Fig. 6): TXC, a words x dim matrix, goes through a 1-D
// convolution over the words (64 filters, width 3) and a max-pool over positions; FCR through a
// dense layer of 16 and FCD through one of 32 (ReLU each); the three are concatenated and pass
// three dense layers (64, 32, 1; the last linear) to one Q value per event. Adam at the given
// learning rate on the mean squared error. One thread (torch::set_num_threads(1)): a decision
// must not compete with the simulator for the machine's cores.
//
// Built as a module (libroam_net.so) that `roam` loads with dlopen only when a dqn network is
// made (run/networks.h): libtorch takes about half a second to load and register its operators,
// which no other command should pay. The entry points are plain C symbols; errors come back as
// text, so this side needs nothing from base/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "explore/dqn.h"

extern "C" {

// A fresh network with weights drawn from `seed`; null and `*error` set on failure.
roam::explore::QNetwork* RoamNetFresh(const roam::explore::DqnShape* shape, double learning_rate,
                                      uint64_t seed, std::string* error);
// A network with saved weights (QNetwork::Weights()); null and `*error` set when they do not
// load or are of another shape.
roam::explore::QNetwork* RoamNetLoad(const char* weights, size_t size,
                                     const roam::explore::DqnShape* shape, double learning_rate,
                                     std::string* error);
}
