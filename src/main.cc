// The roam command line: everything lives in cli/; this only hands over argv.
#include "cli/cli.h"

int main(int argc, char** argv) { return roam::cli::Main(argc, argv); }
