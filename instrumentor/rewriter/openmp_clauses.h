// The text of an OpenMP pragma as the OpenMP rewriter needs it: the
// directive's words taken off, the clauses split at top level, and the
// clause routing of combined constructs (`parallel for` → `parallel` +
// `for`). Pure text work, no Clang: the AST gives exact extents, the clause
// text is re-emitted as written.
#ifndef HCC_REWRITER_OPENMP_CLAUSES_H
#define HCC_REWRITER_OPENMP_CLAUSES_H

#include <string>
#include <vector>

namespace hcc::rewriter::omp {

struct Clause {
  std::string name;  // "reduction"
  std::string args;  // "+:s" (without the parentheses); "" when none
  std::string text() const { return args.empty() && !had_parens ? name : name + "(" + args + ")"; }
  bool had_parens = false;
};

// `#pragma omp parallel for reduction(+:s) \<nl> schedule(static) // c`
// → the words after `omp` up to the first clause are not returned; the
// clauses are. `words` is how many directive words to skip (2 for
// `parallel for`); a `(name)` right after `critical` and a `(list)` right after
// `flush` go to `paren_arg`.
struct PragmaText {
  std::vector<std::string> words;
  std::string paren_arg;
  std::vector<Clause> clauses;
};

// `raw` is the pragma line(s) as in the file, from `#` to the end of its
// last (continued) line. Returns false on text it does not understand.
bool parsePragma(const std::string &raw, unsigned words, PragmaText &out);

// Variables named in a clause's list: `+:a,b[0:n]` → a, b (the part after
// the last top-level ':' when `after_colon`).
std::vector<std::string> clauseVariables(const std::string &args, bool after_colon);

// `#pragma omp simd \<nl> safelen(8) // c` → "omp simd  safelen(8)": what a
// _Pragma re-issuing the directive as written needs (continuations joined,
// a trailing `//` comment dropped). False when the text holds a block
// comment (commenting the original out would end at its `*/`).
bool pragmaBody(const std::string &raw, std::string &body);

// Clause text for a _Pragma("…") string literal.
std::string escapeForPragma(const std::string &text);

// Clauses of a combined `parallel <worksharing>` that belong to `parallel`;
// the rest go to the worksharing part.
bool belongsToParallel(const Clause &c);

// The directive-name modifier of an `if` clause (`if(taskloop: n > 8)` →
// "taskloop"), "" when it has none.
std::string ifModifier(const Clause &c);

bool hasClause(const std::vector<Clause> &cs, const std::string &name);

// A `reduction(task, …)` among `cs`: such a construct may not take
// `nowait`, so its implicit barrier stays (unmeasured, inside the region).
bool hasTaskReduction(const std::vector<Clause> &cs);
std::string joinClauses(const std::vector<Clause> &cs);

}  // namespace hcc::rewriter::omp

#endif
