// The skeleton expression language (expr.hpp): a recursive-descent parser into a node vector and
// a recursive evaluator that checks every intermediate value.
#include "traces/skeleton/expr.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "machines/units.hpp"

namespace augur::traces::skeleton {

enum class Expr::Op : std::uint8_t {
  number,
  name,
  neg,
  add,
  sub,
  mul,
  div,
  mod,
  pow,
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
  min,
  max,
  ceil,
  floor,
  log2,
  sqrt,
  if_,
};

namespace {

using Op = Expr::Op;

struct Function {
  std::string_view name;
  Op op;
  int arity;  ///< -1: one or more (min, max)
};
constexpr std::array functions{
    Function{"min", Op::min, -1},    Function{"max", Op::max, -1},  Function{"ceil", Op::ceil, 1},
    Function{"floor", Op::floor, 1}, Function{"log2", Op::log2, 1}, Function{"sqrt", Op::sqrt, 1},
    Function{"if", Op::if_, 3},
};

struct Comparison {
  std::string_view text;
  Op op;
};
// Two-character spellings first, so "<=" is not read as "<".
constexpr std::array comparisons{
    Comparison{"<=", Op::le}, Comparison{">=", Op::ge}, Comparison{"==", Op::eq},
    Comparison{"!=", Op::ne}, Comparison{"<", Op::lt},  Comparison{">", Op::gt},
};

constexpr std::array unit_kinds{machines::UnitKind::bytes, machines::UnitKind::time, machines::UnitKind::bandwidth,
                                machines::UnitKind::flop_rate};

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

ExprError::ExprError(const SourcePos& at, const std::string& message)
    : std::runtime_error(at.file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                         ": error: " + message),
      at_(at),
      message_(message) {}

SourcePos position_in(const SourcePos& at, std::string_view text, std::size_t offset) {
  SourcePos pos = at;
  offset = std::min(offset, text.size());
  const auto newline = text.substr(0, offset).rfind('\n');
  if (newline == std::string_view::npos) {
    pos.column += static_cast<int>(offset);
  } else {
    pos.line += static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    pos.column = static_cast<int>(offset - newline);
  }
  return pos;
}

/// Recursive descent over the text; appends nodes to the expression and returns their indices.
class ExprParser {
 public:
  ExprParser(Expr& expr, std::span<const std::string> names) : expr_(expr), text_(expr.text_), names_(names) {}

  std::int32_t parse_all() {
    const std::int32_t root = comparison();
    skip_blanks();
    if (pos_ < text_.size()) fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "' after the expression");
    return root;
  }

 private:
  std::int32_t comparison() {
    const std::int32_t left = sum();
    skip_blanks();
    for (const Comparison& c : comparisons) {
      if (text_.substr(pos_).starts_with(c.text)) {
        const auto at = pos_;
        pos_ += c.text.size();
        return add(c.op, at, left, sum());
      }
    }
    return left;
  }

  std::int32_t sum() {
    std::int32_t left = product();
    while (true) {
      skip_blanks();
      if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) return left;
      const auto at = pos_++;
      left = add(text_[at] == '+' ? Op::add : Op::sub, at, left, product());
    }
  }

  std::int32_t product() {
    std::int32_t left = unary();
    while (true) {
      skip_blanks();
      if (pos_ >= text_.size()) return left;
      const char c = text_[pos_];
      if (c != '*' && c != '/' && c != '%') return left;
      const auto at = pos_++;
      left = add(c == '*' ? Op::mul : c == '/' ? Op::div : Op::mod, at, left, unary());
    }
  }

  std::int32_t unary() {
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == '-') {
      const auto at = pos_++;
      return add(Op::neg, at, unary());
    }
    return power();
  }

  std::int32_t power() {
    const std::int32_t base = primary();
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == '^') {
      const auto at = pos_++;
      return add(Op::pow, at, base, unary());
    }
    return base;
  }

  std::int32_t primary() {
    skip_blanks();
    if (pos_ >= text_.size()) fail(pos_, text_.empty() ? "empty expression" : "expression ends too early");
    const char c = text_[pos_];
    if (c == '(') {
      const auto open = pos_++;
      const std::int32_t inner = comparison();
      expect(')', "'(' at column " + std::to_string(position_in(expr_.at_, text_, open).column));
      return inner;
    }
    if (is_digit(c) || c == '.') return number();
    if (is_name_start(c)) return name_or_call();
    fail(pos_, "unexpected '" + std::string(1, c) + "' (expected a number, a name or '(')");
  }

  std::int32_t number() {
    const auto start = pos_;
    double value = 0;
    const auto [end, error] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
    if (error != std::errc{}) fail(start, "'" + token_at(start) + "' is not a number");
    pos_ = static_cast<std::size_t>(end - text_.data());
    if (pos_ < text_.size() && is_name_start(text_[pos_])) {
      while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
      value = with_unit(start);
    }
    return add_number(value, start);
  }

  double with_unit(std::size_t start) {
    const std::string_view quantity = text_.substr(start, pos_ - start);
    for (machines::UnitKind kind : unit_kinds) {
      try {
        return machines::parse_quantity(quantity, kind);
      } catch (const machines::UnitError&) {
      }
    }
    std::string accepted;
    for (machines::UnitKind kind : unit_kinds)
      accepted += (accepted.empty() ? "" : "; ") + machines::accepted_suffixes(kind);
    fail(start, "unknown unit in '" + std::string(quantity) + "' (units: " + accepted + ")");
  }

  std::int32_t name_or_call() {
    const auto start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == '(') return call(word, start);
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == word) {
        Expr::Node node{Op::name};
        node.value = static_cast<double>(i);
        node.offset = static_cast<std::uint32_t>(start);
        return push(node);
      }
    }
    std::string known;
    for (const std::string& n : names_) known += (known.empty() ? "" : ", ") + n;
    fail(start, "unknown name '" + std::string(word) + "' (known: " + (known.empty() ? "none" : known) + ")");
  }

  std::int32_t call(std::string_view word, std::size_t start) {
    const auto found =
        std::find_if(functions.begin(), functions.end(), [&](const Function& f) { return f.name == word; });
    if (found == functions.end()) {
      fail(start, "unknown function '" + std::string(word) + "' (functions: min, max, ceil, floor, log2, sqrt, if)");
    }
    ++pos_;
    std::vector<std::int32_t> args{comparison()};
    skip_blanks();
    while (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      args.push_back(comparison());
      skip_blanks();
    }
    expect(')', std::string(word) + "(");
    const int n = static_cast<int>(args.size());
    if (found->arity > 0 && n != found->arity) {
      fail(start, std::string(word) + " takes " + std::to_string(found->arity) + " argument" +
                      (found->arity == 1 ? "" : "s") + ", got " + std::to_string(n));
    }
    if (found->op == Op::if_) return add(Op::if_, start, args[0], args[1], args[2]);
    if (found->arity == 1) return add(found->op, start, args[0]);
    std::int32_t result = args[0];  // min/max of several: a left-leaning chain of pairs
    for (std::size_t i = 1; i < args.size(); ++i) result = add(found->op, start, result, args[i]);
    if (args.size() == 1) result = add(found->op, start, result, result);
    return result;
  }

  void expect(char c, const std::string& what) {
    skip_blanks();
    if (pos_ >= text_.size()) fail(pos_, "missing '" + std::string(1, c) + "' to close " + what);
    if (text_[pos_] != c) {
      fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "' (expected '" + std::string(1, c) + "' to close " +
                     what + ")");
    }
    ++pos_;
  }

  std::string token_at(std::size_t at) const {
    auto end = at;
    while (end < text_.size() && text_[end] != ' ' && text_[end] != ')' && text_[end] != ',') ++end;
    return std::string(text_.substr(at, end - at));
  }

  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
  }

  std::int32_t add_number(double value, std::size_t at) {
    Expr::Node node{Op::number};
    node.value = value;
    node.offset = static_cast<std::uint32_t>(at);
    return push(node);
  }

  std::int32_t add(Op op, std::size_t at, std::int32_t a, std::int32_t b = -1, std::int32_t c = -1) {
    Expr::Node node{op};
    node.a = a;
    node.b = b;
    node.c = c;
    node.offset = static_cast<std::uint32_t>(at);
    return push(node);
  }

  std::int32_t push(const Expr::Node& node) {
    expr_.nodes_.push_back(node);
    return static_cast<std::int32_t>(expr_.nodes_.size() - 1);
  }

  [[noreturn]] void fail(std::size_t at, const std::string& message) const {
    throw ExprError(position_in(expr_.at_, text_, at), message);
  }

  Expr& expr_;
  std::string_view text_;
  std::span<const std::string> names_;
  std::size_t pos_ = 0;
};

Expr Expr::parse(std::string_view text, const SourcePos& at, std::span<const std::string> names) {
  Expr expr;
  expr.text_ = std::string(text);
  expr.at_ = at;
  ExprParser parser(expr, names);
  expr.root_ = parser.parse_all();
  return expr;
}

Expr Expr::constant(double value) {
  Expr expr;
  expr.nodes_.push_back(Node{Op::number, -1, -1, -1, value, 0});
  expr.root_ = 0;
  return expr;
}

double Expr::eval(std::span<const double> values) const { return eval_node(root_, values); }

std::uint64_t Expr::eval_count(std::span<const double> values, std::string_view what, double max) const {
  const double v = eval(values);
  const std::uint32_t at = 0;  // the whole expression's value is wrong: point at its start
  auto show = [](double x) {
    std::array<char, 32> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x);
    return std::string(buf.data(), r.ptr);
  };
  if (v < 0) fail(at, std::string(what) + " must not be negative, got " + show(v));
  if (v != std::floor(v)) fail(at, std::string(what) + " must be a whole number, got " + show(v));
  if (v > max) fail(at, std::string(what) + " must be at most " + show(max) + ", got " + show(v));
  return static_cast<std::uint64_t>(v);
}

bool Expr::uses(std::size_t name) const {
  return std::any_of(nodes_.begin(), nodes_.end(),
                     [&](const Node& n) { return n.op == Op::name && static_cast<std::size_t>(n.value) == name; });
}

double Expr::eval_node(std::int32_t index, std::span<const double> values) const {
  const Node& n = nodes_[static_cast<std::size_t>(index)];
  auto arg = [&](std::int32_t i) { return eval_node(i, values); };
  switch (n.op) {
    case Op::number:
      return n.value;
    case Op::name:
      return values[static_cast<std::size_t>(n.value)];
    case Op::if_:
      return arg(n.a) != 0 ? arg(n.b) : arg(n.c);
    case Op::neg:
      return -arg(n.a);
    case Op::ceil:
      return std::ceil(arg(n.a));
    case Op::floor:
      return std::floor(arg(n.a));
    case Op::log2:
      return checked(n, std::log2(arg(n.a)));
    case Op::sqrt:
      return checked(n, std::sqrt(arg(n.a)));
    default:
      break;
  }
  const double a = arg(n.a);
  const double b = arg(n.b);
  switch (n.op) {
    case Op::add:
      return checked(n, a + b);
    case Op::sub:
      return checked(n, a - b);
    case Op::mul:
      return checked(n, a * b);
    case Op::div:
      if (b == 0) fail(n.offset, "division by zero");
      return checked(n, a / b);
    case Op::mod:
      if (b == 0) fail(n.offset, "division by zero (%)");
      return checked(n, a - b * std::floor(a / b));
    case Op::pow:
      return checked(n, std::pow(a, b));
    case Op::lt:
      return a < b ? 1 : 0;
    case Op::le:
      return a <= b ? 1 : 0;
    case Op::gt:
      return a > b ? 1 : 0;
    case Op::ge:
      return a >= b ? 1 : 0;
    case Op::eq:
      return a == b ? 1 : 0;
    case Op::ne:
      return a != b ? 1 : 0;
    case Op::min:
      return std::min(a, b);
    default:  // Op::max
      return std::max(a, b);
  }
}

double Expr::checked(const Node& node, double value) const {
  if (!std::isfinite(value)) fail(node.offset, "the value is not a finite number (in '" + text_ + "')");
  return value;
}

void Expr::fail(std::uint32_t offset, const std::string& message) const {
  throw ExprError(position_in(at_, text_, offset), message);
}

}  // namespace augur::traces::skeleton
