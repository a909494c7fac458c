#pragma once
#include <vector>
long relax(const std::vector<double> &v, std::vector<double> &next);
