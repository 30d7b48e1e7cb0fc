// The text reports' number appender (models/report/fixed_text.hpp) against hand-written columns
// and against fmt's "{:>W.Pf}", which it replaces: ties, signs, zeros, non-finite values, huge
// values, narrow and wide columns, random bit patterns.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "models/report/fixed_text.hpp"

namespace {

using augur::models::report::detail::append_fixed;
using augur::models::report::detail::append_right;

std::string fixed(double v, int precision, int width) {
  std::string out = "|";
  append_fixed(out, v, precision, width);
  return out;
}

std::string with_fmt(double v, int precision, int width) {
  if (std::fabs(v) >= 1e15) return "|" + fmt::format("{:>{}.{}e}", v, width, precision);
  return "|" + fmt::format("{:>{}.{}f}", v, width, precision);
}

}  // namespace

TEST_CASE("append_fixed: columns written by hand") {
  CHECK(fixed(0.365010, 4, 10) == "|    0.3650");
  CHECK(fixed(1.2186, 4, 10) == "|    1.2186");
  CHECK(fixed(4.0, 0, 10) == "|         4");
  CHECK(fixed(-2.5, 4, 8) == "| -2.5000");
  // Ties go to the even digit, as printf and fmt round: 1/32 = 0.03125 -> 0.0312, 3/32 = 0.09375
  // -> 0.0938, 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.
  CHECK(fixed(0.03125, 4, 0) == "|0.0312");
  CHECK(fixed(0.09375, 4, 0) == "|0.0938");
  CHECK(fixed(0.5, 0, 0) == "|0");
  CHECK(fixed(1.5, 0, 0) == "|2");
  CHECK(fixed(2.5, 0, 0) == "|2");
  // Not a tie: 0.00005 is 5.00000000000000023960868011929e-05 in binary, so it rounds up.
  CHECK(fixed(0.00005, 4, 0) == "|0.0001");
  // Wider than the column: the column grows, nothing is cut.
  CHECK(fixed(123456789.0, 4, 10) == "|123456789.0000");
  CHECK(fixed(-0.0, 4, 8) == "| -0.0000");
  CHECK(fixed(std::numeric_limits<double>::infinity(), 4, 6) == "|   inf");
  CHECK(fixed(-std::numeric_limits<double>::infinity(), 4, 0) == "|-inf");
  CHECK(fixed(std::numeric_limits<double>::quiet_NaN(), 4, 5) == "|  nan");
  // No 300-digit numbers: from 10^15 on, the exponent form.
  CHECK(fixed(1e300, 4, 12) == "| 1.0000e+300");
  CHECK(fixed(-2.5e15, 2, 0) == "|-2.50e+15");
  CHECK(fixed(999999999999999.0, 1, 0) == "|999999999999999.0");
}

TEST_CASE("append_fixed writes what fmt writes") {
  for (int precision : {0, 1, 2, 4, 6, 9}) {
    for (int width : {0, 6, 10, 13}) {
      // Every multiple of 1/32 .. 1/1024 in [-40, 40]: every tie at 4 and fewer decimals.
      for (int e : {5, 7, 10}) {
        for (long m = -40L << e; m <= 40L << e; m += 7) {
          const double v = std::ldexp(static_cast<double>(m), -e);
          REQUIRE(fixed(v, precision, width) == with_fmt(v, precision, width));
        }
      }
    }
    for (double v : {0.0, -0.0, 1e-320, 5e-324, 1e15, 1e300, -1.7976931348623157e308,
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::quiet_NaN()}) {
      CHECK(fixed(v, precision, 10) == with_fmt(v, precision, 10));
    }
  }
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> seconds(0, 1000);
  std::uniform_int_distribution<int> exponent(-30, 30);
  for (int k = 0; k < 200000; ++k) {
    const double v = std::ldexp(seconds(random), exponent(random)) * (k % 3 == 0 ? -1 : 1);
    const int precision = k % 7;
    REQUIRE(fixed(v, precision, 10) == with_fmt(v, precision, 10));
  }
  // Ties at every precision to 17: odd multiples of 2^-(precision + 1).
  for (int precision = 0; precision <= 17; ++precision) {
    for (long m = -2001; m <= 2001; m += 2) {
      const double v = std::ldexp(static_cast<double>(m), -(precision + 1));
      REQUIRE(fixed(v, precision, 0) == with_fmt(v, precision, 0));
    }
  }
  // Any bit pattern: subnormals, huge values, results of 19 and 20 digits (the exact integer path
  // ends below 10^19), precisions 0 to 20.
  for (int k = 0; k < 200000; ++k) {
    const auto v = std::bit_cast<double>(random());
    const int precision = k % 21;
    REQUIRE(fixed(v, precision, 12) == with_fmt(v, precision, 12));
  }
  for (double v :
       {4503599627370495.5, 4503599627370496.0, 9999999999.99999, 99999999999.999995, 0.99995, 0.999949999}) {
    for (int precision = 0; precision <= 17; ++precision) REQUIRE(fixed(v, precision, 0) == with_fmt(v, precision, 0));
  }
  // Next to the decimal halves, where the fast path's double product cannot tell the side and
  // the exact path decides: a few ulps either way of (m + 1/2) / 10^precision, large and small m.
  for (int precision = 0; precision <= 9; ++precision) {
    const double scale = std::pow(10.0, precision);
    for (double m : {0.0, 1.0, 7.0, 12345.0, 999999.0, 123456789.0, 4503599627.0}) {
      double v = (m + 0.5) / scale;
      for (int step = 0; step < 8; ++step) v = std::nextafter(v, 0.0);
      for (int step = 0; step < 16; ++step, v = std::nextafter(v, 1e300)) {
        REQUIRE(fixed(v, precision, 0) == with_fmt(v, precision, 0));
        REQUIRE(fixed(-v, precision, 0) == with_fmt(-v, precision, 0));
      }
    }
  }
  // Precisions beyond what the buffer is sized for take fmt's path, with the same result.
  CHECK(fixed(1e300, 60, 0) == with_fmt(1e300, 60, 0));
}

TEST_CASE("append_right: integers and text right-aligned") {
  std::string out;
  append_right(out, std::uint64_t{42}, 5);
  append_right(out, std::uint64_t{123456}, 5);
  append_right(out, std::uint64_t{18446744073709551615ULL}, 0);
  append_right(out, "Tmin", 10);
  append_right(out, "too wide", 3);
  CHECK(out ==
        "   42123456"
        "18446744073709551615"
        "      Tmin"
        "too wide");
  CHECK(out.substr(0, 5) == fmt::format("{:>{}}", 42, 5));
}
