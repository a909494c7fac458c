// hcc-instrument's defaults that the command line, the rewriter and the
// cache key share (no Clang in here: the driver looks results up too).
#ifndef HCC_CACHE_POLICY_H
#define HCC_CACHE_POLICY_H

namespace hcc::rewriter {

// Which functions get a guard (--functions=auto|all|none; the filters
// apply on top, see README "Which functions").
enum class FunctionPolicy { Auto, All, None };

// Minimum size (statements + operations) of a straight-line function
// without calls worth measuring that --functions=auto still instruments.
// ~40 units is roughly XRay's 200 instructions at ~5 instructions per unit
// (an operation on doubles with its loads; a statement's stores).
constexpr unsigned kAutoMinSize = 40;

// Whether OpenMP directives are rewritten when neither --openmp=on nor
// --openmp=off is given. On: every construct the rewriter handles is tested
// under gcc/libgomp and clang/libomp (tests/openmp), and the others are left
// exactly as written.
constexpr bool kOpenMPDefault = true;

}  // namespace hcc::rewriter

#endif
