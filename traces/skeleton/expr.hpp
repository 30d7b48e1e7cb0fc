// The expression language of program skeletons: formulas of named parameters (N, P, rank, …)
// parsed once into a tree and evaluated many times. Every error is "file:line:col: error: ...".
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace augur::traces::skeleton {

/// Where an expression's text starts in its file (1-based line and column).
struct SourcePos {
  std::string file;
  int line = 0;
  int column = 0;
};

/// A malformed expression, or one whose value cannot be computed. what() is
/// "file:line:col: error: message", the position of the offending token.
class ExprError : public std::runtime_error {
 public:
  ExprError(const SourcePos& at, const std::string& message);
  const SourcePos& at() const { return at_; }
  const std::string& message() const { return message_; }

 private:
  SourcePos at_;
  std::string message_;
};

/// A parsed expression.
///
/// Grammar (usual precedence, lowest first; `^` is right-associative and binds tighter than a
/// unary minus, so -2^2 = -4):
///   expr    := sum [('<' | '<=' | '>' | '>=' | '==' | '!=') sum]     (true = 1, false = 0)
///   sum     := product (('+' | '-') product)*
///   product := unary (('*' | '/' | '%') unary)*                       (a % b = a - b·floor(a/b))
///   unary   := '-' unary | power
///   power   := primary ['^' unary]
///   primary := NUMBER [UNIT] | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
/// A unit suffix written right after a number scales it to SI base units with machines/units.hpp:
/// bytes (B, kB, KiB, MB, MiB, …), times (s, ms, us, ns), bandwidths (GBps, …) and flop counts
/// (f, kf, Mf, Gf, flops, kflops, Mflops, Gflops); units are not dimension-checked.
/// Functions: min and max (one or more arguments), ceil, floor, log2, sqrt (one), if(c, a, b)
/// (a when c ≠ 0, else b; only the chosen branch is evaluated).
class Expr {
 public:
  /// Parses `text`, whose first character is at `at`. A NAME must be one of `names`; evaluation
  /// takes their values in that order. Throws ExprError.
  static Expr parse(std::string_view text, const SourcePos& at, std::span<const std::string> names);

  /// A constant (no text, no names).
  static Expr constant(double value);

  /// The value for `values` (one per name given to parse). Throws ExprError at the operator of
  /// a division by zero or of any non-finite intermediate result.
  double eval(std::span<const double> values) const;

  /// eval() as a non-negative integer: throws ExprError when the value is negative, above
  /// `max`, or not a whole number ("`what` must be a whole number, got 2.5").
  std::uint64_t eval_count(std::span<const double> values, std::string_view what, double max) const;

  /// The text as written, for messages.
  const std::string& text() const { return text_; }
  const SourcePos& position() const { return at_; }
  /// True when the expression uses the name of index `name` (for "depends on rank" checks).
  bool uses(std::size_t name) const;

  enum class Op : std::uint8_t;
  struct Node {
    Op op;
    std::int32_t a = -1, b = -1, c = -1;  ///< children (node indices)
    double value = 0;                     ///< number, or the name's index
    std::uint32_t offset = 0;             ///< of the token in the text, for errors
  };

 private:
  friend class ExprParser;
  double eval_node(std::int32_t index, std::span<const double> values) const;
  double checked(const Node& node, double value) const;
  [[noreturn]] void fail(std::uint32_t offset, const std::string& message) const;

  std::string text_;
  SourcePos at_;
  std::vector<Node> nodes_;
  std::int32_t root_ = -1;
};

/// The position of byte `offset` of an expression's text that starts at `at` (lines counted).
SourcePos position_in(const SourcePos& at, std::string_view text, std::size_t offset);

}  // namespace augur::traces::skeleton
