// hcc — compiler driver that instruments C and C++ sources on the way to the
// real compiler. All logic lives in the hcc_driver_core library so the unit
// tests exercise the same code.
#include "driver.hpp"

int main(int argc, char **argv) { return hcc::driver::run_driver(argc, argv); }
