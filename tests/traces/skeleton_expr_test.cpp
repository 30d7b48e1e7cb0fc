// Tests of the skeleton expression language: values computed by hand, units, and the position
// and text of every kind of error.
#include "traces/skeleton/expr.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using augur::traces::skeleton::Expr;
using augur::traces::skeleton::ExprError;
using augur::traces::skeleton::SourcePos;

namespace {

const std::vector<std::string> names{"N", "P", "rank"};
const SourcePos at{"prog.yaml", 7, 12};

/// The value of `text` with N = 10, P = 4, rank = 3.
double value(const std::string& text) {
  const std::vector<double> values{10, 4, 3};
  return Expr::parse(text, at, names).eval(values);
}

/// The message of the error `text` gives (parse or evaluation).
std::string error_of(const std::string& text) {
  try {
    value(text);
  } catch (const ExprError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("expr: precedence and associativity - by hand") {
  CHECK(value("1 + 2 * 3") == 7);        // * before +
  CHECK(value("(1 + 2) * 3") == 9);      // parentheses
  CHECK(value("10 - 4 - 3") == 3);       // left-associative: (10 - 4) - 3
  CHECK(value("2 ^ 3 ^ 2") == 512);      // right-associative: 2^(3^2) = 2^9
  CHECK(value("-2 ^ 2") == -4);          // ^ binds tighter than unary minus
  CHECK(value("2 ^ -1") == 0.5);         // unary minus in the exponent
  CHECK(value("- - 3") == 3);            // repeated unary minus
  CHECK(value("24 / 4 / 2") == 3);       // (24 / 4) / 2
  CHECK(value("7 % 3") == 1);            //
  CHECK(value("-1 % 4") == 3);           // a - b·floor(a/b) = -1 - 4·(-1)
  CHECK(value("1 + 2 < 4") == 1);        // comparison below +
  CHECK(value("N * N * N / P") == 250);  // 1000 / 4
  CHECK(value("(rank + 1) % P") == 0);   // the right neighbour of rank 3 of 4
  CHECK(value("(rank - 1 + P) % P") == 2);
}

TEST_CASE("expr: functions and comparisons") {
  CHECK(value("min(N, P, rank)") == 3);
  CHECK(value("max(N, 2 * P)") == 10);
  CHECK(value("min(5)") == 5);
  CHECK(value("ceil(N / P)") == 3);   // ceil(2.5)
  CHECK(value("floor(N / P)") == 2);  // floor(2.5)
  CHECK(value("log2(P)") == 2);
  CHECK(value("sqrt(P * 4)") == 4);
  CHECK(value("if(rank == P - 1, 100, 7)") == 100);
  CHECK(value("if(rank < 1, 100, 7)") == 7);
  CHECK(value("if(rank, 1, 1 / 0)") == 1);  // only the chosen branch is evaluated
  CHECK(value("N >= 10") == 1);
  CHECK(value("N > 10") == 0);
  CHECK(value("N <= 9") == 0);
  CHECK(value("N != 10") == 0);
}

TEST_CASE("expr: numbers with units are SI base units") {
  CHECK(value("4KiB") == 4096);
  CHECK(value("2 * 1MB") == 2e6);
  CHECK(value("8B * N") == 80);
  CHECK(value("1ms") == doctest::Approx(1e-3));
  CHECK(value("2Gflops") == 2e9);
  CHECK(value("3Mf") == 3e6);
  CHECK(value("1.5e3") == 1500);
  CHECK(value(".5") == 0.5);
}

TEST_CASE("expr: parse once - evaluate many times") {
  const Expr e = Expr::parse("(rank + 1) % P", at, names);
  for (int r = 0; r < 4; ++r) {
    const std::vector<double> values{0, 4, static_cast<double>(r)};
    CHECK(e.eval(values) == (r + 1) % 4);
  }
  CHECK(e.uses(2));
  CHECK_FALSE(e.uses(0));
  CHECK(e.text() == "(rank + 1) % P");
}

TEST_CASE("expr: every error names file:line:col") {
  // Columns: the text starts at column 12 of line 7, so byte k is column 12 + k.
  CHECK(error_of("N + M") == "prog.yaml:7:16: error: unknown name 'M' (known: N, P, rank)");
  CHECK(error_of("N $ 2") == "prog.yaml:7:14: error: unexpected '$' after the expression");
  CHECK(error_of("N / (P - 4)") == "prog.yaml:7:14: error: division by zero");
  CHECK(error_of("N % 0") == "prog.yaml:7:14: error: division by zero (%)");
  CHECK(error_of("sqrt(-1)") == "prog.yaml:7:12: error: the value is not a finite number (in 'sqrt(-1)')");
  CHECK(error_of("log2(P - 4)") == "prog.yaml:7:12: error: the value is not a finite number (in 'log2(P - 4)')");
  CHECK(error_of("10 ^ 400") == "prog.yaml:7:15: error: the value is not a finite number (in '10 ^ 400')");
  CHECK(error_of("") == "prog.yaml:7:12: error: empty expression");
  CHECK(error_of("N +") == "prog.yaml:7:15: error: expression ends too early");
  CHECK(error_of("(N + 1") == "prog.yaml:7:18: error: missing ')' to close '(' at column 12");
  CHECK(error_of("min(N, 2") == "prog.yaml:7:20: error: missing ')' to close min(");
  CHECK(error_of("sin(N)") ==
        "prog.yaml:7:12: error: unknown function 'sin' (functions: min, max, ceil, floor, log2, sqrt, if)");
  CHECK(error_of("if(N, 1)") == "prog.yaml:7:12: error: if takes 3 arguments, got 2");
  CHECK(error_of("sqrt(1, 2)") == "prog.yaml:7:12: error: sqrt takes 1 argument, got 2");
  CHECK(error_of("3 * * 2") == "prog.yaml:7:16: error: unexpected '*' (expected a number, a name or '(')");
  CHECK(error_of("4KB").starts_with("prog.yaml:7:12: error: unknown unit in '4KB' (units: B, kB"));
  CHECK(error_of("N 2") == "prog.yaml:7:14: error: unexpected '2' after the expression");
}

TEST_CASE("expr: an error in a later line of the text counts lines") {
  try {
    Expr::parse("N +\n  Q", at, names);
    FAIL("no error");
  } catch (const ExprError& e) {
    CHECK(std::string(e.what()) == "prog.yaml:8:3: error: unknown name 'Q' (known: N, P, rank)");
  }
}

TEST_CASE("expr: eval_count wants a whole number in range") {
  const std::vector<double> values{10, 4, 3};
  CHECK(Expr::parse("N * P", at, names).eval_count(values, "count", 100) == 40);
  CHECK_THROWS_WITH_AS(Expr::parse("N / P", at, names).eval_count(values, "count", 100),
                       "prog.yaml:7:12: error: count must be a whole number, got 2.5", ExprError);
  CHECK_THROWS_WITH_AS(Expr::parse("P - N", at, names).eval_count(values, "count", 100),
                       "prog.yaml:7:12: error: count must not be negative, got -6", ExprError);
  CHECK_THROWS_WITH_AS(Expr::parse("N ^ 3", at, names).eval_count(values, "count", 100),
                       "prog.yaml:7:12: error: count must be at most 100, got 1000", ExprError);
  CHECK(Expr::constant(5).eval({}) == 5);
}
